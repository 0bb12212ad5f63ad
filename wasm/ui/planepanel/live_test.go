package planepanel

import (
	"testing"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit/kittest"
	"softmaxdemo/wasm/ui/planepanel/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestLiveViewsTakeTheLiveValue: the live value reaches a status line
// mounted, at once as it watches and then at each publish; a view no
// longer mounted is forgotten. (That a view asked renders alone, not its
// room, takes a browser: the benchmarks of the plane's frames count the
// main thread's tasks.)
func TestLiveViewsTakeTheLiveValue(t *testing.T) {
	e, room := kittest.Context(t)
	line := &statusLine{ILang: i18n.EN}
	kittest.Render(t, line)
	var views liveViews
	views.add(room, watching{ctx: room, view: line}, live{status: statusLive{State: store.Ready, Points: 3}})
	if line.IStatus.Points != 3 {
		t.Error("a view that watches does not take the live value at once")
	}
	views.publish(room, live{status: statusLive{State: store.Training, Status: plane.Status{Steps: 42}, Points: 120}})
	e.ConsumeAll()
	h := app.HTMLString(line.Render())
	if v, _ := attrOf(h, "plane-status", "data-steps"); v != "42" {
		t.Errorf("the line shows step %q", v)
	}
	if v, _ := attrOf(h, "plane-status", "data-state"); v != store.Training {
		t.Errorf("the line shows state %q", v)
	}
	gone := &statusLine{}
	views = append(views, watching{ctx: room, view: gone})
	views.publish(room, live{})
	if len(views) != 1 || views[0].view != line {
		t.Errorf("%d views watched after one that never mounted", len(views))
	}
}

// TestStatusLineRendersOnlyWhatChanged: the same numbers render nothing.
func TestStatusLineRendersOnlyWhatChanged(t *testing.T) {
	s := &statusLine{}
	l := live{status: statusLive{State: store.Training, Status: plane.Status{Steps: 1}}}
	if !s.take(l) || s.take(l) {
		t.Error("the line renders new numbers not once")
	}
	if (&regionsCanvas{}).take(l) {
		t.Error("the regions' canvas renders for a frame: it draws it")
	}
}

// TestThetaTableRendersTenTimesASecondWhileTraining: the frames of a run
// in training render #plane-theta at most every thetaEvery, but a frame
// that answers a θ set by hand, one of a model at rest, and θ typed at
// once; a frame not rendered leaves the table as it was, for the room's
// next render to show.
func TestThetaTableRendersTenTimesASecondWhileTraining(t *testing.T) {
	s := &thetaTable{IK: 2}
	frame := func(state string, hand int) live {
		return live{theta: thetaLive{State: state, Model: zeros(2), Hand: hand}}
	}
	if !s.take(frame(store.Training, 0)) {
		t.Error("the first frame of a run does not render the table")
	}
	was := s.ITheta
	if s.take(frame(store.Training, 0)) || s.ITheta.Model != was.Model {
		t.Error("a frame of the same run at once after it renders the table again, or changes it")
	}
	if !s.take(frame(store.Training, 1)) {
		t.Error("a frame that answers a θ set by hand waits")
	}
	if !s.take(frame(store.Done, 1)) {
		t.Error("a frame of a model at rest waits")
	}
	typed := frame(store.Training, 1)
	typed.theta.Typed = store.Typed{K: 2, Text: map[store.Param]string{{Class: 1, Of: "1"}: "3"}}
	if !s.take(typed) {
		t.Error("θ typed waits")
	}
	s.shownAt -= thetaEvery
	if !s.take(frame(store.Training, 1)) {
		t.Errorf("a frame %d ms after the last does not render the table", thetaEvery)
	}
}

// TestThetaTableKeepsWhatIsTypedUntilTheOwnerHasIt: a keystroke shows at
// once, before the owner takes it; once the owner has it, or the table is
// made for another K, the table shows the owner's; a field left shows the
// owner's at once.
func TestThetaTableKeepsWhatIsTypedUntilTheOwnerHasIt(t *testing.T) {
	q := store.Param{Class: 1, Of: "2"}
	s := &thetaTable{ILang: i18n.EN, IK: 2, ITheta: thetaLive{Model: zeros(2)}}
	value := func() string { v, _ := attrOf(app.HTMLString(s), q.ID(), "value"); return v }
	s.keep(store.ThetaTyped{Param: q, K: 2, Value: "0.2", Did: store.FieldInput})
	if v := value(); v != "0.2" {
		t.Fatalf("the field shows %q before the owner has what was typed", v)
	}
	s.ITheta.Typed = store.Typed{K: 2, Text: map[store.Param]string{q: "0.2"}}
	s.settle()
	if len(s.typed) != 0 || value() != "0.2" {
		t.Errorf("the owner has the text, and the table keeps its own: %v", s.typed)
	}
	s.keep(store.ThetaTyped{Param: q, K: 2, Value: "0.25", Did: store.FieldInput})
	s.keep(store.ThetaTyped{Param: q, K: 2, Value: "0.25", Did: store.FieldBlur})
	if v := value(); v != "0.2" {
		t.Errorf("left, the field shows %q, not the owner's", v)
	}
	s.keep(store.ThetaTyped{Param: q, K: 2, Value: "7", Did: store.FieldInput})
	s.IK = 3
	s.settle()
	if len(s.typed) != 0 {
		t.Error("what was typed in a table of K = 2 stays in one of K = 3")
	}
}

// TestNumberFieldKeepsWhatIsTyped: the same for α, λ and B.
func TestNumberFieldKeepsWhatIsTyped(t *testing.T) {
	f := &numberField{IID: "plane-lr", IName: store.LR, IValue: "1"}
	value := func() string { v, _ := attrOf(app.HTMLString(f), "plane-lr", "value"); return v }
	f.typed, f.pending = "0.5", true
	if v := value(); v != "0.5" {
		t.Fatalf("the field shows %q before the owner has what was typed", v)
	}
	f.IValue = "0.5"
	f.OnUpdate(app.Context{})
	if f.pending || value() != "0.5" {
		t.Error("the owner has the text, and the field keeps its own")
	}
	f.IValue = "0.75" // α set by the page
	f.OnUpdate(app.Context{})
	if v := value(); v != "0.75" {
		t.Errorf("α set by the page shows %q", v)
	}
}
