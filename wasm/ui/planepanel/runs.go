package planepanel

import (
	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The runs of the live model's gradient descent, as the page sees them
// start and end: what a lesson's question about the line set by hand
// compares.

// ActionRun starts the live model's gradient descent, from the θ it
// has (the line set by hand, in the Hand view), if it is not training
// (no value). In the Hand view, asked before the view's starting line is
// in (a question answered the moment its chapter opens), the run starts
// once it is, so that it starts from that line and not from the view
// before.
const ActionRun = "plane/run"

// ActionEnded is what a panel posts when a run of its live model's
// gradient descent ends (done, or paused): a RunEnded.
const ActionEnded = "plane/ended"

// RunEnded is one run of the live model's gradient descent, from the
// state it started in to the state it ended in.
type RunEnded struct {
	View  View    // the view of the panel it ran in
	From  float64 // J when it started: the θ it started from
	To    float64 // J when it ended
	Steps int     // the steps it took
}

// runs follows the live model's runs: the one under way, and one ended
// that the page has not yet been told about.
type runs struct {
	on    bool // a run is under way
	from  plane.Status
	ended *RunEnded
	// started: the Hand view's starting line has been sent; in: a frame
	// of the live model with it has come back; pending: a run was asked
	// for before.
	started, in, pending bool
}

// ask starts a run now, or, in the Hand view before its starting line is
// in, once it is (startIn).
func (p *Panel) ask() {
	switch {
	case p.state == stateTraining:
	case p.IView == Hand && !p.run.in:
		p.run.pending = true
	default:
		p.send(protocol.PlaneTrain{On: true})
	}
}

// noteState takes the state the worker now says, the panel having been
// in old with status before: a run starts when the state becomes
// training, and ends when it leaves it.
func (p *Panel) noteState(old string, before plane.Status) {
	r := &p.run
	switch {
	case old != stateTraining && p.state == stateTraining:
		r.on, r.from = true, before
	case old == stateTraining && p.state != stateTraining && r.on:
		r.on = false
		r.ended = &RunEnded{View: p.IView, From: r.from.Loss, To: p.st.Loss, Steps: p.st.Steps - r.from.Steps}
	}
}

// tellEnded posts the run that ended, if one did, to the page.
func (p *Panel) tellEnded(ctx app.Context) {
	if e := p.run.ended; e != nil {
		p.run.ended = nil
		ctx.NewActionWithValue(ActionEnded, *e)
	}
}

// handStart sends the Hand view's first line, once its live model is in:
// θ₁ = the settings' start (the loss surface's ○), class 0 pinned at 0.
func (p *Panel) handStart() {
	m := p.model
	if p.IView != Hand || p.run.started || m == nil || m.Classes() != 2 || m.D != 2 {
		return
	}
	p.run.started = true
	next := m.Clone()
	for j, v := range p.set.Start {
		next.W[startIndex(j)] = float32(v)
	}
	p.sendTheta(next, false)
}

// startIn notes the first frame whose model m has the Hand view's
// starting line, and starts the run asked for before it: the status
// the panel now shows is the line's, which the run's RunEnded starts
// from.
func (p *Panel) startIn(m *softmax.Model[float32]) {
	if p.IView != Hand || !p.run.started || p.run.in || m.Classes() != 2 || m.D != 2 {
		return
	}
	for j, v := range p.set.Start {
		if m.W[startIndex(j)] != float32(v) {
			return
		}
	}
	p.run.in = true
	if p.run.pending {
		p.run.pending = false
		p.send(protocol.PlaneTrain{On: true})
	}
}

// startIndex is where θ₁'s weight of feature j (0 or 1) is in the
// weights of a model of two classes and two features.
func startIndex(j int) int {
	i, _ := param{Class: 1, Of: []string{"1", "2"}[j]}.index(2)
	return i
}
