package browsertest

import (
	"context"
	"strconv"
	"testing"
	"time"
)

// The pacer (wasm/session/pace.go) lets a run take at most
// floor(rate·t) + 1 steps in the t seconds after a Train, however fast the
// machine; a slow or busy machine takes fewer. So the test checks that
// bound, which no machine's speed can break, against the page's own step
// counter and clock: the page notes when Train was clicked (before the
// worker hears of it) and when each step appeared (after the worker took
// it). How close a run comes to its pace is a figure of the machine, not
// a property of the page.

// stepLog starts noting, in the page, the time of every click on Train
// and every change of #status data-step, in milliseconds of the page's
// clock.
func stepLog(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := eval[bool](ctx, `(() => {
		window.trainClicks = [];
		document.addEventListener("click", e => { if (e.target.closest("#train")) trainClicks.push(performance.now()); }, true);
		window.stepTimes = [];
		const s = document.getElementById("status");
		new MutationObserver(() => stepTimes.push([performance.now(), +s.dataset.step])).observe(s, {attributes: true, attributeFilter: ["data-step"]});
		return true;
	})()`); err != nil {
		t.Fatal(err)
	}
}

// step returns #status data-step.
func step(t *testing.T, ctx context.Context) int {
	t.Helper()
	n, err := strconv.Atoi(attr(t, ctx, "#status", "data-step"))
	if err != nil {
		t.Fatalf("#status data-step: %v", err)
	}
	return n
}

// waitStep waits until the page's step counter reaches n.
func waitStep(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	if !eventually(2*time.Minute, func() bool { return step(t, ctx) >= n }) {
		t.Fatalf("the step counter did not reach %d; page says: %s", n, pageText(ctx))
	}
}

// trainPaced clicks Train with the run at step from and the pace at rate
// steps a second, waits until the page shows step from+n, and checks
// that no step appeared before the pace allowed it: step from+k not
// before (k−1)/rate seconds after the click.
func trainPaced(t *testing.T, ctx context.Context, rate float64, from, n int) {
	t.Helper()
	if _, err := eval[bool](ctx, `trainClicks.length = 0, stepTimes.length = 0, true`); err != nil {
		t.Fatal(err)
	}
	click(t, ctx, "train")
	waitStep(t, ctx, from+n)
	clicks, err := eval[[]float64](ctx, `trainClicks`)
	if err != nil || len(clicks) != 1 {
		t.Fatalf("the page noted clicks on Train at %v (%v), want one", clicks, err)
	}
	seen, err := eval[[][2]float64](ctx, `stepTimes`)
	if err != nil {
		t.Fatal(err)
	}
	// The page's clock and the worker's are both the machine's: allow
	// them 20 ms to disagree, far less than a step at these paces.
	const skew = 20
	late := 0.0
	for _, st := range seen {
		k := st[1] - float64(from)
		if k < 1 {
			continue
		}
		after := st[0] - clicks[0]
		if earliest := 1000 * (k - 1) / rate; after < earliest-skew {
			t.Errorf("at %g steps a second, step %g appeared %.0f ms after Train, before %.0f ms", rate, st[1], after, earliest)
		}
		late = max(late, after-1000*(k-1)/rate)
	}
	t.Logf("at %g steps a second: %d steps shown, at most %.0f ms after the pace allowed", rate, len(seen), late)
}

// TestPaceSlowsARunAndChangesDuringIt: a slowed run takes its steps no
// faster than its pace, from its start and after a resume at another
// pace; changing the pace during the run keeps the run and its steps; and
// full speed lifts the pace (10,000 steps, which take 55 minutes at 3 a
// second, end within the test's minutes).
func TestPaceSlowsARunAndChangesDuringIt(t *testing.T) {
	ctx := openPage(t)
	if v, _ := eval[string](ctx, `document.getElementById("pace").value`); v != "50" {
		t.Errorf("the default pace is %q, want 50 steps a second", v)
	}
	stepLog(t, ctx)
	choose(t, ctx, "pace", "10")
	setField(t, ctx, "epochs", "100")
	trainPaced(t, ctx, 10, 0, 20)
	run := attr(t, ctx, "#status", "data-run")

	before := step(t, ctx)
	choose(t, ctx, "pace", "3")
	waitStep(t, ctx, before+3)
	if r := attr(t, ctx, "#status", "data-run"); r != run {
		t.Errorf("changing the pace during the run went from run %s to run %s", run, r)
	}

	click(t, ctx, "pause")
	waitState(t, ctx, 30*time.Second, "paused")
	paused := step(t, ctx)
	trainPaced(t, ctx, 3, paused, 6)
	if r := attr(t, ctx, "#status", "data-run"); r != run {
		t.Errorf("resuming at another pace went from run %s to run %s", run, r)
	}

	choose(t, ctx, "pace", "full")
	waitState(t, ctx, 5*time.Minute, "done")
	if r, s := attr(t, ctx, "#status", "data-run"), step(t, ctx); r != run || s != 10000 {
		t.Errorf("at full speed the run ended as run %s at step %d, want run %s at step 10000", r, s, run)
	}
}
