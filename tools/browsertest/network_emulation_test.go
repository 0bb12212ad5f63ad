package browsertest

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// BenchmarkPageReadyEmulated is BenchmarkPageReadyNetwork's first visit
// with Chromium's own network emulation in place of the shaping proxy:
// Network.emulateNetworkConditionsByRule, one rule for every request of
// the page's target, at classroomNetworks' latency and throughput, the
// page talking to tools/serve directly. It reports the time from asking
// for the navigation to #status data-state="ready" seen from outside (the
// figure DevTools' own throttling gives a person who reloads with it) and
// by the page's clock, and logs when the page's own requests ended, for
// docs/network.md's comparison of the two ways of measuring the same
// visit.
//
//	go test -run '^$' -bench PageReadyEmulated -benchtime 3x ./tools/browsertest/
func BenchmarkPageReadyEmulated(b *testing.B) {
	sites, urls := benchStart(b)
	for _, n := range classroomNetworks {
		b.Run(n.name, func(b *testing.B) {
			wall := make([][]float64, len(sites))
			clock := make([][]float64, len(sites))
			rotate(b, len(sites), func(round, i int) {
				ctx := newBrowser(b, 3*time.Minute)
				alone(b, ctx)
				probeReady(b, ctx)
				emulate(b, ctx, n.latencyMS, n.mbit)
				b.StartTimer()
				start := time.Now()
				if err := chromedp.Do(ctx, chromedp.Navigate(urls[i])); err != nil {
					b.Fatal(err)
				}
				waitState(b, ctx, 2*time.Minute, "ready")
				wall[i] = append(wall[i], float64(time.Since(start).Milliseconds()))
				b.StopTimer()
				at := readyTimes(b, ctx)
				clock[i] = append(clock[i], math.Round(at["ready"]))
				if round == 0 {
					logTimeline(b, ctx, n.name+", Chromium's emulation", sites[i], at)
				}
				closeBrowser(b, ctx)
			})
			for i := range sites {
				suffix := siteSuffix(i, len(sites))
				w, c := slices.Sorted(slices.Values(wall[i])), slices.Sorted(slices.Values(clock[i]))
				b.Logf("%s, %s, Chromium's emulation: navigation to ready %v ms from outside, %v by the page's clock (sorted)", n.name, sites[i], w, c)
				b.ReportMetric(w[len(w)/2], "ms-navigation-to-ready(median)"+suffix)
				b.ReportMetric(c[len(c)/2], "ms-to-ready(median)"+suffix)
			}
		})
	}
}

// emulate has Chromium throttle every request of the page's target to
// latencyMS and mbit megabits per second each way.
func emulate(tb testing.TB, ctx context.Context, latencyMS, mbit float64) {
	tb.Helper()
	if err := emulateNetwork(ctx, conditions{LatencyMS: latencyMS, DownloadThroughput: mbit * 1e6 / 8, UploadThroughput: mbit * 1e6 / 8}); err != nil {
		tb.Fatalf("emulating %v ms, %v Mbit/s: %v", latencyMS, mbit, err)
	}
}
