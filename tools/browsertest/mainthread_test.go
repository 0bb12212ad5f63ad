package browsertest

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
)

// BenchmarkMainThreadWhileTraining measures the page's main thread while
// the worker trains 60 epochs of the default pack at full pace: the time
// its tasks took in all (Chromium's TaskDuration), the part spent running
// script (ScriptDuration), the longest task and the number over 50 ms. The
// page decodes every report, redraws the loss and re-renders while the
// class watches. It reports the long tasks (over 50 ms) per run and the
// longest: how long a task takes is a figure of the machine's speed and
// load, not a property a test can assert (a loaded machine stretches any
// task), so it is measured here and recorded in docs/BENCHMARKS.md,
// "Main thread". With PAGE_READY_SITES it visits each site in turn,
// round after round, and reports their medians and ratios to the first:
//
//	PAGE_READY_SITES=/tmp/old,$PWD go test -run '^$' -bench MainThreadWhileTraining -benchtime 6x ./tools/browsertest/
func BenchmarkMainThreadWhileTraining(b *testing.B) {
	needBrowser(b)
	sites := []string{root}
	if s := os.Getenv("PAGE_READY_SITES"); s != "" {
		sites = strings.Split(s, ",")
	}
	urls := make([]string, len(sites))
	for i, dir := range sites {
		urls[i] = startServerAt(b, dir).URL
	}
	task := make([][]float64, len(sites))
	script := make([][]float64, len(sites))
	longest := make([][]float64, len(sites))
	long := make([]int, len(sites))
	for round := 0; b.Loop(); round++ {
		for k := range urls {
			i := (k + round) % len(urls)
			b.StopTimer()
			ctx := openReady(b, urls[i]+"#lang=en")
			if _, err := eval[bool](ctx, `window.longTasks = []; new PerformanceObserver(l => l.getEntries().forEach(e => longTasks.push(e.duration))).observe({type: "longtask"}); true`); err != nil {
				b.Fatal(err)
			}
			choose(b, ctx, "pace", "full")
			setField(b, ctx, "epochs", "60")
			measureMainThread(b, ctx)
			before := mainThread(b, ctx)
			b.StartTimer()
			trainDefault(b, ctx)
			b.StopTimer()
			after := mainThread(b, ctx)
			tasks, err := eval[[]float64](ctx, `longTasks`)
			if err != nil {
				b.Fatal(err)
			}
			task[i] = append(task[i], 1000*(after["TaskDuration"]-before["TaskDuration"]))
			script[i] = append(script[i], 1000*(after["ScriptDuration"]-before["ScriptDuration"]))
			longest[i] = append(longest[i], slices.Max(append(tasks, 0)))
			long[i] += len(tasks)
			b.StartTimer()
		}
	}
	median := func(v []float64) float64 {
		s := slices.Clone(v)
		slices.Sort(s)
		return s[len(s)/2]
	}
	for i, site := range sites {
		suffix := ""
		if len(sites) > 1 {
			suffix = fmt.Sprintf("-site%d", i+1)
		}
		b.Logf("%s: main thread %.0f ms of tasks (%.2f× the first site's), %.0f ms of script, while training 60 epochs; tasks over 50 ms: %d in %d runs, longest per run %v",
			site, median(task[i]), median(task[i])/median(task[0]), median(script[i]), long[i], len(task[i]), longest[i])
		b.ReportMetric(median(task[i]), "ms-main-thread"+suffix)
		b.ReportMetric(median(script[i]), "ms-script"+suffix)
		b.ReportMetric(float64(long[i])/float64(len(task[i])), "long-tasks/run"+suffix)
		b.ReportMetric(slices.Max(longest[i]), "ms-longest-task"+suffix)
	}
}

// measureMainThread starts Chromium's run-time metrics of the page.
func measureMainThread(tb testing.TB, ctx context.Context) {
	tb.Helper()
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, performance.Enable, performance.EnableParams{})
		return err
	}))
	if err != nil {
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
