// Package store holds the digits room's state (Store) and the actions its
// panels post (actions.go). The state changes only through this
// package's methods: worker events through Store.Apply (State.Apply, a
// pure function of the event, so the room's reaction to every message,
// stale runs, failures, crashes, is tested natively), and the owner's
// decisions through the methods named for them (state.go, parts.go,
// room.go, files.go, worker.go, replay.go). The room's owner (package
// digits) handles the actions and calls those methods; nothing else
// writes the state.
package store

import (
	"softmaxdemo/core/dataset"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/predict"
)

// Page states, shown in #status's data-state attribute.
const (
	StatusLoading  = "loading"
	StatusReady    = "ready"
	StatusTraining = "training"
	StatusPaused   = "paused"
	StatusDone     = "done"
	StatusError    = "error"
)

// What the error banner's button does.
const (
	RecoverNone    = ""
	RecoverRetry   = "retry"   // fetch the data again
	RecoverRestart = "restart" // start a new worker
)

// Error is an error a person can see, with how to recover, as text
// that renders in the page's language.
type Error struct {
	Message i18n.Msg
	Hint    i18n.Msg
	Action  string
}

// FailureText is the page's text for a Failed event: the catalog's text
// for its key, or, for a failure the page has no text of its own for, the
// worker's English message inside a sentence of the page's language.
func FailureText(f protocol.Failed) (message, hint i18n.Msg) {
	if _, ok := i18n.Catalogs[i18n.Default][f.Key]; ok && f.Key != "" {
		args := make([]any, len(f.Args))
		for i, a := range f.Args {
			args[i] = a
		}
		message = i18n.Text(f.Key, args...)
	} else {
		message = i18n.Text("err.worker", f.Message)
	}
	switch _, ok := i18n.Catalogs[i18n.Default][f.Hint]; {
	case ok:
		hint = i18n.Text(f.Hint)
	case f.Hint != "":
		hint = i18n.Text("raw", f.Hint)
	}
	return message, hint
}

// State is the run as the worker tells it, and the page's view of it.
// Panels get read-only views of it through their I-fields; only this
// package's methods write it.
type State struct {
	Status string
	Alert
	Data
	Machine
	Hessians

	Run      int
	Runs     Runs            // this session's runs, the current one last
	Pending  protocol.Config // the settings of the last Train, Step or Reset
	Axes     chart.Axes
	Progress protocol.Progress
	Losses   []protocol.Point
	Acc      []chart.AccPoint
	Eval     *protocol.Evaluated

	// doneHeld says the worker has reported the run done but the
	// evaluation of its final step has not arrived yet: the worker sends
	// Progress, then Weights, then Evaluated. Until it does, the status
	// stays as it was, so that "done" never shows beside the previous
	// epoch's accuracy, likelihood and confusion matrix.
	doneHeld bool

	Model     *softmax.Model[float32] // the latest snapshot, nil before the first
	ModelStep int                     // the step of Model

	// Scrub is where the slider #scrub stands, Selected the run chosen in
	// #runs whose keyframes are kept beside the last run's (0: none), and
	// branching the Origin of the run asked for as a branch until its
	// record is made (scrub.go). scrubs counts the slider's moves.
	Scrub     Scrub
	Selected  int
	branching []Origin
	scrubs    int
	follows   int // the models followed (Follow), the latest's number

	// Followed is the model followed from a class's projector (Follow),
	// nil if none: shown again once the data is in.
	Followed *softmax.Model[float32]
	early    *protocol.Weights // a newer run's step-0 keyframe, until its first Progress

	// Snapshot is the current run's latest state from the worker, from
	// which a new worker goes on if this one dies (WorkerReplaced); nil
	// before the first and for a run that keeps none (Newton).
	Snapshot *protocol.Snapshot
	Replacement

	// ShownEval and ShownModel are what the confusion matrix and the
	// gallery show: the latest evaluation and the weights it measured, as
	// of the last ShowEval. The page calls it a few times a second at most:
	// on the default pack an epoch takes 20 ms, and redrawing 160 table
	// cells and 60 digits 50 times a second would freeze the page.
	ShownEval  *protocol.Evaluated
	ShownModel *softmax.Model[float32]
	evalModel  *softmax.Model[float32]
	Samples    protocol.Samples

	Inspection

	// Versions grow when the corresponding data change, so components
	// holding the same pointers still notice.
	ChartVersion   int
	WeightsVersion int
}

func New() *State {
	return &State{Status: StatusLoading, Axes: chart.Axes{X: chart.AxisSteps, Y: chart.AxisLinear}}
}

// Apply changes the state for one worker event.
func (s *State) Apply(m protocol.Msg) {
	switch m := m.(type) {
	case protocol.Loading:
		s.Loading = m
	case protocol.Loaded:
		s.TrainN, s.TestN = m.Train, m.Test
		s.Kernel, s.KernelRefused = m.Kernel, m.KernelRefused
		s.Dataset = m.Name
		if s.Replacing {
			// A new worker with the pack of the one that died: the run
			// goes on (Resume), and keeps what the page shows of it.
			s.Status, s.Err = StatusPaused, nil
			return
		}
		s.NewRun(0)
		s.Model, s.evalModel, s.ShownModel, s.ModelStep = nil, nil, nil, 0
		s.Eval, s.ShownEval = nil, nil
		s.Status = StatusReady
		s.Err = nil
		s.Runs.forgetMeasures() // of the test images of the pack before
	case protocol.Samples:
		s.Samples = m
	case protocol.Snapshot:
		if m.Run >= s.Run {
			v := m
			s.Snapshot = &v
		}
	case protocol.HessianView:
		v := m
		s.Hessian, s.HessianBusy = &v, false
	case protocol.Progress:
		if m.Heap != 0 {
			s.WorkerHeap = m.Heap // the worker's own, even from a late message
			s.HelpersHeap = m.HelpersHeap
		}
		if m.Run < s.Run {
			return // a late message from a run that was replaced
		}
		fresh := m.Run != s.Run
		if fresh {
			s.NewRun(m.Run)
		}
		s.Progress = m
		s.Losses = append(s.Losses, m.Losses...)
		r := s.RunFor(m.Run)
		if e := s.early; e != nil && e.Run == m.Run {
			s.early = nil
			s.Apply(*e)
		}
		r.Losses, r.State = s.Losses, m.State
		switch {
		case m.EpochLoss != 0:
			r.Loss = m.EpochLoss
		case len(s.Losses) > 0:
			r.Loss = s.Losses[len(s.Losses)-1].Loss
		}
		s.ChartVersion++
		state := m.State
		s.doneHeld = state == StatusDone && !s.EvaluatedAt(m.Run, m.Step)
		switch {
		case s.doneHeld && fresh:
			// A run that ended within its first slice: #status shows it
			// training, not with the state the run before it ended in,
			// so that its id and its state change together.
			state = StatusTraining
		case s.doneHeld:
			state = s.Status // until the final step's Evaluated arrives
		}
		switch state {
		case StatusTraining, StatusPaused, StatusDone:
			s.Status = state
		}
	case protocol.Weights:
		if m.Run < s.Run || m.D != dataset.Pixels {
			return
		}
		if m.Key && m.Run > s.Run {
			// A run's step-0 keyframe comes before its first Progress: it
			// waits for it, so that the status never shows the new run
			// with the last one's state.
			v := m
			s.early = &v
			return
		}
		s.Model, s.ModelStep = &softmax.Model[float32]{D: m.D, W: m.W, B: m.B}, m.Step
		s.WeightsVersion++
		if m.Key && m.Run > 0 {
			s.keyframe(m)
		}
	case protocol.CurvatureIs:
		c := m
		s.Curvature = &c
	case protocol.PoolState:
		s.Workers, s.WorkersAsked, s.WorkersRefused, s.WorkersReplaced = m.Running, m.Asked, m.Refused, m.Replaced
	case protocol.Evaluated:
		if m.Keyframe && m.Run == FollowRun {
			s.followed(m)
			return
		}
		if m.Keyframe {
			s.Runs.measured(m)
			return
		}
		if m.Run < s.Run {
			return
		}
		e := m
		s.Eval = &e
		s.evalModel = s.Model
		if n := len(s.Acc); n > 0 && s.Acc[n-1].Step == m.Step {
			s.Acc[n-1].Acc = m.Accuracy
		} else {
			s.Acc = append(s.Acc, chart.AccPoint{Epoch: m.Epoch, Step: m.Step, Acc: m.Accuracy, T: m.T})
		}
		if m.Run > 0 {
			r := s.RunFor(m.Run)
			r.Acc, r.Accuracy = s.Acc, m.Accuracy
		}
		s.ChartVersion++
		if s.doneHeld && s.EvaluatedAt(s.Progress.Run, s.Progress.Step) {
			s.doneHeld = false
			s.Status = StatusDone
		}
	case protocol.Examples:
		if m.Run < s.Run {
			return
		}
		e := m
		s.CellExamples = &e
	case protocol.Picked:
		s.Inspect = &predict.Example{Source: predict.SourceTrain, Index: m.Index, Label: m.Label, Pixels: m.Pixels}
		s.Applied = 0
	case protocol.Failed:
		message, hint := FailureText(m)
		e := &Error{Message: message, Hint: hint}
		if m.Unloaded {
			// The pack Loaded announced lost its test images: no data.
			s.TrainN, s.TestN = 0, 0
			s.Samples = protocol.Samples{}
		}
		switch {
		case m.Fatal:
			e.Action = RecoverRestart
			s.Status = StatusError
		case s.Status == StatusLoading || s.TrainN == 0:
			e.Action = RecoverRetry
			s.Status = StatusError
		}
		s.Err = e
		s.HessianBusy = false
		s.branching = nil // a branch refused (UseModel) is no run
	}
}

// ShowEval makes the latest evaluation the one shown, and reports whether
// that changed anything.
func (s *State) ShowEval() bool {
	if s.ShownEval == s.Eval && s.ShownModel == s.evalModel {
		return false
	}
	s.ShownEval, s.ShownModel = s.Eval, s.evalModel
	return true
}

// EvaluatedAt reports whether the latest evaluation measured run at step
// (or later).
func (s *State) EvaluatedAt(run, step int) bool {
	return s.Eval != nil && s.Eval.Run == run && s.Eval.Step >= step
}

// AwaitingEval reports whether the run is done but its final evaluation
// has not arrived, and for which run and step.
func (s *State) AwaitingEval() (held bool, run, step int) {
	return s.doneHeld, s.Progress.Run, s.Progress.Step
}

// Crashed records that the worker died, for the reason detail.
func (s *State) Crashed(detail i18n.Msg) {
	s.Status = StatusError
	s.Err = &Error{
		Message: i18n.Text("err.crashed", detail),
		Hint:    i18n.Text("hint.crashed"),
		Action:  RecoverRestart,
	}
}

// Restarting resets what a new worker will send again.
func (s *State) Restarting() {
	*s = State{Status: StatusLoading, Data: Data{Packs: s.Packs, Dataset: s.Dataset}, Runs: s.Runs, Axes: s.Axes,
		Replacement: Replacement{Replaced: s.Replaced, WorkerNotice: s.WorkerNotice}, Selected: s.Selected, scrubs: s.scrubs + 1}
	s.Runs.forgetMeasures() // asked of the worker that is gone
}

// WorkerReplaced prepares the state for a new worker that takes over from
// one that died, for the reason detail. With a snapshot of the current run, the run goes on from it: the
// chart drops the points after its step (the new worker takes those steps
// again), the next Loaded keeps the run, and WorkerReplaced returns it.
// Without one (none yet, or a Newton run), the state is reset as by
// Restarting and it returns nil: a run that was training starts again. Either way
// WorkerNotice says what happened.
func (s *State) WorkerReplaced(detail i18n.Msg) *protocol.Snapshot {
	snap := s.Snapshot
	n := s.Replaced + 1
	if snap == nil || snap.Run != s.Run || s.Run == 0 {
		notice := i18n.Text("worker.replaced", detail)
		if s.Status == StatusTraining {
			notice = i18n.Text("worker.restarted", detail)
		}
		s.Restarting()
		s.Replaced, s.WorkerNotice, s.ResumedFrom = n, notice, 0
		return nil
	}
	s.Replaced, s.WorkerNotice, s.ResumedFrom = n, i18n.Text("worker.resumed", detail, i18n.Count(snap.Step)), snap.Step
	s.Replacing, s.Status, s.Err, s.doneHeld = true, StatusLoading, nil, false
	keep := func(n int, step func(int) int) int {
		for n > 0 && step(n-1) > snap.Step {
			n--
		}
		return n
	}
	s.Losses = s.Losses[:keep(len(s.Losses), func(i int) int { return s.Losses[i].Step })]
	s.Acc = s.Acc[:keep(len(s.Acc), func(i int) int { return s.Acc[i].Step })]
	if r := s.RunFor(s.Run); r != nil {
		r.Losses, r.Acc = s.Losses, s.Acc
		r.Frames = r.Frames[:keep(len(r.Frames), func(i int) int { return r.Frames[i].Step })]
	}
	s.Runs.forgetMeasures() // asked of the worker that died
	if s.Scrub.Back && s.Scrub.Run == 0 && s.Frame() == nil {
		s.Scrub = Scrub{} // its keyframe is taken again: the slider goes to the end
	}
	s.ChartVersion++
	return snap
}

// NewRun starts the records of run: its loss and accuracy curves, its
// progress, and a slider that follows it; a snapshot of another run is
// dropped.
func (s *State) NewRun(run int) {
	if s.Snapshot != nil && s.Snapshot.Run != run {
		s.Snapshot = nil
	}
	s.Run = run
	s.Progress = protocol.Progress{Run: run}
	s.Losses = nil
	s.Acc = nil
	s.doneHeld = false
	s.ChartVersion++
	s.Scrub = Scrub{} // the slider follows the new run
	s.scrubs++
}
