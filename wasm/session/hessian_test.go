package session

import (
	"errors"
	"strings"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// TestHessianViewShowsTheNullSpace: on the synthetic pack's 7×7 images,
// the Hessian at λ = 0 has one zero eigenvalue per feature plus nine per
// pixel blank in every image; pinning leaves nine per blank pixel; λ > 0
// leaves only the bias's ψ.
func TestHessianViewShowsTheNullSpace(t *testing.T) {
	h, _ := loaded(t, 300)
	h.send(protocol.Hessian{L2: 1e-3})
	_, v := untilType[protocol.HessianView](h)
	if v.N != 500 || len(v.Image) != 500*500 || len(v.Cases) != 3 {
		t.Fatalf("view of %d parameters, %d pixels, %d cases", v.N, len(v.Image), len(v.Cases))
	}
	plain, pinned, l2 := v.Cases[0], v.Cases[1], v.Cases[2]
	blank := (plain.Zero - 50) / 9
	if plain.Zero != 50+9*blank || blank < 0 {
		t.Errorf("λ = 0: %d zero eigenvalues, not 50 + 9 × blank pixels", plain.Zero)
	}
	if pinned.Zero != 9*blank {
		t.Errorf("pinned: %d zero eigenvalues, want %d (nine per blank pixel)", pinned.Zero, 9*blank)
	}
	if l2.Zero != 1 || l2.Lambda != 1e-3 {
		t.Errorf("λ = %g: %d zero eigenvalues, want 1 (the bias's ψ)", l2.Lambda, l2.Zero)
	}
	if l2.Smallest[1] < 1e-6*l2.Largest {
		t.Errorf("λ = 1e-3: the smallest eigenvalue after ψ_b is %g, of a largest %g", l2.Smallest[1], l2.Largest)
	}
	// The image is symmetric, like H.
	for i := 0; i < 500; i += 37 {
		for k := 0; k < 500; k += 41 {
			if v.Image[i*500+k] != v.Image[k*500+i] {
				t.Fatalf("image not symmetric at %d, %d", i, k)
			}
		}
	}
}

// TestFailuresNamedForWhatTheyAre: a Hessian that cannot be formed and a
// Newton run that cannot start are each reported under their own key and
// hint, not as refused settings; a refused λ still is one.
func TestFailuresNamedForWhatTheyAre(t *testing.T) {
	broken := errors.New("broken on purpose")
	tests := []struct {
		name      string
		fault     func() (restore func())
		send      func(h *harness)
		key, hint string
		detail    string // in Args[0], if not empty
	}{
		{
			name: "a Hessian that cannot be formed is err.hessian",
			fault: func() func() {
				f := formHessian
				formHessian = func(*softmax.Examples[float64], *softmax.Model[float64], softmax.Objective) ([]float64, error) {
					return nil, broken
				}
				return func() { formHessian = f }
			},
			send: func(h *harness) { h.send(protocol.Hessian{L2: 1e-3}) },
			key:  "err.hessian", hint: hintHessian, detail: "broken on purpose",
		},
		{
			name: "eigenvalues that do not converge are err.hessian",
			fault: func() func() {
				f := eigenvalues
				eigenvalues = func([]float64, int) ([]float64, error) { return nil, broken }
				return func() { eigenvalues = f }
			},
			send: func(h *harness) { h.send(protocol.Hessian{L2: 1e-3}) },
			key:  "err.hessian", hint: hintHessian, detail: "broken on purpose",
		},
		{
			name: "a refused λ for the Hessian is still err.config",
			send: func(h *harness) { h.send(protocol.Hessian{L2: -1}) },
			key:  "err.config", hint: hintConfig,
		},
		{
			name: "a solver that refuses the data is err.newtonStart",
			fault: func() func() {
				f := newSolver
				newSolver = func(newton.Passes, int, int, softmax.Objective, newton.Settings) (*newton.Solver, error) {
					return nil, broken
				}
				return func() { newSolver = f }
			},
			send: func(h *harness) { h.send(protocol.Train{Config: newtonCfg}) },
			key:  "err.newtonStart", hint: hintNewton, detail: "broken on purpose",
		},
		{
			name: "a loaded model for Newton's method is err.newtonModel",
			send: func(h *harness) {
				m := softmax.New[float32](dataset.Pixels)
				h.send(protocol.UseModel{Config: newtonCfg, D: m.D, W: m.W, B: m.B})
			},
			key: "err.newtonModel", hint: hintNewton,
		},
		{
			name: "a refused Newton setting is still err.config",
			send: func(h *harness) {
				c := newtonCfg
				c.CGSteps = -1
				h.send(protocol.Train{Config: c})
			},
			key: "err.config", hint: hintConfig, detail: "CG steps -1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.fault != nil {
				t.Cleanup(tt.fault())
			}
			h, _ := loaded(t, 300)
			tt.send(h)
			_, f := untilType[protocol.Failed](h)
			if f.Key != tt.key || f.Hint != tt.hint {
				t.Fatalf("Failed %+v, want key %s and hint %s", f, tt.key, tt.hint)
			}
			if tt.detail != "" && (len(f.Args) != 1 || !strings.Contains(f.Args[0], tt.detail)) {
				t.Errorf("Failed args %q, want the detail %q", f.Args, tt.detail)
			}
			if tt.detail == "" && tt.key != "err.config" && len(f.Args) != 0 {
				t.Errorf("Failed args %q for a key without arguments", f.Args)
			}
			if strings.HasPrefix(f.Message, tt.key) {
				t.Errorf("Message %q: %s has no English form in failures", f.Message, tt.key)
			}
			// The session goes on: it still answers.
			h.send(protocol.Evaluate{})
			h.send(protocol.Train{Config: protocol.Config{LearningRate: 0.5, BatchSize: 100, Epochs: 1, Seed: 1}})
			if last := h.until(done); len(only[protocol.Failed](last)) != 0 {
				t.Errorf("after the failure: %+v", only[protocol.Failed](last))
			}
		})
	}
}
