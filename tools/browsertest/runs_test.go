package browsertest

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// runEntry is one child of #runs as a person (and a tool) reads it.
type runEntry struct {
	Run, Method, Loss, Acc, Label string
}

// twoFinishedRuns waits until #runs lists two runs, each with its test
// accuracy, checks that the newer was trained by the method newer and the
// older by older, and returns them, newest first.
func twoFinishedRuns(t *testing.T, ctx context.Context, newer, older string) []runEntry {
	t.Helper()
	var runs []runEntry
	if !eventually(5*time.Second, func() bool {
		runs, _ = eval[[]runEntry](ctx, `[...document.querySelectorAll("#runs > li")].map(e => ({Run: e.dataset.run, Method: e.dataset.method, Loss: e.dataset.finalLoss, Acc: e.dataset.testAccuracy, Label: e.innerText}))`)
		return len(runs) == 2 && runs[0].Acc != "" && runs[1].Acc != ""
	}) {
		t.Fatalf("#runs holds %+v, want two finished runs", runs)
	}
	if runs[0].Method != newer || runs[1].Method != older {
		t.Errorf("the runs' methods are %s and %s, want %s then %s", runs[0].Method, runs[1].Method, newer, older)
	}
	return runs
}

// TestRunsAreComparedOnOneChart: two runs with different methods both stay
// in #runs with their final loss and accuracy; the x axis switches between
// steps, passes and seconds, the loss axis to logarithmic and to J − J*;
// Reset clears only the current run.
func TestRunsAreComparedOnOneChart(t *testing.T) {
	ctx := openPage(t)
	setField(t, ctx, "epochs", "2")
	trainRun(t, ctx, 60*time.Second)
	choose(t, ctx, "preset", "full")
	setField(t, ctx, "epochs", "5")
	trainRun(t, ctx, 60*time.Second)
	// Newest first: full-batch gradient descent, then minibatch SGD.
	runs := twoFinishedRuns(t, ctx, "gd", "sgd")
	for _, r := range runs {
		loss, err1 := strconv.ParseFloat(r.Loss, 64)
		acc, err2 := strconv.ParseFloat(r.Acc, 64)
		if err1 != nil || err2 != nil || loss <= 0 || loss > 2.31 || acc < 0.5 || acc > 1 {
			t.Errorf("run %s: final loss %q, accuracy %q", r.Run, r.Loss, r.Acc)
		}
	}
	if !strings.Contains(runs[1].Label, "B = 100") || !strings.Contains(runs[0].Label, "Full-batch") {
		t.Errorf("the legend does not name the settings: %q, %q", runs[0].Label, runs[1].Label)
	}
	for _, ax := range []struct{ id, value string }{{"x-axis", "passes"}, {"x-axis", "seconds"}, {"y-axis", "log"}, {"y-axis", "gap"}} {
		choose(t, ctx, ax.id, ax.value)
		attrName := map[string]string{"x-axis": "data-x", "y-axis": "data-y"}[ax.id]
		if !eventually(3*time.Second, func() bool { return attr(t, ctx, "#loss-chart", attrName) == ax.value }) {
			t.Errorf("choosing %s = %s left the chart at %s", ax.id, ax.value, attr(t, ctx, "#loss-chart", attrName))
		}
	}
	click(t, ctx, "reset")
	if !eventually(5*time.Second, func() bool {
		n, _ := eval[int](ctx, `document.querySelectorAll("#runs > li[data-method='gd'][data-final-loss]:not([data-final-loss=''])").length`)
		m, _ := eval[int](ctx, `document.querySelectorAll("#runs > li[data-method='sgd']").length`)
		return n == 0 && m == 1
	}) {
		t.Errorf("Reset did not clear only the current run: %s", pageText(ctx))
	}
}
