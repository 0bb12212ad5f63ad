package browsertest

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"softmaxdemo/tools/internal/syncbuf"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// compileCategories are the trace categories of V8's WebAssembly
// compilers and of its code cache, with the page's own marks
// (blink.user_timing) to place ready on the trace's clock.
var compileCategories = []string{
	"v8.wasm", "disabled-by-default-v8.wasm.detailed", "disabled-by-default-devtools.timeline", "blink.user_timing", "__metadata",
}

// traceEvent is one event of a Chromium trace, as much of it as the
// compile figures need.
type traceEvent struct {
	Name string  `json:"name"`
	Cat  string  `json:"cat"`
	Ph   string  `json:"ph"`
	Pid  int     `json:"pid"`
	Tid  int     `json:"tid"`
	Ts   float64 `json:"ts"`  // µs, the trace's clock
	Dur  float64 `json:"dur"` // µs, wall
	Tdur float64 `json:"tdur"`
	Args struct {
		FuncIndex *int   `json:"func_index"`
		Name      string `json:"name"`
		Data      struct {
			FuncIndex *int `json:"func_index"`
		} `json:"data"`
	} `json:"args"`
}

// funcIndex is the function an event compiled, or -1.
func (e traceEvent) funcIndex() int {
	switch {
	case e.Args.FuncIndex != nil:
		return *e.Args.FuncIndex
	case e.Args.Data.FuncIndex != nil:
		return *e.Args.Data.FuncIndex
	}
	return -1
}

// cpu is the event's time on its thread, or its wall time where the
// trace has none.
func (e traceEvent) cpu() float64 {
	if e.Tdur > 0 {
		return e.Tdur
	}
	return e.Dur
}

// traceWhile records a trace of categories while do runs and returns its
// events.
func traceWhile(tb testing.TB, ctx context.Context, categories []string, do func()) []traceEvent {
	tb.Helper()
	raw := traceRaw(tb, ctx, categories, 2*time.Minute, do)
	evs := make([]traceEvent, 0, len(raw))
	for _, r := range raw {
		var e traceEvent
		if json.Unmarshal(r, &e) == nil {
			evs = append(evs, e)
		}
	}
	return evs
}

// traceRaw records a trace of categories while do runs, waiting at most
// wait for it to complete, and returns its events as Chromium sent them.
func traceRaw(tb testing.TB, ctx context.Context, categories []string, wait time.Duration, do func()) [][]byte {
	tb.Helper()
	var mu sync.Mutex
	var raw [][]byte
	done := false // this trace's events are read: the listener, which stays, ignores later ones
	complete := make(chan struct{}, 1)
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			if !done {
				for _, v := range e.Value {
					raw = append(raw, append([]byte(nil), v...))
				}
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			select {
			case complete <- struct{}{}:
			default:
			}
		}
	}); err != nil {
		tb.Fatal(err)
	}
	call := func(f func(ctx context.Context, tg *chromedp.Target) error) {
		if err := chromedp.Do(ctx, chromedp.Func(f)); err != nil {
			tb.Fatal(err)
		}
	}
	call(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, tracing.Start, tracing.StartParams{TransferMode: tracing.StartTransferModeReportEvents,
			TraceConfig: &tracing.TraceConfig{IncludedCategories: categories}})
		return err
	})
	do()
	call(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, tracing.End, cdp.Empty{})
		return err
	})
	select {
	case <-complete:
	case <-time.After(wait):
		tb.Fatal("the trace did not complete")
	}
	mu.Lock()
	defer mu.Unlock()
	done = true
	return raw
}

// readyMark runs in every document before the page's scripts: a
// performance mark, "probe:ready", when #status first says ready, which
// the trace records on its own clock (blink.user_timing).
const readyMark = `new MutationObserver((_, obs) => {
  const s = document.getElementById("status");
  if (s && s.getAttribute("data-state") === "ready") {
    performance.mark("probe:ready");
    obs.disconnect();
  }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"] });`

// compileFigures are what one traced visit compiled.
type compileFigures struct {
	lazy, lazyBefore   int     // functions compiled on their first call: in all, before ready
	topTier, topBefore int     // functions optimised by TurboFan
	topCPUBefore       float64 // ms of TurboFan's thread time before ready
	topWallBefore      float64 // ms of its jobs' wall time before ready, as long as they waited for a core
	topCPU             float64 // ms of thread time, in all
	cacheHit           bool    // V8 took the module from Chromium's code cache
	serializable       int     // times V8 said its code could be cached (v8.wasm.compiledModule)
	cached             int     // times Chromium stored the module's code
	deserialized       int
	hot                map[int]float64 // ms of TurboFan per function before ready, from V8's lines (turboFanTimes)
	lazyBeforeFuncs    map[int]int     // functions compiled on first call before ready
}

// figuresOf reads the compile figures from a visit's trace.
func figuresOf(tb testing.TB, evs []traceEvent) compileFigures {
	tb.Helper()
	ready := math.Inf(1)
	for _, e := range evs {
		if e.Name == "probe:ready" && e.Ts < ready {
			ready = e.Ts
		}
	}
	if math.IsInf(ready, 1) {
		tb.Fatal("the trace has no ready mark")
	}
	f := compileFigures{lazyBeforeFuncs: map[int]int{}}
	for _, e := range evs {
		if e.Ph == "E" || e.Ph == "M" {
			continue
		}
		before := e.Ts < ready
		switch e.Name {
		case "wasm.CompileLazy":
			f.lazy++
			if before {
				f.lazyBefore++
				f.lazyBeforeFuncs[e.funcIndex()]++
			}
		case "wasm.TopTierCompilation":
			ms := e.cpu() / 1000
			f.topTier++
			f.topCPU += ms
			if before {
				f.topBefore++
				f.topCPUBefore += ms
				f.topWallBefore += e.Dur / 1000
			}
		case "v8.wasm.moduleCacheHit":
			f.cacheHit = true
		case "v8.wasm.compiledModule":
			f.serializable++
		case "v8.wasm.cachedModule":
			f.cached++
		case "wasm.Deserialize":
			f.deserialized++
		}
	}
	return f
}

// BenchmarkPageVisitsCompiled visits the page three times in one browser
// profile (a first visit, then two returning ones, each once the one
// before has been ready for 4 s, so that the service worker has cached
// the site and V8 has had the time to cache its code), tracing each, and
// reports what V8 compiled: the functions compiled lazily (on their first
// call, baseline), in all and before ready; the functions TurboFan
// optimised before ready and its time on them (the sum of its jobs' thread
// time, on V8's background threads); and whether the module came from
// Chromium's code cache. Tracing slows the page, so its time to ready is
// BenchmarkPageReady's to measure, not this one's.
//
// PAGE_READY_SITES compares builds, one profile of each per round in a
// rotating order. PAGE_TRACE_NAMES, comma-separated in the same order,
// names for each site an unstripped build of the same program (make
// size's, say), whose name section names the functions: the log then
// lists, for the first visit, the functions compiled on their first call
// before ready by package, and those TurboFan optimised before ready by
// name with the time V8 says each took (the trace's TurboFan events do
// not say which function they compiled, so the first visit's browser then
// runs with --js-flags=--trace-wasm-compilation-times, as do the visits
// after it, and the benchmark reads V8's lines up to ready; their times
// are wall times, a job's wait for a core included).
//
//	go test -run '^$' -bench PageVisitsCompiled -benchtime 3x ./tools/browsertest/
func BenchmarkPageVisitsCompiled(b *testing.B) {
	sites, urls := benchStart(b)
	var names []map[int]string
	if s := os.Getenv("PAGE_TRACE_NAMES"); s != "" {
		for _, p := range strings.Split(s, ",") {
			n, err := wasmFuncNames(p)
			if err != nil {
				b.Fatal(err)
			}
			names = append(names, n)
		}
	}
	const visits = 3
	figs := make([][visits][]compileFigures, len(sites))
	rotate(b, len(sites), func(round, i int) {
		profile := b.TempDir()
		for v := range visits {
			// V8's own lines, when functions are to be named: every
			// visit runs with the flag, since V8 refuses code that
			// was cached under other flags.
			var v8 *syncbuf.Buffer
			var extra []chromedp.ExecAllocatorOption
			if i < len(names) {
				v8 = &syncbuf.Buffer{}
				extra = append(extra, chromedp.Flag("js-flags", "--trace-wasm-compilation-times"), chromedp.CombinedOutput(v8))
			}
			ctx := browserWithProfile(b, profile, 4*time.Minute, extra...)
			alone(b, ctx)
			beforeScripts(b, ctx, readyMark)
			atReady := 0
			evs := traceWhile(b, ctx, compileCategories, func() {
				if err := chromedp.Do(ctx, chromedp.Navigate(urls[i])); err != nil {
					b.Fatal(err)
				}
				waitState(b, ctx, 2*time.Minute, "ready")
				if v8 != nil {
					atReady = v8.Len()
				}
				time.Sleep(4 * time.Second)
			})
			if v == 0 && !eventually(30*time.Second, func() bool {
				why, _ := eval[string](ctx, `globalThis.softmaxPrecached || ""`)
				return why != ""
			}) {
				b.Fatal("the service worker did not cache the site")
			}
			if d := os.Getenv("TRACE_DUMP"); d != "" {
				j, _ := json.Marshal(evs)
				os.WriteFile(fmt.Sprintf("%s/site%d-r%d-v%d.json", d, i, round, v), j, 0o644)
			}
			f := figuresOf(b, evs)
			if v8 != nil {
				f.hot = turboFanTimes(v8.Bytes()[:atReady])
			}
			figs[i][v] = append(figs[i][v], f)
			closeBrowser(b, ctx)
		}
	})
	visitName := [visits]string{"first", "second", "third"}
	for i := range sites {
		suffix := siteSuffix(i, len(sites))
		for v := range visits {
			fs := figs[i][v]
			med := func(get func(compileFigures) float64) float64 {
				x := make([]float64, len(fs))
				for j, f := range fs {
					x[j] = get(f)
				}
				return upperMedian(x)
			}
			lazy := med(func(f compileFigures) float64 { return float64(f.lazy) })
			lazyBefore := med(func(f compileFigures) float64 { return float64(f.lazyBefore) })
			top := med(func(f compileFigures) float64 { return float64(f.topBefore) })
			topCPU := med(func(f compileFigures) float64 { return f.topCPUBefore })
			topWall := med(func(f compileFigures) float64 { return f.topWallBefore })
			hits := 0
			for _, f := range fs {
				if f.cacheHit {
					hits++
				}
			}
			b.Logf("%s, %s visit (%d): lazy compilations %v in all, %v before ready; TurboFan before ready: %v functions, %.0f ms of thread time (%.0f ms of its jobs' wall time); module from the code cache in %d of %d visits; code cached %v times (medians)",
				sites[i], visitName[v], len(fs), lazy, lazyBefore, top, topCPU, topWall, hits, len(fs), med(func(f compileFigures) float64 { return float64(f.cached) }))
			b.ReportMetric(lazy, "lazy-"+visitName[v]+suffix)
			b.ReportMetric(topCPU, "ms-turbofan-cpu-before-ready-"+visitName[v]+suffix)
			b.ReportMetric(topWall, "ms-turbofan-wall-before-ready-"+visitName[v]+suffix)
			if v == 0 {
				b.ReportMetric(lazyBefore, "lazy-before-ready-first"+suffix)
				b.ReportMetric(top, "turbofan-funcs-before-ready-first"+suffix)
			}
			if v == 0 && i < len(names) {
				b.Logf("%s, first visit, the functions compiled on their first call before ready, by package (summed over the visits):\n%s", sites[i], lazyByPackage(fs, names[i], 25))
				b.Logf("%s, first visit, the functions TurboFan optimised before ready, by the time V8 says each took (summed over the visits):\n%s", sites[i], hottest(fs, names[i], 40))
			}
		}
	}
}

// browserWithProfile is newBrowser on the profile in the directory
// profile, which a browser started before may have left: its HTTP cache,
// its code cache, its service worker and the service worker's caches, as
// a returning visitor's browser has them, started afresh.
func browserWithProfile(tb testing.TB, profile string, timeout time.Duration, extra ...chromedp.ExecAllocatorOption) context.Context {
	tb.Helper()
	ctx := lessonBrowserWithProfile(tb, profile, timeout, extra...)
	beforeScripts(tb, ctx, fullPageView)
	return ctx
}

// turboFanLine is V8's line for a function TurboFan compiled
// (--trace-wasm-compilation-times).
var turboFanLine = regexp.MustCompile(`#([0-9]+) using TurboFan, took ([0-9]+) μs`)

// turboFanTimes reads V8's lines and returns the ms each function took to
// optimise, by function index.
func turboFanTimes(out []byte) map[int]float64 {
	times := map[int]float64{}
	for _, m := range turboFanLine.FindAllSubmatch(out, -1) {
		i, _ := strconv.Atoi(string(m[1]))
		us, _ := strconv.ParseFloat(string(m[2]), 64)
		times[i] += us / 1000
	}
	return times
}

// lazyByPackage lists the n packages with the most functions compiled on
// their first call before ready in fs, by the package of each function's
// name (as the linker writes it: path/to/pkg as path_to_pkg).
func lazyByPackage(fs []compileFigures, names map[int]string, n int) string {
	count := map[string]int{}
	for _, f := range fs {
		for i, c := range f.lazyBeforeFuncs {
			count[packageOfName(names[i])] += c
		}
	}
	pkgs := make([]string, 0, len(count))
	for p := range count {
		pkgs = append(pkgs, p)
	}
	slices.SortFunc(pkgs, func(a, b string) int { return count[b] - count[a] })
	var sb strings.Builder
	for j, p := range pkgs {
		if j == n {
			break
		}
		fmt.Fprintf(&sb, "  %6d  %s\n", count[p], p)
	}
	return sb.String()
}

// packageOfName is the package part of a function's name in the name
// section: up to the first dot, or, for a module path with a dot in its
// host (github.com_...), the first dot after it. A method's receiver
// follows its package's dot with underscores (runtime.__mspan_.init), a
// host's dot with a letter.
func packageOfName(name string) string {
	i := strings.IndexByte(name, '.')
	if i < 0 {
		return name
	}
	if rest := name[i+1:]; rest != "" && rest[0] != '_' {
		u, d := strings.IndexByte(rest, '_'), strings.IndexByte(rest, '.')
		if u >= 0 && (d < 0 || u < d) {
			if j := strings.IndexByte(rest[u:], '.'); j >= 0 {
				return name[:i+1+u+j]
			}
		}
	}
	return name[:i]
}

// hottest lists the n functions with the most TurboFan time in fs, named.
func hottest(fs []compileFigures, names map[int]string, n int) string {
	sum := map[int]float64{}
	for _, f := range fs {
		for k, v := range f.hot {
			sum[k] += v
		}
	}
	keys := make([]int, 0, len(sum))
	for k := range sum {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b int) int { return int(math.Copysign(1, sum[b]-sum[a])) })
	var sb strings.Builder
	for j, k := range keys {
		if j == n {
			break
		}
		fmt.Fprintf(&sb, "  %7.1f ms  %s\n", sum[k], names[k])
	}
	return sb.String()
}

// wasmFuncNames reads the function names of a WebAssembly module's name
// section, by function index (imports first, as the trace counts them).
func wasmFuncNames(path string) (map[int]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, fmt.Errorf("%s: not WebAssembly", path)
	}
	out := map[int]string{}
	for p := 8; p < len(b); {
		id := b[p]
		size, n := binary.Uvarint(b[p+1:])
		if n <= 0 || p+1+n+int(size) > len(b) {
			return nil, fmt.Errorf("%s: a broken section at %d", path, p)
		}
		sec := b[p+1+n : p+1+n+int(size)]
		p += 1 + n + int(size)
		if id != 0 {
			continue
		}
		l, n := binary.Uvarint(sec)
		if string(sec[n:n+int(l)]) != "name" {
			continue
		}
		for q := n + int(l); q < len(sec); {
			sub := sec[q]
			sl, n := binary.Uvarint(sec[q+1:])
			body := sec[q+1+n : q+1+n+int(sl)]
			q += 1 + n + int(sl)
			if sub != 1 {
				continue
			}
			cnt, r := binary.Uvarint(body)
			for range cnt {
				idx, n := binary.Uvarint(body[r:])
				r += n
				nl, n := binary.Uvarint(body[r:])
				r += n
				out[int(idx)] = string(body[r : r+int(nl)])
				r += int(nl)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s has no function names: build it without -s", path)
	}
	return out, nil
}

// waitCodeCached waits until Chromium has stored V8's compiled code for
// the page's program in the browser profile's code cache (codeCached), as
// it does 2 s after V8's optimizing compiler last produced code, so that a
// browser closed afterwards leaves it for the next visit; after timeout it
// goes on, with a log line.
func waitCodeCached(tb testing.TB, profile string, timeout time.Duration) {
	tb.Helper()
	if !codeCached(profile, timeout) {
		tb.Logf("no compiled code was cached in the %v after ready", timeout)
	}
}

// codeCached reports whether, within timeout, a file of 100 kB or more
// appears in the WebAssembly code cache of the browser profile in the
// directory profile (Chromium's <profile>/Default/Code Cache/wasm, where
// the code of a module compiled from a response of the network or the
// HTTP cache goes; 1.3 MB for app.wasm). It polls the disk rather than a
// trace: the event (v8.wasm.cachedModule) comes a moment after ready, when
// no trace may be running.
func codeCached(profile string, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		files, _ := filepath.Glob(filepath.Join(profile, "*", "Code Cache", "wasm", "*"))
		for _, f := range files {
			if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() && fi.Size() >= 100<<10 {
				return true
			}
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(200 * time.Millisecond)
	}
}
