package browsertest

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestNewtonThenSGDOnOneChart: Newton's method, chosen in #method, trains
// to ‖∇J‖ ≤ 1e-5 or ‖∇J‖ ≤ 3e-5·‖∇J₀‖ (the default rule; ‖∇J₀‖, at θ = 0,
// is 1.04 for the raw default pack and 1.16 straightened, so ‖∇J‖ ends
// below 3.5e-5) in at most 20 outer iterations, showing its iterations,
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
	if iters < 2 || iters > 20 || grad > 3.5e-5 || grad <= 0 {
		t.Errorf("Newton stopped after %d iterations with ‖∇J‖ = %g: want at most 20, and ≤ 3e-5·‖∇J₀‖", iters, grad)
	}
	if s, _ := eval[string](ctx, `document.getElementById("status").textContent`); !strings.Contains(s, "‖∇J‖") {
		t.Errorf("the status says %q, not why Newton stopped", s)
	}
	choose(t, ctx, "method", "sgd")
	setField(t, ctx, "epochs", "2")
	trainRun(t, ctx, 90*time.Second)
	runs := twoFinishedRuns(t, ctx, "sgd", "newton")
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

// TestHessianViewShowsWhyNewtonNeedsLambda: the Hessian of the 7×7 problem,
// computed on request, is singular with λ = 0 (one zero eigenvalue per
// feature plus nine per blank pixel), less so with digit 0 pinned (nine per
// blank pixel), and has only the bias's ψ left with λ > 0; its image is
// drawn.
func TestHessianViewShowsWhyNewtonNeedsLambda(t *testing.T) {
	ctx := openPage(t)
	start := time.Now()
	click(t, ctx, "hessian-show")
	var zero []int
	if !eventually(60*time.Second, func() bool {
		zero, _ = eval[[]int](ctx, `[...document.querySelectorAll("#hessian-eigen tbody tr")].map(r => +r.dataset.zero)`)
		return len(zero) == 3
	}) {
		t.Fatalf("the Hessian's eigenvalues did not appear: %s", pageText(ctx))
	}
	t.Logf("the Hessian view filled %v after the click", time.Since(start).Round(10*time.Millisecond))
	blank := (zero[0] - 50) / 9
	if zero[0] != 50+9*blank || zero[1] != 9*blank || zero[2] != 1 {
		t.Errorf("zero eigenvalues %v: want 50 + 9k, 9k and 1", zero)
	}
	inked, _ := eval[int](ctx, `(() => {
		const c = document.getElementById("hessian");
		const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		let n = 0;
		for (let i = 0; i < d.length; i += 4) if (d[i] !== 255 || d[i + 1] !== 255 || d[i + 2] !== 255) n++;
		return n;
	})()`)
	if inked < 500*500/20 {
		t.Errorf("the Hessian's image has %d coloured pixels of 250,000", inked)
	}
}
