package ui

import (
	"softmaxdemo/wasm/ui/i18n"

	"math"
	"testing"

	"softmaxdemo/wasm/protocol"
)

func loaded() *store {
	s := newStore()
	s.apply(protocol.Loaded{Name: "default", Train: 10000, Test: 2000})
	return s
}

func TestStoreFollowsARun(t *testing.T) {
	s := loaded()
	if s.Status != stateReady || s.TrainN != 10000 {
		t.Fatalf("after Loaded: %s, %d", s.Status, s.TrainN)
	}
	s.apply(protocol.Progress{Run: 1, State: "training", Step: 10, Losses: []protocol.Point{{Step: 9, Loss: 1}, {Step: 10, Loss: 0.9}}})
	s.apply(protocol.Progress{Run: 1, State: "training", Step: 20, Losses: []protocol.Point{{Step: 20, Loss: 0.8}}})
	if s.Status != stateTraining || len(s.Losses) != 3 {
		t.Errorf("status %s with %d losses", s.Status, len(s.Losses))
	}
	s.apply(protocol.Weights{Run: 1, Step: 100, D: 784, W: make([]float32, 7840), B: make([]float32, 10)})
	s.apply(protocol.Evaluated{Run: 1, Epoch: 1, Step: 100, Accuracy: 0.9})
	if s.ShownEval != nil || s.ShownModel != nil {
		t.Error("the confusion matrix and gallery moved before showEval")
	}
	if !s.showEval() || s.ShownEval != s.Eval || s.ShownModel != s.Model || s.showEval() {
		t.Error("showEval did not show the latest evaluation exactly once")
	}
	if s.testAccuracy() != 0.9 || s.Model == nil || len(s.Acc) != 1 {
		t.Errorf("accuracy %v, model %v, %d accuracy points", s.testAccuracy(), s.Model != nil, len(s.Acc))
	}
	s.apply(protocol.Progress{Run: 1, State: "done", Stop: "budget", Step: 500})
	s.apply(protocol.Evaluated{Run: 1, Epoch: 5, Step: 500, Accuracy: 0.92})
	if s.Status != stateDone || i18n.EN.M(s.statusText()) != "Done" {
		t.Errorf("status %s: %q", s.Status, s.statusText())
	}
}

func TestStoreDropsStaleRuns(t *testing.T) {
	s := loaded()
	s.apply(protocol.Progress{Run: 2, State: "training", Step: 5, Losses: []protocol.Point{{Step: 5, Loss: 1}}})
	before := s.ChartVersion
	s.apply(protocol.Progress{Run: 1, State: "done", Step: 900, Losses: []protocol.Point{{Step: 900, Loss: 0.1}}})
	s.apply(protocol.Evaluated{Run: 1, Accuracy: 0.99})
	s.apply(protocol.Weights{Run: 1, D: 784, W: make([]float32, 7840), B: make([]float32, 10)})
	if s.Status != stateTraining || len(s.Losses) != 1 || s.Eval != nil || s.Model != nil || s.ChartVersion != before {
		t.Errorf("a stale run changed the page: %s, %d losses, eval %v, model %v", s.Status, len(s.Losses), s.Eval, s.Model)
	}
	s.apply(protocol.Progress{Run: 3, State: "paused"})
	if len(s.Losses) != 0 || s.Run != 3 {
		t.Errorf("a new run kept %d old losses", len(s.Losses))
	}
}

func TestStoreErrors(t *testing.T) {
	t.Run("a failed download offers Retry", func(t *testing.T) {
		s := newStore()
		s.apply(protocol.Failed{Message: "checksum mismatch", Hint: "Retry"})
		if s.Status != stateError || s.Err.Action != recoverRetry {
			t.Errorf("%s, %+v", s.Status, s.Err)
		}
		s.apply(protocol.Loaded{Name: "default", Train: 10, Test: 10})
		if s.Status != stateReady || s.Err != nil {
			t.Errorf("loading again did not clear the error: %s, %+v", s.Status, s.Err)
		}
	})
	t.Run("test images that fail after Loaded offer Retry", func(t *testing.T) {
		s := newStore()
		s.apply(protocol.Loaded{Name: "default", Train: 10, Test: 10})
		s.apply(protocol.Failed{Message: "loading pack default: network error", Hint: "hint.fetch", Unloaded: true})
		if s.Status != stateError || s.Err.Action != recoverRetry || s.TrainN != 0 {
			t.Errorf("%s, %+v, %d training images", s.Status, s.Err, s.TrainN)
		}
	})
	t.Run("a diverged run keeps the page usable", func(t *testing.T) {
		s := loaded()
		s.apply(protocol.Progress{Run: 1, State: "done", Stop: "diverged"})
		s.apply(protocol.Evaluated{Run: 1}) // the worker evaluates the restored weights
		s.apply(protocol.Failed{Message: "the loss diverged", Hint: "lower the learning rate"})
		if s.Status != stateDone || s.Err == nil || s.Err.Action != recoverNone {
			t.Errorf("%s, %+v", s.Status, s.Err)
		}
		if i18n.EN.M(s.statusText()) != "Stopped: the loss diverged" {
			t.Errorf("status text %q", s.statusText())
		}
	})
	t.Run("a fatal error offers a restart", func(t *testing.T) {
		s := loaded()
		s.apply(protocol.Failed{Message: "out of memory", Fatal: true})
		if s.Status != stateError || s.Err.Action != recoverRestart {
			t.Errorf("%s, %+v", s.Status, s.Err)
		}
	})
	t.Run("a crash offers a restart and a restart clears it", func(t *testing.T) {
		s := loaded()
		s.Packs = nil
		s.crashed("boom")
		if s.Status != stateError || s.Err.Action != recoverRestart {
			t.Errorf("%s, %+v", s.Status, s.Err)
		}
		s.restarting()
		if s.Status != stateLoading || s.Err != nil || s.Dataset != "default" {
			t.Errorf("after restart: %s, %+v, %q", s.Status, s.Err, s.Dataset)
		}
	})
}

func TestStoreKeepsTheRunsOfTheSession(t *testing.T) {
	s := loaded()
	s.pending = protocol.Config{LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: 1}
	s.apply(protocol.Progress{Run: 1, State: "training", Step: 50, Losses: []protocol.Point{{Step: 50, Loss: 0.5}}})
	s.apply(protocol.Progress{Run: 1, State: "done", Step: 100, EpochLoss: 0.41, Losses: []protocol.Point{{Step: 100, Loss: 0.4}}})
	s.apply(protocol.Evaluated{Run: 1, Epoch: 1, Step: 100, Accuracy: 0.9})
	s.pending = protocol.Config{LearningRate: 0.5, BatchSize: s.TrainN, L2: 1e-4, Epochs: 3}
	s.apply(protocol.Progress{Run: 2, State: "done", Step: 3, EpochLoss: 0.8, Losses: []protocol.Point{{Step: 3, Loss: 0.8}}})
	if len(s.Runs) != 2 {
		t.Fatalf("%d runs kept, want 2", len(s.Runs))
	}
	first, second := s.Runs[0], s.Runs[1]
	if first.method() != "sgd" || first.Loss != 0.41 || first.Accuracy != 0.9 || len(first.Losses) != 2 {
		t.Errorf("the first run: %s, loss %v, accuracy %v, %d points", first.method(), first.Loss, first.Accuracy, len(first.Losses))
	}
	if second.method() != "gd" || second.Loss != 0.8 || !math.IsNaN(second.Accuracy) || s.current() != second {
		t.Errorf("the second run: %s, loss %v, accuracy %v", second.method(), second.Loss, second.Accuracy)
	}
	if runs := s.chartRuns(); len(runs) != 2 || len(runs[1].Losses) != 1 || !runs[1].Exact || runs[0].Exact {
		t.Errorf("the chart gets %+v", runs)
	}
	if got := first.label(i18n.ZH); got != "小批量随机梯度下降：α = 0.5，B = 100，λ = 0.0001" {
		t.Errorf("label %q", got)
	}
	s.removeRun(2)
	if len(s.Runs) != 2 {
		t.Error("the current run was removed")
	}
	s.toggleRun(1)
	if runs := s.chartRuns(); len(runs) != 1 {
		t.Errorf("a hidden run is still drawn: %d runs", len(runs))
	}
	s.dropCurrent()
	if len(s.Runs) != 1 || s.Runs[0].ID != 1 {
		t.Errorf("Reset kept %d runs", len(s.Runs))
	}
	for id := 3; id < 3+maxRuns+2; id++ {
		s.apply(protocol.Progress{Run: id, State: "done", Step: 1})
	}
	if len(s.Runs) != maxRuns || s.Runs[len(s.Runs)-1].ID != s.Run {
		t.Errorf("%d runs kept, the last %d, want %d ending with the current %d", len(s.Runs), s.Runs[len(s.Runs)-1].ID, maxRuns, s.Run)
	}
	if got := s.Runs[0].label(i18n.EN); got != "Full-batch gradient descent: α = 0.5, λ = 0.0001" {
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
	trained := func() *store {
		s := loaded()
		s.apply(protocol.Progress{Run: 1, State: "training", Epoch: 1, Epochs: 2, Step: 100})
		s.apply(protocol.Weights{Run: 1, Step: 100, D: 784, W: make([]float32, 7840), B: make([]float32, 10)})
		s.apply(protocol.Evaluated{Run: 1, Epoch: 1, Step: 100, Accuracy: 0.88, Likelihood: 0.61})
		s.showEval()
		return s
	}
	t.Run("done waits for the final evaluation", func(t *testing.T) {
		s := trained()
		s.apply(protocol.Progress{Run: 1, State: "done", Stop: "budget", Epoch: 2, Epochs: 2, Step: 200})
		if s.Status == stateDone {
			t.Fatalf("done before the final evaluation: accuracy %v", s.testAccuracy())
		}
		if held, run, step := s.awaitingEval(); !held || run != 1 || step != 200 {
			t.Errorf("awaitingEval() = %v, %d, %d; want true, 1, 200", held, run, step)
		}
		s.apply(protocol.Weights{Run: 1, Step: 200, D: 784, W: make([]float32, 7840), B: make([]float32, 10)})
		if s.Status == stateDone {
			t.Fatal("done after the final weights but before their evaluation")
		}
		s.apply(final)
		if s.Status != stateDone {
			t.Fatalf("status %s after the final evaluation, want done", s.Status)
		}
		// What the page does on a change of status: show it at once.
		s.showEval()
		if s.testAccuracy() != 0.91 || s.likelihood() != 0.74 || s.ShownEval == nil || s.ShownEval.Confusion[3][3] != 7 || s.ShownModel != s.Model {
			t.Errorf("done shows accuracy %v, likelihood %v, confusion %v", s.testAccuracy(), s.likelihood(), s.ShownEval)
		}
		if held, _, _ := s.awaitingEval(); held {
			t.Error("still awaiting an evaluation")
		}
	})
	t.Run("an evaluation of the final step already in makes done at once", func(t *testing.T) {
		s := trained()
		s.apply(protocol.Progress{Run: 1, State: "done", Epoch: 2, Step: 200})
		s.apply(final)
		s.apply(protocol.Progress{Run: 1, State: "done", Epoch: 2, Step: 200}) // Pause after the end resynchronises
		if s.Status != stateDone {
			t.Errorf("status %s", s.Status)
		}
	})
	t.Run("a paused run that a step ends waits too", func(t *testing.T) {
		s := trained()
		s.apply(protocol.Progress{Run: 1, State: "paused", Epoch: 1, Step: 150})
		s.apply(protocol.Progress{Run: 1, State: "done", Epoch: 2, Step: 200})
		if s.Status != statePaused {
			t.Errorf("status %s before the final evaluation, want paused", s.Status)
		}
		s.apply(final)
		if s.Status != stateDone {
			t.Errorf("status %s after it, want done", s.Status)
		}
	})
	t.Run("an evaluation of another run does not end this one", func(t *testing.T) {
		s := trained()
		s.apply(protocol.Progress{Run: 1, State: "done", Epoch: 2, Step: 200})
		s.apply(protocol.Evaluated{Run: 1, Epoch: 1, Step: 100, Accuracy: 0.88})
		if s.Status == stateDone {
			t.Error("an earlier step's evaluation made the run done")
		}
		s.apply(protocol.Progress{Run: 2, State: "training", Step: 1})
		if held, _, _ := s.awaitingEval(); held || s.Status != stateTraining {
			t.Errorf("a new run: held %v, status %s", held, s.Status)
		}
	})
}
