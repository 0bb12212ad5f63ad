package browsertest

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// stallCategories are the trace categories BenchmarkTrainingStalls reads:
// the main thread's tasks and what runs in them (script, style, layout,
// paint, V8's garbage collection), functions compiled on their first call,
// V8's sampling profiler (a stack every few hundred microseconds, wasm
// frames by function index), and the run's marks.
var stallCategories = []string{
	"devtools.timeline", "disabled-by-default-devtools.timeline", "v8.wasm", "disabled-by-default-v8.cpu_profiler", "blink.user_timing", "__metadata",
}

// runMarks runs in every document before the page's scripts: a
// performance mark when Train is first pressed (probe:run-start) and
// another when #status first says done after it (probe:run-end), which
// the trace records on its own clock.
const runMarks = `addEventListener("click", e => {
  if (e.target && e.target.id === "train" && !globalThis.softmaxRunMarked) { globalThis.softmaxRunMarked = true; performance.mark("probe:run-start"); }
}, {capture: true});
new MutationObserver(() => {
  const s = document.getElementById("status");
  if (globalThis.softmaxRunMarked && !globalThis.softmaxRunEnded && s && s.getAttribute("data-state") === "done") { globalThis.softmaxRunEnded = true; performance.mark("probe:run-end"); }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"] });`

// BenchmarkTrainingStalls finds the page's long and heavy tasks while the worker
// trains each of mainThreadRuns at full pace, and what runs in them,
// unthrottled and with Chromium held to one core (where the worker, the
// page and V8's threads share it, as on a slow two-core laptop). Each run
// is traced from the click on Train to the page's done; every task of the
// page's main thread of 50 ms or more is listed with its wall time, its
// thread time (what the page itself did: on a loaded core the rest is
// waiting for it), what started it (a message from the worker, a timer, an
// animation frame, input, or the browser's rendering alone), its style,
// layout and paint, V8's garbage collection, its functions compiled on
// first call, and the Go functions V8's sampling profiler found in it,
// named from the program's name section (BenchmarkStartProfile's named
// builds). It reports per run the tasks of 50 and 100 ms or more (wall),
// and of 50 and heavy ms of thread time, and prints the tasks by their
// thread time (those of 50 ms or more of wall time, and of heavy ms or
// more of thread time) and the functions that ran most in them. The sampling profiler slows the page a little;
// BenchmarkMainThreadWhileTraining counts without it.
//
//	go test -run '^$' -bench TrainingStalls -benchtime 5x ./tools/browsertest/
//	BASELINE_ROOT=<today's build> go test -run '^$' -bench 'TrainingStalls/one-core/sgd' -benchtime 5x ./tools/browsertest/
func BenchmarkTrainingStalls(b *testing.B) {
	needBrowser(b)
	sites := benchSites()
	urls := serveSites(b, sites)
	names := siteNames(b, sites)
	for _, m := range []cpuMode{cpuModes[0], oneCore} {
		for _, run := range mainThreadRuns {
			b.Run(m.name+"/"+run.name, func(b *testing.B) {
				logMode(b, m)
				got := make([][]stallRun, len(sites))
				rotate(b, len(sites), func(_, i int) {
					got[i] = append(got[i], traceStalls(b, m, urls[i]+"#lang=en&pace=full&"+run.link, names[i]))
				})
				reportStalls(b, sites, got)
			})
		}
	}
}

// stallRun is what one traced run found.
type stallRun struct {
	tasks         []longTask
	taskMS, cpuMS float64 // the main thread's tasks during the run, in all: wall, thread
	runMS         float64
}

// heavy is the thread time, in ms, from which a task is listed whatever
// its wall time: a frame's. On a quiet machine a task's wall time is its
// thread time; on a loaded one, or a core shared with the worker, a task
// of a few milliseconds can wait for the core for tens of them, and the
// tasks that do the most are those that stall a quiet slow machine.
const heavy = 16

// longTask is one task of the page's main thread of 50 ms or more, or of
// heavy ms or more of thread time.
type longTask struct {
	at, wall, cpu float64 // ms: from the click on Train, wall, thread
	kind          string  // what started it
	render        float64 // ms of style, layout, paint and commit in it
	gc            float64 // ms of V8's garbage collection in it
	lazy          float64 // ms of functions compiled on first call
	samples       int
	self, incl    map[string]int // samples by function: at the top of the stack, anywhere in it
}

// traceStalls opens url in a browser in mode m, presses Train once the
// page is ready, traces the run and reads its long tasks, naming wasm
// functions by names.
func traceStalls(b *testing.B, m cpuMode, url string, names map[int]string) stallRun {
	profile := visitProfile(b)
	ctx := modeBrowser(b, m, profile, 6*time.Minute)
	alone(b, ctx)
	beforeScripts(b, ctx, runMarks)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		b.Fatal(err)
	}
	waitState(b, ctx, 2*time.Minute, "ready")
	raw := traceRaw(b, ctx, stallCategories, 2*time.Minute, func() {
		trainRun(b, ctx, 5*time.Minute)
		eventually(5*time.Second, func() bool {
			ended, _ := eval[bool](ctx, `!!globalThis.softmaxRunEnded`)
			return ended
		})
	})
	closeBrowser(b, ctx)
	os.RemoveAll(profile)
	return readStalls(b, raw, names)
}

// stallEvent is a trace event as readStalls needs it.
type stallEvent struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Pid  int     `json:"pid"`
	Tid  int     `json:"tid"`
	ID   string  `json:"id"`
	Ts   float64 `json:"ts"`
	Dur  float64 `json:"dur"`
	Tdur float64 `json:"tdur"`
	Args struct {
		Name string `json:"name"`
		Data struct {
			StartTime  float64 `json:"startTime"`
			TimeDeltas []float64
			CPUProfile struct {
				Nodes []struct {
					ID        int `json:"id"`
					Parent    int `json:"parent"`
					CallFrame struct {
						FunctionName string `json:"functionName"`
						URL          string `json:"url"`
					} `json:"callFrame"`
				} `json:"nodes"`
				Samples []int `json:"samples"`
			} `json:"cpuProfile"`
		} `json:"data"`
	} `json:"args"`
}

// wasmFrame is V8's name for a wasm function without a name section.
var wasmFrame = regexp.MustCompile(`^wasm-function\[([0-9]+)\]$`)

// readStalls reads a traced run's long tasks.
func readStalls(tb testing.TB, raw [][]byte, names map[int]string) stallRun {
	tb.Helper()
	evs := make([]stallEvent, 0, len(raw))
	for _, r := range raw {
		var e stallEvent
		if json.Unmarshal(r, &e) == nil {
			evs = append(evs, e)
		}
	}
	var main [2]int
	start, end := math.Inf(1), math.Inf(1)
	for _, e := range evs {
		switch {
		case e.Ph == "M" && e.Name == "thread_name" && e.Args.Name == "CrRendererMain":
			main = [2]int{e.Pid, e.Tid}
		case e.Name == "probe:run-start":
			start = math.Min(start, e.Ts)
		case e.Name == "probe:run-end":
			end = math.Min(end, e.Ts)
		}
	}
	if main == [2]int{} || math.IsInf(start, 1) || math.IsInf(end, 1) {
		tb.Fatalf("the trace lacks the page's main thread or the run's marks (main %v, start %v, end %v)", main, start, end)
	}
	// The sampling profiler: each profile's nodes (by the profile's id)
	// and its samples, on the thread it profiles.
	type node struct {
		parent int
		name   string
	}
	type profile struct {
		thread [2]int
		t      float64
		nodes  map[int]node
	}
	profiles := map[string]*profile{}
	type sample struct {
		t     float64
		stack []string // the top first
	}
	var samples []sample
	name := func(fn, url string) string {
		if m := wasmFrame.FindStringSubmatch(fn); m != nil {
			i, _ := strconv.Atoi(m[1])
			if n := names[i]; n != "" {
				return n
			}
			return fn
		}
		switch {
		case fn == "" && url != "":
			return "(script " + url[strings.LastIndexByte(url, '/')+1:] + ")"
		case fn == "":
			return "(anonymous)"
		}
		return fn
	}
	for _, e := range evs {
		switch e.Name {
		case "Profile":
			profiles[e.ID] = &profile{thread: [2]int{e.Pid, e.Tid}, t: e.Args.Data.StartTime, nodes: map[int]node{}}
		case "ProfileChunk":
			p := profiles[e.ID]
			if p == nil {
				continue
			}
			for _, n := range e.Args.Data.CPUProfile.Nodes {
				p.nodes[n.ID] = node{n.Parent, name(n.CallFrame.FunctionName, n.CallFrame.URL)}
			}
			for k, id := range e.Args.Data.CPUProfile.Samples {
				if k < len(e.Args.Data.TimeDeltas) {
					p.t += e.Args.Data.TimeDeltas[k]
				}
				if p.thread != main {
					continue
				}
				var stack []string
				for n, ok := p.nodes[id]; ok && len(stack) < 200; n, ok = p.nodes[n.parent] {
					stack = append(stack, n.name)
				}
				samples = append(samples, sample{p.t, stack})
			}
		}
	}
	slices.SortFunc(samples, func(a, b sample) int { return cmpFloat(a.t, b.t) })

	var onMain []stallEvent
	for _, e := range evs {
		if e.Ph == "X" && [2]int{e.Pid, e.Tid} == main {
			onMain = append(onMain, e)
		}
	}
	slices.SortFunc(onMain, func(a, b stallEvent) int { return cmpFloat(a.Ts, b.Ts) })
	out := stallRun{runMS: (end - start) / 1000}
	for k, t := range onMain {
		if t.Name != "RunTask" || t.Ts < start || t.Ts >= end {
			continue
		}
		out.taskMS += t.Dur / 1000
		out.cpuMS += t.Tdur / 1000
		if t.Dur < 50000 && t.Tdur < heavy*1000 {
			continue
		}
		lt := longTask{at: (t.Ts - start) / 1000, wall: t.Dur / 1000, cpu: t.Tdur / 1000, self: map[string]int{}, incl: map[string]int{}}
		seen := map[string]bool{}
		for _, e := range onMain[k+1:] {
			if e.Ts >= t.Ts+t.Dur {
				break
			}
			seen[e.Name] = true
			switch e.Name {
			case "UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "Commit":
				lt.render += e.Dur / 1000
			case "MajorGC", "MinorGC":
				lt.gc += e.Dur / 1000
			case "wasm.CompileLazy":
				lt.lazy += e.Dur / 1000
			}
		}
		switch {
		case seen["HandlePostMessage"]:
			lt.kind = "message"
		case seen["TimerFire"]:
			lt.kind = "timer"
		case seen["FireAnimationFrame"]:
			lt.kind = "animation frame"
		case seen["EventDispatch"]:
			lt.kind = "input"
		case seen["FunctionCall"] || seen["v8.callFunction"]:
			lt.kind = "script"
		case lt.render > 0:
			lt.kind = "rendering"
		default:
			lt.kind = "other"
		}
		i, _ := slices.BinarySearchFunc(samples, t.Ts, func(s sample, ts float64) int { return cmpFloat(s.t, ts) })
		for ; i < len(samples) && samples[i].t < t.Ts+t.Dur; i++ {
			s := samples[i].stack
			lt.samples++
			if len(s) > 0 {
				lt.self[s[0]]++
			}
			in := map[string]bool{}
			for _, f := range s {
				if !in[f] {
					in[f] = true
					lt.incl[f]++
				}
			}
		}
		out.tasks = append(out.tasks, lt)
	}
	return out
}

// reportStalls reports each site's long tasks per run and prints them,
// with the functions that ran most in them.
func reportStalls(b *testing.B, sites []string, got [][]stallRun) {
	for i, runs := range got {
		suffix := siteSuffix(i, len(sites))
		var over50, over100, cpu50, cpuHeavy int
		var all []longTask
		task, cpu, longest := make([]float64, len(runs)), make([]float64, len(runs)), make([]float64, len(runs))
		for k, r := range runs {
			task[k], cpu[k] = r.taskMS, r.cpuMS
			for _, t := range r.tasks {
				if t.wall >= 50 {
					over50++
				}
				if t.wall >= 100 {
					over100++
				}
				if t.cpu >= 50 {
					cpu50++
				}
				if t.cpu >= heavy {
					cpuHeavy++
				}
				longest[k] = math.Max(longest[k], t.cpu)
				all = append(all, t)
			}
		}
		n := float64(len(runs))
		b.ReportMetric(float64(over50)/n, "long-tasks/run"+suffix)
		b.ReportMetric(float64(over100)/n, "tasks-100ms/run"+suffix)
		b.ReportMetric(float64(cpu50)/n, "tasks-50ms-cpu/run"+suffix)
		b.ReportMetric(float64(cpuHeavy)/n, fmt.Sprintf("tasks-%dms-cpu/run", heavy)+suffix)
		b.ReportMetric(upperMedian(longest), "ms-longest-task-cpu"+suffix)
		b.ReportMetric(upperMedian(task), "ms-main-thread"+suffix)
		b.ReportMetric(upperMedian(cpu), "ms-main-thread-cpu"+suffix)
		slices.SortFunc(all, func(a, b longTask) int { return cmpFloat(b.cpu, a.cpu) })
		var sb strings.Builder
		fmt.Fprintf(&sb, "%s: %d runs: tasks of 50 ms or more %d, of 100 ms or more %d; of 50 ms of thread time %d, of %d ms %d, the longest per run %v ms of thread time; the main thread's tasks %.0f ms, their thread time %.0f ms (medians per run)",
			sites[i], len(runs), over50, over100, cpu50, heavy, cpuHeavy, longest, upperMedian(task), upperMedian(cpu))
		if len(all) > 0 {
			fmt.Fprintf(&sb, "\n    the tasks by thread time:\n    %6s %6s %6s %-15s %6s %5s %5s  %s", "at", "wall", "thread", "started by", "render", "gc", "lazy", "most samples (inclusive)")
		}
		for k, t := range all {
			if k == 20 {
				fmt.Fprintf(&sb, "\n    ... %d more", len(all)-k)
				break
			}
			fmt.Fprintf(&sb, "\n    %6.0f %6.0f %6.0f %-15s %6.0f %5.0f %5.0f  %s", t.at, t.wall, t.cpu, t.kind, t.render, t.gc, t.lazy, topOf(t.incl, t.samples, 4, pageFunction))
		}
		self, incl, total := map[string]int{}, map[string]int{}, 0
		for _, t := range all {
			total += t.samples
			for f, c := range t.self {
				self[f] += c
			}
			for f, c := range t.incl {
				incl[f] += c
			}
		}
		if total > 0 {
			fmt.Fprintf(&sb, "\n  in all the tasks listed, %d samples: at the top of the stack: %s\n  the page's and go-app's functions (inclusive): %s",
				total, topOf(self, total, 12, nil), topOf(incl, total, 25, pageFunction))
		}
		benchPrintf(b, "%s", sb.String())
	}
}

// pageFunction says whether a function is worth naming as a cause: the
// page's own (softmaxdemo), go-app's renders, JSON, reflection and Go's
// garbage collector.
func pageFunction(f string) bool {
	for _, p := range []string{"softmaxdemo", "Render", "encoding_json", "reflect.", "runtime.gc", "runtime.mallocgc"} {
		if strings.Contains(f, p) {
			return true
		}
	}
	return false
}

// topOf lists the n functions of counts with the most samples (of total)
// that keep says to keep (all for nil), with their share.
func topOf(counts map[string]int, total, n int, keep func(string) bool) string {
	fs := make([]string, 0, len(counts))
	for f := range counts {
		if keep == nil || keep(f) {
			fs = append(fs, f)
		}
	}
	slices.SortFunc(fs, func(a, b string) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		return strings.Compare(a, b)
	})
	if len(fs) > n {
		fs = fs[:n]
	}
	parts := make([]string, len(fs))
	for k, f := range fs {
		parts[k] = fmt.Sprintf("%s %.0f%%", shortName(f), 100*float64(counts[f])/float64(max(total, 1)))
	}
	return strings.Join(parts, ", ")
}

// shortName shortens a function's name as the linker writes it
// (softmaxdemo_wasm_ui_digits_panels.__TrainPanel_.Render) to
// panels.(*TrainPanel).Render.
func shortName(f string) string {
	pkg, rest, ok := strings.Cut(f, ".")
	if !ok {
		return f
	}
	if i := strings.LastIndexByte(pkg, '_'); i >= 0 && !strings.HasPrefix(rest, "_") {
		pkg = pkg[i+1:]
	} else if i >= 0 {
		pkg = pkg[i+1:]
	}
	rest = strings.Replace(rest, "__", "(*", 1)
	rest = strings.Replace(rest, "_.", ").", 1)
	return pkg + "." + rest
}
