package browsertest

import (
	"context"
	"fmt"
	"math"
	"os"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// firstInput runs in every document before the page's scripts: it notes
// when the chapter's text is first on screen (its paragraph's Element
// Timing), the page's first input as the Event Timing API reports it (the
// wait before its handlers ran, and its whole duration to the next
// paint), and when a finger first touched the screen.
const firstInput = `globalThis.softmaxChapterAt = 0; globalThis.softmaxFirstInput = null; globalThis.softmaxTouchedAt = 0;
new PerformanceObserver(l => { for (const e of l.getEntries()) if (e.identifier === "chapter" && !globalThis.softmaxChapterAt) globalThis.softmaxChapterAt = e.renderTime || e.loadTime; }).observe({type: "element", buffered: true});
new PerformanceObserver(l => { for (const e of l.getEntries()) if (!globalThis.softmaxFirstInput) globalThis.softmaxFirstInput = {name: e.name, delay: e.processingStart - e.startTime, duration: e.duration}; }).observe({type: "first-input", buffered: true});
addEventListener("pointerdown", e => { if (!globalThis.softmaxTouchedAt) globalThis.softmaxTouchedAt = e.timeStamp; }, {capture: true});`

// BenchmarkLessonOnAPhone is a student's first visit: a bare link (the
// lesson's first chapter) on a phone, 390×844 CSS pixels with touch, its
// CPU throttled 4× (phone) and its network the first of
// classroomNetworks, through BenchmarkPageReadyNetwork's shaper. Once the
// page is ready a finger taps the lesson's → (#lesson-next), the student's
// first interaction. It reports the medians of: the chapter's text on
// screen, ready, the tap to the first frame of chapter 2 (the page's
// softmax:lesson-shown mark), and the tap's Event Timing (the wait before
// its handlers ran, and its duration to the next paint), each by the
// page's clock. Sites as for BenchmarkStartProfile: BASELINE_ROOT or
// PAGE_READY_SITES compares builds, one visit of each per round.
//
//	go test -run '^$' -bench LessonOnAPhone -benchtime 5x ./tools/browsertest/
//	BASELINE_ROOT=/work/baseline go test -run '^$' -bench LessonOnAPhone -benchtime 5x ./tools/browsertest/
func BenchmarkLessonOnAPhone(b *testing.B) {
	needBrowser(b)
	m := cpuModes[2]
	logMode(b, m)
	n := classroomNetworks[0]
	fmt.Printf("%s: network: %s through the shaper; screen 390×844, touch\n", b.Name(), n.name)
	sites := benchSites()
	urls := serveSites(b, sites)
	latency := time.Duration(n.latencyMS * float64(time.Millisecond))
	shapers := make([]*shaper, len(sites))
	for i, u := range urls {
		shapers[i] = startShaper(b, u, latency, n.mbit*1e6/8)
	}
	type visit struct{ chapter, ready, next, delay, input float64 }
	got := make([][]visit, len(sites))
	rotate(b, len(sites), func(_, i int) {
		profile := visitProfile(b)
		ctx := lessonBrowserWithProfile(b, profile, 3*time.Minute)
		alone(b, ctx)
		screen(b, ctx, 390, 844, true)
		throttleCPU(b, ctx, m.throttle)
		probeReady(b, ctx)
		beforeScripts(b, ctx, firstInput)
		shapers[i].reset()
		if err := chromedp.Do(ctx, chromedp.Navigate(shapers[i].URL)); err != nil {
			b.Fatal(err)
		}
		waitState(b, ctx, 2*time.Minute, "ready")
		r := viewRect(b, ctx, "lesson-next", false)
		pt := &input.TouchPoint{X: r.Left + r.Width/2, Y: r.Top + r.Height/2}
		if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if _, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{pt}}); err != nil {
				return err
			}
			_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}})
			return err
		})); err != nil {
			b.Fatalf("tapping →: %v", err)
		}
		waitChapter(b, ctx, 2)
		var v visit
		if !eventually(10*time.Second, func() bool {
			got, err := eval[map[string]float64](ctx, `(() => {
				const t = globalThis.softmaxTouchedAt, s = performance.getEntriesByName("softmax:lesson-shown").filter(e => e.startTime > t)[0], f = globalThis.softmaxFirstInput;
				return {chapter: globalThis.softmaxChapterAt, ready: globalThis.softmaxReadyAt, next: t && s ? s.startTime - t : 0, delay: f ? f.delay : -1, input: f ? f.duration : 0};
			})()`)
			v = visit{got["chapter"], got["ready"], got["next"], got["delay"], got["input"]}
			return err == nil && v.next > 0 && v.input > 0
		}) {
			b.Fatalf("the tap on → was not timed: %+v", v)
		}
		got[i] = append(got[i], v)
		closeBrowser(b, ctx)
		os.RemoveAll(profile)
	})
	each := func(vs []visit, get func(visit) float64) []float64 {
		out := make([]float64, len(vs))
		for k, v := range vs {
			out[k] = math.Round(get(v))
		}
		return out
	}
	for i := range sites {
		suffix := siteSuffix(i, len(sites))
		med := func(get func(visit) float64) float64 {
			x := make([]float64, len(got[i]))
			for k, v := range got[i] {
				x[k] = math.Round(get(v))
			}
			return upperMedian(x)
		}
		chapter, ready, next := med(func(v visit) float64 { return v.chapter }), med(func(v visit) float64 { return v.ready }), med(func(v visit) float64 { return v.next })
		delay, dur := med(func(v visit) float64 { return v.delay }), med(func(v visit) float64 { return v.input })
		benchPrintf(b, "%s: %d visits (medians, ms by the page's clock): the chapter's text on screen %.0f, ready %.0f; the first tap on → to chapter 2 on screen %.0f, the tap's wait for the main thread %.0f and its duration to the next paint %.0f (Event Timing); tap to chapter 2 in each visit %v",
			sites[i], len(got[i]), chapter, ready, next, delay, dur, each(got[i], func(v visit) float64 { return v.next }))
		b.ReportMetric(chapter, "ms-to-chapter"+suffix)
		b.ReportMetric(ready, "ms-to-ready"+suffix)
		b.ReportMetric(next, "ms-tap-to-next-chapter"+suffix)
		b.ReportMetric(dur, "ms-first-input"+suffix)
	}
}
