package chart

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"softmaxdemo/wasm/protocol"
)

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		name   string
		lo, hi float64
		n      int
		want   []float64
	}{
		{"loss from 0 to 2.3", 0, 2.3, 5, []float64{0, 0.5, 1, 1.5, 2, 2.5}},
		{"steps from 0 to 500", 0, 500, 6, []float64{0, 100, 200, 300, 400, 500}},
		{"steps from 0 to 3000", 0, 3000, 6, []float64{0, 500, 1000, 1500, 2000, 2500, 3000}},
		{"accuracy from 0.8 to 1", 0.8, 1, 5, []float64{0.8, 0.85, 0.9, 0.95, 1}},
		{"an empty range still gets an axis", 0, 0, 5, []float64{0, 0.25, 0.5, 0.75, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := niceTicks(tt.lo, tt.hi, tt.n)
			if len(got) != len(tt.want) {
				t.Fatalf("ticks %v, want %v", got, tt.want)
			}
			for i := range got {
				if math.Abs(got[i]-tt.want[i]) > 1e-12 {
					t.Fatalf("ticks %v, want %v", got, tt.want)
				}
			}
		})
	}
}

func linePoints(n int, f func(i int) float64) []protocol.Point {
	out := make([]protocol.Point, n)
	for i := range out {
		out[i] = protocol.Point{Step: i + 1, Loss: f(i)}
	}
	return out
}

func TestLayoutChartScalesIntoThePlotArea(t *testing.T) {
	losses := linePoints(500, func(i int) float64 { return 2.3 * math.Exp(-float64(i)/100) })
	acc := []AccPoint{{1, 100, 0.88, 1}, {2, 200, 0.9, 2}, {5, 500, 0.915, 5}}
	g := Layout(losses, acc, 800, 400, 1)
	inside := func(p Pt) bool {
		return p.X >= g.Left-1e-9 && p.X <= g.Right+1e-9 && p.Y >= g.Top-1e-9 && p.Y <= g.Bottom+1e-9
	}
	for _, seg := range g.Raw {
		for _, p := range seg {
			if !inside(p) {
				t.Fatalf("raw point %v outside the plot area", p)
			}
		}
	}
	for _, p := range append(g.Smooth, g.Acc...) {
		if !inside(p) {
			t.Fatalf("point %v outside the plot area", p)
		}
	}
	// The first loss, the largest, sits near the top; the last near the bottom.
	if first := g.Raw[0][1]; first.Y > g.Top+0.2*(g.Bottom-g.Top) {
		t.Errorf("the first loss is drawn at y=%v, far from the top %v", first.Y, g.Top)
	}
	if last := g.Raw[len(g.Raw)-1][0]; last.Y < g.Bottom-0.1*(g.Bottom-g.Top) {
		t.Errorf("the last loss is drawn at y=%v, far from the bottom %v", last.Y, g.Bottom)
	}
	// Ticks are labelled and ordered.
	if g.XTicks[0].Label != "0" || g.XTicks[len(g.XTicks)-1].Label != "500" {
		t.Errorf("x ticks %+v", g.XTicks)
	}
	if g.LossTicks[0].Pos != g.Bottom || g.LossTicks[0].Label != "0" {
		t.Errorf("the loss axis does not start at 0 at the bottom: %+v", g.LossTicks[0])
	}
	if len(g.AccTicks) == 0 || g.AccTicks[len(g.AccTicks)-1].Label != "100%" {
		t.Errorf("accuracy ticks %+v", g.AccTicks)
	}
	for _, tk := range g.AccTicks {
		if len(tk.Label) > 5 {
			t.Errorf("accuracy tick label %q is not rounded", tk.Label)
		}
	}
	// The whole curve shows: the first loss, log 10, is below the top.
	if top := g.LossTicks[len(g.LossTicks)-1].Label; top != "2.5" {
		t.Errorf("the loss axis tops at %s, want 2.5", top)
	}
	// Accuracy rises, so its points rise on the canvas (y decreases).
	if !(g.Acc[0].Y > g.Acc[1].Y && g.Acc[1].Y > g.Acc[2].Y) {
		t.Errorf("accuracy points %v do not rise", g.Acc)
	}
}

func TestLayoutChartBoundsTheWorkByWidth(t *testing.T) {
	losses := linePoints(100000, func(i int) float64 { return 1 + math.Sin(float64(i)) })
	g := Layout(losses, nil, 600, 300, 1)
	if cols := g.Right - g.Left + 2; float64(len(g.Raw)) > cols || float64(len(g.Smooth)) > cols+1 {
		t.Errorf("%d raw segments and %d smooth points for %v columns", len(g.Raw), len(g.Smooth), cols)
	}
}

func TestLayoutChartIgnoresOutliersAndNaN(t *testing.T) {
	losses := linePoints(1000, func(i int) float64 { return 0.5 })
	losses[0].Loss = 1e6
	losses[10].Loss = math.NaN()
	losses[11].Loss = math.Inf(1)
	g := Layout(losses, nil, 600, 300, 1)
	if top := g.LossTicks[len(g.LossTicks)-1].Label; top == "1e+06" {
		t.Errorf("one outlier set the axis to %s", top)
	}
	for _, seg := range g.Raw {
		for _, p := range seg {
			if math.IsNaN(p.Y) || math.IsInf(p.Y, 0) {
				t.Fatal("a NaN loss reached the canvas")
			}
		}
	}
}

func TestLayoutChartEmpty(t *testing.T) {
	g := Layout(nil, nil, 600, 300, 2)
	if len(g.Raw) != 0 || len(g.XTicks) == 0 || len(g.LossTicks) == 0 || g.Font != 30 {
		t.Errorf("empty chart %+v", g)
	}
	if g := Layout(nil, nil, 10, 10, 1); len(g.XTicks) != 0 {
		t.Error("a tiny canvas got ticks")
	}
}

// sigDigits counts the significant digits of a tick label such as "0.25",
// "1.5k" or "12".
func sigDigits(label string) int {
	s := strings.TrimRight(label, "kM%")
	s = strings.TrimLeft(strings.ReplaceAll(strings.TrimPrefix(s, "-"), ".", ""), "0")
	return len(strings.TrimRight(s, "0"))
}

func TestTickLabelsAreRound(t *testing.T) {
	tests := []struct {
		name   string
		lo, hi float64
	}{
		{"the empty chart's steps", 0, 1},
		{"the empty chart's passes", 0, 0.1},
		{"a short run", 0, 7},
		{"passes over the data", 0, 2.6},
		{"seconds of a quick run", 0, 0.37},
		{"thousands of steps", 0, 3300},
		{"a long run", 0, 47000},
		{"a million steps", 0, 1.3e6},
		{"small losses", 0, 0.031},
		{"losses", 0, 2.31},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ticks := niceTicks(tt.lo, tt.hi, 6)
			big := ticks[len(ticks)-1] >= 1e4
			for _, v := range ticks {
				label := tickLabel(v, ticks, big)
				if n := sigDigits(label); n > 3 || strings.Contains(label, "e") || len(label) > 6 {
					t.Errorf("tick %v is labelled %q", v, label)
				}
			}
		})
	}
	g := Layout(nil, nil, 800, 400, 1)
	for _, tk := range append(g.XTicks, g.LossTicks...) {
		if n := sigDigits(tk.Label); n > 3 {
			t.Errorf("the empty chart has the tick label %q", tk.Label)
		}
	}
}

func TestLayoutRunsDrawsEveryRunAndBothAxes(t *testing.T) {
	sgd := Run{Losses: linePoints(300, func(i int) float64 { return 0.3 + 2/float64(i+1) }), Color: "#111", StepsPerEpoch: 100}
	for i := range sgd.Losses {
		sgd.Losses[i].T = float64(i) / 100
	}
	newton := Run{Losses: []protocol.Point{{Step: 1, Loss: 2.3, T: 0.1}, {Step: 2, Loss: 0.6, T: 0.2}, {Step: 3, Loss: 0.31, T: 0.3}, {Step: 4, Loss: 0.2901, T: 0.4}, {Step: 5, Loss: 0.29, T: 0.5}}, Color: "#222", StepsPerEpoch: 1, Exact: true}
	runs := []Run{sgd, newton}
	for _, ax := range []Axes{
		{X: AxisSteps, Y: AxisLinear}, {X: AxisPasses, Y: AxisLog}, {X: AxisSeconds, Y: AxisGap, Floor: 0.29},
	} {
		g := LayoutRuns(runs, ax, 800, 400, 1)
		if len(g.Others) != 1 || len(g.Others[0].Pts) == 0 || len(g.Smooth) == 0 {
			t.Fatalf("%+v: %d other runs, %d points in the current one", ax, len(g.Others), len(g.Smooth))
		}
		for _, p := range append(g.Others[0].Pts, g.Smooth...) {
			if p.X < g.Left-1e-9 || p.X > g.Right+1e-9 || p.Y < g.Top-1e-9 || p.Y > g.Bottom+1e-9 || math.IsNaN(p.Y) {
				t.Fatalf("%+v: point %v outside the plot area", ax, p)
			}
		}
		if ax.X == AxisPasses {
			// 300 steps of 100 per pass are 3 passes; Newton's 5 steps are 5.
			if last := g.XTicks[len(g.XTicks)-1].Label; last != "5" {
				t.Errorf("passes axis ends at %s, want 5", last)
			}
		}
	}
	// On J − J*, Newton's last point (J = J*) has no place and is left out;
	// its gaps fall by orders of magnitude.
	g := LayoutRuns(runs, Axes{X: AxisSteps, Y: AxisGap, Floor: 0.29}, 800, 400, 1)
	if len(g.Smooth) >= 5 {
		t.Errorf("the point at J* was drawn on a logarithmic axis of J − J*")
	}
	labels := ""
	for _, tk := range g.LossTicks {
		labels += tk.Label + " "
	}
	if !strings.Contains(labels, "0.001") && !strings.Contains(labels, "0.0001") {
		t.Errorf("the J − J* axis does not reach 1e-3: %s", labels)
	}
}

// TestLayoutRunsMarksTheStepShown: the keyframe the slider shows is
// marked where its step stands on each x axis, in its run's colour; a
// chart without a marked run marks nothing.
func TestLayoutRunsMarksTheStepShown(t *testing.T) {
	run := Run{Losses: linePoints(200, func(i int) float64 { return 1 / float64(i+1) }), Color: "#0072b2", StepsPerEpoch: 100}
	for i := range run.Losses {
		run.Losses[i].T = float64(run.Losses[i].Step) / 1000
	}
	if g := LayoutRuns([]Run{run}, Axes{X: AxisSteps, Y: AxisLinear}, 800, 400, 1); !math.IsNaN(g.Mark) {
		t.Errorf("nothing marked, but the mark is at %v", g.Mark)
	}
	run.Mark, run.Marked = 100, true
	for _, ax := range []Axes{{X: AxisSteps, Y: AxisLinear}, {X: AxisPasses, Y: AxisLog}, {X: AxisSeconds, Y: AxisLinear}} {
		g := LayoutRuns([]Run{run}, ax, 800, 400, 1)
		// Step 100 is half of 200 steps, 2 passes and 0.2 s: half way
		// along an axis whose last tick is the data's end.
		want := (g.Left + g.Right) / 2
		if math.Abs(g.Mark-want) > 1e-9 || g.MarkColor != "#0072b2" {
			t.Errorf("%+v: the mark is at %v in %s, want %v", ax, g.Mark, g.MarkColor, want)
		}
	}
	run.Mark = 0
	if g := LayoutRuns([]Run{run}, Axes{X: AxisSeconds, Y: AxisLinear}, 800, 400, 1); g.Mark != g.Left {
		t.Errorf("step 0 is marked at %v, not at the axis's start %v", g.Mark, g.Left)
	}
}

// TestCeilingOfMatchesSorting: ceilingOf selects the 90th percentile
// instead of sorting; on random losses with ties, outliers, zeros and
// negative values it gives what sorting gives, and kthSmallest gives every
// order statistic.
func TestCeilingOfMatchesSorting(t *testing.T) {
	bySorting := func(v []float64) float64 {
		if len(v) == 0 {
			return 1
		}
		s := slices.Clone(v)
		slices.Sort(s)
		limit := 10 * s[int(0.9*float64(len(s)-1))]
		top := s[0]
		for _, x := range s {
			if x <= limit {
				top = x
			}
		}
		if top <= 0 {
			return 1
		}
		return top
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 60 {
		for trial := range 20 {
			v := make([]float64, n)
			for i := range v {
				switch rng.IntN(6) {
				case 0:
					v[i] = float64(rng.IntN(4)) // ties
				case 1:
					v[i] = 1e6 * rng.Float64() // outliers
				case 2:
					v[i] = -rng.Float64()
				default:
					v[i] = 2.3 * rng.Float64()
				}
			}
			if trial == 0 {
				for i := range v {
					v[i] = 0.5 // all equal
				}
			}
			want := bySorting(v)
			sorted := slices.Clone(v)
			slices.Sort(sorted)
			for k := range n {
				if got := kthSmallest(slices.Clone(v), k); got != sorted[k] {
					t.Fatalf("kthSmallest(%v, %d) = %v, want %v", v, k, got, sorted[k])
				}
			}
			if got := ceilingOf(v); got != want {
				t.Fatalf("ceilingOf(%v) = %v, sorting gives %v", v, got, want)
			}
		}
	}
}

// TestLayoutRunsIntoLaysOutOnlyWhatChanged: LayoutRunsInto lays the chart
// out again only when something it draws has changed since its last call,
// and otherwise returns the geometry a fresh layout would give. A point
// changed in place, in a slice of the same length (a run rewound and
// trained again), is a change; so is every run's field, the axes and the
// canvas's size. A loss axis J − J* with J* not yet known (NaN) is the
// same axis from call to call.
func TestLayoutRunsIntoLaysOutOnlyWhatChanged(t *testing.T) {
	other := Run{Losses: linePoints(400, func(i int) float64 { return 0.3 + 2/float64(i+1) }), Color: "#111", StepsPerEpoch: 100, Exact: true}
	cur := Run{Losses: linePoints(300, func(i int) float64 { return 0.4 + 1/float64(i+1) }), Acc: []AccPoint{{1, 100, 0.8, 1}, {2, 200, 0.85, 2}}, Color: "#222", StepsPerEpoch: 100}
	for i := range cur.Losses {
		cur.Losses[i].T = float64(i) / 50
	}
	runs := []Run{other, cur}
	ax, w, h, scale := Axes{X: AxisSteps, Y: AxisGap, Floor: math.NaN()}, 800.0, 400.0, 2.0
	var sc Scratch
	check := func(what string, wantLayout bool) {
		t.Helper()
		before := sc.Layouts()
		g := LayoutRunsInto(&sc, runs, ax, w, h, scale)
		if laid := sc.Layouts() > before; laid != wantLayout {
			t.Errorf("%s: laid out again %v, want %v", what, laid, wantLayout)
		}
		if want := LayoutRuns(runs, ax, w, h, scale); fmt.Sprintf("%#v", g) != fmt.Sprintf("%#v", want) {
			t.Errorf("%s: the geometry is not a fresh layout's", what)
		}
	}
	check("the first call", true)
	check("the same inputs", false)
	runs = []Run{other, cur} // new slices, the same points
	check("the same points in new slices", false)
	cur.Losses[150].Loss = 5
	runs[1] = cur
	check("a point changed in place", true)
	check("the same again", false)
	cur.Losses = cur.Losses[:200]
	runs[1] = cur
	check("a run rewound", true)
	cur.Losses = append(cur.Losses, linePoints(100, func(i int) float64 { return 3 })...)
	runs[1] = cur
	check("trained again to the same length, in the same slice", true)
	cur.Acc[1].Acc = 0.9
	runs[1] = cur
	check("an accuracy changed in place", true)
	for _, change := range []struct {
		name string
		f    func()
	}{
		{"the mark", func() { runs[1].Mark, runs[1].Marked = 50, true }},
		{"the colour", func() { runs[0].Color = "#333" }},
		{"exact", func() { runs[0].Exact = false }},
		{"steps per pass", func() { runs[1].StepsPerEpoch = 10 }},
		{"a run hidden", func() { runs = runs[1:] }},
		{"the x axis", func() { ax.X = AxisPasses }},
		{"J*", func() { ax.Floor = 0.3 }},
		{"the loss axis", func() { ax.Y = AxisLinear }},
		{"the width", func() { w = 700 }},
		{"the height", func() { h = 300 }},
		{"the pixel ratio", func() { scale = 1 }},
	} {
		change.f()
		check(change.name, true)
		check(change.name+", then nothing", false)
	}
}

// BenchmarkLayoutRunsInto lays out a run of 6,000 steps beside another:
// anew, a few points longer each time, as while training; and again with
// nothing changed, which compares the points with the last layout's.
func BenchmarkLayoutRunsInto(b *testing.B) {
	all := linePoints(6100, func(i int) float64 { return 0.3 + 2/float64(i+1) + 0.05*math.Sin(float64(i)) })
	other := Run{Losses: linePoints(6000, func(i int) float64 { return 0.25 + 2/float64(i+1) }), Color: "#111", StepsPerEpoch: 100}
	ax := Axes{X: AxisSteps, Y: AxisLinear}
	b.Run("anew", func(b *testing.B) {
		var sc Scratch
		n := 6000
		for b.Loop() {
			n++
			if n > len(all) {
				n = 6000
			}
			LayoutRunsInto(&sc, []Run{other, {Losses: all[:n], Color: "#222", StepsPerEpoch: 100}}, ax, 1200, 600, 2)
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		var sc Scratch
		runs := []Run{other, {Losses: all[:6000], Color: "#222", StepsPerEpoch: 100}}
		LayoutRunsInto(&sc, runs, ax, 1200, 600, 2)
		for b.Loop() {
			LayoutRunsInto(&sc, runs, ax, 1200, 600, 2)
		}
	})
}
