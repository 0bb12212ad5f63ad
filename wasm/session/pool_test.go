package session

import (
	"math"
	"testing"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/metrics"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// runWith trains c to its end in a session whose pool has the given
// workers (and helpers that misbehave as fault says) and returns the last
// Weights and every event.
func runWith(t *testing.T, workers int, c protocol.Config, fault func(env *fakeEnv)) (protocol.Weights, []protocol.Msg) {
	t.Helper()
	return runHolding(t, workers, c, false, fault)
}

// runHolding is runWith whose helpers, with hold, take in nothing (hold)
// from the start.
func runHolding(t *testing.T, workers int, c protocol.Config, hold bool, fault func(env *fakeEnv)) (protocol.Weights, []protocol.Msg) {
	t.Helper()
	h, env := loaded(t, 403) // 403 images: shards of 50 and 51
	env.mu.Lock()
	env.holdHelpers = hold
	env.mu.Unlock()
	h.send(protocol.Workers{N: workers})
	_, ps := untilType[protocol.PoolState](h)
	if ps.Asked != workers || ps.Running != workers {
		t.Fatalf("asked for %d workers: %+v", workers, ps)
	}
	if !hold {
		settle(t, h, env, c)
	}
	if fault != nil {
		fault(env)
	}
	h.send(protocol.Train{Config: c})
	all := h.until(done)
	// The evaluations the helpers make may come after the last Progress:
	// wait for the last step's.
	prog := only[protocol.Progress](all)
	final := prog[len(prog)-1].Step
	if ev := only[protocol.Evaluated](all); len(ev) == 0 || ev[len(ev)-1].Step != final {
		more := h.until(func(m protocol.Msg) bool { e, ok := m.(protocol.Evaluated); return ok && e.Step == final })
		all = append(all, more...)
	}
	ws := only[protocol.Weights](all)
	if len(ws) == 0 {
		t.Fatal("no weights")
	}
	return ws[len(ws)-1], all
}

// settle has the helpers take in the shards a run of c needs, and waits
// until they hold them and the session has read their answers, as a
// page's helpers do long before a person presses Train: which shards a
// helper computes depends on when the session reads its ShardHeld, and a
// run this small may end before it does. λ_max for c's objective and
// images, and an evaluation, send the training and test sets' shards.
func settle(t *testing.T, h *harness, env *fakeEnv, c protocol.Config) {
	t.Helper()
	h.send(protocol.Curvature{Config: c})
	untilType[protocol.CurvatureIs](h)
	h.send(protocol.Evaluate{})
	untilType[protocol.Evaluated](h)
	deadline := time.Now().Add(10 * time.Second)
	for _, hp := range env.helperList() {
		for !hp.holdsAll() {
			if time.Now().After(deadline) {
				t.Fatal("the helpers did not take in their shards")
			}
			time.Sleep(time.Millisecond)
		}
	}
	// A command answered: the session reads every answer already there
	// before it handles a command.
	h.send(protocol.PickTrain{Index: 0})
	untilType[protocol.Picked](h)
}

func sameBits32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

var (
	gdCfg      = protocol.Config{Method: "gd", LearningRate: 0.5, L2: 1e-3, Epochs: 12, Seed: 1, BatchSize: 1}
	newtonCfg2 = protocol.Config{Method: "newton", L2: 1e-3, NewtonIters: 4}
)

// TestPoolGivesTheSameBits: full-batch gradient descent and Newton's
// method give the same weights, losses and evaluations, bit for bit, with
// 1, 2, 3 (which does not divide the 8 shards) and 8 workers, and the
// same as core run natively over the same shards.
func TestPoolGivesTheSameBits(t *testing.T) {
	for _, c := range []protocol.Config{gdCfg, newtonCfg2, {Method: "gd", LearningRate: 0.3, Epochs: 5, Deskew: true, BatchSize: 1}} {
		t.Run(c.Method, func(t *testing.T) {
			want, wantAll := runWith(t, 1, c, nil)
			for _, n := range []int{2, 3, 8} {
				got, all := runWith(t, n, c, nil)
				if !sameBits32(got.W, want.W) || !sameBits32(got.B, want.B) {
					t.Errorf("%d workers: other weights than one worker's", n)
				}
				if st := only[protocol.PoolState](all); len(st) > 0 {
					t.Errorf("%d workers that all answered: the pool changed (%+v)", n, st)
				}
				compareEvents(t, n, wantAll, all)
			}
			pack, err := dataset.Decode(synthPack(t, 403, 200))
			if err != nil {
				t.Fatal(err)
			}
			x := softmax.FromSet[float32](pack.Train)
			var w []float32
			if c.Method == "gd" {
				if c.Deskew {
					return // the straightened images are the session's own; checked against one worker above
				}
				tr, err := train.New(x, dataset.Pixels, train.Config{LearningRate: c.LearningRate, BatchSize: x.Len(), L2: c.L2, Epochs: c.Epochs, Seed: c.Seed})
				if err != nil {
					t.Fatal(err)
				}
				for tr.Stopped() == train.Running {
					tr.Step()
				}
				w = tr.Model().W
			} else {
				s, err := newton.NewWith(newton.NewLocal(x, dataset.Pixels, softmax.K), x.Len(), dataset.Pixels,
					softmax.Objective{Lambda: c.L2}, newton.Settings{Iterations: c.NewtonIters})
				if err != nil {
					t.Fatal(err)
				}
				for s.Iterate().Stop == newton.Running {
				}
				for _, v := range s.Model().W {
					w = append(w, float32(v))
				}
			}
			if !sameBits32(w, want.W) {
				t.Error("the session's weights are not core's, run natively over the same shards")
			}
		})
	}
}

// compareEvents checks that the losses and evaluations of two runs agree
// bit for bit.
func compareEvents(t *testing.T, n int, want, got []protocol.Msg) {
	t.Helper()
	losses := func(all []protocol.Msg) []uint64 {
		var out []uint64
		for _, p := range only[protocol.Progress](all) {
			for _, pt := range p.Losses {
				out = append(out, math.Float64bits(pt.Loss))
			}
		}
		return out
	}
	lw, lg := losses(want), losses(got)
	if len(lw) != len(lg) {
		t.Errorf("%d workers: %d loss points, one worker's %d", n, len(lg), len(lw))
	}
	for i := range min(len(lw), len(lg)) {
		if lw[i] != lg[i] {
			t.Errorf("%d workers: loss point %d has bits %#x, one worker's %#x", n, i, lg[i], lw[i])
			break
		}
	}
	ew, eg := only[protocol.Evaluated](want), only[protocol.Evaluated](got)
	last := func(e []protocol.Evaluated) protocol.Evaluated { return e[len(e)-1] }
	if len(ew) == 0 || len(eg) == 0 {
		t.Fatalf("%d workers: %d evaluations, one worker's %d", n, len(eg), len(ew))
	}
	if a, b := last(eg), last(ew); math.Float64bits(a.Likelihood) != math.Float64bits(b.Likelihood) || a.Accuracy != b.Accuracy || a.Step != b.Step || a.Confusion != b.Confusion {
		t.Errorf("%d workers: final evaluation %+v, one worker's %+v", n, a, b)
	}
}

// TestPoolSurvivesAHelperThatDies: a helper that dies during a run (an
// error event) or stops answering is replaced, its shards computed
// elsewhere, and the run ends with the uninterrupted run's bits.
func TestPoolSurvivesAHelperThatDies(t *testing.T) {
	defer func(d time.Duration) { helperTimeout = d }(helperTimeout)
	helperTimeout = 200 * time.Millisecond
	for _, c := range []protocol.Config{gdCfg, newtonCfg2} {
		want, _ := runWith(t, 1, c, nil)
		for _, how := range []string{"dies", "goes silent"} {
			t.Run(c.Method+" "+how, func(t *testing.T) {
				var env *fakeEnv
				got, all := runWith(t, 3, c, func(e *fakeEnv) {
					env = e
					hs := e.helperList()
					hs[1].mu.Lock()
					// Counted from the passes it already computed for
					// settle.
					if how == "dies" {
						hs[1].die, hs[1].dieAt = true, hs[1].passes+4
					} else {
						hs[1].mute, hs[1].muteAt = true, hs[1].passes+5
					}
					hs[1].mu.Unlock()
				})
				if !sameBits32(got.W, want.W) || !sameBits32(got.B, want.B) {
					t.Error("the run's weights differ from the uninterrupted run's")
				}
				if n := len(env.helperList()); n < 3 {
					t.Errorf("%d helpers were started: the dead one was not replaced", n)
				}
				if st := only[protocol.PoolState](all); len(st) == 0 || st[len(st)-1].Replaced != 1 || st[len(st)-1].Running != 3 {
					t.Errorf("the page was told %+v; want one helper replaced and 3 workers running", st)
				}
			})
		}
	}
}

// TestPoolDoesNotWaitForAHelperTakingInItsData: helpers that have not
// yet taken in their shards (a large pack arriving as the run starts)
// hold up no pass and no evaluation: this worker computes their shards
// meanwhile, none of them is taken for dead, and the run has one
// worker's bits; once they take their data in, they compute again.
func TestPoolDoesNotWaitForAHelperTakingInItsData(t *testing.T) {
	defer func(d time.Duration) { helperTimeout = d }(helperTimeout)
	helperTimeout = 200 * time.Millisecond
	for _, c := range []protocol.Config{gdCfg, newtonCfg2, {LearningRate: 0.5, BatchSize: 50, Epochs: 3, Seed: 2, L2: 1e-4}} {
		t.Run(c.Method, func(t *testing.T) {
			want, wantAll := runWith(t, 1, c, nil)
			var hs []*fakeHelper
			got, all := runHolding(t, 3, c, true, func(e *fakeEnv) { hs = e.helperList() })
			if !sameBits32(got.W, want.W) || !sameBits32(got.B, want.B) {
				t.Error("the run's weights differ from one worker's")
			}
			compareEvents(t, 3, wantAll, all)
			if st := only[protocol.PoolState](all); len(st) > 0 {
				t.Errorf("helpers taking in their data were taken for dead: %+v", st)
			}
			for i, h := range hs {
				h.mu.Lock()
				passes, queued := h.passes, len(h.queue)
				h.mu.Unlock()
				if passes != 0 || queued == 0 {
					t.Errorf("helper %d, which held no shard, was asked for %d passes (and sent %d messages)", i, passes, queued)
				}
			}
		})
	}
	// Released, they take their shards in and compute: the next run
	// sends them passes, and has the same bits.
	h, env := loaded(t, 403)
	env.mu.Lock()
	env.holdHelpers = true
	env.mu.Unlock()
	h.send(protocol.Workers{N: 3})
	untilType[protocol.PoolState](h)
	h.send(protocol.Train{Config: gdCfg})
	first := only[protocol.Weights](h.until(done))
	for _, hp := range env.helperList() {
		hp.release()
	}
	// The session reads the helpers' ShardHeld between commands and
	// between slices, and a run this small may take one slice: train
	// again until the helpers are asked, each time with the same bits.
	asked := func() bool {
		for _, hp := range env.helperList() {
			hp.mu.Lock()
			n := hp.passes
			hp.mu.Unlock()
			if n == 0 {
				return false
			}
		}
		return true
	}
	for range 20 {
		h.send(protocol.Train{Config: gdCfg})
		again := only[protocol.Weights](h.until(done))
		if a, b := first[len(first)-1], again[len(again)-1]; !sameBits32(a.W, b.W) {
			t.Fatal("the same run, with the helpers computing, has other weights")
		}
		if asked() {
			return
		}
	}
	t.Error("released helpers were never asked for a pass in 20 runs")
}

// TestPoolOfOneWhenTheBrowserRefuses: a browser that refuses extra
// workers leaves a pool of what it allowed, says so, and trains.
func TestPoolOfOneWhenTheBrowserRefuses(t *testing.T) {
	h, env := loaded(t, 200)
	env.mu.Lock()
	env.refuseHelpers = true
	env.mu.Unlock()
	h.send(protocol.Workers{N: 4})
	_, ps := untilType[protocol.PoolState](h)
	if ps.Asked != 4 || ps.Running != 2 || ps.Refused == "" {
		t.Fatalf("a browser that allows one helper: %+v", ps)
	}
	h.send(protocol.Train{Config: gdCfg})
	if st := only[protocol.PoolState](h.until(done)); len(st) > 0 {
		t.Errorf("the pool, refused again at every pass, told the page %d times", len(st))
	}
	h.send(protocol.Workers{N: 1})
	if _, ps := untilType[protocol.PoolState](h); ps.Running != 1 || ps.Refused != "" {
		t.Errorf("back to one worker: %+v", ps)
	}
}

// TestEvaluationDoesNotHoldUpSGD: with helpers, minibatch SGD's per-epoch
// evaluations are computed by them, arrive for the epoch they belong to
// and equal the evaluation made here.
func TestEvaluationDoesNotHoldUpSGD(t *testing.T) {
	c := protocol.Config{LearningRate: 0.5, BatchSize: 50, Epochs: 4, Seed: 2, L2: 1e-4}
	_, one := runWith(t, 1, c, nil)
	w, all := runWith(t, 2, c, nil)
	ev1, ev2 := only[protocol.Evaluated](one), only[protocol.Evaluated](all)
	if len(ev2) != len(ev1) || len(ev2) != c.Epochs {
		t.Fatalf("%d evaluations with a helper, %d without, for %d epochs", len(ev2), len(ev1), c.Epochs)
	}
	for i := range ev2 {
		a, b := ev2[i], ev1[i]
		if a.Epoch != b.Epoch || a.Step != b.Step || a.Confusion != b.Confusion || math.Float64bits(a.Likelihood) != math.Float64bits(b.Likelihood) {
			t.Errorf("evaluation %d: %+v with a helper, %+v without", i, a, b)
		}
	}
	pack, _ := dataset.Decode(synthPack(t, 403, 200))
	test := softmax.FromSet[float32](pack.Test)
	r := metrics.Evaluate(&softmax.Model[float32]{D: w.D, W: w.W, B: w.B}, test)
	if last := ev2[len(ev2)-1]; last.Accuracy != r.Accuracy() {
		t.Errorf("the last evaluation says %v, the final weights give %v", last.Accuracy, r.Accuracy())
	}
}

// TestCurvature: λ_max of the Hessian at the current model, from the
// pool's passes, is core's own (Curvature, computed here over all the
// examples at once) to the power iteration's tolerance, for 1 and 3
// workers, and 2/λ_max comes with it.
func TestCurvature(t *testing.T) {
	for _, n := range []int{1, 3} {
		h, _ := loaded(t, 403)
		h.send(protocol.Workers{N: n})
		untilType[protocol.PoolState](h)
		c := protocol.Config{LearningRate: 0.5, BatchSize: 50, Epochs: 2, Seed: 2, L2: 1e-3}
		h.send(protocol.Train{Config: c})
		all := h.until(done)
		final := all[len(all)-1].(protocol.Progress).Step
		// The final weights follow the Progress that says done.
		more := h.until(func(m protocol.Msg) bool { w, ok := m.(protocol.Weights); return ok && w.Step == final })
		w := more[len(more)-1].(protocol.Weights)
		h.send(protocol.Curvature{Config: c})
		_, got := untilType[protocol.CurvatureIs](h)
		pack, _ := dataset.Decode(synthPack(t, 403, 200))
		x := softmax.FromSet[float64](pack.Train)
		x32 := softmax.FromSet[float32](pack.Train)
		for i, v := range x32.Value {
			x.Value[i] = float64(v) // the worker's pixels, widened
		}
		md := softmax.New[float64](dataset.Pixels)
		softmax.Convert(md, &softmax.Model[float32]{D: w.D, W: w.W, B: w.B})
		want, err := newton.LambdaMax(x, md, softmax.Objective{Lambda: c.L2}, newton.PowerSettings{})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.LambdaMax-want.Lambda) > 1e-3*want.Lambda || got.Run != 1 || got.Step != w.Step || got.Products < 2 {
			t.Errorf("%d workers: %+v, core's λ_max %v", n, got, want.Lambda)
		}
		if a := 2 / got.LambdaMax; math.Abs(got.AlphaMax-a) > 1e-12*a {
			t.Errorf("%d workers: α_max %v, 2/λ_max %v", n, got.AlphaMax, a)
		}
	}
}
