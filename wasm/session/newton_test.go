package session

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

var newtonCfg = protocol.Config{L2: 1e-3, Seed: 1, Method: "newton"}

func TestNewtonToDone(t *testing.T) {
	h, _ := loaded(t, 1000)
	h.send(protocol.Train{Config: newtonCfg})
	all := h.until(done)
	last := all[len(all)-1].(protocol.Progress)
	all = append(all, h.until(func(m protocol.Msg) bool { _, ok := m.(protocol.Evaluated); return ok })...)
	n := last.Iteration

	t.Run("converges and says why", func(t *testing.T) {
		if last.Run != 1 || last.Method != "newton" || last.Stop != "converged" || n < 2 || n > 15 ||
			last.Step != n || last.GradNorm > 1e-5 || last.GradNorm <= 0 || last.CGSteps < 1 ||
			!strings.HasPrefix(last.Reason, "‖∇J‖ ≤ 1e-05 after ") || last.PerEpoch != 1000 ||
			last.Seen != int64(last.Epoch)*1000 || last.Rate <= 0 || last.PerSecond <= 0 {
			t.Errorf("last Progress %+v", last)
		}
	})
	t.Run("reports J once per iteration, never rising", func(t *testing.T) {
		var pts []protocol.Point
		for _, p := range only[protocol.Progress](all) {
			pts = append(pts, p.Losses...)
		}
		if len(pts) != n+1 {
			t.Fatalf("%d points for %d iterations", len(pts), n)
		}
		for i, p := range pts {
			if p.Step != i || (i > 0 && p.Loss > pts[i-1].Loss) {
				t.Errorf("point %d: %+v after %+v", i, p, pts[max(i-1, 0)])
			}
		}
	})
	t.Run("evaluates and sends the weights at every iteration", func(t *testing.T) {
		ev := only[protocol.Evaluated](all)
		ws := only[protocol.Weights](all)
		if len(ev) != n+1 || len(ws) != n+1 {
			t.Fatalf("%d Evaluated and %d Weights for %d iterations", len(ev), len(ws), n)
		}
		for i := range ev {
			if ev[i].Step != i || ws[i].Step != i || ev[i].Run != 1 {
				t.Errorf("iteration %d: %+v, weights at %d", i, ev[i], ws[i].Step)
			}
		}
		if e := ev[n]; e.Accuracy < 0.9 {
			t.Errorf("final evaluation %+v", e)
		}
	})
	t.Run("the weights are core/newton's, as float32", func(t *testing.T) {
		pack, err := dataset.Decode(synthPack(t, 1000, 200))
		if err != nil {
			t.Fatal(err)
		}
		s, err := newton.New(softmax.FromSet[float64](pack.Train), dataset.Pixels, softmax.Objective{Lambda: 1e-3}, newton.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		for s.Iterate().Stop == newton.Running {
		}
		ws := only[protocol.Weights](all)
		w := ws[len(ws)-1]
		for i, v := range s.Model().W {
			if math.Float32bits(float32(v)) != math.Float32bits(w.W[i]) {
				t.Fatalf("weight %d: %v, core/newton %v", i, w.W[i], v)
			}
		}
		if s.Stats().Iteration != n {
			t.Errorf("core/newton took %d iterations, the session %d", s.Stats().Iteration, n)
		}
	})
	t.Run("other slices give the same bits", func(t *testing.T) {
		env := newEnv(5 * time.Millisecond) // about two chunks per slice
		h2 := start(t, env)
		h2.send(env.serve("synth", "synth.mnpk", synthPack(t, 1000, 200)))
		untilType[protocol.Samples](h2)
		other := finalWeights(t, h2, newtonCfg)
		ws := only[protocol.Weights](all)
		if w := ws[len(ws)-1]; !sameBits(w.W, other.W) || !sameBits(w.B, other.B) {
			t.Error("weights differ")
		}
	})
}

func TestNewtonStep(t *testing.T) {
	h, _ := loaded(t, 300)
	h.send(protocol.Reset{Config: newtonCfg})
	if p := h.next().(protocol.Progress); p.Run != 1 || p.Step != 0 || p.State != "paused" || p.Method != "newton" {
		t.Errorf("after Reset: %+v", p)
	}
	h.next() // the zero weights
	for i := 0; i <= 2; i++ {
		h.send(protocol.Step{Config: newtonCfg})
		p := h.next().(protocol.Progress)
		if p.Run != 1 || p.Step != i || p.State != "paused" || len(p.Losses) != 1 || p.Losses[0].Step != i {
			t.Fatalf("step %d: %+v", i, p)
		}
		if w := h.next().(protocol.Weights); w.Step != i {
			t.Fatalf("step %d: Weights at %d", i, w.Step)
		}
		if e := h.next().(protocol.Evaluated); e.Step != i {
			t.Fatalf("step %d: Evaluated at %d", i, e.Step)
		}
	}
}

func TestNewtonInvalidConfig(t *testing.T) {
	tests := []struct {
		name string
		edit func(*protocol.Config)
		want string
	}{
		{"a negative tolerance", func(c *protocol.Config) { c.GradTol = -1 }, "gradient tolerance -1"},
		{"negative iterations", func(c *protocol.Config) { c.NewtonIters = -3 }, "iterations -3"},
		{"a negative CG cap", func(c *protocol.Config) { c.CGSteps = -1 }, "CG steps -1"},
		{"a NaN L2", func(c *protocol.Config) { c.L2 = math.NaN() }, "L2 strength NaN"},
		{"an unknown method", func(c *protocol.Config) { c.Method = "magic" }, `method "magic"`},
	}
	for _, tt := range tests {
		for _, cmd := range []string{"train", "step", "reset"} {
			t.Run(tt.name+" is refused by "+cmd, func(t *testing.T) {
				h, _ := loaded(t, 100)
				bad := newtonCfg
				tt.edit(&bad)
				checkRefused(t, h, cmd, bad, tt.want)
			})
		}
	}
}

// TestSwitchMethods: a new method starts a new run, and the old run's
// events stop, as with any other change of shape.
func TestSwitchMethods(t *testing.T) {
	h, _ := loaded(t, 1000)
	h.send(protocol.Train{Config: protocol.Config{L2: 1e-6, Method: "newton", GradTol: 1e-300, NewtonIters: 10000}})
	untilType[protocol.Evaluated](h)
	sgd := protocol.Config{LearningRate: 0.5, BatchSize: 100, Epochs: 1, Seed: 1}
	h.send(protocol.Train{Config: sgd})
	all := h.until(done)
	ps := only[protocol.Progress](all)
	i := slices.IndexFunc(ps, func(p protocol.Progress) bool { return p.Run == 2 })
	if i < 0 {
		t.Fatal("no Progress of run 2")
	}
	for _, p := range ps[i:] {
		if p.Run != 2 || p.Method != "sgd" {
			t.Errorf("after the switch: %+v", p)
		}
	}
	h.send(protocol.Train{Config: protocol.Config{LearningRate: 0.5, BatchSize: 7, Epochs: 3, Seed: 1, Method: "gd"}})
	last := h.until(done)
	p := only[protocol.Progress](last)
	if l := p[len(p)-1]; l.Run != 3 || l.Method != "gd" || l.Step != 3 || l.Epoch != 3 || l.Seen != 3000 {
		t.Errorf("full-batch gradient descent: %+v", l)
	}
	h.send(protocol.Train{Config: newtonCfg})
	if p := h.until(done); p[len(p)-1].(protocol.Progress).Run != 4 {
		t.Errorf("back to Newton: %+v", p[len(p)-1])
	}
}
