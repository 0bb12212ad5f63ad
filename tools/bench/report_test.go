package main

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/dataset"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{2, 2, 9, 1, 2}, 2},
	} {
		in := slices.Clone(c.in)
		if got := median(in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
		if !slices.Equal(in, c.in) {
			t.Errorf("median(%v) reordered its input to %v", c.in, in)
		}
	}
	if got := median(nil); !math.IsNaN(got) {
		t.Errorf("median(nil) = %v, want NaN", got)
	}
}

func TestRotate(t *testing.T) {
	list := []string{"a", "b", "c"}
	for r, want := range [][]string{{"a", "b", "c"}, {"b", "c", "a"}, {"c", "a", "b"}, {"a", "b", "c"}} {
		if got := rotate(list, r); !slices.Equal(got, want) {
			t.Errorf("rotate(%v, %d) = %v, want %v", list, r, got, want)
		}
	}
	if !slices.Equal(list, []string{"a", "b", "c"}) {
		t.Errorf("rotate changed its input to %v", list)
	}
}

func TestThousands(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 999: "999", 1000: "1,000", 399466.6: "399,467", 1234567: "1,234,567", -4321: "-4,321"} {
		if got := thousands(v); got != want {
			t.Errorf("thousands(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestFormatLongTask(t *testing.T) {
	if got := formatLongTask(0); got != "<50 ms" {
		t.Errorf("formatLongTask(0) = %q", got)
	}
	if got := formatLongTask(3120.4); got != "3120 ms" {
		t.Errorf("formatLongTask(3120.4) = %q", got)
	}
}

func TestBrowserVersion(t *testing.T) {
	ua := "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36"
	brands := []brand{{"Not.A/Brand", "99.0.0.0"}, {"HeadlessChrome", "156.0.8078.79"}, {"Chromium", "156.0.8078.79"}}
	for _, c := range []struct {
		ua     string
		brands []brand
		want   string
	}{
		{ua, brands, "Chromium 156.0.8078.79 (headless)"},
		{ua, brands[:2], "Chromium 156.0.8078.79 (headless)"},
		{ua, nil, "Chromium 156.0.0.0 (headless)"},
		{"Mozilla/5.0 Chrome/150.0.0.0 Safari/537.36", []brand{{"Google Chrome", "150.0.7000.1"}}, "Google Chrome 150.0.7000.1"},
		{"curl/8", nil, "curl/8"},
	} {
		if got := browserVersion(c.ua, c.brands); got != c.want {
			t.Errorf("browserVersion(%q, %v) = %q, want %q", c.ua, c.brands, got, c.want)
		}
	}
}

// results are three runs of ours and two peers on a pack of 60,000.
func sampleResults() []Result {
	return []Result{
		{Impl: "ours", Run: 1, Millis: 120, EvalMillis: 150, StepsMillis: 95, Accuracy: 0.91, LongTask: 0},
		{Impl: "ours", Run: 2, Millis: 100, EvalMillis: 130, StepsMillis: 80, Accuracy: 0.92},
		{Impl: "ours", Run: 3, Millis: 150, EvalMillis: 170, StepsMillis: 110, Accuracy: 0.90},
		{Impl: "tfjs-wasm-loop", Run: 1, Millis: 3500, Accuracy: 0.915, LongTask: 3510},
		{Impl: "tfjs-wasm-loop", Run: 2, Millis: 3300, Accuracy: 0.916, LongTask: 3310},
		{Impl: "tfjs-wasm-loop", Run: 3, Millis: 3700, Accuracy: 0.914, LongTask: 3720},
		{Impl: "convnetjs", Run: 1, Millis: 2400, Accuracy: 0.91, LongTask: 2410},
		{Impl: "convnetjs", Run: 2, Millis: 2640, Accuracy: 0.91, LongTask: 2650},
		{Impl: "convnetjs", Run: 3, Millis: 2500, Accuracy: 0.91, LongTask: 2510},
	}
}

var fullPack = dataset.PackInfo{Name: "full", Title: "60,000 train / 10,000 test", Train: 60000, Test: 10000}

func TestSummarize(t *testing.T) {
	pr := summarize(fullPack, sampleResults())
	if len(pr.Rows) != 3 {
		t.Fatalf("%d rows, want 3 (implementations without results are left out): %+v", len(pr.Rows), pr.Rows)
	}
	ours, tfw, cnj := pr.Rows[0], pr.Rows[1], pr.Rows[2]
	if !ours.Ours || ours.Median != 120 || ours.Min != 100 || ours.Max != 150 || ours.Runs != 3 {
		t.Errorf("ours = %+v", ours)
	}
	if ours.PerSecond != 500000 || ours.Accuracy != 0.91 || ours.Ratio != 1 || ours.MedianEvaluation != 150 {
		t.Errorf("ours = %+v", ours)
	}
	if tfw.Name != "TF.js wasm, minimize loop" || tfw.Median != 3500 || tfw.LongTask != 3720 || tfw.Ratio != 3500.0/120 {
		t.Errorf("tfjs wasm loop = %+v", tfw)
	}
	if cnj.Median != 2500 || cnj.Ratio != 2500.0/120 {
		t.Errorf("convnetjs = %+v", cnj)
	}
	s, ok := pr.Speedup()
	if !ok || s != 2500.0/120 {
		t.Errorf("Speedup() = %v, %v; want %v (the best peer is ConvNetJS)", s, ok, 2500.0/120)
	}
	if got, want := pr.speedupLine(), "speedup vs best peer (full pack): 20.8x"; got != want {
		t.Errorf("speedupLine() = %q, want %q", got, want)
	}
}

func TestSpeedupWithoutPeers(t *testing.T) {
	pr := summarize(fullPack, sampleResults()[:3])
	if _, ok := pr.Speedup(); ok {
		t.Error("Speedup() without peers reported ok")
	}
	if got := pr.speedupLine(); got != "speedup vs best peer (full pack): n/a" {
		t.Errorf("speedupLine() = %q", got)
	}
}

func sampleReport() Report {
	def := dataset.PackInfo{Name: "default", Title: "10,000 train / 2,000 test", Train: 10000, Test: 2000}
	var small []Result
	for _, r := range sampleResults() {
		r.Millis /= 6
		small = append(small, r)
	}
	return Report{
		Header: Header{CPU: "AMD EPYC (family 25, model 17), 2 CPUs", Browser: "Chromium 156.0.8078.79 (headless)",
			Date: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), Peers: "TensorFlow.js 4.22.0, ConvNetJS 0.3.0"},
		Runs:  3,
		Packs: []PackResult{summarize(def, small), summarize(fullPack, sampleResults())},
	}
}

// checkHas fails the test for each of wants that text, named what in the
// message, does not contain.
func checkHas(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
	}
}

func TestText(t *testing.T) {
	r := sampleReport()
	text := r.headerText() + r.bodyText()
	checkHas(t, "the report", text,
		"machine: AMD EPYC (family 25, model 17), 2 CPUs\n",
		"browser: Chromium 156.0.8078.79 (headless)\n",
		"date:    2026-03-01 12:00 UTC\n",
		"default pack: 10,000 train / 2,000 test\n",
		"full pack: 60,000 train / 10,000 test\n",
		"speedup vs best peer (default pack): 20.8x\n",
		"ours: Go wasm worker            3      120.0      100.0      150.0      500,000    91.00%        <50 ms     1.0\n",
		"ConvNetJS                       3     2500.0     2400.0     2640.0       24,000    91.00%       2650 ms    20.8\n",
		"ours includes a test-set evaluation, which alone takes (an evaluate command's round trip): median 150.0 ms\n",
		"ours spends in the steps alone (the worker's own clock): median 95.0 ms; the rest",
	)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if last := lines[len(lines)-1]; last != "speedup vs best peer (full pack): 20.8x" {
		t.Errorf("last line %q", last)
	}
	if !strings.HasPrefix(lines[0], "machine: ") {
		t.Errorf("first line %q", lines[0])
	}
}

func TestMarkdown(t *testing.T) {
	md := sampleReport().Markdown()
	checkHas(t, "the Markdown", md,
		"## Browser benchmark on AMD EPYC (family 25, model 17), 2 CPUs\n\n- machine: AMD EPYC (family 25, model 17), 2 CPUs\n- browser: Chromium 156.0.8078.79 (headless)\n- date: 2026-03-01 12:00 UTC\n",
		"| implementation | runs | median ms | min ms | max ms | examples/s | test accuracy | longest main-thread task | × ours |\n| --- |",
		"| ours: Go wasm worker | 3 | 120.0 | 100.0 | 150.0 | 500,000 | 91.00% | <50 ms | 1.0 |\n",
		"| TF.js wasm, minimize loop | 3 | 3500.0 | 3300.0 | 3700.0 | 17,143 | 91.50% | 3720 ms | 29.2 |\n",
		"\nspeedup vs best peer (full pack): 20.8x\n",
		"\nOurs includes a test-set evaluation, which alone takes (an evaluate command's round trip): median 150.0 ms.\n",
		"Ours spends in the steps alone (the worker's own clock): median 95.0 ms; the rest is the evaluation, the reports and the messages.\n",
	)
}

// TestVariantsAreNotPeers: ours on straightened images is reported beside
// ours, with its ratio, but the speed-up is against the peers only.
func TestVariantsAreNotPeers(t *testing.T) {
	results := append(sampleResults(),
		Result{Impl: "ours-deskew", Run: 1, Millis: 140, Accuracy: 0.95},
		Result{Impl: "ours-deskew", Run: 2, Millis: 144, Accuracy: 0.95},
	)
	pr := summarize(fullPack, results)
	s, ok := pr.Speedup()
	if !ok || s != 2500.0/120 {
		t.Errorf("speed-up %v (%v), want the best peer's 2500 ms over ours' 120", s, ok)
	}
	for _, r := range pr.Rows {
		if r.Variant && (r.Median != 142 || r.Ratio != 142.0/120) {
			t.Errorf("the variant's row: %+v", r)
		}
	}
}
