package session

import (
	"testing"
	"time"

	"softmaxdemo/wasm/protocol"
)

func TestPacerKeepsTheRate(t *testing.T) {
	t0 := time.Unix(0, 0)
	var p pacer
	p.rate = 4 // a step every 250 ms
	p.restart(t0)
	if n := p.due(t0); n != 1 {
		t.Fatalf("at the start %d steps are due, want 1", n)
	}
	p.took()
	if w := p.wait(t0.Add(10 * time.Millisecond)); w != 240*time.Millisecond {
		t.Errorf("after one step, wait %v, want 240ms", w)
	}
	if n := p.due(t0.Add(260 * time.Millisecond)); n != 1 {
		t.Errorf("at 260 ms %d steps are due, want 1", n)
	}
	p.took()
	// A stall of ten seconds allows a tenth of a second's worth (here 1),
	// not a burst of 40.
	if n := p.due(t0.Add(10 * time.Second)); n != 1 {
		t.Errorf("after a stall %d steps are due, want 1", n)
	}
	p.rate = 0
	if n, w := p.due(t0), p.wait(t0); n != -1 || w != 0 {
		t.Errorf("at full speed due %d and wait %v, want -1 and 0", n, w)
	}
}

func TestPacedRunShowsEveryStepAndChangesPaceWithoutRestarting(t *testing.T) {
	h, _ := loaded(t, 300)
	h.send(protocol.Pace{StepsPerSecond: 5})
	h.send(protocol.Train{Config: protocol.Config{LearningRate: 0.1, BatchSize: 10, Epochs: 2, Seed: 1}})
	var steps []int
	run := 0
	for len(steps) < 8 {
		if p, ok := h.next().(protocol.Progress); ok {
			steps = append(steps, p.Step)
			run = p.Run
		}
	}
	for i := 1; i < len(steps); i++ {
		if steps[i] != steps[i-1]+1 {
			t.Fatalf("slowed to 5 steps a second, the steps reported were %v, want one at a time", steps)
		}
	}
	h.send(protocol.Pace{StepsPerSecond: 0})
	all, last := untilType[protocol.Evaluated](h)
	for _, p := range only[protocol.Progress](all) {
		if p.Run != run {
			t.Fatalf("changing the pace started run %d (was %d)", p.Run, run)
		}
	}
	if last.Run != run {
		t.Errorf("the run evaluated is %d, want %d", last.Run, run)
	}
	h.send(protocol.Pace{StepsPerSecond: -1})
	if _, f := untilType[protocol.Failed](h); f.Key != "err.pace" {
		t.Errorf("a negative pace gave %+v", f)
	}
}
