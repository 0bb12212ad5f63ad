package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// requestLog collects tools/serve's request lines: "15:04:05 GET /path 200 1234B br 3ms".
type requestLog struct {
	mu    sync.Mutex
	lines []string
	part  []byte
}

func (l *requestLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.part = append(l.part, p...)
	for {
		i := bytes.IndexByte(l.part, '\n')
		if i < 0 {
			return len(p), nil
		}
		l.lines = append(l.lines, string(l.part[:i]))
		l.part = l.part[i+1:]
	}
}

// take returns the lines logged since the last take.
func (l *requestLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.lines
	l.lines = nil
	return out
}

// wireBytes sums the response bytes per path.
func wireBytes(lines []string) map[string]int64 {
	out := map[string]int64{}
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) < 5 || !strings.HasSuffix(f[4], "B") {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSuffix(f[4], "B"), 10, 64)
		if err != nil {
			continue
		}
		path, _, _ := strings.Cut(f[2], "?")
		out[path] += n
	}
	return out
}

// readyProbe runs in every document before the page's own scripts. It
// notes, in the page's clock (milliseconds since the navigation started,
// the origin web performance metrics use), when #status first says
// "ready": a MutationObserver sees it at the end of the task that changed
// it, the moment the browser can paint it.
const readyProbe = `globalThis.softmaxReadyAt = 0;
new MutationObserver((_, obs) => {
  const s = document.getElementById("status");
  if (s && s.getAttribute("data-state") === "ready") {
    globalThis.softmaxReadyAt = performance.now();
    obs.disconnect();
  }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"] });`

// probeReady installs readyProbe in every document the tab opens.
func probeReady(tb testing.TB, ctx context.Context) {
	tb.Helper()
	beforeScripts(tb, ctx, readyProbe)
}

// readyTimes returns, in the page's clock, when it was ready ("ready")
// and its performance marks.
func readyTimes(tb testing.TB, ctx context.Context) map[string]float64 {
	tb.Helper()
	at, err := eval[map[string]float64](ctx, `({ready: globalThis.softmaxReadyAt,
		...Object.fromEntries(performance.getEntriesByType("mark").map(m => [m.name, m.startTime]))})`)
	if err != nil {
		tb.Fatal(err)
	}
	if at["ready"] <= 0 {
		tb.Fatal("the page says ready, but the probe did not see it")
	}
	return at
}

// BenchmarkPageReadyInterleaved compares the first visits of two or more
// builds of the site, one visit of each per round in a rotating order, so
// that the machine's noise falls on all of them alike. PAGE_READY_SITES names their roots,
// each built with make site (a git worktree of another commit, say):
//
//	PAGE_READY_SITES=/tmp/old,$PWD go test -run '^$' -bench PageReadyInterleaved -benchtime 10x ./tools/browsertest/
//
// It reports each site's median (by the page's clock) and its ratio to the
// first site's.
func BenchmarkPageReadyInterleaved(b *testing.B) {
	needBrowser(b)
	sites := strings.Split(os.Getenv("PAGE_READY_SITES"), ",")
	if len(sites) < 2 {
		b.Skip("set PAGE_READY_SITES to two or more built site roots, comma-separated")
	}
	urls := make([]string, len(sites))
	for i, dir := range sites {
		urls[i] = startServerAt(b, dir).URL
	}
	ready := make([][]float64, len(sites))
	for round := 0; b.Loop(); round++ {
		for k := range urls {
			i := (k + round) % len(urls) // the order rotates from round to round
			ctx := newBrowser(b, 2*time.Minute)
			probeReady(b, ctx)
			if err := chromedp.Do(ctx, chromedp.Navigate(urls[i])); err != nil {
				b.Fatal(err)
			}
			waitState(b, ctx, 60*time.Second, "ready")
			ready[i] = append(ready[i], math.Round(readyTimes(b, ctx)["ready"]))
		}
	}
	base := 0.0
	for i, r := range ready {
		slices.Sort(r)
		m := r[len(r)/2]
		if i == 0 {
			base = m
		}
		b.Logf("%s: ready after a median of %.0f ms (%.2f× the first site's); sorted %v", sites[i], m, m/base, r)
		b.ReportMetric(m, fmt.Sprintf("ms-to-ready-site%d(median)", i+1))
	}
}

// BenchmarkPageReady opens the page as a first-time visitor would (a fresh
// browser profile: empty cache, no service worker) and measures the time
// from navigation to #status data-state="ready", that is, to a page that
// can train, and the bytes the server sent for that visit. Then it opens
// the page again in the same browser, as a returning visitor, once the
// service worker has cached the site, and times that too.
//
// The figure is the page's own clock (see readyProbe). The time the test
// sees from outside (ms-wall) adds the DevTools round trips and the 50 ms
// polling of waitState.
//
//	go test -run '^$' -bench PageReady -benchtime 5x ./tools/browsertest/
func BenchmarkPageReady(b *testing.B) {
	needBrowser(b)
	log := &requestLog{}
	srv := startServerWith(b, root, log)
	var ready, wall, again, mounted, loaded []float64
	var wire map[string]int64
	for b.Loop() {
		b.StopTimer()
		ctx := newBrowser(b, 2*time.Minute)
		probeReady(b, ctx)
		log.take()
		b.StartTimer()
		start := time.Now()
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
			b.Fatal(err)
		}
		waitState(b, ctx, 60*time.Second, "ready")
		wall = append(wall, float64(time.Since(start).Milliseconds()))
		b.StopTimer()
		at := readyTimes(b, ctx)
		ready = append(ready, math.Round(at["ready"]))
		mounted = append(mounted, math.Round(at["softmax:mounted"]))
		loaded = append(loaded, math.Round(at["softmax:loaded"]))
		// The service worker caches the site once the page is ready; the
		// bytes it fetches count as part of the first visit.
		if !eventually(30*time.Second, func() bool {
			why, _ := eval[string](ctx, `globalThis.softmaxPrecached || ""`)
			return why != ""
		}) {
			b.Fatal("the service worker did not cache the site")
		}
		wire = wireBytes(log.take())
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
			b.Fatal(err)
		}
		waitState(b, ctx, 60*time.Second, "ready")
		ms, err := eval[float64](ctx, `globalThis.softmaxReadyAt`)
		if err != nil || ms <= 0 {
			b.Fatalf("the second visit's ready time: %v, %v", ms, err)
		}
		again = append(again, math.Round(ms))
		if lines := log.take(); len(lines) > 0 && len(again) == 1 {
			b.Logf("the second visit's requests to the server:\n  %s", strings.Join(lines, "\n  "))
		}
		b.StartTimer()
	}
	median := func(v []float64) float64 {
		slices.Sort(v)
		return v[len(v)/2]
	}
	b.ReportMetric(median(ready), "ms-to-ready(median)")
	b.ReportMetric(median(wall), "ms-wall(median)")
	b.ReportMetric(median(again), "ms-to-ready-again(median)")
	slices.Sort(mounted)
	slices.Sort(loaded)
	b.Logf("first visit, ms since navigation, sorted: ready %v; seen from outside %v; the page's Go started %v; the data loaded in the worker %v (0: after the page adopted it)", ready, wall, mounted, loaded)
	b.Logf("second visit (from the service worker's cache): ready %v", again)
	var total int64
	paths := make([]string, 0, len(wire))
	for p, n := range wire {
		total += n
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var sb strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&sb, "\n  %-28s %9d B", p, wire[p])
	}
	b.Logf("bytes on the wire for one first visit, %d in all:%s", total, sb.String())
	b.ReportMetric(float64(total), "bytes-first-visit")
	b.ReportMetric(float64(wire["/web/app.wasm"]), "bytes-app.wasm")
	b.ReportMetric(float64(wire["/web/data/default.mnpk"]), "bytes-data")
}
