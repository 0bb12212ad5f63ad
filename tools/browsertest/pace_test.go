package browsertest

import (
	"context"
	"math"
	"strconv"
	"testing"
	"time"
)

// stepRate reads the page's own step counter (#status data-step) over d
// and returns steps per second.
func stepRate(t *testing.T, ctx context.Context, d time.Duration) float64 {
	t.Helper()
	step := func() (int, time.Time) {
		n, err := strconv.Atoi(attr(t, ctx, "#status", "data-step"))
		if err != nil {
			t.Fatalf("#status data-step: %v", err)
		}
		return n, time.Now()
	}
	s0, t0 := step()
	time.Sleep(d)
	s1, t1 := step()
	return float64(s1-s0) / t1.Sub(t0).Seconds()
}

// TestPaceSlowsARunAndChangesDuringIt: at a slow stop the step counter
// advances at the chosen rate; changing the pace during the run keeps the
// run and its steps.
func TestPaceSlowsARunAndChangesDuringIt(t *testing.T) {
	ctx := openPage(t)
	if v, _ := eval[string](ctx, `document.getElementById("pace").value`); v != "50" {
		t.Errorf("the default pace is %q, want 50 steps a second", v)
	}
	choose(t, ctx, "pace", "10")
	setField(t, ctx, "epochs", "100")
	click(t, ctx, "train")
	waitState(t, ctx, 5*time.Second, "training")
	time.Sleep(time.Second) // past the start
	run := attr(t, ctx, "#status", "data-run")
	if r := stepRate(t, ctx, 4*time.Second); math.Abs(r-10) > 2 {
		t.Errorf("at 10 steps a second the page counted %.1f steps a second", r)
	} else {
		t.Logf("at 10 steps a second: %.2f", r)
	}
	before, _ := strconv.Atoi(attr(t, ctx, "#status", "data-step"))
	choose(t, ctx, "pace", "3")
	time.Sleep(time.Second)
	if r := stepRate(t, ctx, 4*time.Second); math.Abs(r-3) > 1 {
		t.Errorf("at 3 steps a second the page counted %.1f steps a second", r)
	} else {
		t.Logf("at 3 steps a second: %.2f", r)
	}
	after, _ := strconv.Atoi(attr(t, ctx, "#status", "data-step"))
	if r := attr(t, ctx, "#status", "data-run"); r != run || after <= before {
		t.Errorf("changing the pace went from run %s step %d to run %s step %d", run, before, r, after)
	}
	// The slowest stop: the times at which the page's step counter moves,
	// recorded in the page, give the real rate and its jitter.
	if _, err := eval[bool](ctx, `(() => {
		const s = document.getElementById("status");
		window.stepTimes = [];
		new MutationObserver(() => stepTimes.push(performance.now())).observe(s, {attributes: true, attributeFilter: ["data-step"]});
		return true;
	})()`); err != nil {
		t.Fatal(err)
	}
	choose(t, ctx, "pace", "1")
	time.Sleep(7 * time.Second)
	times, err := eval[[]float64](ctx, `stepTimes`)
	if err != nil {
		t.Fatal(err)
	}
	var gaps []float64
	for i := 2; i < len(times); i++ { // the first gap spans the change of pace
		gaps = append(gaps, times[i]-times[i-1])
	}
	if len(gaps) < 3 {
		t.Fatalf("at one step a second the counter moved %d times in 7 s", len(times))
	}
	mean, sd := 0.0, 0.0
	for _, g := range gaps {
		mean += g / float64(len(gaps))
	}
	for _, g := range gaps {
		sd += (g - mean) * (g - mean) / float64(len(gaps))
	}
	sd = math.Sqrt(sd)
	t.Logf("at one step a second: %.3f steps a second, gaps %.0f ms ± %.0f ms (%d gaps)", 1000/mean, mean, sd, len(gaps))
	if mean < 800 || mean > 1250 {
		t.Errorf("at one step a second the steps came %.0f ms apart", mean)
	}
	choose(t, ctx, "pace", "full")
	if r := stepRate(t, ctx, time.Second); r < 100 {
		t.Errorf("back at full speed the page counted only %.0f steps a second", r)
	}
	click(t, ctx, "pause")
	waitState(t, ctx, 10*time.Second, "paused", "done")
}
