package browsertest

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"softmaxdemo/tools/internal/syncbuf"

	"github.com/chromedp/chromedp"
)

// profileCategories are the trace categories of the start-up profile:
// V8's WebAssembly compilers, the phases of each TurboFan job
// (disabled-by-default-v8.wasm.turbofan, one run of them per function),
// and the page's marks, to place ready and the navigation on the trace's
// clock.
var profileCategories = []string{
	"v8.wasm", "disabled-by-default-v8.wasm.detailed", "disabled-by-default-v8.wasm.turbofan", "blink.user_timing", "__metadata",
}

// profileWindow is the part of a first visit the start-up profile sums
// besides "before ready": its first 10 s from the navigation.
const profileWindow = 10 * time.Second

// BenchmarkStartProfile is V8's account of a first visit (a fresh
// profile, localhost), in each of cpuModes: unthrottled, with Chromium
// held to one core, and with the page's CPU throttled 4× as a phone's. It
// traces each visit from the navigation to 10 s after it and reports, by
// the trace's thread clocks:
//
//   - TurboFan's thread time (the optimising compiler, on V8's background
//     threads): before ready and in the first 10 s, with the number of
//     functions it optimised, and the wall time of its jobs as V8 reports
//     them (--trace-wasm-compilation-times: a job's wait for a core
//     included, what the sum "5.8 s" of the profile was);
//   - the time spent compiling functions on their first call
//     (wasm.CompileLazy, Liftoff, on the thread that calls them: the
//     page's main thread and the workers'), before ready and in the first
//     10 s;
//   - the time to ready, which the tracing slows (BenchmarkPageReady's is
//     the figure of the page's speed);
//   - and the functions TurboFan spent the most thread time on, by name.
//
// The trace says how long each TurboFan job took on its thread but not
// which function it compiled; V8's lines (--trace-wasm-compilation-times)
// say which function, how big and how long in wall time, in the order
// the jobs end, so each line is matched to the job of the trace that
// ended at its turn and took as long. The names come from a build with a
// name section whose code is the served program's byte for byte (make
// names builds one: .cache/names/app.wasm); PAGE_TRACE_NAMES lists more,
// comma-separated (another site's named build), and each site takes the
// one whose code section is its own.
//
// Sites: the repository's, or BASELINE_ROOT and the repository's, or
// PAGE_READY_SITES, one visit of each per round in a rotating order; the
// log gives each site's medians and ratios to the first site's.
//
//	make site names
//	go test -run '^$' -bench StartProfile -benchtime 3x ./tools/browsertest/
//	BASELINE_ROOT=/work/baseline PAGE_TRACE_NAMES=<its named build> go test -run '^$' -bench 'StartProfile/one-core' -benchtime 5x ./tools/browsertest/
func BenchmarkStartProfile(b *testing.B) {
	needBrowser(b)
	sites := benchSites()
	urls := serveSites(b, sites)
	names := siteNames(b, sites)
	for _, m := range cpuModes {
		b.Run(m.name, func(b *testing.B) {
			logMode(b, m)
			runs := make([][]startProfile, len(sites))
			rotate(b, len(sites), func(_, i int) {
				runs[i] = append(runs[i], profileStart(b, m, urls[i]))
			})
			reportStartProfiles(b, m, sites, names, runs)
		})
	}
}

// startProfile is what V8 did in one first visit.
type startProfile struct {
	ready      float64       // ms from the navigation, by the page's clock
	turbofan   [2]compileSum // TurboFan: before ready, in the first 10 s
	turbofanV8 [2]float64    // ms of its jobs' wall time, as V8 reports them
	lazyPage   [2]compileSum // compiled on first call, on the page's main thread
	lazyWorker [2]compileSum // the same on the workers' threads
	jobs       []turboFanJob // TurboFan's jobs matched to V8's lines
	lines      int           // V8's lines for TurboFan's jobs
	module     string        // the module the page's program is, in V8's lines
}

// compileSum is the thread time and the number of compilations.
type compileSum struct {
	ms float64
	n  int
}

func (s *compileSum) add(ms float64) { s.ms += ms; s.n++ }

// turboFanJob is one function TurboFan optimised: the trace's job and
// V8's line for it.
type turboFanJob struct {
	module   string  // V8's name for the module (an address)
	index    int     // the function's index
	body     int     // its body's bytes in the module
	cpu      float64 // ms of thread time, the trace's
	wall     float64 // ms, V8's
	start    float64 // µs, the trace's clock
	inWindow [2]bool // before ready, in the first 10 s
}

// profileStart visits url for the first time in a browser in mode m,
// traced from the navigation to 10 s after it, and reads the profile.
func profileStart(b *testing.B, m cpuMode, url string) startProfile {
	v8 := &syncbuf.Buffer{}
	profile := visitProfile(b)
	ctx := modeBrowser(b, m, profile, 4*time.Minute,
		chromedp.Flag("js-flags", "--trace-wasm-compilation-times"), chromedp.CombinedOutput(v8))
	alone(b, ctx)
	beforeScripts(b, ctx, readyMark)
	var readyAt float64
	evs := traceWhile(b, ctx, profileCategories, func() {
		if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
			b.Fatal(err)
		}
		waitState(b, ctx, 2*time.Minute, "ready")
		var err error
		if readyAt, err = eval[float64](ctx, `performance.getEntriesByName("probe:ready")[0].startTime`); err != nil {
			b.Fatal(err)
		}
		now, err := eval[float64](ctx, `performance.now()`)
		if err != nil {
			b.Fatal(err)
		}
		if rest := float64(profileWindow/time.Millisecond) + 300 - now; rest > 0 {
			time.Sleep(time.Duration(rest) * time.Millisecond)
		}
	})
	closeBrowser(b, ctx)
	os.RemoveAll(profile)
	return readStartProfile(b, evs, readyAt, v8.Bytes())
}

// readStartProfile reads a first visit's profile from its trace, the
// page's clock at ready (ms), and V8's lines.
func readStartProfile(tb testing.TB, evs []traceEvent, readyAt float64, out []byte) startProfile {
	tb.Helper()
	ready := math.Inf(1)
	threads := map[[2]int]string{}
	for _, e := range evs {
		if e.Name == "probe:ready" && e.Ts < ready {
			ready = e.Ts
		}
		if e.Ph == "M" && e.Name == "thread_name" {
			threads[[2]int{e.Pid, e.Tid}] = e.Args.Name
		}
	}
	if math.IsInf(ready, 1) {
		tb.Fatal("the trace has no ready mark")
	}
	// The navigation on the trace's clock: the page's clock starts there.
	end := [2]float64{ready, ready - readyAt*1000 + float64(profileWindow/time.Microsecond)}
	p := startProfile{ready: readyAt}
	for _, e := range evs {
		if e.Name != "wasm.CompileLazy" || e.Ph != "X" {
			continue
		}
		sum := &p.lazyWorker
		if threads[[2]int{e.Pid, e.Tid}] == "CrRendererMain" {
			sum = &p.lazyPage
		}
		for w := range end {
			if e.Ts < end[w] {
				sum[w].add(e.cpu() / 1000)
			}
		}
	}
	jobs := turboFanJobs(evs)
	for _, j := range jobs {
		for w := range end {
			if j.start < end[w] {
				p.turbofan[w].add(j.cpu)
			}
		}
	}
	lines := v8Lines(out)
	p.lines = len(lines)
	matchV8Lines(jobs, lines)
	count := map[string]int{}
	for _, l := range lines {
		count[l.module]++
	}
	for mod, n := range count {
		if n > count[p.module] {
			p.module = mod
		}
	}
	for _, j := range jobs {
		if j.module == "" {
			continue
		}
		for w := range end {
			j.inWindow[w] = j.start < end[w]
			if j.inWindow[w] {
				p.turbofanV8[w] += j.wall
			}
		}
		p.jobs = append(p.jobs, *j)
	}
	return p
}

// turboFanJobs reads TurboFan's jobs from a trace: on each thread, a job
// is the run of phases from one V8.WasmInitializing to the next, and its
// thread time the sum of its outermost phases'.
func turboFanJobs(evs []traceEvent) []*turboFanJob {
	byThread := map[[2]int][]traceEvent{}
	for _, e := range evs {
		if e.Ph == "X" && strings.Contains(e.Cat, "v8.wasm.turbofan") {
			k := [2]int{e.Pid, e.Tid}
			byThread[k] = append(byThread[k], e)
		}
	}
	var jobs []*turboFanJob
	for _, es := range byThread {
		slices.SortFunc(es, func(a, b traceEvent) int {
			if a.Ts != b.Ts {
				return cmpFloat(a.Ts, b.Ts)
			}
			return cmpFloat(b.Dur, a.Dur) // the outer first
		})
		var cur *turboFanJob
		outerEnd := math.Inf(-1)
		for _, e := range es {
			if e.Ts < outerEnd {
				continue // a phase inside another
			}
			outerEnd = e.Ts + e.Dur
			if e.Name == "V8.WasmInitializing" || cur == nil {
				cur = &turboFanJob{start: e.Ts, index: -1}
				jobs = append(jobs, cur)
			}
			cur.cpu += e.cpu() / 1000
			cur.wall = (e.Ts + e.Dur - cur.start) / 1000
		}
	}
	slices.SortFunc(jobs, func(a, b *turboFanJob) int { return cmpFloat(a.start+a.wall*1000, b.start+b.wall*1000) })
	return jobs
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// v8JobLine is V8's line for a function TurboFan compiled
// (--trace-wasm-compilation-times): the module, the function's index, the
// wall time and the body's size.
var v8JobLine = regexp.MustCompile(`Compiled function (0x[0-9a-f]+)#([0-9]+) using TurboFan, took ([0-9]+) μs[^\n]*?bodysize ([0-9]+)`)

// v8Line is one of V8's lines.
type v8Line struct {
	module      string
	index, body int
	wall        float64 // ms
}

func v8Lines(out []byte) []v8Line {
	var lines []v8Line
	for _, m := range v8JobLine.FindAllSubmatch(out, -1) {
		i, _ := strconv.Atoi(string(m[2]))
		us, _ := strconv.ParseFloat(string(m[3]), 64)
		body, _ := strconv.Atoi(string(m[4]))
		lines = append(lines, v8Line{string(m[1]), i, body, us / 1000})
	}
	return lines
}

// matchV8Lines gives each job the function of V8's line for it.
// V8 prints a line as a job ends, so the lines come in the order of the
// jobs' ends, but for jobs on two threads that end within moments of each
// other: each line takes, among the next few jobs not yet taken, the one
// whose wall time is nearest its own, if within a quarter of it (and
// 0.3 ms), and is left unmatched otherwise.
func matchV8Lines(jobs []*turboFanJob, lines []v8Line) {
	const window = 6
	taken := make([]bool, len(jobs))
	next := 0
	for _, l := range lines {
		best := -1
		for j, seen := next, 0; j < len(jobs) && seen < window; j++ {
			if taken[j] {
				continue
			}
			seen++
			if best < 0 || math.Abs(jobs[j].wall-l.wall) < math.Abs(jobs[best].wall-l.wall) {
				best = j
			}
		}
		if best < 0 || math.Abs(jobs[best].wall-l.wall) > math.Max(0.25*l.wall, 0.3) {
			continue
		}
		taken[best] = true
		j := jobs[best]
		j.module, j.index, j.body, j.wall = l.module, l.index, l.body, l.wall
		for next < len(jobs) && taken[next] {
			next++
		}
	}
}

// reportStartProfiles reports and logs the medians of each site's visits
// in mode m, their ratios to the first site's, and each site's functions
// by TurboFan's thread time.
func reportStartProfiles(b *testing.B, m cpuMode, sites []string, names []map[int]string, runs [][]startProfile) {
	var firstTF, firstReady float64
	for i, ps := range runs {
		suffix := siteSuffix(i, len(sites))
		med := func(get func(startProfile) float64) float64 {
			x := make([]float64, len(ps))
			for k, p := range ps {
				x[k] = get(p)
			}
			return upperMedian(x)
		}
		ready := med(func(p startProfile) float64 { return p.ready })
		var tf, tfN, tfV8, lazyPage, lazyWorker, lazyN [2]float64
		for w := range 2 {
			tf[w] = med(func(p startProfile) float64 { return p.turbofan[w].ms })
			tfN[w] = med(func(p startProfile) float64 { return float64(p.turbofan[w].n) })
			tfV8[w] = med(func(p startProfile) float64 { return p.turbofanV8[w] })
			lazyPage[w] = med(func(p startProfile) float64 { return p.lazyPage[w].ms })
			lazyWorker[w] = med(func(p startProfile) float64 { return p.lazyWorker[w].ms })
			lazyN[w] = med(func(p startProfile) float64 { return float64(p.lazyPage[w].n + p.lazyWorker[w].n) })
		}
		if i == 0 {
			firstTF, firstReady = tf[1], ready
		}
		matched, lines := 0, 0
		for _, p := range ps {
			matched += len(p.jobs)
			lines += p.lines
		}
		benchPrintf(b, "%s, %s, %d first visits (medians): ready %.0f ms (%.2f× the first site's; traced); "+
			"TurboFan thread time %.0f ms for %.0f functions before ready, %.0f ms for %.0f in the first 10 s (%.2f× the first site's), its jobs' wall time by V8 %.0f and %.0f ms; "+
			"compiled on first call %.0f functions before ready, %.0f ms on the page's main thread and %.0f ms on the workers', and %.0f functions, %.0f + %.0f ms, in the first 10 s; "+
			"%d of V8's %d lines matched to the trace's jobs",
			sites[i], m.name, len(ps), ready, ready/firstReady,
			tf[0], tfN[0], tf[1], tfN[1], tf[1]/firstTF, tfV8[0], tfV8[1],
			lazyN[0], lazyPage[0], lazyWorker[0], lazyN[1], lazyPage[1], lazyWorker[1], matched, lines)
		b.ReportMetric(ready, "ms-to-ready"+suffix)
		b.ReportMetric(tf[0], "ms-turbofan-before-ready"+suffix)
		b.ReportMetric(tf[1], "ms-turbofan-10s"+suffix)
		b.ReportMetric(tfV8[1], "ms-turbofan-wall-10s"+suffix)
		b.ReportMetric(lazyPage[0]+lazyWorker[0], "ms-lazy-before-ready"+suffix)
		b.ReportMetric(lazyPage[1]+lazyWorker[1], "ms-lazy-10s"+suffix)
		benchPrintf(b, "%s, %s: the functions TurboFan optimised in the first 10 s, by its thread time (mean per visit):\n%s",
			sites[i], m.name, topTurboFan(ps, names[i], 25))
	}
}

// topTurboFan lists the n functions of the page's program with the most
// TurboFan thread time in the first 10 s of the visits ps: their name (or
// index), body size, mean thread time and V8's wall time per visit, and
// in how many visits they were optimised before ready and at all.
func topTurboFan(ps []startProfile, names map[int]string, n int) string {
	type fn struct {
		index, body              int
		cpu, wall                float64
		beforeReady, inTheWindow int
	}
	byIndex := map[int]*fn{}
	for _, p := range ps {
		for _, j := range p.jobs {
			if j.module != p.module || !j.inWindow[1] {
				continue
			}
			f := byIndex[j.index]
			if f == nil {
				f = &fn{index: j.index, body: j.body}
				byIndex[j.index] = f
			}
			f.cpu += j.cpu / float64(len(ps))
			f.wall += j.wall / float64(len(ps))
			f.inTheWindow++
			if j.inWindow[0] {
				f.beforeReady++
			}
		}
	}
	fns := make([]*fn, 0, len(byIndex))
	total := 0.0
	for _, f := range byIndex {
		fns = append(fns, f)
		total += f.cpu
	}
	slices.SortFunc(fns, func(a, b *fn) int { return cmpFloat(b.cpu, a.cpu) })
	var sb strings.Builder
	fmt.Fprintf(&sb, "  %8s %8s %9s %6s  %s\n", "thread", "V8 wall", "body", "ready", "function")
	for k, f := range fns {
		if k == n {
			break
		}
		name := names[f.index]
		if name == "" {
			name = fmt.Sprintf("#%d", f.index)
		}
		fmt.Fprintf(&sb, "  %5.0f ms %5.0f ms %7d B %2d/%-3d  %s\n", f.cpu, f.wall, f.body, f.beforeReady, f.inTheWindow, name)
	}
	fmt.Fprintf(&sb, "  %5.0f ms in all, %d functions", total, len(fns))
	if names != nil {
		byPkg := map[string]float64{}
		for _, f := range fns {
			byPkg[packageOfName(names[f.index])] += f.cpu
		}
		pkgs := make([]string, 0, len(byPkg))
		for p := range byPkg {
			pkgs = append(pkgs, p)
		}
		slices.SortFunc(pkgs, func(a, b string) int { return cmpFloat(byPkg[b], byPkg[a]) })
		sb.WriteString("; by package:")
		for k, p := range pkgs {
			if k == 12 {
				break
			}
			fmt.Fprintf(&sb, " %s %.0f ms,", p, byPkg[p])
		}
	}
	return strings.TrimSuffix(sb.String(), ",")
}

// benchPrintf prints a line of a benchmark's figures, headed by its name:
// printed, not logged, since the testing package keeps only the first
// lines a benchmark logs, and the tables are longer.
func benchPrintf(b *testing.B, format string, args ...any) {
	fmt.Printf("%s: %s\n", b.Name(), fmt.Sprintf(format, args...))
}

// siteNames returns, for each site root, the names of the functions of
// its program (web/app.wasm) from the named build whose code is that
// program's: .cache/names/app.wasm of the repository (make names), or one
// of PAGE_TRACE_NAMES; nil for a site that has none, with a log line.
func siteNames(tb testing.TB, sites []string) []map[int]string {
	tb.Helper()
	candidates := []string{filepath.Join(root, ".cache/names/app.wasm")}
	if s := os.Getenv("PAGE_TRACE_NAMES"); s != "" {
		candidates = append(candidates, strings.Split(s, ",")...)
	}
	type named struct {
		code  [32]byte
		names map[int]string
	}
	var builds []named
	for _, c := range candidates {
		b, err := os.ReadFile(c)
		if err != nil {
			continue
		}
		code, err := wasmSection(b, 10)
		if err != nil {
			tb.Fatalf("%s: %v", c, err)
		}
		names, err := wasmFuncNames(c)
		if err != nil {
			tb.Fatal(err)
		}
		builds = append(builds, named{sha256.Sum256(code), names})
	}
	out := make([]map[int]string, len(sites))
	for i, s := range sites {
		b, err := os.ReadFile(filepath.Join(s, "web/app.wasm"))
		if err != nil {
			tb.Fatal(err)
		}
		code, err := wasmSection(b, 10)
		if err != nil {
			tb.Fatalf("%s/web/app.wasm: %v", s, err)
		}
		sum := sha256.Sum256(code)
		for _, nb := range builds {
			if nb.code == sum {
				out[i] = nb.names
			}
		}
		if out[i] == nil {
			tb.Logf("%s: no named build has the code of its web/app.wasm (make names builds the repository's; PAGE_TRACE_NAMES lists others): functions are given by index", s)
		}
	}
	return out
}

// wasmSection returns the body of the first section with the given id of
// the WebAssembly module b.
func wasmSection(b []byte, id byte) ([]byte, error) {
	if len(b) < 8 || !bytes.Equal(b[:4], []byte("\x00asm")) {
		return nil, fmt.Errorf("not WebAssembly")
	}
	for p := 8; p < len(b); {
		size, n := binary.Uvarint(b[p+1:])
		if n <= 0 || uint64(len(b)-p-1-n) < size {
			return nil, fmt.Errorf("a broken section at byte %d", p)
		}
		if b[p] == id {
			return b[p+1+n : p+1+n+int(size)], nil
		}
		p += 1 + n + int(size)
	}
	return nil, fmt.Errorf("no section %d", id)
}

// TestPackageOfName: a function's package is read from its name as the
// linker writes it, for the standard library's, a module's with a host,
// and methods, whose receivers follow the package's dot with underscores.
func TestPackageOfName(t *testing.T) {
	for _, c := range [][2]string{
		{"runtime.gcDrain", "runtime"},
		{"runtime.__sweepLocked_.sweep", "runtime"},
		{"fmt.__pp_.doPrintf", "fmt"},
		{"internal_runtime_maps.__Iter_.Next", "internal_runtime_maps"},
		{"syscall_js.ValueOf", "syscall_js"},
		{"softmaxdemo_wasm_ui_digits_panels.__TrainPanel_.Render", "softmaxdemo_wasm_ui_digits_panels"},
		{"github.com_maxence_charriere_go_app_v10_pkg_app.nodeManager.updateHTML", "github.com_maxence_charriere_go_app_v10_pkg_app"},
		{"github.com_maxence_charriere_go_app_v10_pkg_app.__engineX_.Start", "github.com_maxence_charriere_go_app_v10_pkg_app"},
		{"wasm_pc_f_loop", "wasm_pc_f_loop"},
	} {
		if got := packageOfName(c[0]); got != c[1] {
			t.Errorf("packageOfName(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

// TestMatchV8Lines: V8's lines name the jobs of the trace that ended at
// their turn and took as long, also when two jobs on two threads ended
// in the other order than their lines came; a line with no such job
// names none, and the lines after it still find theirs.
func TestMatchV8Lines(t *testing.T) {
	jobs := []*turboFanJob{{wall: 10}, {wall: 20}, {wall: 5.2}, {wall: 50}, {wall: 30}, {wall: 0.4}}
	for _, j := range jobs {
		j.index = -1
	}
	lines := []v8Line{
		{module: "m", index: 1, wall: 10.01},
		{module: "m", index: 2, wall: 50.1}, // printed before the job that ended first
		{module: "m", index: 3, wall: 20.02},
		{module: "m", index: 4, wall: 5.21},
		{module: "m", index: 9, wall: 99}, // no job took as long
		{module: "m", index: 5, wall: 30.03},
		{module: "m", index: 6, wall: 0.5},
	}
	matchV8Lines(jobs, lines)
	want := []int{1, 3, 4, 2, 5, 6}
	for k, j := range jobs {
		if j.index != want[k] {
			t.Errorf("job %d (%.1f ms) was matched to function %d, want %d", k, j.wall, j.index, want[k])
		}
	}
}
