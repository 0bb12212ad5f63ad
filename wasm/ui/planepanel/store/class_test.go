package store

import (
	"testing"

	"softmaxdemo/core/class"
	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/planework"
)

// TestClassLinesFollowThePlanesData: the presenter's lines are judged on
// the data the plane shows, again when a state brings other data, and a
// view reset keeps the part and the lines; a part out of range is None,
// which judges nothing.
func TestClassLinesFollowThePlanesData(t *testing.T) {
	p := setUp(t, handStart())
	p.SetPart(Presenter)
	p.SetLines([]class.LineOf{{Slot: 2, Line: class.PlaneLine{K: 2, W: []float32{0, 1, 0, -1}, B: []float32{0, 0}}}})
	jOn := func(d plane.Data) float64 {
		j, err := plane.NewJudge(d, p.Snapshot().Settings)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := j.Take([]float32{0, 1, 0, -1}, []float32{0, 0})
		return j.Loss(m)
	}
	if c := p.Snapshot().Class; len(c.Lines) != 1 || c.Lines[0].J != jOn(p.Snapshot().Data) {
		t.Fatalf("lines %+v", c.Lines)
	}
	m := stateOf(p, 1, Ready)
	m.Data, _ = m.Data.Add(plane.Point{X: [2]float64{3, 3}, Class: 0})
	p.Apply(m, 0)
	if c := p.Snapshot().Class; c.Lines[0].J != jOn(m.Data) || jOn(m.Data) == jOn(handStartData(t)) {
		t.Errorf("with a point added the line's J is %v, want %v", c.Lines[0].J, jOn(m.Data))
	}
	p.Reset(handStart())
	if c := p.Snapshot().Class; c.Part != Presenter || len(c.Lines) != 1 || c.Send != SendIdle {
		t.Errorf("a reset lost the class: %+v", c)
	}
	p.SetPart(Part(7))
	if c := p.Snapshot().Class; c.Part != None || len(c.Lines) != 0 {
		t.Errorf("part 7: %+v", c)
	}
	if _, ok := p.SendLine(); ok {
		t.Error("outside a class a line was sent")
	}
}

// handStartData is the Hand view's data as the plane makes them.
func handStartData(t *testing.T) plane.Data {
	d, err := plane.Generate("overlap", 2, planework.Seed)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
