package browsertest

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
)

// mainThreadRuns are the runs BenchmarkMainThreadWhileTraining trains, one
// per method, each at full pace from the page's link: 60 epochs of
// minibatch SGD (B = 100) and of full-batch gradient descent (60 steps
// over the whole set), Newton's method to its stopping rule, and the
// lecture notes' long full-batch run (1,000 steps from N(0, 1) on raw
// pixels), in which the page's heap is collected several times.
var mainThreadRuns = []struct{ name, link string }{
	{"sgd", "epochs=60"},
	{"gd", "method=gd&batch=10000&epochs=60"},
	{"newton", "method=newton"},
	{"lecture", "method=gd&batch=10000&lr=0.1&l2=0.001&epochs=1000&init=normal&deskew=0"},
}

// BenchmarkMainThreadWhileTraining measures the page's main thread while
// the worker trains each of mainThreadRuns at full pace on the default
// pack: the time its tasks took in all (Chromium's TaskDuration), the
// part spent running script (ScriptDuration), and the longest task and
// the number over 50 ms from the click on Train until the page says done. The page decodes every report, redraws the loss and
// re-renders while the class watches. It reports the long tasks (over
// 50 ms) per run and the longest: how long a task takes is a figure of the
// machine's speed and load, not a property a test can assert (a loaded
// machine stretches any task), so it is measured here and recorded in
// docs/BENCHMARKS.md, "The main thread while training", with the CPU
// model it was measured on. With PAGE_READY_SITES it visits each site in
// turn, round after round, and reports their medians and ratios to the
// first:
//
//	go test -run '^$' -bench MainThreadWhileTraining -benchtime 5x ./tools/browsertest/
//	go test -run '^$' -bench 'MainThreadWhileTraining/gd$' -benchtime 5x ./tools/browsertest/
//	PAGE_READY_SITES=/tmp/old,$PWD go test -run '^$' -bench MainThreadWhileTraining -benchtime 6x ./tools/browsertest/
//
// BENCH_CPU=one-core runs it with Chromium held to one core (cpuModes),
// and BASELINE_ROOT compares with another build as PAGE_READY_SITES does:
//
//	BENCH_CPU=one-core BASELINE_ROOT=<today's build> go test -run '^$' -bench MainThreadWhileTraining -benchtime 5x ./tools/browsertest/
func BenchmarkMainThreadWhileTraining(b *testing.B) {
	sites, urls := benchStart(b)
	m := benchMode(b)
	for _, run := range mainThreadRuns {
		b.Run(run.name, func(b *testing.B) {
			task := make([][]float64, len(sites))
			script := make([][]float64, len(sites))
			longest := make([][]float64, len(sites))
			long := make([]int, len(sites))
			rotate(b, len(urls), func(_, i int) {
				profile := visitProfile(b)
				ctx := modeBrowser(b, m, profile, 4*time.Minute)
				alone(b, ctx)
				if err := chromedp.Do(ctx, chromedp.Navigate(urls[i]+"#lang=en&pace=full&"+run.link)); err != nil {
					b.Fatal(err)
				}
				waitState(b, ctx, 60*time.Second, "ready")
				if _, err := eval[bool](ctx, duringRun); err != nil {
					b.Fatal(err)
				}
				measureMainThread(b, ctx)
				before := mainThread(b, ctx)
				b.StartTimer()
				trainRun(b, ctx, 5*time.Minute)
				b.StopTimer()
				after := mainThread(b, ctx)
				tasks, err := eval[[]float64](ctx, `longTasks.filter(t => t.start >= runStart && (!runEnd || t.start < runEnd)).map(t => t.duration)`)
				if err != nil {
					b.Fatal(err)
				}
				task[i] = append(task[i], 1000*(after["TaskDuration"]-before["TaskDuration"]))
				script[i] = append(script[i], 1000*(after["ScriptDuration"]-before["ScriptDuration"]))
				longest[i] = append(longest[i], slices.Max(append(tasks, 0)))
				long[i] += len(tasks)
				closeBrowser(b, ctx)
				os.RemoveAll(profile)
			})
			for i, site := range sites {
				suffix := siteSuffix(i, len(sites))
				b.Logf("%s, %s: main thread %.0f ms of tasks (%.2f× the first site's), %.0f ms of script; tasks over 50 ms: %d in %d runs, longest per run %v",
					site, run.name, upperMedian(task[i]), upperMedian(task[i])/upperMedian(task[0]), upperMedian(script[i]), long[i], len(task[i]), longest[i])
				b.ReportMetric(upperMedian(task[i]), "ms-main-thread"+suffix)
				b.ReportMetric(upperMedian(script[i]), "ms-script"+suffix)
				b.ReportMetric(float64(long[i])/float64(len(task[i])), "long-tasks/run"+suffix)
				b.ReportMetric(slices.Max(longest[i]), "ms-longest-task"+suffix)
			}
		})
	}
}

// TestPageCollectsAtRest: the page collects its heap when nothing moves
// (wasm/ui/collect.go), once ready is on screen and once a run has come
// to rest, each a "softmax:collect" measure: a run then starts with the
// whole of the heap's headroom, and a cycle lands in none of its frames.
func TestPageCollectsAtRest(t *testing.T) {
	needBrowser(t)
	// 30 epochs at full pace allocate more than the growth a collection
	// at rest waits for.
	ctx := openReady(t, startServer(t).URL+"#lang=en&pace=full&epochs=30")
	collections := func() int {
		n, err := eval[int](ctx, `performance.getEntriesByName("softmax:collect").length`)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if !eventually(5*time.Second, func() bool { return collections() == 1 }) {
		t.Fatalf("the page collected %d times once ready was on screen, want once", collections())
	}
	trainRun(t, ctx, time.Minute)
	if !eventually(10*time.Second, func() bool { return collections() == 2 }) {
		t.Fatalf("the page collected %d times once a run rested, want twice in all", collections())
	}
	ms, _ := eval[[]float64](ctx, `performance.getEntriesByName("softmax:collect").map(e => e.duration)`)
	t.Logf("the collections took %v ms", ms)
}

// duringRun, evaluated in a page that is ready, collects its tasks of
// 50 ms or more (longTasks, with their start) and notes when the next run
// starts (runStart: the next click on Train) and ends (runEnd: #status
// first says done), so that only the tasks while it trains are counted,
// not the page's start-up or what it does once the run rests.
const duringRun = `window.longTasks = [];
new PerformanceObserver(l => l.getEntries().forEach(e => longTasks.push({start: e.startTime, duration: e.duration}))).observe({type: "longtask"});
window.runStart = Infinity; window.runEnd = 0;
document.getElementById("train").addEventListener("click", () => { runStart = performance.now(); }, {capture: true, once: true});
new MutationObserver((_, obs) => {
  if (runStart !== Infinity && document.getElementById("status").getAttribute("data-state") === "done") { runEnd = performance.now(); obs.disconnect(); }
}).observe(document.getElementById("status"), {attributes: true, attributeFilter: ["data-state"]});
true`

// measureMainThread starts Chromium's run-time metrics of the page.
func measureMainThread(tb testing.TB, ctx context.Context) {
	tb.Helper()
	if err := send(ctx, performance.Enable, performance.EnableParams{}); err != nil {
		tb.Fatal(err)
	}
}

// mainThread returns Chromium's run-time metrics of the page (durations
// in seconds), once measureMainThread has started them.
func mainThread(tb testing.TB, ctx context.Context) map[string]float64 {
	tb.Helper()
	m := map[string]float64{}
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		r, err := cdp.Call(ctx, tg, performance.GetMetrics, cdp.Empty{})
		if err != nil {
			return err
		}
		for _, x := range r.Metrics {
			m[x.Name] = x.Value
		}
		return nil
	}))
	if err != nil {
		tb.Fatal(err)
	}
	if _, ok := m["TaskDuration"]; !ok {
		tb.Fatalf("Chromium reports no TaskDuration: %v", m)
	}
	return m
}
