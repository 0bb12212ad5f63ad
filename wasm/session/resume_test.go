package session

import (
	"strings"
	"testing"
	"time"

	"softmaxdemo/wasm/protocol"
)

// worker starts a session on the synthetic pack of m training images, with
// a clock that moves by tick on every reading, and gives it my digits.
func worker(t *testing.T, m int, tick time.Duration, mine protocol.MyDigits) *harness {
	t.Helper()
	env := newEnv(tick)
	h := start(t, env)
	h.send(env.serve("synth", "synth.mnpk", synthPack(t, m, 200)))
	untilType[protocol.Samples](h)
	h.send(mine)
	return h
}

// TestResumeInANewWorker: a run whose worker dies (is abandoned) after a
// Snapshot, taken over by a new worker with Resume, then abandoned and
// taken over again, ends with the weights of the run never interrupted,
// bit for bit; the new worker answers Resume with the snapshot's run and
// step, paused, and later snapshots carry the run on.
func TestResumeInANewWorker(t *testing.T) {
	mine := myBars(5, 25, 8)
	for _, tc := range []struct {
		name string
		cfg  protocol.Config
	}{
		{"B=5 with decay and my digits", protocol.Config{LearningRate: 0.3, BatchSize: 5, L2: 1e-3, Epochs: 8, Seed: 7,
			InitNormal: true, Decay: 0.7, DecayEvery: 2, MyDigitsRate: 0.2}},
		{"B=1 sparse", protocol.Config{LearningRate: 0.1, BatchSize: 1, Epochs: 12, Seed: 3}},
		{"full batch", protocol.Config{LearningRate: 0.5, L2: 1e-4, Epochs: 200, Seed: 1, Method: "gd"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const m, tick = 400, 40 * time.Millisecond
			want := finalWeights(t, worker(t, m, tick, mine), tc.cfg)

			h := worker(t, m, tick, mine)
			h.send(protocol.Train{Config: tc.cfg})
			var snap protocol.Snapshot
			for crash := range 2 {
				_, s := untilType[protocol.Snapshot](h)
				if s.Step <= snap.Step {
					t.Fatalf("snapshot %d at step %d, the one before at %d", crash, s.Step, snap.Step)
				}
				snap = s
				// The worker dies here; what it sends later is lost.
				h = worker(t, m, tick, mine)
				h.send(protocol.Resume{Config: tc.cfg, Run: snap.Run, State: snap.State})
				_, p := untilType[protocol.Progress](h)
				if p.Run != snap.Run || p.Step != snap.Step || p.State != "paused" {
					t.Fatalf("resumed as run %d at step %d, %s; the snapshot was of run %d at step %d", p.Run, p.Step, p.State, snap.Run, snap.Step)
				}
				h.send(protocol.Train{Config: tc.cfg})
			}
			all := h.until(done)
			ev, _ := untilType[protocol.Evaluated](h)
			ws := only[protocol.Weights](append(all, ev...))
			got := ws[len(ws)-1]
			if got.Run != snap.Run {
				t.Errorf("the resumed run ended as run %d, want %d", got.Run, snap.Run)
			}
			if !sameBits(got.W, want.W) || !sameBits(got.B, want.B) {
				t.Error("the resumed run's weights differ from the uninterrupted run's")
			}
		})
	}
}

// TestResumeRefusals: a state that does not fit, and a Newton run, are
// refused with err.resume; the worker goes on and can train.
func TestResumeRefusals(t *testing.T) {
	cfg := protocol.Config{LearningRate: 0.3, BatchSize: 5, Epochs: 30, Seed: 7}
	h := worker(t, 400, 40*time.Millisecond, protocol.MyDigits{})
	h.send(protocol.Train{Config: cfg})
	_, snap := untilType[protocol.Snapshot](h)
	h.send(protocol.Pause{})
	other := cfg
	other.Seed = 8
	corrupt := append([]byte(nil), snap.State...)
	corrupt[100] ^= 1
	for _, tt := range []struct {
		name string
		cmd  protocol.Resume
		want string
	}{
		{"a state of another seed", protocol.Resume{Config: other, Run: 5, State: snap.State}, "another run"},
		{"a corrupt state", protocol.Resume{Config: cfg, Run: 5, State: corrupt}, "checksum"},
		{"a Newton run", protocol.Resume{Config: protocol.Config{Method: "newton"}, Run: 5, State: snap.State}, "start again"},
	} {
		t.Run(tt.name+" is refused", func(t *testing.T) {
			h.send(tt.cmd)
			_, f := untilType[protocol.Failed](h)
			if f.Key != "err.resume" || !strings.Contains(f.Message, tt.want) {
				t.Errorf("Failed %q (%s), want err.resume saying %q", f.Message, f.Key, tt.want)
			}
		})
	}
	h.send(protocol.Train{Config: cfg})
	h.until(done)
}
