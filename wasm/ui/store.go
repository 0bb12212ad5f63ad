package ui

import (
	"fmt"
	"math"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// Page states, shown in #status's data-state attribute.
const (
	stateLoading  = "loading"
	stateReady    = "ready"
	stateTraining = "training"
	statePaused   = "paused"
	stateDone     = "done"
	stateError    = "error"
)

// What the error banner's button does.
const (
	recoverNone    = ""
	recoverRetry   = "retry"   // fetch the data again
	recoverRestart = "restart" // start a new worker
)

// pageError is an error a person can see, with how to recover.
type pageError struct {
	Message string
	Hint    string
	Action  string
}

// store is the page's whole state. Worker events change it only through
// apply, a pure function of the event, so the page's reaction to every
// message (stale runs, failures, crashes) is tested natively. Components
// get read-only views of it through their I-fields.
type store struct {
	Status string
	Err    *pageError

	Packs   []dataset.PackInfo // the packs that can be loaded here
	Dataset string             // the selected pack's name
	Loading protocol.Loading
	Kernel  string // the worker's training kernel: "wasm-simd" or "go"
	TrainN  int
	TestN   int

	Run      int
	Progress protocol.Progress
	Losses   []protocol.Point
	Acc      []accPoint
	Eval     *protocol.Evaluated

	Model *softmax.Model[float32] // the latest snapshot, nil before the first

	// ShownEval and ShownModel are what the confusion matrix and the
	// gallery show: the latest evaluation and the weights it measured, as
	// of the last showEval. The page calls it a few times a second at most:
	// on the default pack an epoch takes 20 ms, and redrawing 160 table
	// cells and 60 digits 50 times a second would freeze the page.
	ShownEval  *protocol.Evaluated
	ShownModel *softmax.Model[float32]
	evalModel  *softmax.Model[float32]
	Samples    protocol.Samples

	// Versions grow when the corresponding data change, so components
	// holding the same pointers still notice.
	ChartVersion   int
	WeightsVersion int
}

func newStore() *store {
	return &store{Status: stateLoading}
}

// apply changes the state for one worker event.
func (s *store) apply(m protocol.Msg) {
	switch m := m.(type) {
	case protocol.Loading:
		s.Loading = m
	case protocol.Loaded:
		s.TrainN, s.TestN = m.Train, m.Test
		s.Kernel = m.Kernel
		s.Dataset = m.Name
		s.newRun(0)
		s.Model, s.evalModel, s.ShownModel = nil, nil, nil
		s.Eval, s.ShownEval = nil, nil
		s.Status = stateReady
		s.Err = nil
	case protocol.Samples:
		s.Samples = m
	case protocol.Progress:
		if m.Run < s.Run {
			return // a late message from a run that was replaced
		}
		if m.Run != s.Run {
			s.newRun(m.Run)
		}
		s.Progress = m
		s.Losses = append(s.Losses, m.Losses...)
		s.ChartVersion++
		switch m.State {
		case stateTraining, statePaused, stateDone:
			s.Status = m.State
		}
	case protocol.Weights:
		if m.Run < s.Run || m.D != dataset.Pixels {
			return
		}
		s.Model = &softmax.Model[float32]{D: m.D, W: m.W, B: m.B}
		s.WeightsVersion++
	case protocol.Evaluated:
		if m.Run < s.Run {
			return
		}
		e := m
		s.Eval = &e
		s.evalModel = s.Model
		if n := len(s.Acc); n > 0 && s.Acc[n-1].Step == m.Step {
			s.Acc[n-1].Acc = m.Accuracy
		} else {
			s.Acc = append(s.Acc, accPoint{Epoch: m.Epoch, Step: m.Step, Acc: m.Accuracy})
		}
		s.ChartVersion++
	case protocol.Failed:
		e := &pageError{Message: m.Message, Hint: m.Hint}
		switch {
		case m.Fatal:
			e.Action = recoverRestart
			s.Status = stateError
		case s.Status == stateLoading || s.TrainN == 0:
			e.Action = recoverRetry
			s.Status = stateError
		}
		s.Err = e
	}
}

// showEval makes the latest evaluation the one shown, and reports whether
// that changed anything.
func (s *store) showEval() bool {
	if s.ShownEval == s.Eval && s.ShownModel == s.evalModel {
		return false
	}
	s.ShownEval, s.ShownModel = s.Eval, s.evalModel
	return true
}

// crashed records that the worker died.
func (s *store) crashed(detail string) {
	s.Status = stateError
	s.Err = &pageError{
		Message: "the training worker stopped unexpectedly: " + detail,
		Hint:    "Restart it: your settings are kept, the model starts again.",
		Action:  recoverRestart,
	}
}

// restarting resets what a new worker will send again.
func (s *store) restarting() {
	*s = store{Status: stateLoading, Packs: s.Packs, Dataset: s.Dataset}
}

func (s *store) newRun(run int) {
	s.Run = run
	s.Progress = protocol.Progress{Run: run}
	s.Losses = nil
	s.Acc = nil
	s.ChartVersion++
}

// testAccuracy returns the latest test accuracy, or NaN before the first.
func (s *store) testAccuracy() float64 {
	if s.Eval == nil {
		return math.NaN()
	}
	return s.Eval.Accuracy
}

// statusText is the status line a person reads.
func (s *store) statusText() string {
	switch s.Status {
	case stateLoading:
		if s.Loading.Total > 0 {
			return fmt.Sprintf("Loading %s data: %.0f%%", s.Dataset, 100*float64(s.Loading.Received)/float64(s.Loading.Total))
		}
		return "Loading…"
	case stateReady:
		return fmt.Sprintf("Ready: %d training and %d test images", s.TrainN, s.TestN)
	case stateTraining:
		return "Training"
	case statePaused:
		return "Paused"
	case stateDone:
		switch s.Progress.Stop {
		case "diverged":
			return "Stopped: the loss diverged"
		case "converged":
			return "Done: the loss stopped changing"
		}
		return "Done"
	case stateError:
		return "Something went wrong"
	}
	return s.Status
}
