package browsertest

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"

	"softmaxdemo/wasm/ui/planeview"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// openPlane opens the page on a 1280×720 screen, scrolls the plane into
// view and waits until its first scene is computed.
func openPlane(tb testing.TB, url string) context.Context {
	tb.Helper()
	ctx := newBrowser(tb, 4*time.Minute)
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetDeviceMetricsOverride,
			emulation.SetDeviceMetricsOverrideParams{Width: 1280, Height: 720, DeviceScaleFactor: 1})
		return err
	}), chromedp.Navigate(url))
	if err != nil {
		tb.Fatal(err)
	}
	waitState(tb, ctx, 60*time.Second, "ready")
	if _, err := eval[bool](ctx, `document.getElementById("plane").scrollIntoView({block: "start"}), true`); err != nil {
		tb.Fatal(err)
	}
	return ctx
}

// mainThreadTasks traces the page while do runs and returns the
// durations, in ms, of the tasks of the renderer's main thread: the
// toplevel category's task events, which cost the page little to record
// (the devtools.timeline categories would slow every call into
// WebAssembly and lengthen the tasks they measure).
func mainThreadTasks(tb testing.TB, ctx context.Context, do func()) []float64 {
	tb.Helper()
	raw := traceRaw(tb, ctx, []string{"toplevel", "__metadata"}, time.Minute, do)
	type event struct {
		Name string  `json:"name"`
		Ph   string  `json:"ph"`
		Pid  int     `json:"pid"`
		Tid  int     `json:"tid"`
		Dur  float64 `json:"dur"`
		Args struct {
			Name string `json:"name"`
		} `json:"args"`
	}
	var evs []event
	main := map[[2]int]bool{}
	for _, r := range raw {
		var e event
		if json.Unmarshal(r, &e) != nil {
			continue
		}
		// The renderer's main thread: named CrRendererMain, or, where
		// Chromium's trace does not name it, the renderer process's first
		// thread (its tid is the pid).
		switch {
		case e.Ph == "M" && e.Name == "thread_name" && e.Args.Name == "CrRendererMain":
			main[[2]int{e.Pid, e.Tid}] = true
		case e.Ph == "M" && e.Name == "process_name" && e.Args.Name == "Renderer":
			main[[2]int{e.Pid, e.Pid}] = true
		}
		evs = append(evs, e)
	}
	var out []float64
	for _, e := range evs {
		if (e.Name == "RunTask" || e.Name == "ThreadControllerImpl::RunTask") && e.Ph == "X" && main[[2]int{e.Pid, e.Tid}] {
			out = append(out, e.Dur/1000)
		}
	}
	if len(out) == 0 {
		tb.Fatalf("the trace has no main-thread tasks (%d events)", len(raw))
	}
	return out
}

// pointsRect scrolls the plane into view and returns the box of
// #plane-points, the canvas that takes the clicks.
func pointsRect(tb testing.TB, ctx context.Context) rect {
	tb.Helper()
	return viewRect(tb, ctx, "plane-points", false)
}

func percentile(v []float64, p float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// BenchmarkPlaneFrames measures the page's frames while the plane trains
// with its regions redrawn every frame, on a 1280×720 screen: the ring
// with K = 5 classes and a bias (300 points, the most cells to colour),
// at the page's paces of 50 and 200 steps a second, and at 200 while the
// digits train beside it at the same pace. It reports the time
// between animation frames (median, 95th percentile, longest) and the
// longest task of the page's main thread, from Chromium's trace, over
// each run: times are figures of the machine, never asserted
// (docs/BENCHMARKS.md, "The plane").
//
//	go test -run '^$' -bench PlaneFrames -benchtime 5x ./tools/browsertest/
func BenchmarkPlaneFrames(b *testing.B) {
	needBrowser(b)
	logCPU(b)
	url := startServer(b).URL + "#lang=en"
	for _, c := range []struct {
		pace   string
		digits bool // the digits train at the same time, at the page's pace (one for both)
	}{{"50", false}, {"200", false}, {"200", true}} {
		name := "pace=" + c.pace
		if c.digits {
			name += "/digits-training"
		}
		b.Run(name, func(b *testing.B) {
			pace := c.pace
			var frames, longest []float64
			over, long := 0, 0
			for b.Loop() {
				b.StopTimer()
				ctx := openPlane(b, url)
				alone(b, ctx)
				if c.digits {
					// Sixty epochs of SGD: the digits' worker trains for the
					// whole of the plane's run.
					setField(b, ctx, "epochs", "60")
					click(b, ctx, "train")
					waitState(b, ctx, 10*time.Second, "training")
				}
				choose(b, ctx, "pace", pace)
				v := sceneVersion(b, ctx)
				selectValue(b, ctx, "plane-data", "ring")
				selectValue(b, ctx, "plane-k", "5")
				click(b, ctx, "plane-bias")
				waitScene(b, ctx, v)
				if _, err := eval[bool](ctx, `window.planeFrames = []; window.planeStop = false;
					(function f(t) { planeFrames.push(t); if (!planeStop) requestAnimationFrame(f); })(performance.now()); true`); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				tasks := mainThreadTasks(b, ctx, func() {
					click(b, ctx, "plane-train")
					waitPlane(b, ctx, 2*time.Minute, "done")
				})
				b.StopTimer()
				ts, err := eval[[]float64](ctx, `planeStop = true, planeFrames`)
				if err != nil {
					b.Fatal(err)
				}
				for i := 2; i < len(ts); i++ { // the first interval began before Train
					frames = append(frames, ts[i]-ts[i-1])
				}
				longest = append(longest, slices.Max(tasks))
				for _, d := range tasks {
					if d > 16 {
						over++
					}
					if d >= 50 {
						long++
					}
				}
				closeBrowser(b, ctx)
				b.StartTimer()
			}
			b.Logf("%s: %d frames, between frames median %.1f ms, 95th percentile %.1f ms, longest %.1f ms; longest main-thread task per run %v ms; tasks over 16 ms: %d, of 50 ms or more: %d, in %d runs",
				name, len(frames), median(frames), percentile(frames, 0.95), slices.Max(frames), longest, over, long, b.N)
			b.ReportMetric(median(frames), "ms-frame")
			b.ReportMetric(percentile(frames, 0.95), "ms-frame-p95")
			b.ReportMetric(slices.Max(frames), "ms-frame-max")
			b.ReportMetric(median(longest), "ms-longest-task")
			b.ReportMetric(float64(over)/float64(b.N), "tasks-over-16ms/run")
			b.ReportMetric(float64(long)/float64(b.N), "tasks-50ms+/run")
		})
	}
}

// BenchmarkPlaneScene measures, in the page, the time from a click that
// adds a point to the new scene drawn: the plane's worker computes the
// minimum, the curvature, the three paths of 200 steps and the 64×64
// surface off the page's main thread, and the page draws it
// (#plane-surface's data-build-ms, by the page's clock, from the command
// sent to the scene drawn); on blobs (K = 2, the exact surface) and on
// overlap with K = 3 and a bias (a slice). It compares with core/plane's
// BenchmarkScene, the same work natively.
//
//	go test -run '^$' -bench PlaneScene -benchtime 3x ./tools/browsertest/
func BenchmarkPlaneScene(b *testing.B) {
	needBrowser(b)
	logCPU(b)
	url := startServer(b).URL + "#lang=en"
	for _, c := range []struct {
		name, data, k string
		bias          bool
	}{{"blobs/K=2/exact", "blobs", "2", false}, {"overlap/K=3/slice", "overlap", "3", true}} {
		b.Run(c.name, func(b *testing.B) {
			var ms []float64
			for b.Loop() {
				b.StopTimer()
				ctx := openPlane(b, url)
				alone(b, ctx)
				v := waitScene(b, ctx, 0)
				selectValue(b, ctx, "plane-data", c.data)
				selectValue(b, ctx, "plane-k", c.k)
				if c.bias {
					click(b, ctx, "plane-bias")
					click(b, ctx, "plane-pin")
				}
				v = waitScene(b, ctx, v)
				r := pointsRect(b, ctx)
				for i := range 6 { // add and remove a point, three times
					at := planeview.Frame{W: r.Width, H: r.Height}.ToCanvas([2]float64{0.5, 3.7})
					b.StartTimer()
					if err := chromedp.Do(ctx, chromedp.MouseClickXY(r.Left+at.X, r.Top+at.Y)); err != nil {
						b.Fatal(err)
					}
					v = waitScene(b, ctx, v)
					b.StopTimer()
					d, _ := strconv.ParseFloat(attr(b, ctx, "#plane-surface", "data-build-ms"), 64)
					if i > 0 { // the first scene after a load pays for the worker's warming up
						ms = append(ms, d)
					}
				}
				closeBrowser(b, ctx)
				b.StartTimer()
			}
			b.Logf("%s: a click to its scene drawn: median %.0f ms; all %v ms", c.name, median(ms), ms)
			b.ReportMetric(median(ms), "ms-scene")
		})
	}
}
