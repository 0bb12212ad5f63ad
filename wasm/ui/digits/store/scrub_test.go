package store

import (
	"slices"
	"strings"
	"testing"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
)

// key is the keyframe Weights of run at step: 7,850 float32, the first
// weight holding the step so that keyframes tell apart.
func key(run, step int) protocol.Weights {
	w := make([]float32, 7840)
	w[0] = float32(step)
	return protocol.Weights{Run: run, Step: step, D: 784, Key: true, W: w, B: make([]float32, 10)}
}

// trainRun applies a run with keyframes at steps, done at the last.
func trainRun(s *State, run int, steps ...int) {
	for _, st := range steps {
		s.Apply(key(run, st))
		s.Apply(protocol.Progress{Run: run, State: "training", Step: st})
	}
	last := steps[len(steps)-1]
	s.Apply(protocol.Progress{Run: run, State: "done", Step: last})
	s.Apply(protocol.Evaluated{Run: run, Step: last, Accuracy: 0.9})
}

func TestScrubShowsAKeyframe(t *testing.T) {
	s := loaded()
	s.Asked(protocol.Config{LearningRate: 0.5, BatchSize: 100, Epochs: 5, Deskew: true}, true)
	s.Apply(key(1, 0)) // before the run's first Progress, which it waits for
	if s.Run != 0 || len(s.Runs) != 0 || s.Model != nil {
		t.Fatalf("a step-0 keyframe before any Progress made run %d, %d records", s.Run, len(s.Runs))
	}
	s.Apply(protocol.Progress{Run: 1, State: "training", Step: 1})
	if s.Run != 1 || len(s.Runs) != 1 || len(s.Runs[0].Frames) != 1 || s.ModelStep != 0 || s.Model == nil {
		t.Fatalf("after the first Progress: run %d, %d records, model at step %d", s.Run, len(s.Runs), s.ModelStep)
	}
	for _, st := range []int{1, 2, 4, 8} {
		s.Apply(key(1, st))
		s.Apply(protocol.Progress{Run: 1, State: "training", Step: st + 1})
	}
	s.Apply(protocol.Weights{Run: 1, Step: 9, D: 784, W: make([]float32, 7840), B: make([]float32, 10)})

	t.Run("the slider follows the live end", func(t *testing.T) {
		v := s.ScrubView()
		if !slices.Equal(v.Steps, []int{0, 1, 2, 4, 8, 9}) || !v.Live || v.Index != 5 || s.Frame() != nil {
			t.Errorf("view %+v, frame %v", v, s.Frame())
		}
		if got := s.Views(); got.Model != s.Model || got.Frame || got.Step != 9 {
			t.Errorf("views at the end: %+v", got)
		}
	})
	t.Run("moving it while training pauses the run and asks for the keyframe's numbers once", func(t *testing.T) {
		ask, pause := s.ScrubTo(Scrub{Run: 1, Back: true, Step: 4})
		if !pause || ask == nil || ask.Run != 1 || ask.Step != 4 || !ask.Deskew || ask.W[0] != 4 {
			t.Fatalf("ScrubTo: pause %v, ask %+v", pause, ask)
		}
		if again, _ := s.ScrubTo(Scrub{Back: true, Step: 4}); again != nil {
			t.Error("the same keyframe was asked for twice")
		}
		v := s.Views()
		if !v.Frame || v.Step != 4 || v.Model.W[0] != 4 || v.Eval != nil || s.ViewEval() != nil {
			t.Errorf("views at step 4: %+v, evaluation %v", v, s.ViewEval())
		}
		if sv := s.ScrubView(); sv.Index != 3 {
			t.Errorf("the slider stands at %d, want 3", sv.Index)
		}
		runs := s.ChartRuns()
		if c := runs[len(runs)-1]; !c.Marked || c.Mark != 4 {
			t.Errorf("the chart marks %+v", c)
		}
	})
	t.Run("its numbers come back to it, not to the run's", func(t *testing.T) {
		before := s.Eval
		s.Apply(protocol.Evaluated{Run: 1, Step: 4, Keyframe: true, Accuracy: 0.5, Likelihood: 0.25})
		if e := s.ViewEval(); s.Eval != before || e.Accuracy != 0.5 || e.Likelihood != 0.25 || s.Views().Eval.Step != 4 {
			t.Errorf("after the keyframe's evaluation: eval %v, evaluation shown %v", s.Eval, e)
		}
	})
	t.Run("Train from it is a branch of the run", func(t *testing.T) {
		r, k := s.BranchPoint()
		if r == nil || r.ID != 1 || k.Step != 4 {
			t.Fatalf("branch point %v %v", r, k)
		}
		s.Apply(protocol.Progress{Run: 1, State: "paused", Step: 9})
		s.Asked(protocol.Config{LearningRate: 0.1, BatchSize: 10, Epochs: 1}, true)
		s.Branching(r, k.Step)
		if o := s.Origin(); len(o) != 1 || o[0].Run != 1 || o[0].Step != 4 {
			t.Errorf("the origin of the run asked for: %+v", o)
		}
		trainRun(s, 2, 0, 1, 2)
		b := s.Current()
		if len(b.From) != 1 || b.From[0].Step != 4 || !b.From[0].Cfg.Deskew || s.Selected != 1 {
			t.Fatalf("the branch's record: %+v, selected %d", b.From, s.Selected)
		}
		if got := b.Label(i18n.EN); !strings.HasPrefix(got, "Branch of run 1 at step 4: Minibatch SGD") {
			t.Errorf("the branch is named %q", got)
		}
		if len(s.Runs[0].Frames) != 5 || s.Frame() != nil {
			t.Errorf("the run branched from keeps %d keyframes; the slider shows %v", len(s.Runs[0].Frames), s.Frame())
		}
	})
	t.Run("a refused branch makes no branch of the next run", func(t *testing.T) {
		s.ScrubTo(Scrub{Run: 2, Back: true, Step: 1})
		r, k := s.BranchPoint()
		s.Branching(r, k.Step)
		s.Apply(protocol.Failed{Key: "err.newtonModel"})
		s.Asked(protocol.Config{LearningRate: 0.5, BatchSize: 100, Epochs: 1}, true)
		trainRun(s, 3, 0, 1)
		if o := s.Current().From; o != nil {
			t.Errorf("a run after a refused branch descends from %+v", o)
		}
	})
}

// TestOnlyTwoRunsKeepKeyframes: the last run and the one selected in
// #runs keep theirs, no other, so that a session of a hundred runs holds
// at most two runs' worth: 2 × 64 × 31,400 bytes.
func TestOnlyTwoRunsKeepKeyframes(t *testing.T) {
	s := loaded()
	full := protocol.NewKeyframes(600, 1000).Steps(600000) // 60,000 images at B = 100 for 1000 epochs
	full = append(full, 600000)
	if len(full) > protocol.MaxKeyframes {
		t.Fatalf("%d keyframes", len(full))
	}
	trainRun(s, 1, full...)
	if ask, _ := s.SelectRun(1); ask != nil || s.Selected != 1 || s.Frame() != nil {
		t.Errorf("selecting the current run shows its live end: %+v", ask)
	}
	trainRun(s, 2, full...)
	if ask, _ := s.SelectRun(1); ask == nil || ask.Step != 600000 || s.Selected != 1 {
		t.Errorf("selecting run 1 shows its last keyframe: %+v", ask)
	}
	if len(s.Runs[0].Frames) != len(full) {
		t.Errorf("run 1, selected, keeps %d keyframes", len(s.Runs[0].Frames))
	}
	for run := 3; run <= 100; run++ {
		trainRun(s, run, full...)
		if run == 97 {
			before := s.Selected
			if s.SelectRun(95); s.Selected != before {
				t.Errorf("run 95, which keeps nothing, was selected")
			}
			s.SelectRun(97)
		}
		kept := 0
		for _, r := range s.Runs {
			if len(r.Frames) > 0 {
				kept++
				if r.ID != run && r.ID != s.Selected {
					t.Fatalf("after run %d, run %d keeps keyframes (selected %d)", run, r.ID, s.Selected)
				}
			}
		}
		if kept > 2 {
			t.Fatalf("after run %d, %d runs keep keyframes", run, kept)
		}
		if b := s.Runs.FrameBytes(); b > 2*protocol.MaxKeyframes*4*7850 {
			t.Fatalf("after run %d the keyframes take %d bytes", run, b)
		}
	}
	if b := s.Runs.FrameBytes(); b != 2*len(full)*4*7850 {
		t.Errorf("the last run and run 97 keep %d bytes, want %d", b, 2*len(full)*4*7850)
	}
	t.Run("removing the selected run forgets it", func(t *testing.T) {
		s.RemoveRun(97)
		s.Apply(protocol.Progress{Run: 101, State: "paused"})
		if s.Selected != 0 || s.Runs.FrameBytes() != 0 {
			t.Errorf("selected %d, %d bytes kept", s.Selected, s.Runs.FrameBytes())
		}
	})
}

func TestScrubOverOtherRunsAndData(t *testing.T) {
	s := loaded()
	trainRun(s, 1, 0, 1, 2, 4)
	s.SelectRun(1)
	trainRun(s, 2, 0, 1)
	t.Run("a selected run's end is its last keyframe, and it is no live end", func(t *testing.T) {
		s.SelectRun(1)
		v := s.ScrubView()
		if v.Run != 1 || v.Live || !slices.Equal(v.Steps, []int{0, 1, 2, 4}) || v.Index != 3 || s.Frame().Step != 4 {
			t.Errorf("view %+v", v)
		}
		if _, pause := s.ScrubTo(Scrub{Run: 1, Back: true, Step: 2}); pause {
			t.Error("a run at rest was paused")
		}
		s.Apply(protocol.Evaluated{Run: 1, Step: 2, Keyframe: true, Accuracy: 0.7})
		if e := s.ViewEval(); e == nil || e.Accuracy != 0.7 {
			t.Errorf("evaluation shown %v", e)
		}
	})
	t.Run("another pack drops the keyframes' numbers and goes back to the live end", func(t *testing.T) {
		s.Apply(protocol.Loaded{Name: "full", Train: 60000, Test: 10000})
		if s.Runs[0].Frames[2].Eval != nil || s.Frame() != nil || s.Views().Frame {
			t.Error("a keyframe kept the other pack's evaluation, or the slider stayed on it")
		}
		if r, _ := s.BranchPoint(); r != nil {
			t.Error("a keyframe of the pack before is offered as a branch point")
		}
		if ask, _ := s.SelectRun(1); ask == nil || ask.Step != 4 {
			t.Errorf("it is measured again on the new pack: %+v", ask)
		}
		if r, _ := s.BranchPoint(); r != nil {
			t.Error("a run of the other pack is offered as a branch point")
		}
	})
	t.Run("a worker that dies forgets what was asked of it", func(t *testing.T) {
		s.Restarting()
		if ask, _ := s.ScrubTo(Scrub{Run: 1, Back: true, Step: 1}); ask == nil {
			t.Error("a keyframe asked of the dead worker is not asked again")
		}
	})
}
