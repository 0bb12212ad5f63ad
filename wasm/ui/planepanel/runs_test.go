package planepanel

import (
	"testing"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/ui/i18n"
)

// TestARunEndsOnceWithItsJ: a run of the live model starts when the
// state becomes training and ends, once, when it leaves it, with J and
// the steps from the status before it started to the status it ended at;
// states that do not train end nothing.
func TestARunEndsOnceWithItsJ(t *testing.T) {
	p := &Panel{IView: Hand, state: stateReady, st: plane.Status{Steps: 3, Loss: 0.9}}
	step := func(state string, st plane.Status) {
		old, before := p.state, p.st
		p.state, p.st = state, st
		p.noteState(old, before)
	}
	step(stateReady, plane.Status{Steps: 3, Loss: 0.8})
	if p.run.ended != nil || p.run.on {
		t.Fatalf("a ready state started or ended a run: %+v", p.run)
	}
	step(stateTraining, plane.Status{Steps: 10, Loss: 0.5})
	step(stateTraining, plane.Status{Steps: 100, Loss: 0.35})
	if p.run.ended != nil {
		t.Fatal("a run ended while training")
	}
	step(stateDone, plane.Status{Steps: 203, Loss: 0.31})
	want := RunEnded{View: Hand, From: 0.8, To: 0.31, Steps: 200}
	if e := p.run.ended; e == nil || *e != want {
		t.Fatalf("the run ended as %+v, want %+v", e, want)
	}
	p.run.ended = nil
	step(stateDone, plane.Status{Steps: 203, Loss: 0.31})
	if p.run.ended != nil {
		t.Errorf("a second done ended the run again: %+v", p.run.ended)
	}
}

// TestARunAskedBeforeTheLineStartsFromIt: in the Hand view, a run asked
// for before the view's starting line is in (a question answered the
// moment its chapter opens) waits for it: it starts from θ₁ = the
// settings' start, and its RunEnded starts from that line's J as core
// computes it, not from the model before.
func TestARunAskedBeforeTheLineStartsFromIt(t *testing.T) {
	r := mount(t, New().Lang(i18n.EN).View(Hand).Pace("full"))
	r.do(ActionRun, nil) // before any frame: no model, no line yet
	var from float64
	r.pump(t, func(p *Panel) bool {
		if m := p.model; from == 0 && p.state != stateTraining && m != nil && m.W[1] == float32(p.set.Start[0]) && m.W[3] == float32(p.set.Start[1]) {
			from = jOf(p) // the line's J, in the frame before the run
		}
		return p.run.ended != nil
	})
	e := *r.p.run.ended
	start := r.p.set.Start
	if from == 0 || e.From != from || !(e.To < e.From) || e.Steps < 1 {
		t.Errorf("the run from the line of θ₁ = %v ended as %+v; the line's J is %v", start, e, from)
	}
	if r.p.run.pending {
		t.Error("the run is still pending after it ended")
	}
}

// TestADemonstrationAskedBeforeTheSetUpIsKept: ψ and α above the ceiling,
// asked for by a lesson's answer after the panel changed to another view
// but before it set the worker up for it, reach the worker after that
// set-up, which would otherwise start the plane again and lose them: the
// ψ view shows ψ's result, and the surface view its α.
func TestADemonstrationAskedBeforeTheSetUpIsKept(t *testing.T) {
	r := mount(t, New().Lang(i18n.EN).View(Regions).Pace("full"))
	r.pump(t, settled)
	switchTo := func(v View) {
		r.p.IView = v
		r.p.showStart() // as OnUpdate does; the set-up waits for the panel to be near
	}
	switchTo(Psi)
	r.do(ActionPsi, nil)
	r.p.setUp()
	r.pump(t, func(p *Panel) bool { return p.psi != nil })

	switchTo(Surface)
	r.do(ActionAbove, AboveCeiling)
	r.p.setUp()
	r.pump(t, func(p *Panel) bool {
		return settled(p) && p.scene.AlphaMax > 0 && p.scene.Settings.Rate > p.scene.AlphaMax
	})
}
