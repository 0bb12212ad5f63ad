package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/tools/internal/cpuinfo"
)

// Impl is one implementation under test; ID is what bench.run takes.
type Impl struct {
	ID, Name string
	Ours     bool
	Variant  bool // ours on other settings: neither ours nor a peer
}

// impls lists ours first; the report keeps this order.
var impls = []Impl{
	{ID: "ours", Name: "ours: Go wasm worker", Ours: true},
	{ID: "ours-deskew", Name: "ours, on straightened (deskewed) images", Variant: true},
	{ID: "tfjs-wasm-loop", Name: "TF.js wasm, minimize loop"},
	{ID: "tfjs-wasm-fit", Name: "TF.js wasm, model.fit"},
	{ID: "tfjs-cpu-loop", Name: "TF.js cpu, minimize loop"},
	{ID: "tfjs-cpu-fit", Name: "TF.js cpu, model.fit"},
	{ID: "convnetjs", Name: "ConvNetJS"},
}

// rotate returns list rotated left by r, so that over len(list) runs every
// implementation takes every place in the order once.
func rotate[T any](list []T, r int) []T {
	k := r % len(list)
	return append(slices.Clone(list[k:]), list[:k]...)
}

// Result is one implementation's epoch in one run.
type Result struct {
	Impl        string
	Run         int
	Millis      float64 // training time of the epoch
	EvalMillis  float64 // ours only: an evaluate command's round trip, ms
	StepsMillis float64 // ours only: the steps alone, by the worker's clock, ms
	Accuracy    float64 // test accuracy after the epoch, 0..1
	LongTask    float64 // longest main-thread task during the epoch, ms; 0 if none ≥ 50 ms
}

// Row summarises one implementation's runs on one pack.
type Row struct {
	Name             string
	Ours             bool
	Variant          bool // ours on other settings, not a peer
	Runs             int
	Median, Min, Max float64 // ms per epoch
	PerSecond        float64 // training examples per second at the median
	Accuracy         float64 // median test accuracy
	LongTask         float64 // the longest over all runs, ms; 0 if none ≥ 50 ms
	Ratio            float64 // Median / ours' Median
	MedianEvaluation float64 // ours only: median ms of an evaluate command's round trip
	MedianSteps      float64 // ours only: median ms of the steps alone (the worker's clock)
}

// PackResult is the table for one pack.
type PackResult struct {
	Name, Title string
	Rows        []Row // in the order of impls
}

// Header describes where and when the benchmark ran.
type Header struct {
	CPU     string // the processor, its family and model, and how many (cpuinfo)
	Browser string
	Date    time.Time
	Peers   string
}

// Report is everything tools/bench prints.
type Report struct {
	Header Header
	Runs   int
	Notes  []string
	Packs  []PackResult // the full pack, if any, last
}

// median returns the median of xs (the mean of the middle two for an even
// count), or NaN for none. It does not modify xs.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// summarize turns the results of pack p into its table, with ratios to ours.
func summarize(p dataset.PackInfo, results []Result) PackResult {
	pr := PackResult{Name: p.Name, Title: p.Title}
	for _, im := range impls {
		var ms, acc, evals, steps []float64
		row := Row{Name: im.Name, Ours: im.Ours, Variant: im.Variant}
		for _, r := range results {
			if r.Impl != im.ID {
				continue
			}
			ms = append(ms, r.Millis)
			acc = append(acc, r.Accuracy)
			evals = append(evals, r.EvalMillis)
			steps = append(steps, r.StepsMillis)
			row.LongTask = max(row.LongTask, r.LongTask)
		}
		if len(ms) == 0 {
			continue
		}
		row.Runs = len(ms)
		row.Median, row.Min, row.Max = median(ms), slices.Min(ms), slices.Max(ms)
		row.PerSecond = float64(p.Train) / (row.Median / 1000)
		row.Accuracy = median(acc)
		if im.Ours || im.Variant {
			row.MedianEvaluation = median(evals)
			row.MedianSteps = median(steps)
		}
		pr.Rows = append(pr.Rows, row)
	}
	if ours, ok := pr.ours(); ok {
		for i := range pr.Rows {
			pr.Rows[i].Ratio = pr.Rows[i].Median / ours.Median
		}
	}
	return pr
}

// oursNotes says what ours' time includes, for both report formats: each
// note follows the word "ours".
func (pr PackResult) oursNotes() []string {
	ours, ok := pr.ours()
	if !ok {
		return nil
	}
	return []string{
		fmt.Sprintf("includes a test-set evaluation, which alone takes (an evaluate command's round trip): median %.1f ms", ours.MedianEvaluation),
		fmt.Sprintf("spends in the steps alone (the worker's own clock): median %.1f ms; the rest is the evaluation, the reports and the messages", ours.MedianSteps),
	}
}

func (pr PackResult) ours() (Row, bool) {
	for _, r := range pr.Rows {
		if r.Ours {
			return r, true
		}
	}
	return Row{}, false
}

// Speedup returns the best (lowest) peer median divided by ours, and false
// if either is missing.
func (pr PackResult) Speedup() (float64, bool) {
	ours, ok := pr.ours()
	best := math.Inf(1)
	for _, r := range pr.Rows {
		if !r.Ours && !r.Variant {
			best = min(best, r.Median)
		}
	}
	if !ok || math.IsInf(best, 1) {
		return 0, false
	}
	return best / ours.Median, true
}

// speedupLine is the pack's verdict, the report's last line for the last pack.
func (pr PackResult) speedupLine() string {
	s, ok := pr.Speedup()
	if !ok {
		return fmt.Sprintf("speedup vs best peer (%s pack): n/a", pr.Name)
	}
	return fmt.Sprintf("speedup vs best peer (%s pack): %.1fx", pr.Name, s)
}

// machineHeader describes this machine and the page's browser and peers.
func machineHeader(info pageInfo, now time.Time) Header {
	threads := "no"
	if info.WasmThreads {
		threads = "yes"
	}
	simd := "no"
	if info.WasmSIMD {
		simd = "yes"
	}
	return Header{
		CPU:     cpuinfo.This().String(),
		Browser: browserVersion(info.UserAgent, info.Brands),
		Date:    now,
		Peers: fmt.Sprintf("TensorFlow.js %s (tfjs-backend-wasm %s: SIMD %s, threads %s), ConvNetJS 0.3.0",
			info.TFJS, info.TFJSWasm, simd, threads),
	}
}

// browserVersion names the browser, such as "Chromium 156.0.8078.79
// (headless)": the version from the brands (the user agent string is
// reduced to 156.0.0.0), headless from the user agent.
func browserVersion(ua string, brands []brand) string {
	name, version := "", ""
	for _, want := range []string{"Chromium", "Google Chrome", "HeadlessChrome"} {
		for _, b := range brands {
			if b.Brand == want && version == "" {
				name, version = want, b.Version
			}
		}
	}
	if version == "" {
		for _, f := range strings.Fields(ua) {
			if n, v, ok := strings.Cut(f, "/"); ok && (n == "HeadlessChrome" || n == "Chrome") && version == "" {
				name, version = "Chromium", v
			}
		}
	}
	if version == "" {
		return ua
	}
	if name == "HeadlessChrome" {
		name = "Chromium"
	}
	if strings.Contains(ua, "HeadlessChrome/") {
		return name + " " + version + " (headless)"
	}
	return name + " " + version
}

const (
	modelLine  = "one epoch of 784→10 softmax regression: cross-entropy, plain minibatch SGD, B = 100, α = 0.5, zero init, λ = 0"
	timingLine = `ours: a fresh worker per run, timed from posting "train" to receiving the "done" progress event ` +
		"(fetching and decoding the pack come before; the worker's end-of-epoch test-set evaluation is included); " +
		"peers: on the page's main thread, timed around the epoch, with the data already in typed arrays and tensors " +
		"and the test-set evaluation after the clock stops"
)

// headerText is the top of the text report.
func (r Report) headerText() string {
	var b strings.Builder
	for _, f := range r.headerFields() {
		fmt.Fprintf(&b, "%-8s %s\n", f[0]+":", f[1])
	}
	return b.String()
}

// headerFields are the report's header as name and value, in order, with
// one "note" for each of r.Notes.
func (r Report) headerFields() [][2]string {
	h := r.Header
	fields := [][2]string{
		{"machine", h.CPU},
		{"browser", h.Browser},
		{"date", h.Date.Format("2006-01-02 15:04 MST")},
		{"peers", h.Peers},
		{"model", modelLine},
		{"runs", fmt.Sprintf("%d of each implementation per pack, the order rotating from run to run", r.Runs)},
		{"timing", timingLine},
	}
	for _, n := range r.Notes {
		fields = append(fields, [2]string{"note", n})
	}
	return fields
}

// bodyText is one table per pack; its last line is the last pack's speedup.
func (r Report) bodyText() string {
	var b strings.Builder
	for _, p := range r.Packs {
		fmt.Fprintf(&b, "\n%s pack: %s\n", p.Name, p.Title)
		fmt.Fprintf(&b, "%-27s %5s %10s %10s %10s %12s %9s %13s %7s\n",
			"implementation", "runs", "median ms", "min ms", "max ms", "examples/s", "test acc", "longest task", "× ours")
		for _, row := range p.Rows {
			fmt.Fprintf(&b, "%-27s %5d %10.1f %10.1f %10.1f %12s %8.2f%% %13s %7.1f\n",
				row.Name, row.Runs, row.Median, row.Min, row.Max, thousands(row.PerSecond),
				100*row.Accuracy, formatLongTask(row.LongTask), row.Ratio)
		}
		for _, n := range p.oursNotes() {
			fmt.Fprintf(&b, "ours %s\n", n)
		}
		fmt.Fprintln(&b, p.speedupLine())
	}
	return b.String()
}

// Markdown is the report as a Markdown section.
func (r Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Browser benchmark on %s\n\n", r.Header.CPU)
	for _, f := range r.headerFields() {
		fmt.Fprintf(&b, "- %s: %s\n", f[0], f[1])
	}
	for _, p := range r.Packs {
		fmt.Fprintf(&b, "\n### %s pack: %s\n\n", p.Name, p.Title)
		b.WriteString("| implementation | runs | median ms | min ms | max ms | examples/s | test accuracy | longest main-thread task | × ours |\n")
		b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		for _, row := range p.Rows {
			fmt.Fprintf(&b, "| %s | %d | %.1f | %.1f | %.1f | %s | %.2f%% | %s | %.1f |\n",
				row.Name, row.Runs, row.Median, row.Min, row.Max, thousands(row.PerSecond),
				100*row.Accuracy, formatLongTask(row.LongTask), row.Ratio)
		}
		if notes := p.oursNotes(); len(notes) > 0 {
			b.WriteString("\n")
			for _, n := range notes {
				fmt.Fprintf(&b, "Ours %s.\n", n)
			}
		}
		fmt.Fprintf(&b, "\n%s\n", p.speedupLine())
	}
	return b.String()
}

// formatLongTask shows a longest task; 0 means none reached the 50 ms the
// Long Tasks API reports.
func formatLongTask(ms float64) string {
	if ms <= 0 {
		return "<50 ms"
	}
	return fmt.Sprintf("%.0f ms", ms)
}

// thousands formats v rounded to an integer with commas: 1,234,567.
func thousands(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	s := fmt.Sprintf("%.0f", math.Abs(v))
	var b strings.Builder
	if v <= -0.5 {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
