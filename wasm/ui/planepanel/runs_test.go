package planepanel

import (
	"testing"

	"softmaxdemo/core/plane"
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
