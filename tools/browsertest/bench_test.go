package browsertest

import (
	"bytes"
	"fmt"
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

// BenchmarkPageReady opens the page as a first-time visitor would (a fresh
// browser profile: empty cache, no service worker) and measures the time
// from navigation to #status data-state="ready", that is, to a page that
// can train, and the bytes the server sent for that visit.
//
//	go test -run '^$' -bench PageReady -benchtime 5x ./tools/browsertest/
func BenchmarkPageReady(b *testing.B) {
	needBrowser(b)
	log := &requestLog{}
	srv := startServerWith(b, root, log)
	var ready, mounted, loaded []float64
	var wire map[string]int64
	for b.Loop() {
		b.StopTimer()
		ctx := newBrowser(b, 2*time.Minute)
		log.take()
		b.StartTimer()
		start := time.Now()
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
			b.Fatal(err)
		}
		waitState(b, ctx, 60*time.Second, "ready")
		ready = append(ready, float64(time.Since(start).Milliseconds()))
		b.StopTimer()
		marks, err := eval[map[string]float64](ctx, `Object.fromEntries(performance.getEntriesByType("mark").map(m => [m.name, m.startTime]))`)
		if err != nil {
			b.Fatal(err)
		}
		mounted = append(mounted, marks["softmax:mounted"])
		loaded = append(loaded, marks["softmax:loaded"])
		time.Sleep(time.Second) // let the service worker finish its install fetches
		wire = wireBytes(log.take())
		b.StartTimer()
	}
	slices.Sort(ready)
	slices.Sort(mounted)
	slices.Sort(loaded)
	b.ReportMetric(ready[len(ready)/2], "ms-to-ready(median)")
	b.Logf("in page time (ms since navigation), sorted: page started %v; data loaded in the worker %v (0: after the page adopted it)", mounted, loaded)
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
	b.Logf("ready after %v ms (sorted); bytes on the wire for one first visit, %d in all:%s", ready, total, sb.String())
	b.ReportMetric(float64(total), "bytes-first-visit")
	b.ReportMetric(float64(wire["/web/app.wasm"]), "bytes-app.wasm")
	b.ReportMetric(float64(wire["/web/worker.wasm"]), "bytes-worker.wasm")
	b.ReportMetric(float64(wire["/web/data/default.mnpk"]), "bytes-data")
}
