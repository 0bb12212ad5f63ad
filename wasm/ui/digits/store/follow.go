package store

import (
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// FollowRun is the run number of a model followed from a class's
// projector (Follow): the worker measures it as it measures a keyframe,
// and no run of the page's has it.
const FollowRun = -1

// Follow makes m the model the panels show, without a run: a phone of a
// class shows the projector's θ, and trains none of its own. The panels'
// live numbers (the prediction, the templates, the lesson's) are m's at
// once; the test set's (the accuracy, the confusion matrix) once the
// worker has measured it: Follow returns the EvaluateModel to send it,
// nil before the data is in (Loaded then forgets every model, and the
// page follows again).
func (s *State) Follow(m *softmax.Model[float32]) *protocol.EvaluateModel {
	s.Followed = m
	s.Model, s.ModelStep = m, 0
	s.WeightsVersion++
	s.follows++
	s.Scrub = Scrub{}
	if s.TrainN == 0 {
		return nil
	}
	return &protocol.EvaluateModel{Run: FollowRun, Step: s.follows, D: m.D, W: m.W, B: m.B}
}

// followed takes the worker's measure of a followed model: the latest
// one's only.
func (s *State) followed(m protocol.Evaluated) {
	if m.Step != s.follows || s.Model == nil {
		return
	}
	e := m
	s.Eval, s.evalModel = &e, s.Model
	s.ChartVersion++
}
