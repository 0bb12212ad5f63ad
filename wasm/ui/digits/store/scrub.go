package store

import (
	"slices"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// Rewinding a run. Every run's worker sends its θ at the run's keyframes
// (protocol.Keyframes: step 0, the powers of two, some epoch ends, the
// end); the page keeps them for the last run and for the run selected in
// #runs, no other: 7,850 float32 (31 KB) a keyframe, 64 at most (2 MB) a
// run, 4 MB for the two, whatever the pack (a run on 60,000 images keeps
// no more keyframes than one on 10,000). The slider #scrub moves every view
// to one of them; its end is the live run. A keyframe's test-set numbers
// are measured by the worker when the slider first shows it
// (protocol.EvaluateModel) and kept with it.

// Keyframe is θ after Step steps of a run, as the worker sent it, and its
// test-set numbers once the worker has measured them.
type Keyframe struct {
	Step  int
	Model *softmax.Model[float32]
	Eval  *protocol.Evaluated // nil until measured
	asked bool                // EvaluateModel was sent for it
}

// Origin is where a branch started: the keyframe at Step of run Run,
// which trained with Cfg.
type Origin struct {
	Run  int
	Cfg  protocol.Config
	Step int
}

// Scrub is where the slider stands: ActionScrub's value. Its zero value is
// the current run's live end.
type Scrub struct {
	Run  int  // the run it shows, 0 for the current one
	Back bool // on a keyframe; otherwise at the end: the current run's live model, another run's last keyframe
	Step int  // with Back, the keyframe's step
}

// ScrubView is what the slider shows: the positions it offers and the one
// it stands on.
type ScrubView struct {
	Run     int   // the run it shows (0: none)
	Steps   []int // each position's step; the live model's last if Live
	Live    bool  // the last position is the live model's alone, past the last keyframe
	Current bool  // the run shown is the current one: its last position is its live end
	Index   int   // the position shown
	AtEnd   bool  // the slider stands at the current run's live end
}

// Views are what the panels show: the live run's, or those of the
// keyframe the slider stands on.
type Views struct {
	Model     *softmax.Model[float32] // the templates and the drawing read it
	Version   int                     // grows when Model changes
	EvalModel *softmax.Model[float32] // the gallery's: the model Eval measured
	Eval      *protocol.Evaluated     // the confusion matrix's, the accuracy's, the likelihood's
	Deskew    bool                    // the model reads straightened digits
	Step      int                     // the step shown
	Frame     bool                    // a keyframe, not the live run
}

// Shown returns the run the slider shows: the one it was moved to, if it
// still keeps keyframes, else the current run; nil if there is none.
func (s *State) Shown() *Run {
	if s.Scrub.Run != 0 {
		for _, r := range s.Runs {
			if r.ID == s.Scrub.Run && len(r.Frames) > 0 {
				return r
			}
		}
	}
	return s.Current()
}

// Frame returns the keyframe the slider stands on, nil at the current
// run's live end.
func (s *State) Frame() *Keyframe {
	r := s.Shown()
	if r == nil || len(r.Frames) == 0 || (s.Scrub.Run != 0 && r.ID != s.Scrub.Run) {
		return nil // no keyframes, or those the slider was on are gone
	}
	live := r.ID == s.Run
	switch {
	case s.Scrub.Back:
		if i, ok := r.frame(s.Scrub.Step); ok {
			return &r.Frames[i]
		}
		if live {
			return nil
		}
	case live:
		return nil
	}
	return &r.Frames[len(r.Frames)-1]
}

// FrameAt returns the run's keyframe at step, nil if it keeps none there.
func (r *Run) FrameAt(step int) *Keyframe {
	if i, ok := r.frame(step); ok {
		return &r.Frames[i]
	}
	return nil
}

// frame returns the index of the keyframe at step.
func (r *Run) frame(step int) (int, bool) {
	return slices.BinarySearchFunc(r.Frames, step, func(k Keyframe, step int) int { return k.Step - step })
}

// ScrubView returns the slider's positions for the run it shows.
func (s *State) ScrubView() ScrubView {
	r := s.Shown()
	if r == nil {
		return ScrubView{}
	}
	v := ScrubView{Run: r.ID, Steps: make([]int, 0, len(r.Frames)+1), Current: r.ID == s.Run}
	for _, k := range r.Frames {
		v.Steps = append(v.Steps, k.Step)
	}
	if v.Current && s.Model != nil && (len(v.Steps) == 0 || s.ModelStep > v.Steps[len(v.Steps)-1]) {
		v.Steps, v.Live = append(v.Steps, s.ModelStep), true
	}
	v.Index = max(len(v.Steps)-1, 0)
	k := s.Frame()
	if k != nil {
		v.Index, _ = r.frame(k.Step)
	}
	v.AtEnd = v.Current && k == nil && len(v.Steps) > 0
	return v
}

// Views returns what the panels show: the keyframe the slider stands on,
// or the live run's model and latest evaluation shown.
func (s *State) Views() Views {
	r := s.Shown()
	k := s.Frame()
	if k == nil {
		return Views{Model: s.Model, Version: s.WeightsVersion + s.scrubs, EvalModel: s.ShownModel, Eval: s.ShownEval,
			Deskew: s.ModelDeskew(), Step: s.ModelStep}
	}
	return Views{Model: k.Model, Version: s.WeightsVersion + s.scrubs, EvalModel: k.Model, Eval: k.Eval,
		Deskew: r.Cfg.Deskew, Step: k.Step, Frame: true}
}

// ViewEval is the evaluation of what the panels show, for the test
// accuracy and the likelihood: the live run's latest, or the keyframe's
// once measured; nil before.
func (s *State) ViewEval() *protocol.Evaluated {
	if s.Frame() == nil {
		return s.Eval
	}
	return s.Views().Eval
}

// ScrubTo moves the slider, and returns what the worker must be sent: the
// keyframe's EvaluateModel, the first time it is shown, and whether the
// run in training pauses (it does as soon as the slider leaves its end,
// docs/decisions/0031-scrubbing-pauses-the-run.md).
func (s *State) ScrubTo(to Scrub) (ask *protocol.EvaluateModel, pause bool) {
	if to.Run == s.Run {
		to.Run = 0
	}
	s.Scrub = to
	s.scrubs++
	s.ChartVersion++
	return s.ask(), s.Status == StatusTraining && s.Frame() != nil
}

// SelectRun makes run id, if it keeps keyframes, the one #runs keeps
// them of beside the last run (when a later run starts, it keeps them),
// and the slider show it: another run at its last keyframe, the current
// one at its live end. 0 selects none, and shows the current run. It
// returns what ScrubTo returns.
func (s *State) SelectRun(id int) (ask *protocol.EvaluateModel, pause bool) {
	if id != 0 && !slices.ContainsFunc(s.Runs, func(r *Run) bool { return r.ID == id && len(r.Frames) > 0 }) {
		return nil, false
	}
	s.Selected = id
	s.Runs.keepFrames(s.Selected)
	return s.ScrubTo(Scrub{Run: id})
}

// ask returns the EvaluateModel of the keyframe shown if it has been
// neither measured nor asked for, and notes it asked.
func (s *State) ask() *protocol.EvaluateModel {
	k := s.Frame()
	if k == nil || k.Eval != nil || k.asked {
		return nil
	}
	k.asked = true
	r := s.Shown()
	return &protocol.EvaluateModel{Run: r.ID, Step: k.Step, Deskew: r.Cfg.Deskew, D: k.Model.D, W: k.Model.W, B: k.Model.B}
}

// BranchPoint returns the run and keyframe a Train now starts a branch
// from: the keyframe the slider stands on, if it is not the live end, of a
// run on the pack loaded now; nil otherwise.
func (s *State) BranchPoint() (*Run, *Keyframe) {
	k := s.Frame()
	r := s.Shown()
	if k == nil || r.Dataset != s.Dataset {
		return nil, nil
	}
	return r, k
}

// Branching records that the next run is a branch of r at step: its
// record will say so, r keeps its keyframes (it becomes the run selected),
// and the slider follows the new run. Call it after Asked.
func (s *State) Branching(r *Run, step int) {
	s.branching = append(slices.Clone(r.From), Origin{Run: r.ID, Cfg: r.Cfg, Step: step})
	s.Selected = r.ID
	s.Scrub = Scrub{}
	s.scrubs++
}

// Origin returns where the current run, or the run just asked for as a
// branch, started: nil for a run trained from its start.
func (s *State) Origin() []Origin {
	if s.branching != nil {
		return s.branching
	}
	if r := s.Current(); r != nil {
		return r.From
	}
	return nil
}

// keyframe keeps the Weights m of a keyframe with its run.
func (s *State) keyframe(m protocol.Weights) {
	r := s.RunFor(m.Run)
	k := Keyframe{Step: m.Step, Model: &softmax.Model[float32]{D: m.D, W: m.W, B: m.B}}
	i, found := r.frame(m.Step)
	if found {
		r.Frames[i] = k // sent again (a worker that took over the run): the same bits
		return
	}
	r.Frames = slices.Insert(r.Frames, i, k)
}

// measured keeps a keyframe's evaluation with it.
func (rs Runs) measured(e protocol.Evaluated) {
	for _, r := range rs {
		if r.ID != e.Run {
			continue
		}
		if i, ok := r.frame(e.Step); ok {
			v := e
			r.Frames[i].Eval = &v
		}
	}
}

// keepFrames forgets the keyframes of every run but the last and the
// selected one.
func (rs Runs) keepFrames(selected int) {
	for i, r := range rs {
		if i != len(rs)-1 && r.ID != selected {
			r.Frames = nil
		}
	}
}

// forgetMeasures drops the keyframes' evaluations: they were of another
// pack's test images, or asked of a worker that died.
func (rs Runs) forgetMeasures() {
	for _, r := range rs {
		for i := range r.Frames {
			r.Frames[i].Eval, r.Frames[i].asked = nil, false
		}
	}
}

// FrameBytes returns the bytes the kept keyframes' weights take.
func (rs Runs) FrameBytes() int {
	n := 0
	for _, r := range rs {
		for _, k := range r.Frames {
			n += 4 * (len(k.Model.W) + len(k.Model.B))
		}
	}
	return n
}
