package browsertest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A slow phone on a slow link, as Lighthouse's mobile preset has it: the
// CPU 4× slower, 150 ms round trips, 1.6 Mbit/s down and 750 kbit/s up.
const (
	phoneCPU      = 4
	slowLatencyMS = 150
	slowDownBps   = 1.6e6 / 8
	slowUpBps     = 750e3 / 8
)

// BenchmarkClassPhoneFollows is the time from the teacher's key on the
// projector (the keydown's own time) to a slow phone showing the next
// chapter (the moment #lesson's data-chapter changes there), on one
// machine's clock, through tools/serve -class: the projector's look
// (at most 250 ms), its POST, the server's event, the phone's stream and
// its render at 4× on a slow 4G link. Each op is one chapter change, to
// the right then back; the figure is their median (ms/follow) and their
// slowest (max-ms).
func BenchmarkClassPhoneFollows(b *testing.B) {
	needBrowser(b)
	logCPU(b)
	srv := startClass(b)
	open := classBrowser(b)
	proj := open("projector", srv.presenter+"#lang=en&lesson=1", false)
	phone := open("phone", "http://"+classHost+":"+srv.port+"/?class#lang=en", true)
	err := chromedp.Do(phone.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: phoneCPU}); err != nil {
			return err
		}
		return nil
	}))
	if err == nil {
		err = emulateNetwork(phone.ctx, conditions{LatencyMS: slowLatencyMS, DownloadThroughput: slowDownBps, UploadThroughput: slowUpBps})
	}
	if err != nil {
		b.Fatal(err)
	}
	phone.waitClass(b, 60*time.Second, "following chapter 1", `document.getElementById("class")?.dataset.state === "joined" && document.getElementById("lesson")?.dataset.chapter === "1"`)
	// The projector notes each key's time; the phone each chapter's.
	if _, err := eval[bool](proj.ctx, `(globalThis.softmaxKeys = [], addEventListener("keydown", (e) => softmaxKeys.push(performance.timeOrigin + e.timeStamp), true), true)`); err != nil {
		b.Fatal(err)
	}
	if _, err := eval[bool](phone.ctx, `(globalThis.softmaxShown = {}, new MutationObserver(() => { const c = document.getElementById("lesson")?.dataset.chapter; if (c && !(c in softmaxShown)) softmaxShown[c] = []; if (c) softmaxShown[c].push(performance.timeOrigin + performance.now()); }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ["data-chapter"]}), true)`); err != nil {
		b.Fatal(err)
	}
	var ms []float64
	b.ResetTimer()
	for i := range b.N {
		key, want := kb.ArrowRight, "2"
		if i%2 == 1 {
			key, want = kb.ArrowLeft, "1"
		}
		if err := chromedp.Do(proj.ctx, chromedp.KeyEvent(key)); err != nil {
			b.Fatal(err)
		}
		phone.waitClass(b, 30*time.Second, "chapter "+want, `document.getElementById("lesson")?.dataset.chapter === "`+want+`"`)
		d, err := eval[float64](phone.ctx, fmt.Sprintf(`(() => { const s = softmaxShown[%q]; return s[s.length - 1]; })()`, want))
		if err != nil {
			b.Fatal(err)
		}
		k, err := eval[float64](proj.ctx, `softmaxKeys[softmaxKeys.length - 1]`)
		if err != nil {
			b.Fatal(err)
		}
		ms = append(ms, d-k)
	}
	b.StopTimer()
	slices.Sort(ms)
	b.ReportMetric(ms[len(ms)/2], "ms/follow")
	b.ReportMetric(ms[len(ms)-1], "max-ms")
	b.ReportMetric(0, "ns/op")
}
