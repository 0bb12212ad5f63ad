package browsertest

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"softmaxdemo/wasm/session"
	"softmaxdemo/wasm/ui/lesson"

	"github.com/chromedp/chromedp"
)

// axeSource is axe-core, which make test-browser installs with npm into
// a11y (the page never loads it); without it the test fails under CI and
// is skipped elsewhere.
func axeSource(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("a11y", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		msg := "axe-core is not installed: cd tools/browsertest/a11y && npm ci (make test-browser does)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return string(src)
}

// axe runs axe-core over the page as it stands, and fails the test with
// its violations, if any, under the screen's name; it logs the screen,
// so that the test's output names every screen it checked. It also fails
// for a canvas that is shown and has no text alternative (axe cannot
// tell a picture from a blank): each is an image (role img) named by what
// it shows, or hidden from assistive technology where the text beside it
// says all it shows.
func axe(t *testing.T, ctx context.Context, src, screen string) {
	t.Helper()
	if here, _ := eval[bool](ctx, `typeof axe !== "undefined"`); !here {
		if _, err := eval[bool](ctx, src+";true"); err != nil {
			t.Fatalf("%s: injecting axe-core: %v", screen, err)
		}
	}
	v, err := evalAsync[[]string](ctx, `axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v =>
		v.id + ": " + v.help + " (" + v.nodes.map(n => n.target.join(" ")).slice(0, 4).join(", ") + (v.nodes.length > 4 ? ", …" : "") + ")"))`)
	if err != nil {
		t.Fatalf("%s: %v", screen, err)
	}
	unnamed, err := eval[[]string](ctx, `[...document.querySelectorAll("canvas")].filter(c => c.getClientRects().length > 0 &&
		!c.closest('[aria-hidden="true"]') && !(c.getAttribute("role") === "img" && (c.getAttribute("aria-label") || "").trim() !== "")).map(c => "#" + c.id)`)
	if err != nil {
		t.Fatalf("%s: %v", screen, err)
	}
	if len(unnamed) > 0 {
		v = append(v, "canvas without a text alternative: "+strings.Join(unnamed, ", "))
	}
	if len(v) > 0 {
		t.Errorf("%s: %d violations: %s", screen, len(v), strings.Join(v, "; "))
		return
	}
	t.Logf("%s: no violation", screen)
}

// TestEveryScreenPassesAxe: axe-core finds no violation on any screen a
// class sees: each chapter of the lesson in both languages, on a
// projector (1280×720) and on a phone (390×844), after a run, and the QR
// code's overlay; the whole instrument in both languages before and after
// a run, with the inspector open, a cell of the confusion matrix opened,
// the plane trained, the Hessian computed, and in present mode; the
// question a link asks before it replaces a run; and an error shown (a
// download that stalled, with Retry).
func TestEveryScreenPassesAxe(t *testing.T) {
	needBrowser(t)
	src := axeSource(t)
	srv := startServer(t)
	for _, lang := range []string{"zh", "en"} {
		for _, s := range []struct {
			name   string
			w, h   int64
			mobile bool
		}{{"1280×720", 1280, 720, false}, {"phone 390×844", 390, 844, true}} {
			t.Run("lesson/"+lang+"/"+s.name, func(t *testing.T) {
				ctx := trainedLesson(t, srv, "&epochs=1&pace=full&lang="+lang, 4*time.Minute, s.w, s.h, s.mobile)
				for n := 1; n <= len(lesson.Chapters); n++ {
					gotoChapter(t, ctx, n)
					axe(t, ctx, src, "chapter "+lesson.Chapters[n-1].ID)
				}
				click(t, ctx, "lesson-qr-show")
				waitVisible(t, ctx, "#lesson-qr")
				axe(t, ctx, src, "the QR code")
				closeBrowser(t, ctx)
			})
		}
		t.Run("instrument/"+lang, func(t *testing.T) {
			ctx := openReady(t, srv.URL+"#lang="+lang+"&pace=full&epochs=1")
			axe(t, ctx, src, "before a run")
			trainRun(t, ctx, time.Minute)
			axe(t, ctx, src, "after a run")
			inkReadsOnEveryShade(t, ctx)
			click(t, ctx, "inspect-train")
			waitAttr(t, ctx, 20*time.Second, "#inspect", "data-state", is("filled"))
			axe(t, ctx, src, "the inspector open")
			if _, err := eval[bool](ctx, `[...document.querySelectorAll("#confusion td.pick")].find(td => td.dataset.true !== td.dataset.predicted).click(), true`); err != nil {
				t.Fatal(err)
			}
			waitAttr(t, ctx, 20*time.Second, "#confusion-examples", "data-count", func(v string) bool { return v != "" && v != "0" })
			axe(t, ctx, src, "a cell's examples open")
			seePlane(t, ctx)
			waitScene(t, ctx, 0)
			click(t, ctx, "plane-train")
			waitPlane(t, ctx, time.Minute, "done")
			axe(t, ctx, src, "the plane trained")
			click(t, ctx, "hessian-show")
			if !eventually(60*time.Second, func() bool {
				n, _ := eval[int](ctx, `document.querySelectorAll("#hessian-eigen tbody tr").length`)
				return n == 3
			}) {
				t.Fatal("the Hessian was not computed")
			}
			axe(t, ctx, src, "the Hessian computed")
			click(t, ctx, "present")
			axe(t, ctx, src, "present mode")
			click(t, ctx, "present")
			setField(t, ctx, "epochs", "200")
			choose(t, ctx, "pace", "10")
			click(t, ctx, "train")
			waitState(t, ctx, 10*time.Second, "training")
			followLink(t, ctx, "seed=9&lang="+lang)
			waitAttr(t, ctx, 10*time.Second, "#link-ask", "role", is("alertdialog"))
			axe(t, ctx, src, "a link's question")
		})
	}
	t.Run("an error shown", func(t *testing.T) {
		hold := startProxy(t, srv.URL, func(w http.ResponseWriter, r *http.Request, site http.Handler) {
			if r.URL.Path == "/web/data/default.mnpk" && strings.HasSuffix(r.Referer(), "/web/worker.js") {
				<-r.Context().Done() // no header, no byte: the download stalls
				return
			}
			site.ServeHTTP(w, r)
		})
		for _, lang := range []string{"zh", "en"} {
			ctx := newBrowser(t, 2*time.Minute)
			if err := chromedp.Do(ctx, chromedp.Navigate(strings.TrimSuffix(hold.URL, "/")+"/#lang="+lang)); err != nil {
				t.Fatal(err)
			}
			waitState(t, ctx, 2*session.StallAfter, "error")
			waitVisible(t, ctx, "#retry")
			axe(t, ctx, src, "a stalled download, "+lang)
			closeBrowser(t, ctx)
		}
	})
}

// inkReadsOnEveryShade: the confusion matrix's counts (web/plot.js's
// inkOn) contrast by at least 4.5:1 with every shade a cell can take, the
// diagonal's green and the rest's red at every alpha from 0.1 to 1, over
// the panel's white: the shades a run happens to give are all axe sees.
func inkReadsOnEveryShade(t *testing.T, ctx context.Context) {
	t.Helper()
	for _, rgb := range [][3]float64{{27, 120, 55}, {178, 24, 43}} {
		for a := 10; a <= 100; a++ {
			alpha := float64(a) / 100
			ink, err := eval[string](ctx, fmt.Sprintf(`inkOn([%v, %v, %v], %v)`, rgb[0], rgb[1], rgb[2], alpha))
			if err != nil {
				t.Fatal(err)
			}
			var over [3]float64
			for i, c := range rgb {
				over[i] = math.Round(alpha*c + (1-alpha)*255) // as the browser composites, to 8 bits
			}
			fg := map[string][3]float64{"#000": {0, 0, 0}, "#fff": {255, 255, 255}}[ink]
			if c := contrast(fg, over); c < 4.5 {
				t.Errorf("ink %s on rgba(%v, %.2f) over white contrasts %.2f:1, below 4.5:1", ink, rgb, alpha, c)
			}
		}
	}
}

// contrast is WCAG 2's contrast ratio of two sRGB colours.
func contrast(a, b [3]float64) float64 {
	lum := func(c [3]float64) float64 {
		var l [3]float64
		for i, v := range c {
			v /= 255
			if v <= 0.04045 {
				l[i] = v / 12.92
			} else {
				l[i] = math.Pow((v+0.055)/1.055, 2.4)
			}
		}
		return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
	}
	la, lb := lum(a), lum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}
