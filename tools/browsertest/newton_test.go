package browsertest

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestNewtonThenSGDOnOneChart: Newton's method, chosen in #method, trains
// to ‖∇J‖ ≤ 1e-5 in at most 20 outer iterations, showing its iterations,
// CG steps and ‖∇J‖; a minibatch SGD run after it joins it in #runs, each
// with its final loss and accuracy, and Newton's J is the lower.
func TestNewtonThenSGDOnOneChart(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := openReady(t, strings.TrimSuffix(srv.URL, "/")+"/#method=newton&l2=0.0001&gtol=1e-5&iters=20&pace=full&lang=en")
	if m, _ := eval[string](ctx, `document.getElementById("method").value`); m != "newton" {
		t.Fatalf("the link chose method %q", m)
	}
	if vis, _ := eval[bool](ctx, `document.getElementById("lr").offsetParent === null && document.getElementById("grad-tol").offsetParent !== null`); !vis {
		t.Error("with Newton chosen, α is still shown or the tolerance is not")
	}
	start := time.Now()
	trainRun(t, ctx, 3*time.Minute)
	t.Logf("Newton trained to done %v after pressing Train", time.Since(start).Round(10*time.Millisecond))
	iters, _ := strconv.Atoi(attr(t, ctx, "#newton-iteration", "data-value"))
	grad, _ := strconv.ParseFloat(attr(t, ctx, "#grad-norm", "data-value"), 64)
	if iters < 2 || iters > 20 || grad > 1e-5 || grad <= 0 {
		t.Errorf("Newton stopped after %d iterations with ‖∇J‖ = %g: want at most 20, and ≤ 1e-5", iters, grad)
	}
	if s, _ := eval[string](ctx, `document.getElementById("status").textContent`); !strings.Contains(s, "‖∇J‖") {
		t.Errorf("the status says %q, not why Newton stopped", s)
	}
	choose(t, ctx, "method", "sgd")
	setField(t, ctx, "epochs", "2")
	trainRun(t, ctx, 90*time.Second)
	var runs []runEntry
	if !eventually(5*time.Second, func() bool {
		runs, _ = eval[[]runEntry](ctx, `[...document.querySelectorAll("#runs > li")].map(e => ({Run: e.dataset.run, Method: e.dataset.method, Loss: e.dataset.finalLoss, Acc: e.dataset.testAccuracy, Label: e.innerText}))`)
		return len(runs) == 2 && runs[0].Acc != "" && runs[1].Acc != ""
	}) {
		t.Fatalf("#runs holds %+v, want the SGD and the Newton runs", runs)
	}
	if runs[0].Method != "sgd" || runs[1].Method != "newton" {
		t.Errorf("the runs' methods are %s and %s, want sgd then newton", runs[0].Method, runs[1].Method)
	}
	jSGD, _ := strconv.ParseFloat(runs[0].Loss, 64)
	jNewton, _ := strconv.ParseFloat(runs[1].Loss, 64)
	if !(jNewton > 0 && jNewton < jSGD) {
		t.Errorf("Newton's final J %v is not below SGD's %v", jNewton, jSGD)
	}
	for _, r := range runs {
		if acc, err := strconv.ParseFloat(r.Acc, 64); err != nil || acc < 0.85 {
			t.Errorf("run %s (%s): test accuracy %q", r.Run, r.Method, r.Acc)
		}
	}
	choose(t, ctx, "y-axis", "gap")
	if !eventually(3*time.Second, func() bool { return attr(t, ctx, "#loss-chart", "data-y") == "gap" }) {
		t.Error("the chart did not switch to J − J*")
	}
}
