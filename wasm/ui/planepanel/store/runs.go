package store

import (
	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/protocol"
)

// The runs of the live model's gradient descent, as the page sees them
// start and end: what a lesson's question about the line set by hand
// compares.

// Run is one run of the live model's gradient descent, from the state it
// started in to the state it ended in.
type Run struct {
	From  float64 // J when it started: the θ it started from
	To    float64 // J when it ended
	Steps int     // the steps it took
}

// runs follows the live model's runs: the one under way, and one ended
// that the page has not yet been told about.
type runs struct {
	on    bool // a run is under way
	from  plane.Status
	ended *Run
	// started: the Hand view's starting line has been sent; in: a frame
	// of the live model with it has come back; pending: a run was asked
	// for before.
	started, in, pending bool
}

// note takes the state the worker now says, the plane having been in old
// with status before: a run starts when the state becomes Training, and
// ends when it leaves it, at status now.
func (r *runs) note(old, state string, before, now plane.Status) {
	switch {
	case old != Training && state == Training:
		r.on, r.from = true, before
	case old == Training && state != Training && r.on:
		r.on = false
		r.ended = &Run{From: r.from.Loss, To: now.Loss, Steps: now.Steps - r.from.Steps}
	}
}

// Ended returns the run that ended since Ended was last called, if one
// did.
func (p *Plane) Ended() (Run, bool) {
	e := p.run.ended
	if e == nil {
		return Run{}, false
	}
	p.run.ended = nil
	return *e, true
}

// AskRun starts a run now, from the θ the live model has, unless one is
// training; at the Hand start, before its starting line is in, it starts
// once it is (a question answered the moment its chapter opens), so that
// it starts from that line and not from the model before.
func (p *Plane) AskRun() {
	switch {
	case p.s.State == Training:
	case p.start.Hand && !p.run.in:
		p.run.pending = true
	default:
		p.send(protocol.PlaneTrain{On: true})
	}
}

// handStart queues the Hand start's first line, once its live model is
// in: θ₁ = the settings' start (the loss surface's ○), class 0 pinned at
// 0.
func (p *Plane) handStart() {
	m := p.s.Model
	if !p.start.Hand || p.run.started || m == nil || m.Classes() != 2 || m.D != 2 {
		return
	}
	p.run.started = true
	next := m.Clone()
	for j, v := range p.s.Settings.Start {
		next.W[startIndex(j)] = float32(v)
	}
	p.sendTheta(next, false)
}

// startIn notes the first frame whose model has the Hand start's line,
// and starts the run asked for before it: the status the page now shows
// is the line's, which the run's Run starts from.
func (p *Plane) startIn() {
	m := p.s.Model
	if !p.start.Hand || !p.run.started || p.run.in || m.Classes() != 2 || m.D != 2 {
		return
	}
	for j, v := range p.s.Settings.Start {
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
	i, _ := Param{Class: 1, Of: Ofs[j]}.Index(2)
	return i
}
