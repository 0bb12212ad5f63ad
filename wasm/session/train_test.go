package session

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// defaults is train.Defaults as the page sends it.
var defaults = protocol.Config{LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: 5, Seed: 1}

func TestTrainToDone(t *testing.T) {
	h, _ := loaded(t, 1000) // 10 steps an epoch
	h.send(protocol.Train{Config: defaults})
	all := h.until(done)
	last := all[len(all)-1].(protocol.Progress)
	all = append(all, h.until(func(m protocol.Msg) bool { _, ok := m.(protocol.Evaluated); return ok })...)

	t.Run("ends with the budget spent", func(t *testing.T) {
		if last.Run != 1 || last.Stop != "budget" || last.Epoch != 5 || last.Epochs != 5 ||
			last.Step != 50 || last.Seen != 5000 || last.PerEpoch != 1000 || last.Rate != 0.5 {
			t.Errorf("last Progress %+v", last)
		}
	})
	t.Run("reports every step's loss once, in order", func(t *testing.T) {
		var steps []int
		for _, p := range only[protocol.Progress](all) {
			for _, pt := range p.Losses {
				steps = append(steps, pt.Step)
			}
		}
		if len(steps) != 50 || !slices.IsSorted(steps) || steps[0] != 1 {
			t.Errorf("loss points at steps %v", steps)
		}
	})
	t.Run("evaluates after every epoch", func(t *testing.T) {
		ev := only[protocol.Evaluated](all)
		if len(ev) != 5 {
			t.Fatalf("%d Evaluated events, want 5", len(ev))
		}
		for i, e := range ev {
			if e.Epoch != i+1 || e.Step != 10*(i+1) || e.Run != 1 {
				t.Errorf("Evaluated %d: %+v", i, e)
			}
		}
		if e := ev[4]; e.Accuracy < 0.9 || e.Loss <= 0 || e.Likelihood <= 0 || e.PerClass[3] < 0.5 {
			t.Errorf("final evaluation %+v", e)
		}
	})
	t.Run("sends the final weights", func(t *testing.T) {
		ws := only[protocol.Weights](all)
		if len(ws) == 0 || ws[len(ws)-1].Step != 50 || ws[len(ws)-1].D != dataset.Pixels {
			t.Errorf("%d Weights events, the last %+v", len(ws), ws[len(ws)-1])
		}
	})
	t.Run("measures the speed", func(t *testing.T) {
		if last.PerSecond <= 0 {
			t.Errorf("PerSecond %v", last.PerSecond)
		}
	})
	t.Run("reports its heap once the run rests, not while it trains", func(t *testing.T) {
		if last.Heap == 0 {
			t.Error("the final Progress carries no heap")
		}
		for _, p := range only[protocol.Progress](all) {
			if p.State == "training" && p.Heap != 0 {
				t.Errorf("a Progress while training carries a heap of %d bytes", p.Heap)
			}
		}
	})
}

func TestLossPointsPerEpoch(t *testing.T) {
	h, _ := loaded(t, 1000)
	h.send(protocol.Train{Config: protocol.Config{LearningRate: 0.1, BatchSize: 1, Epochs: 2, Seed: 3}})
	n := 0
	for _, p := range only[protocol.Progress](h.until(done)) {
		n += len(p.Losses)
	}
	if n != 2*pointsPerEpoch {
		t.Errorf("%d loss points for 2 epochs of 1000 steps, want %d", n, 2*pointsPerEpoch)
	}
}

// finalWeights trains cfg to the end and returns the last Weights.
func finalWeights(t *testing.T, h *harness, cfg protocol.Config) protocol.Weights {
	t.Helper()
	w, _ := trainToEnd(t, h, cfg)
	return w
}

// checkTrainedLike trains core/train's trainer with tc on set to its end
// and checks that w holds its weights, bit for bit.
func checkTrainedLike(t *testing.T, w protocol.Weights, set *dataset.Set, tc train.Config) {
	t.Helper()
	tr, err := train.New(softmax.FromSet[float32](set), dataset.Pixels, tc)
	if err != nil {
		t.Fatal(err)
	}
	for tr.Stopped() == train.Running {
		tr.Step()
	}
	if !sameBits(w.W, tr.Model().W) || !sameBits(w.B, tr.Model().B) {
		t.Error("weights differ")
	}
}

// checkRefused sends c with the command cmd (train, step or reset) and
// checks that the session answers Failed naming want, with the hint to
// change the settings.
func checkRefused(t *testing.T, h *harness, cmd string, c protocol.Config, want string) {
	t.Helper()
	h.send(map[string]protocol.Msg{
		"train": protocol.Train{Config: c}, "step": protocol.Step{Config: c}, "reset": protocol.Reset{Config: c},
	}[cmd])
	f, ok := h.next().(protocol.Failed)
	if !ok || !strings.Contains(f.Message, want) || f.Hint != hintConfig {
		t.Errorf("got %#v, want Failed naming %q", f, want)
	}
}

func sameBits(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) })
}

func TestReproducible(t *testing.T) {
	cfg := protocol.Config{LearningRate: 0.3, BatchSize: 7, L2: 1e-3, Epochs: 3, Seed: 42, InitNormal: true,
		Decay: 0.5, DecayEvery: 1}
	h, _ := loaded(t, 500)
	a := finalWeights(t, h, cfg)
	b := finalWeights(t, h, cfg)
	if a.Run == b.Run {
		t.Errorf("training again after the end did not start a new run")
	}
	t.Run("the same config gives the same bits twice", func(t *testing.T) {
		if !sameBits(a.W, b.W) || !sameBits(a.B, b.B) {
			t.Error("weights differ")
		}
	})
	t.Run("other slices give the same bits", func(t *testing.T) {
		h, _ := loadedSliced(t, 500, 7*time.Millisecond) // far fewer steps per slice
		c := finalWeights(t, h, cfg)
		if !sameBits(a.W, c.W) || !sameBits(a.B, c.B) {
			t.Error("weights differ")
		}
	})
	t.Run("a direct core/train run gives the same bits", func(t *testing.T) {
		pack, err := dataset.Decode(synthPack(t, 500, 200))
		if err != nil {
			t.Fatal(err)
		}
		tc, err := trainConfig(cfg, 500)
		if err != nil {
			t.Fatal(err)
		}
		if tc != (train.Config{LearningRate: 0.3, BatchSize: 7, L2: 1e-3, Epochs: 3, Seed: 42, Init: train.Normal,
			InitStd: 1, Decay: 0.5, DecayEvery: 1}) {
			t.Errorf("mapped config %+v", tc)
		}
		checkTrainedLike(t, a, pack.Train, tc)
	})
}

func TestPauseAndResume(t *testing.T) {
	h, _ := loaded(t, 1000)
	cfg := protocol.Config{LearningRate: 0.1, BatchSize: 1, Epochs: 0, Seed: 1} // no epoch limit
	h.send(protocol.Train{Config: cfg})
	h.until(func(m protocol.Msg) bool { p, ok := m.(protocol.Progress); return ok && p.State == "training" })
	h.send(protocol.Pause{})
	all := h.until(func(m protocol.Msg) bool { p, ok := m.(protocol.Progress); return ok && p.State == "paused" })
	paused := all[len(all)-1].(protocol.Progress)
	if w, ok := h.next().(protocol.Weights); !ok || w.Step != paused.Step {
		t.Errorf("after the paused Progress: %#v", w)
	}
	if s, ok := h.next().(protocol.Snapshot); !ok || s.Step != paused.Step || s.Run != paused.Run {
		t.Errorf("after the paused Weights: %#v, want the run's Snapshot", s)
	}
	for range 3 {
		h.send(protocol.Evaluate{})
		if e := h.next().(protocol.Evaluated); e.Step != paused.Step || e.Run != paused.Run {
			t.Errorf("while paused at step %d: %+v", paused.Step, e)
		}
	}
	h.send(protocol.Train{Config: cfg})
	_, p := untilType[protocol.Progress](h)
	if p.Run != paused.Run || p.Step <= paused.Step || p.State != "training" {
		t.Errorf("resumed from step %d: %+v", paused.Step, p)
	}
	h.send(protocol.Pause{})
}

func TestStep(t *testing.T) {
	h, _ := loaded(t, 100)
	cfg := protocol.Config{LearningRate: 0.5, BatchSize: 10, Epochs: 2, Seed: 1}
	h.send(protocol.Reset{Config: cfg})
	if p := h.next().(protocol.Progress); p.Run != 1 || p.Step != 0 || p.State != "paused" {
		t.Errorf("after Reset: %+v", p)
	}
	if w := h.next().(protocol.Weights); w.Step != 0 || slices.ContainsFunc(w.W, func(v float32) bool { return v != 0 }) {
		t.Errorf("after Reset the weights are not fresh zeros")
	}
	for i := 1; i <= 20; i++ {
		h.send(protocol.Step{Config: cfg})
		p := h.next().(protocol.Progress)
		want := "paused"
		if i == 20 {
			want = "done"
		}
		if p.Run != 1 || p.Step != i || p.State != want || len(p.Losses) != 1 || p.Losses[0].Step != i {
			t.Fatalf("step %d: %+v", i, p)
		}
		if w := h.next().(protocol.Weights); w.Step != i {
			t.Fatalf("step %d: Weights at step %d", i, w.Step)
		}
		if i%10 == 0 {
			if e := h.next().(protocol.Evaluated); e.Epoch != i/10 {
				t.Fatalf("step %d: %+v", i, e)
			}
		}
		if s := h.next().(protocol.Snapshot); s.Step != i || s.Run != 1 {
			t.Fatalf("step %d: a Snapshot at step %d of run %d", i, s.Step, s.Run)
		}
	}
	h.send(protocol.Step{Config: cfg}) // the run is done: a new one, whose start is a keyframe
	if w := h.next().(protocol.Weights); w.Run != 2 || w.Step != 0 || !w.Key {
		t.Errorf("a step after the end: first %+v, want run 2's step-0 keyframe", w)
	}
	if p := h.next().(protocol.Progress); p.Run != 2 || p.Step != 1 {
		t.Errorf("a step after the end: %+v", p)
	}
}

func TestChangeWhileTraining(t *testing.T) {
	h, _ := loaded(t, 1000)
	cfg := protocol.Config{LearningRate: 0.5, BatchSize: 1, Epochs: 1000, Seed: 1}
	h.send(protocol.Train{Config: cfg})
	untilType[protocol.Progress](h)
	cfg.LearningRate, cfg.L2 = 0.1, 0.01
	h.send(protocol.Train{Config: cfg})
	p := only[protocol.Progress](h.until(func(m protocol.Msg) bool {
		p, ok := m.(protocol.Progress)
		return ok && p.Rate == 0.1
	}))
	if last := p[len(p)-1]; last.Run != 1 {
		t.Errorf("changing α started run %d", last.Run)
	}
	cfg.Seed = 2
	h.send(protocol.Train{Config: cfg})
	h.until(func(m protocol.Msg) bool { p, ok := m.(protocol.Progress); return ok && p.Run == 2 })
	h.send(protocol.Pause{})
}

func TestInvalidConfig(t *testing.T) {
	good := protocol.Config{LearningRate: 0.5, BatchSize: 10, Epochs: 2, Seed: 1}
	tests := []struct {
		name string
		edit func(*protocol.Config)
		want string
	}{
		{"a negative learning rate", func(c *protocol.Config) { c.LearningRate = -1 }, "learning rate -1"},
		{"a learning rate of NaN", func(c *protocol.Config) { c.LearningRate = math.NaN() }, "learning rate NaN"},
		{"a batch of 0", func(c *protocol.Config) { c.BatchSize = 0 }, "batch size 0: want 1 to 100"},
		{"a batch above m", func(c *protocol.Config) { c.BatchSize = 101 }, "batch size 101: want 1 to 100"},
		{"a negative L2", func(c *protocol.Config) { c.L2 = -1 }, "L2 strength -1"},
		{"negative epochs", func(c *protocol.Config) { c.Epochs = -1 }, "epochs -1"},
		{"a decay above 1", func(c *protocol.Config) { c.Decay, c.DecayEvery = 2, 1 }, "decay 2"},
	}
	for _, tt := range tests {
		for _, cmd := range []string{"train", "step", "reset"} {
			t.Run(tt.name+" is refused by "+cmd, func(t *testing.T) {
				h, _ := loaded(t, 100)
				h.send(protocol.Reset{Config: good})
				h.next()
				h.next()
				bad := good
				tt.edit(&bad)
				checkRefused(t, h, cmd, bad, tt.want)
				h.send(protocol.Evaluate{})
				if e, ok := h.next().(protocol.Evaluated); !ok || e.Run != 1 || e.Step != 0 {
					t.Errorf("the run changed: %#v", e)
				}
			})
		}
	}
}

func TestDivergence(t *testing.T) {
	h, _ := loaded(t, 300)
	h.send(protocol.Train{Config: protocol.Config{LearningRate: 1000, BatchSize: 10, L2: 10, Epochs: 5, Seed: 1}})
	all, f := untilType[protocol.Failed](h)
	p := only[protocol.Progress](all)
	last := p[len(p)-1]
	if last.State != "done" || last.Stop != "diverged" {
		t.Errorf("last Progress %+v", last)
	}
	if !strings.Contains(f.Message, "diverged") || !strings.Contains(f.Message, "epoch 1") ||
		f.Hint != hintDiverged || f.Key != "err.diverged" || len(f.Args) != 2 || f.Fatal {
		t.Errorf("Failed %+v", f)
	}
	ws := only[protocol.Weights](all)
	w := ws[len(ws)-1]
	m := &softmax.Model[float32]{D: w.D, W: w.W, B: w.B}
	if w.Step != last.Step || !m.Finite() {
		t.Errorf("the last weights (step %d) are not finite", w.Step)
	}
	if ev := only[protocol.Evaluated](all); len(ev) != 1 || ev[0].Step != last.Step {
		t.Errorf("evaluations %+v", ev)
	}
	h.send(protocol.Train{Config: defaults}) // recovers with a new run
	if p := h.until(done); p[len(p)-1].(protocol.Progress).Stop != "budget" {
		t.Errorf("after divergence: %+v", p[len(p)-1])
	}
}

// TestWarm: Warm sends nothing, is harmless before any data, and changes
// no result; the first event after it belongs to the next command.
func TestWarm(t *testing.T) {
	cfg := protocol.Config{LearningRate: 0.3, BatchSize: 7, Epochs: 1, Seed: 5}
	t.Run("before any data it does nothing", func(t *testing.T) {
		h := start(t, newEnv(time.Millisecond))
		h.send(protocol.Warm{})
		h.send(protocol.Evaluate{})
		if f, ok := h.next().(protocol.Failed); !ok || f.Message != "no data loaded yet" {
			t.Errorf("after Warm, got %#v, want the Failed of Evaluate", f)
		}
	})
	t.Run("a run made before it is kept", func(t *testing.T) {
		h, _ := loaded(t, 300)
		h.send(protocol.Reset{Config: cfg})
		_, p := untilType[protocol.Progress](h)
		h.send(protocol.Warm{})
		h.send(protocol.Step{Config: cfg})
		_, q := untilType[protocol.Progress](h)
		if q.Run != p.Run || q.Step != 1 || q.State != "paused" {
			t.Errorf("after Reset (run %d), Warm and Step: Progress %+v, want step 1 of the same run", p.Run, q)
		}
	})
	t.Run("a rehearsal that fails is logged, not shown", func(t *testing.T) {
		var logged []string
		defer func(f func(string, ...any)) { logf = f }(logf)
		logf = func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }
		h, env := loaded(t, 300)
		env.mu.Lock()
		env.dropPanics = true
		env.mu.Unlock()
		h.send(protocol.Warm{})
		h.send(protocol.Step{Config: cfg})
		if w, ok := h.next().(protocol.Weights); !ok || w.Run != 1 || w.Step != 0 || !w.Key {
			t.Errorf("after a failed rehearsal, got %#v, want run 1's step-0 keyframe", w)
		}
		if p, ok := h.next().(protocol.Progress); !ok || p.Run != 1 || p.Step != 1 {
			t.Errorf("after a failed rehearsal, got %#v, want step 1 of run 1", p)
		}
		if len(logged) != 1 || !strings.Contains(logged[0], "rehearsal") {
			t.Errorf("logged %q, want the rehearsal's failure", logged)
		}
	})
	cold, _ := loaded(t, 300)
	want := finalWeights(t, cold, cfg)
	warm, env := loaded(t, 300)
	warm.send(protocol.Warm{})
	warm.send(protocol.Warm{}) // a second one is a no-op
	warm.send(protocol.Train{Config: cfg})
	all := warm.until(done)
	if w, ok := all[0].(protocol.Weights); !ok || w.Run != 1 || w.Step != 0 || !w.Key {
		t.Fatalf("after Warm, got %#v, want the step-0 keyframe of Train's run", all[0])
	}
	ev, _ := untilType[protocol.Evaluated](warm)
	ws := only[protocol.Weights](append(all, ev...))
	if len(ws) == 0 {
		t.Fatal("no Weights")
	}
	if got := ws[len(ws)-1]; !sameBits(got.W, want.W) || !sameBits(got.B, want.B) || got.Run != want.Run {
		t.Errorf("a warmed session trained other weights (run %d, want %d)", got.Run, want.Run)
	}
	// It rehearsed a whole run, whose events went to Drop, once.
	env.mu.Lock()
	defer env.mu.Unlock()
	kinds := map[string]int{}
	for _, m := range env.dropped {
		kinds[protocol.Name(m)]++
		if p, ok := m.(protocol.Progress); ok && p.State == "done" {
			kinds["done"]++
		}
	}
	if kinds["done"] != 1 || kinds["evaluated"] != 1 || kinds["weights"] < 1 || kinds["snapshot"] < 1 {
		t.Errorf("the rehearsal dropped %v, want one run to done with its weights, snapshot and evaluation", kinds)
	}
}

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
			last.Step != n || last.GradNorm <= 0 || last.CGSteps < 1 ||
			!(last.GradNorm <= 1e-5 && strings.HasPrefix(last.Reason, "‖∇J‖ ≤ 1e-05 after ") ||
				strings.HasPrefix(last.Reason, "‖∇J‖ ≤ 3e-05·‖∇J₀‖ = ")) || last.PerEpoch != 1000 ||
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
		x := softmax.FromSet[float32](pack.Train)
		s, err := newton.NewWith(newton.NewLocal(x, dataset.Pixels, softmax.K), x.Len(), dataset.Pixels, softmax.Objective{Lambda: 1e-3}, newton.Settings{})
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
		h2, _ := loadedSliced(t, 1000, 5*time.Millisecond) // about two chunks per slice
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

// TestFullBatchSlices: full-batch descent, whose every step ends an
// epoch, takes as many steps a slice as fit in its time, not one, so that
// a step does not cost a turn of the browser's event loop (its slices stop
// only at its keyframes, 64 at most in the notes' run of 1000 steps); an
// SGD run still ends a slice at each epoch's end.
func TestFullBatchSlices(t *testing.T) {
	for _, c := range []struct {
		cfg       protocol.Config
		m         int
		steps     int
		manySlice bool
	}{
		{protocol.Config{LearningRate: 0.5, BatchSize: 1, Epochs: 1000, Seed: 1, Method: "gd"}, 100, 1000, true},
		{protocol.Config{LearningRate: 0.5, BatchSize: 1000, Epochs: 50, Seed: 1}, 1000, 50, false},
	} {
		h, env := loadedSliced(t, c.m, 50*time.Microsecond)
		before := env.yields.Load()
		h.send(protocol.Train{Config: c.cfg})
		all := h.until(done)
		yields := env.yields.Load() - before
		if p := only[protocol.Progress](all); p[len(p)-1].Step != c.steps {
			t.Fatalf("%s: the run ended at %+v", c.cfg.Method, p[len(p)-1])
		}
		if c.manySlice && yields > int64(c.steps)/4 {
			t.Errorf("full-batch descent: %d turns of the event loop for %d steps", yields, c.steps)
		}
		if !c.manySlice && yields < int64(c.steps)-1 { // the last turn may come after done
			t.Errorf("SGD with an epoch a step: %d turns of the event loop for %d epochs", yields, c.steps)
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
