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
	needBrowser(t)
	srv := startServer(t)
	ctx := openReady(t, srv.URL)
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
	choose(t, ctx, "pace", "full")
	if r := stepRate(t, ctx, time.Second); r < 100 {
		t.Errorf("back at full speed the page counted only %.0f steps a second", r)
	}
	click(t, ctx, "pause")
	waitState(t, ctx, 10*time.Second, "paused", "done")
}
