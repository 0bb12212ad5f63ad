package session

import (
	"math"
	"slices"
	"testing"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/metrics"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// keyframes returns the Weights in all that are flagged as keyframes.
func keyframes(all []protocol.Msg) []protocol.Weights {
	var out []protocol.Weights
	for _, w := range only[protocol.Weights](all) {
		if w.Key {
			out = append(out, w)
		}
	}
	return out
}

// steps returns the steps of ws.
func steps(ws []protocol.Weights) []int {
	out := make([]int, len(ws))
	for i, w := range ws {
		out[i] = w.Step
	}
	return out
}

// runKeyframes trains cfg to its end on m synthetic images and returns the
// run's keyframes and its last step.
func runKeyframes(t *testing.T, h *harness, cfg protocol.Config) ([]protocol.Weights, int) {
	t.Helper()
	h.send(protocol.Train{Config: cfg})
	all := h.until(done)
	last := all[len(all)-1].(protocol.Progress)
	more, _ := untilType[protocol.Evaluated](h)
	return keyframes(append(all, more...)), last.Step
}

// pack returns the synthetic pack of m training images the harness serves.
func pack(t *testing.T, m int) *dataset.Pack {
	t.Helper()
	p, err := dataset.Decode(synthPack(t, m, 200))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestKeyframeSchedule: every method sends its θ at exactly the steps of
// protocol.Keyframes and at its end, once each, whatever the slices.
func TestKeyframeSchedule(t *testing.T) {
	tests := []struct {
		name string
		cfg  protocol.Config
		m    int
		want []int // nil: the schedule and the end
	}{
		{"minibatch SGD: powers of two and epoch ends", protocol.Config{LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: 5, Seed: 1}, 1000,
			[]int{0, 1, 2, 4, 8, 10, 16, 20, 30, 32, 40, 50}},
		{"the notes' full-batch run of 1000 steps", protocol.Config{LearningRate: 0.1, BatchSize: 100, L2: 1e-3, Epochs: 1000, Seed: 1, InitNormal: true, Method: "gd"}, 100, nil},
		{"Newton's method: every iteration", newtonCfg, 1000, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, _ := loaded(t, tt.m)
			keys, last := runKeyframes(t, h, tt.cfg)
			want := tt.want
			if want == nil {
				want = protocol.KeyframesOf(tt.cfg, tt.m).Steps(last)
				if want[len(want)-1] != last {
					want = append(want, last)
				}
			}
			if got := steps(keys); !slices.Equal(got, want) {
				t.Errorf("keyframes at %v, want %v", got, want)
			}
			if len(keys) > protocol.MaxKeyframes {
				t.Errorf("%d keyframes, more than %d", len(keys), protocol.MaxKeyframes)
			}
			if tt.cfg.Method == "gd" && (last != 1000 || len(keys) < 60) {
				t.Errorf("%d keyframes over %d steps, want about 64 over 1000", len(keys), last)
			}
			t.Run("other slices send the same ones", func(t *testing.T) {
				h2, _ := loadedSliced(t, tt.m, 3*time.Millisecond)
				other, _ := runKeyframes(t, h2, tt.cfg)
				if !slices.Equal(steps(other), steps(keys)) {
					t.Errorf("keyframes at %v, with the default slices at %v", steps(other), steps(keys))
				}
			})
		})
	}
	t.Run("single steps and a slowed pace send the same ones", func(t *testing.T) {
		cfg := protocol.Config{LearningRate: 0.5, BatchSize: 100, Epochs: 2, Seed: 1}
		h, _ := loaded(t, 1000)
		var all []protocol.Msg
		for range 7 {
			h.send(protocol.Step{Config: cfg})
			all = append(all, h.until(func(m protocol.Msg) bool { _, ok := m.(protocol.Snapshot); return ok })...)
		}
		h.send(protocol.Pace{StepsPerSecond: 500})
		h.send(protocol.Train{Config: cfg})
		all = append(all, h.until(done)...)
		more, _ := untilType[protocol.Evaluated](h) // the last weights follow the Progress that says done
		all = append(all, more...)
		if got, want := steps(keyframes(all)), []int{0, 1, 2, 4, 8, 10, 16, 20}; !slices.Equal(got, want) {
			t.Errorf("keyframes at %v, want %v", got, want)
		}
	})
}

// TestKeyframesAreTheTrainersModel: a keyframe holds the weights that
// core/train's trainer, or core/newton's solver, has after that many steps
// of a fresh native run, bit for bit.
func TestKeyframesAreTheTrainersModel(t *testing.T) {
	for _, tt := range []struct {
		name string
		cfg  protocol.Config
		m    int
	}{
		{"minibatch SGD from N(0, 1)", protocol.Config{LearningRate: 0.3, BatchSize: 7, L2: 1e-3, Epochs: 3, Seed: 42, InitNormal: true, Decay: 0.5, DecayEvery: 1}, 300},
		{"full-batch descent", protocol.Config{LearningRate: 0.5, BatchSize: 1, L2: 1e-4, Epochs: 40, Seed: 1, Method: "gd"}, 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, _ := loaded(t, tt.m)
			keys, _ := runKeyframes(t, h, tt.cfg)
			tc, err := trainConfig(tt.cfg, tt.m)
			if tt.cfg.Method == "gd" {
				c := tt.cfg
				c.BatchSize = tt.m
				tc, err = trainConfig(c, tt.m)
			}
			if err != nil {
				t.Fatal(err)
			}
			tr, err := train.New(softmax.FromSet[float32](pack(t, tt.m).Train), dataset.Pixels, tc)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range keys {
				for {
					if step, _, _ := tr.Progress(); step >= k.Step {
						break
					}
					tr.Step()
				}
				if !sameBits(k.W, tr.Model().W) || !sameBits(k.B, tr.Model().B) {
					t.Fatalf("the keyframe at step %d differs from the trainer's weights", k.Step)
				}
			}
		})
	}
	t.Run("Newton's method", func(t *testing.T) {
		h, _ := loaded(t, 1000)
		keys, _ := runKeyframes(t, h, newtonCfg)
		x := softmax.FromSet[float32](pack(t, 1000).Train)
		s, err := newton.NewWith(newton.NewLocal(x, dataset.Pixels, softmax.K), x.Len(), dataset.Pixels, softmax.Objective{Lambda: newtonCfg.L2}, newton.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			for s.Stats().Iteration < k.Step {
				s.Iterate()
			}
			for i, v := range s.Model().W {
				if math.Float32bits(float32(v)) != math.Float32bits(k.W[i]) {
					t.Fatalf("iteration %d, weight %d: %v, core/newton %v", k.Step, i, k.W[i], v)
				}
			}
		}
	})
}

// TestBranchIsANativeRunFromItsKeyframe: a model taken from a keyframe
// (UseModel) and trained on with other settings gives, after N steps, the
// weights of core/train's trainer started from that model with those
// settings, bit for bit; its own keyframes start again at step 0.
func TestBranchIsANativeRunFromItsKeyframe(t *testing.T) {
	first := protocol.Config{LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: 2, Seed: 1}
	branch := protocol.Config{LearningRate: 0.1, BatchSize: 30, L2: 1e-3, Epochs: 2, Seed: 7, Decay: 0.5, DecayEvery: 1}
	h, _ := loaded(t, 1000)
	keys, _ := runKeyframes(t, h, first)
	at := keys[slices.IndexFunc(keys, func(w protocol.Weights) bool { return w.Step == 8 })]

	h.send(protocol.UseModel{Config: branch, D: at.D, W: at.W, B: at.B})
	start, _ := untilType[protocol.Evaluated](h)
	if k := keyframes(start); len(k) != 1 || k[0].Step != 0 || k[0].Run != at.Run+1 || !sameBits(k[0].W, at.W) {
		t.Fatalf("the branch's start: keyframes %v, want its step 0 holding the keyframe", steps(k))
	}
	bkeys, last := runKeyframes(t, h, branch)

	tc, err := trainConfig(branch, 1000)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := train.New(softmax.FromSet[float32](pack(t, 1000).Train), dataset.Pixels, tc)
	if err == nil {
		err = tr.SetModel(&softmax.Model[float32]{D: at.D, W: at.W, B: at.B})
	}
	if err != nil {
		t.Fatal(err)
	}
	for tr.Stopped() == train.Running {
		tr.Step()
	}
	end := bkeys[len(bkeys)-1]
	if end.Step != last || last != 68 {
		t.Errorf("the branch ended at step %d, its last keyframe at %d; want 68 (2 epochs of 34)", last, end.Step)
	}
	if !sameBits(end.W, tr.Model().W) || !sameBits(end.B, tr.Model().B) {
		t.Error("the branch's weights differ from core/train's from the same keyframe")
	}
}

// TestEvaluateModel: a keyframe is measured on the test set as
// core/metrics measures it, and the run's own model is left as it was.
func TestEvaluateModel(t *testing.T) {
	cfg := protocol.Config{LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: 2, Seed: 1}
	h, _ := loaded(t, 1000)
	keys, _ := runKeyframes(t, h, cfg)
	h.send(protocol.Evaluate{})
	_, before := untilType[protocol.Evaluated](h)

	k := keys[3] // step 4
	h.send(protocol.EvaluateModel{Run: k.Run, Step: k.Step, D: k.D, W: k.W, B: k.B})
	_, got := untilType[protocol.Evaluated](h)
	want := evaluatedOf(protocol.Evaluated{Run: k.Run, Step: k.Step, Keyframe: true},
		metrics.Evaluate(&softmax.Model[float32]{D: k.D, W: k.W, B: k.B}, softmax.FromSet[float32](pack(t, 1000).Test)))
	if got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	h.send(protocol.Evaluate{})
	if _, after := untilType[protocol.Evaluated](h); after != before {
		t.Errorf("after EvaluateModel the run measures %+v, before %+v", after, before)
	}
	h.send(protocol.EvaluateModel{Run: k.Run, Step: k.Step, D: 3, W: make([]float32, 30), B: make([]float32, 10)})
	if f, ok := h.next().(protocol.Failed); !ok || f.Key != "err.modelShape" {
		t.Errorf("a model of 3 features: %#v, want Failed err.modelShape", f)
	}
	t.Run("the pool's helpers measure it alike", func(t *testing.T) {
		h, env := loaded(t, 1000)
		h.send(protocol.Workers{N: 3})
		untilType[protocol.PoolState](h)
		settle(t, h, env, cfg)
		h.send(protocol.EvaluateModel{Run: k.Run, Step: k.Step, D: k.D, W: k.W, B: k.B})
		if _, got := untilType[protocol.Evaluated](h); got != want {
			t.Errorf("got %+v\nwant %+v", got, want)
		}
		hp := env.helperList()[0]
		hp.mu.Lock()
		n := hp.passes
		hp.mu.Unlock()
		if n == 0 {
			t.Error("the helpers were asked nothing")
		}
	})
}
