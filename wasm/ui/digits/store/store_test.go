package store

import (
	"softmaxdemo/wasm/ui/i18n"

	"math"
	"strings"
	"testing"

	"softmaxdemo/wasm/protocol"
)

func loaded() *State {
	s := New()
	s.Apply(protocol.Loaded{Name: "default", Train: 10000, Test: 2000})
	return s
}

func TestStoreFollowsARun(t *testing.T) {
	s := loaded()
	if s.Status != StatusReady || s.TrainN != 10000 {
		t.Fatalf("after Loaded: %s, %d", s.Status, s.TrainN)
	}
	s.Apply(protocol.Progress{Run: 1, State: "training", Step: 10, Losses: []protocol.Point{{Step: 9, Loss: 1}, {Step: 10, Loss: 0.9}}})
	s.Apply(protocol.Progress{Run: 1, State: "training", Step: 20, Losses: []protocol.Point{{Step: 20, Loss: 0.8}}})
	if s.Status != StatusTraining || len(s.Losses) != 3 {
		t.Errorf("status %s with %d losses", s.Status, len(s.Losses))
	}
	s.Apply(protocol.Weights{Run: 1, Step: 100, D: 784, W: make([]float32, 7840), B: make([]float32, 10)})
	s.Apply(protocol.Evaluated{Run: 1, Epoch: 1, Step: 100, Accuracy: 0.9})
	if s.ShownEval != nil || s.ShownModel != nil {
		t.Error("the confusion matrix and gallery moved before ShowEval")
	}
	if !s.ShowEval() || s.ShownEval != s.Eval || s.ShownModel != s.Model || s.ShowEval() {
		t.Error("ShowEval did not show the latest evaluation exactly once")
	}
	if s.TestAccuracy() != 0.9 || s.Model == nil || len(s.Acc) != 1 {
		t.Errorf("accuracy %v, model %v, %d accuracy points", s.TestAccuracy(), s.Model != nil, len(s.Acc))
	}
	s.Apply(protocol.Progress{Run: 1, State: "done", Stop: "budget", Step: 500})
	s.Apply(protocol.Evaluated{Run: 1, Epoch: 5, Step: 500, Accuracy: 0.92})
	if s.Status != StatusDone || i18n.EN.M(s.StatusText()) != "Done" {
		t.Errorf("status %s: %q", s.Status, s.StatusText())
	}
}

func TestStoreDropsStaleRuns(t *testing.T) {
	s := loaded()
	s.Apply(protocol.Progress{Run: 2, State: "training", Step: 5, Losses: []protocol.Point{{Step: 5, Loss: 1}}})
	before := s.ChartVersion
	s.Apply(protocol.Progress{Run: 1, State: "done", Step: 900, Losses: []protocol.Point{{Step: 900, Loss: 0.1}}})
	s.Apply(protocol.Evaluated{Run: 1, Accuracy: 0.99})
	s.Apply(protocol.Weights{Run: 1, D: 784, W: make([]float32, 7840), B: make([]float32, 10)})
	if s.Status != StatusTraining || len(s.Losses) != 1 || s.Eval != nil || s.Model != nil || s.ChartVersion != before {
		t.Errorf("a stale run changed the page: %s, %d losses, eval %v, model %v", s.Status, len(s.Losses), s.Eval, s.Model)
	}
	s.Apply(protocol.Progress{Run: 3, State: "paused"})
	if len(s.Losses) != 0 || s.Run != 3 {
		t.Errorf("a new run kept %d old losses", len(s.Losses))
	}
}

// TestStoreKeepsTheWorkersHeap: the heap a resting run reports is kept,
// even from a run already replaced (it measures the worker, not the run),
// and a Progress without one leaves it as it was.
func TestStoreKeepsTheWorkersHeap(t *testing.T) {
	s := loaded()
	s.Apply(protocol.Progress{Run: 2, State: "paused", Heap: 30e6})
	s.Apply(protocol.Progress{Run: 1, State: "done", Heap: 31e6})
	s.Apply(protocol.Progress{Run: 2, State: "training", Step: 5})
	if s.WorkerHeap != 31e6 {
		t.Errorf("the worker's heap is %d, want the last reported, 31e6", s.WorkerHeap)
	}
}

func TestStoreErrors(t *testing.T) {
	t.Run("a failed download offers Retry", func(t *testing.T) {
		s := New()
		s.Apply(protocol.Failed{Message: "checksum mismatch", Hint: "Retry"})
		if s.Status != StatusError || s.Err.Action != RecoverRetry {
			t.Errorf("%s, %+v", s.Status, s.Err)
		}
		s.Apply(protocol.Loaded{Name: "default", Train: 10, Test: 10})
		if s.Status != StatusReady || s.Err != nil {
			t.Errorf("loading again did not clear the error: %s, %+v", s.Status, s.Err)
		}
	})
	t.Run("test images that fail after Loaded offer Retry", func(t *testing.T) {
		s := New()
		s.Apply(protocol.Loaded{Name: "default", Train: 10, Test: 10})
		s.Apply(protocol.Failed{Message: "loading pack default: network error", Hint: "hint.fetch", Unloaded: true})
		if s.Status != StatusError || s.Err.Action != RecoverRetry || s.TrainN != 0 {
			t.Errorf("%s, %+v, %d training images", s.Status, s.Err, s.TrainN)
		}
	})
	t.Run("a diverged run keeps the page usable", func(t *testing.T) {
		s := loaded()
		s.Apply(protocol.Progress{Run: 1, State: "done", Stop: "diverged"})
		s.Apply(protocol.Evaluated{Run: 1}) // the worker evaluates the restored weights
		s.Apply(protocol.Failed{Message: "the loss diverged", Hint: "lower the learning rate"})
		if s.Status != StatusDone || s.Err == nil || s.Err.Action != RecoverNone {
			t.Errorf("%s, %+v", s.Status, s.Err)
		}
		if i18n.EN.M(s.StatusText()) != "Stopped: the loss diverged" {
			t.Errorf("status text %q", s.StatusText())
		}
	})
	t.Run("a fatal error offers a restart", func(t *testing.T) {
		s := loaded()
		s.Apply(protocol.Failed{Message: "out of memory", Fatal: true})
		if s.Status != StatusError || s.Err.Action != RecoverRestart {
			t.Errorf("%s, %+v", s.Status, s.Err)
		}
	})
	t.Run("a crash offers a restart and a restart clears it", func(t *testing.T) {
		s := loaded()
		s.Packs = nil
		s.Crashed(i18n.Text("raw", "boom"))
		if s.Status != StatusError || s.Err.Action != RecoverRestart {
			t.Errorf("%s, %+v", s.Status, s.Err)
		}
		s.Restarting()
		if s.Status != StatusLoading || s.Err != nil || s.Dataset != "default" {
			t.Errorf("after restart: %s, %+v, %q", s.Status, s.Err, s.Dataset)
		}
	})
}

func TestStoreKeepsTheRunsOfTheSession(t *testing.T) {
	s := loaded()
	s.Pending = protocol.Config{LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: 1}
	s.Apply(protocol.Progress{Run: 1, State: "training", Step: 50, Losses: []protocol.Point{{Step: 50, Loss: 0.5}}})
	s.Apply(protocol.Progress{Run: 1, State: "done", Step: 100, EpochLoss: 0.41, Losses: []protocol.Point{{Step: 100, Loss: 0.4}}})
	s.Apply(protocol.Evaluated{Run: 1, Epoch: 1, Step: 100, Accuracy: 0.9})
	s.Pending = protocol.Config{LearningRate: 0.5, BatchSize: s.TrainN, L2: 1e-4, Epochs: 3}
	s.Apply(protocol.Progress{Run: 2, State: "done", Step: 3, EpochLoss: 0.8, Losses: []protocol.Point{{Step: 3, Loss: 0.8}}})
	if len(s.Runs) != 2 {
		t.Fatalf("%d runs kept, want 2", len(s.Runs))
	}
	first, second := s.Runs[0], s.Runs[1]
	if first.Method() != "sgd" || first.Loss != 0.41 || first.Accuracy != 0.9 || len(first.Losses) != 2 {
		t.Errorf("the first run: %s, loss %v, accuracy %v, %d points", first.Method(), first.Loss, first.Accuracy, len(first.Losses))
	}
	if second.Method() != "gd" || second.Loss != 0.8 || !math.IsNaN(second.Accuracy) || s.Current() != second {
		t.Errorf("the second run: %s, loss %v, accuracy %v", second.Method(), second.Loss, second.Accuracy)
	}
	if runs := s.ChartRuns(); len(runs) != 2 || len(runs[1].Losses) != 1 || !runs[1].Exact || runs[0].Exact {
		t.Errorf("the chart gets %+v", runs)
	}
	if got := first.Label(i18n.ZH); got != "小批量随机梯度下降：α = 0.5，B = 100，λ = 0.0001" {
		t.Errorf("label %q", got)
	}
	s.RemoveRun(2)
	if len(s.Runs) != 2 {
		t.Error("the current run was removed")
	}
	s.ToggleRun(1)
	if runs := s.ChartRuns(); len(runs) != 1 {
		t.Errorf("a hidden run is still drawn: %d runs", len(runs))
	}
	s.DropCurrent()
	if len(s.Runs) != 1 || s.Runs[0].ID != 1 {
		t.Errorf("Reset kept %d runs", len(s.Runs))
	}
	for id := 3; id < 3+MaxRuns+2; id++ {
		s.Apply(protocol.Progress{Run: id, State: "done", Step: 1})
	}
	if len(s.Runs) != MaxRuns || s.Runs[len(s.Runs)-1].ID != s.Run {
		t.Errorf("%d runs kept, the last %d, want %d ending with the current %d", len(s.Runs), s.Runs[len(s.Runs)-1].ID, MaxRuns, s.Run)
	}
	if got := s.Runs[0].Label(i18n.EN); got != "Full-batch gradient descent: α = 0.5, λ = 0.0001" {
		t.Errorf("label %q", got)
	}
}

// TestDoneShowsTheFinalEvaluation: the worker reports the end of a run as
// Progress(done), Weights, then Evaluated. The page reads "done" only once
// the final Evaluated is in, and at that moment it shows that evaluation:
// the accuracy, the likelihood and the confusion matrix of the final model.
func TestDoneShowsTheFinalEvaluation(t *testing.T) {
	final := protocol.Evaluated{Run: 1, Epoch: 2, Step: 200, Accuracy: 0.91, Likelihood: 0.74}
	final.Confusion[3][3] = 7
	trained := func() *State {
		s := loaded()
		s.Apply(protocol.Progress{Run: 1, State: "training", Epoch: 1, Epochs: 2, Step: 100})
		s.Apply(protocol.Weights{Run: 1, Step: 100, D: 784, W: make([]float32, 7840), B: make([]float32, 10)})
		s.Apply(protocol.Evaluated{Run: 1, Epoch: 1, Step: 100, Accuracy: 0.88, Likelihood: 0.61})
		s.ShowEval()
		return s
	}
	t.Run("done waits for the final evaluation", func(t *testing.T) {
		s := trained()
		s.Apply(protocol.Progress{Run: 1, State: "done", Stop: "budget", Epoch: 2, Epochs: 2, Step: 200})
		if s.Status == StatusDone {
			t.Fatalf("done before the final evaluation: accuracy %v", s.TestAccuracy())
		}
		if held, run, step := s.AwaitingEval(); !held || run != 1 || step != 200 {
			t.Errorf("awaitingEval() = %v, %d, %d; want true, 1, 200", held, run, step)
		}
		s.Apply(protocol.Weights{Run: 1, Step: 200, D: 784, W: make([]float32, 7840), B: make([]float32, 10)})
		if s.Status == StatusDone {
			t.Fatal("done after the final weights but before their evaluation")
		}
		s.Apply(final)
		if s.Status != StatusDone {
			t.Fatalf("status %s after the final evaluation, want done", s.Status)
		}
		// What the page does on a change of status: show it at once.
		s.ShowEval()
		if s.TestAccuracy() != 0.91 || s.Eval.Likelihood != 0.74 || s.ShownEval == nil || s.ShownEval.Confusion[3][3] != 7 || s.ShownModel != s.Model {
			t.Errorf("done shows accuracy %v, likelihood %v, confusion %v", s.TestAccuracy(), s.Eval.Likelihood, s.ShownEval)
		}
		if held, _, _ := s.AwaitingEval(); held {
			t.Error("still awaiting an evaluation")
		}
	})
	t.Run("an evaluation of the final step already in makes done at once", func(t *testing.T) {
		s := trained()
		s.Apply(protocol.Progress{Run: 1, State: "done", Epoch: 2, Step: 200})
		s.Apply(final)
		s.Apply(protocol.Progress{Run: 1, State: "done", Epoch: 2, Step: 200}) // Pause after the end resynchronises
		if s.Status != StatusDone {
			t.Errorf("status %s", s.Status)
		}
	})
	t.Run("a paused run that a step ends waits too", func(t *testing.T) {
		s := trained()
		s.Apply(protocol.Progress{Run: 1, State: "paused", Epoch: 1, Step: 150})
		s.Apply(protocol.Progress{Run: 1, State: "done", Epoch: 2, Step: 200})
		if s.Status != StatusPaused {
			t.Errorf("status %s before the final evaluation, want paused", s.Status)
		}
		s.Apply(final)
		if s.Status != StatusDone {
			t.Errorf("status %s after it, want done", s.Status)
		}
	})
	t.Run("an evaluation of another run does not end this one", func(t *testing.T) {
		s := trained()
		s.Apply(protocol.Progress{Run: 1, State: "done", Epoch: 2, Step: 200})
		s.Apply(protocol.Evaluated{Run: 1, Epoch: 1, Step: 100, Accuracy: 0.88})
		if s.Status == StatusDone {
			t.Error("an earlier step's evaluation made the run done")
		}
		s.Apply(protocol.Progress{Run: 2, State: "training", Step: 1})
		if held, _, _ := s.AwaitingEval(); held || s.Status != StatusTraining {
			t.Errorf("a new run: held %v, status %s", held, s.Status)
		}
	})
}

// TestWorkerReplaced: with a snapshot of the current run, a new worker's
// Loaded keeps the run, the chart drops the points after the snapshot's
// step, and the notice names that step; without one the state restarts
// and the notice says the run starts again. Snapshots of another run are
// not kept for this one.
func TestWorkerReplaced(t *testing.T) {
	training := func() *State {
		s := loaded()
		s.Apply(protocol.Progress{Run: 2, State: "training", Step: 300, Losses: []protocol.Point{{Step: 100, Loss: 0.9}, {Step: 200, Loss: 0.6}, {Step: 300, Loss: 0.5}}})
		s.Apply(protocol.Evaluated{Run: 2, Epoch: 2, Step: 200, Accuracy: 0.8})
		s.Apply(protocol.Evaluated{Run: 2, Epoch: 3, Step: 300, Accuracy: 0.85})
		return s
	}
	t.Run("a snapshot of the run is resumed from", func(t *testing.T) {
		s := training()
		s.Apply(protocol.Snapshot{Run: 1, Step: 250, State: []byte{1}}) // a late one of an older run
		if s.Snapshot != nil {
			t.Fatalf("a snapshot of run 1 was kept for run 2")
		}
		s.Apply(protocol.Snapshot{Run: 2, Step: 200, State: []byte{1}})
		snap := s.WorkerReplaced(i18n.Text("raw", "boom"))
		if snap == nil || snap.Step != 200 || !s.Replacing || s.Status != StatusLoading {
			t.Fatalf("snapshot %+v, replacing %v, status %s", snap, s.Replacing, s.Status)
		}
		if len(s.Losses) != 2 || len(s.Acc) != 1 || s.RunFor(2).Losses[len(s.RunFor(2).Losses)-1].Step != 200 {
			t.Errorf("the chart keeps %d points and %d accuracies, want those up to step 200", len(s.Losses), len(s.Acc))
		}
		if got := i18n.EN.M(s.WorkerNotice); got != "The training worker stopped (boom); a new one took over from step 200." {
			t.Errorf("the notice says %q", got)
		}
		s.Apply(protocol.Loaded{Name: "default", Train: 10000, Test: 2000})
		if s.Run != 2 || s.Status != StatusPaused || len(s.Losses) != 2 || s.Replaced != 1 || s.ResumedFrom != 200 {
			t.Errorf("after the new worker's Loaded: run %d, %s, %d points, %d replaced from %d", s.Run, s.Status, len(s.Losses), s.Replaced, s.ResumedFrom)
		}
	})
	t.Run("without a snapshot the run starts again", func(t *testing.T) {
		s := training()
		if snap := s.WorkerReplaced(i18n.Text("raw", "boom")); snap != nil || s.Replacing || s.Run != 0 {
			t.Fatalf("snapshot %+v, replacing %v, run %d", snap, s.Replacing, s.Run)
		}
		if got := i18n.ZH.M(s.WorkerNotice); !strings.Contains(got, "从头重新开始") {
			t.Errorf("the notice says %q", got)
		}
	})
}
