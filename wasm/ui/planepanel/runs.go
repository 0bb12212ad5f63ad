package planepanel

import (
	"softmaxdemo/core/plane"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The runs of the live model's gradient descent, as the page sees them
// start and end: what a lesson's question about the line set by hand
// compares.

// ActionRun starts the live model's gradient descent, from the θ it
// has (the line set by hand, in the Hand view), if it is not training
// (no value).
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
	// started: the Hand view's starting line has been sent.
	started bool
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
		i, _ := param{Class: 1, Of: []string{"1", "2"}[j]}.index(2)
		next.W[i] = float32(v)
	}
	p.sendTheta(next, false)
}
