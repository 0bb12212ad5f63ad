package planepanel

import (
	"html"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/planepanel/store"
)

// The owner's actions, natively: each one's commands to a fake worker,
// and what the room shows of the events fed to it.

// wants fails t unless got is want.
func wants(t *testing.T, what string, got []protocol.Msg, want ...protocol.Msg) {
	t.Helper()
	if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
		t.Errorf("%s sent %#v, want %#v", what, got, want)
	}
}

// stateOf is the worker's PlaneState of set-up 1 for what g shows, at
// seq, in state.
func stateOf(g *rig, seq int, state string) protocol.PlaneState {
	s := g.snap()
	return protocol.PlaneState{Setup: 1, Seq: seq, State: state, Name: s.Name, Data: s.Data, Settings: s.Settings}
}

// frameOf is a frame of set-up 1 at seq, in state, with m and st.
func frameOf(seq int, state string, m *softmax.Model[float32], st plane.Status) protocol.PlaneFrame {
	return protocol.PlaneFrame{Setup: 1, Seq: seq, State: state, N: 1, Image: make([]byte, 4), W: m.W, B: m.B, Status: st}
}

func zeros(k int) *softmax.Model[float32] { return softmax.NewClasses[float32](2, k) }

// TestOwnerSetsTheWorkerUpForItsView: the set-up is the view's start at
// the page's pace; ψ and α above the ceiling asked before it follow it,
// asked after it go at once; a pace changed is told.
func TestOwnerSetsTheWorkerUpForItsView(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN).Pace("50").View(Psi))
	signal(g, AddPsi)
	do(g, AlphaAbove, 0) // not a multiple: dropped
	do(g, AlphaAbove, AboveCeiling)
	wants(t, "ψ and α before the set-up", g.sent())
	g.setUp()
	st := start(Psi)
	wants(t, "the set-up", g.sent(), protocol.PlaneSetUp{Setup: 1, Data: "blobs", K: 3, Settings: st.Settings, Warm: true},
		protocol.PlanePace{StepsPerSecond: 50}, protocol.PlanePsi{}, protocol.PlaneAbove{Times: AboveCeiling})
	signal(g, AddPsi)
	wants(t, "ψ after the set-up", g.sent(), protocol.PlanePsi{})
	g.o.st.Pace("full")
	g.ctx.Dispatch(g.o.commit)
	g.e.ConsumeAll()
	wants(t, "the pace changed", g.sent(), protocol.PlanePace{StepsPerSecond: 0})
}

// TestOwnerSendsWhatThePersonDoes: a point added or removed, K, the data
// set, the options, Train, Pause and θ = 0 each go to the worker as the
// command that does it; an option of another name, a class the data lack
// and K refused by the worker change nothing, and the refusal shows.
func TestOwnerSendsWhatThePersonDoes(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN).Pace("full")).setUp()
	g.sent()
	g.give(stateOf(g, 1, store.Ready))
	do(g, chooseClass, 1)
	do(g, chooseClass, 5) // K = 2: no class 5
	do(g, press, click{At: [2]float64{1, -1}, Radius: 0.1})
	do(g, press, click{At: [2]float64{0.5, 0.5}, Radius: 0.1, Do: protocol.PointRemove})
	wants(t, "two presses", g.sent(), protocol.PlanePoint{At: [2]float64{1, -1}, Radius: 0.1, Class: 1},
		protocol.PlanePoint{At: [2]float64{0.5, 0.5}, Radius: 0.1, Class: 1, Do: protocol.PointRemove})
	do(g, chooseK, 4)
	do(g, chooseData, "ring")
	do(g, setOption, option{Name: "bias", On: true})
	do(g, setOption, option{Name: "pin", On: false})
	do(g, setOption, option{Name: "colour", On: true})
	wants(t, "K, the data and the options", g.sent(), protocol.PlaneClasses{K: 4}, protocol.PlaneData{Name: "ring"},
		protocol.PlaneOption{Name: "bias", On: true}, protocol.PlaneOption{Name: "pin", On: false})
	signal(g, toggleTrain)
	g.give(stateOf(g, 2, store.Training))
	signal(g, toggleTrain)
	signal(g, restart)
	do(g, moveStart, startAt{At: [2]float64{0.5, -1}, Quick: true})
	wants(t, "Train, Pause, θ = 0 and the start", g.sent(), protocol.PlaneTrain{On: true}, protocol.PlaneTrain{On: false},
		protocol.PlaneRestart{}, protocol.PlaneStart{At: [2]float64{0.5, -1}, Quick: true})
	if h := g.html(); !regexp.MustCompile(`<option (value="1" selected|selected value="1")>`).MatchString(h) {
		t.Error("the class a click adds is not 1")
	}

	refused := stateOf(g, 3, store.Ready)
	refused.Refused = &protocol.PlaneRefusal{Problem: int(plane.RemovedClass), Value: "2", Count: 3, Class: 1}
	if !g.give(refused) {
		t.Fatal("a refusal does not render the room")
	}
	h := g.html()
	want := i18n.EN.M(i18n.Text("plane.removed", "2", 3, 1)) + " " + i18n.EN.T("plane.kept")
	if !strings.Contains(h, html.EscapeString(want)) || !isTrue(h, "plane-train", "disabled") {
		t.Errorf("the refusal does not show %q, or Train is not disabled", want)
	}
}

// TestOwnerRefusesBadFields: α, λ and B typed are refused beside their
// fields with their reason, and nothing goes to the worker; good ones go.
func TestOwnerRefusesBadFields(t *testing.T) {
	g := newRig(t, New().Lang(i18n.ZH)).setUp()
	g.sent()
	for _, c := range []struct {
		field, text, key string
	}{
		{store.LR, "abc", "plane.notNumber"},
		{store.LR, "-1", "plane.badRate"},
		{store.L2, "-0.5", "plane.badLambda"},
		{store.Batch, "0", "plane.badBatch"},
	} {
		do(g, typeNumber, store.Typing{Field: c.field, Value: c.text})
		f := g.snap().Fields
		why := map[string]i18n.Msg{store.LR: f.LRErr, store.L2: f.L2Err, store.Batch: f.BatchErr}[c.field]
		if why.Key != c.key {
			t.Errorf("%s %q: reason %q, want %q", c.field, c.text, why.Key, c.key)
		}
		h := g.html()
		if !strings.Contains(h, html.EscapeString(i18n.ZH.M(why))) || !isTrue(h, "plane-"+c.field, "aria-invalid") {
			t.Errorf("%s %q: the field does not say why", c.field, c.text)
		}
		do(g, typeNumber, store.Typing{Field: c.field, Value: store.FieldsOf(plane.Defaults()).Text(c.field)})
	}
	wants(t, "bad fields, each put right", g.sent(), protocol.PlaneNumbers{Rate: 1, Batch: 1}, protocol.PlaneNumbers{Rate: 1, Batch: 1},
		protocol.PlaneNumbers{Rate: 1, Batch: 1}, protocol.PlaneNumbers{Rate: 1, Batch: 1})
}

// TestOwnerTakesThetaTyped: a number typed in #plane-theta goes to the
// worker in the θ the room last knew; a refused one says why beside its
// field and sends nothing.
func TestOwnerTakesThetaTyped(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN).View(Hand)).setUp()
	g.give(stateOf(g, 1, store.Ready))
	g.give(frameOf(1, store.Ready, zeros(2), plane.Status{}))
	start := g.snap().Settings.Start
	line := []float64{0, start[0], 0, start[1]}
	sent := g.sent()
	wants(t, "the Hand view's first model", sent[len(sent)-1:], protocol.PlaneTheta{W: line, B: []float64{0, 0}, Hand: 1})
	q := store.Param{Class: 1, Of: "1"}
	do(g, typeTheta, store.ThetaTyped{Param: q, K: 2, Value: "1.5"})
	wants(t, "θ typed", g.sent(), protocol.PlaneTheta{W: []float64{0, 1.5, 0, start[1]}, B: []float64{0, 0}, Hand: 2})
	for _, bad := range []struct{ text, key string }{
		{"1,5", "plane.theta.comma"}, {"", "plane.theta.empty"}, {"x1", "plane.theta.notNumber"},
		{"Inf", "plane.theta.notFinite"}, {"101", "plane.theta.tooBig"},
	} {
		do(g, typeTheta, store.ThetaTyped{Param: q, K: 2, Value: bad.text})
		wants(t, "θ "+bad.text, g.sent())
		_, why, _ := g.snap().Typed.Shown(q, 2)
		h := thetaHTML(g.snap(), i18n.EN)
		if v, _ := attrOf(h, q.ID(), "value"); why.Key != bad.key || v != bad.text || !isTrue(h, q.ID(), "aria-invalid") ||
			!strings.Contains(h, html.EscapeString(i18n.EN.M(why)+" "+i18n.EN.T("plane.theta.kept"))) {
			t.Errorf("θ %q: #plane-theta shows %q, reason %q, want %q beside it", bad.text, v, why.Key, bad.key)
		}
	}
}

// TestOwnerShowsTheWorkersRefusals: each refusal of the worker shows in
// #plane-error in words, with how the plane stands; a failure shows its
// message; a state that refuses nothing clears it.
func TestOwnerShowsTheWorkersRefusals(t *testing.T) {
	g := newRig(t, New().Lang(i18n.ZH)).setUp()
	seq := 0
	for pr := plane.NotFinite; pr <= plane.BadTheta; pr++ {
		seq++
		m := stateOf(g, seq, store.Ready)
		m.Refused = &protocol.PlaneRefusal{Problem: int(pr), X: [2]string{"9", "1"}, Value: "7", Count: 3, Class: 1, Name: "moons"}
		g.give(m)
		why := g.snap().Refused
		h := g.html()
		if why.Key == "raw" || !strings.Contains(h, html.EscapeString(i18n.ZH.M(why)+" "+i18n.ZH.T("plane.kept"))) {
			t.Errorf("problem %d: #plane-error does not say %q", pr, i18n.ZH.M(why))
		}
	}
	g.give(protocol.Failed{Message: "plane: out of memory"})
	if !strings.Contains(g.html(), "plane: out of memory") {
		t.Error("a failure is not shown")
	}
	g.give(stateOf(g, seq+1, store.Ready))
	if v, _ := attrOf(g.html(), "plane-error", "role"); v != "alert" || !g.snap().Refused.IsZero() {
		t.Error("a state that refuses nothing leaves the refusal")
	}
}

// thetaHTML is #plane-theta's HTML for s in l.
func thetaHTML(s store.Snapshot, l i18n.Lang) string {
	return htmlOf(layout{lang: l, s: s, live: liveOf(s, nil)}.theta())
}

// TestOwnerTellsThePageARunEnded: a run of the live model that ends is
// posted to the page once, with the view, its J from and to, and its
// steps; the Hand view's run asked before its line is in starts from it.
func TestOwnerTellsThePageARunEnded(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN).View(Hand)).setUp()
	signal(g, StartRun)
	g.give(stateOf(g, 1, store.Ready))
	g.give(frameOf(1, store.Ready, zeros(2), plane.Status{Loss: 0.69}))
	g.sent()
	start := g.snap().Settings.Start
	line := &softmax.Model[float32]{D: 2, W: []float32{0, float32(start[0]), 0, float32(start[1])}, B: []float32{0, 0}}
	f := frameOf(1, store.Ready, line, plane.Status{Steps: 0, Loss: 0.9})
	f.Hand = 1
	g.give(f)
	wants(t, "the line in", g.sent(), protocol.PlaneTrain{On: true})
	if !g.give(frameOf(1, store.Training, line, plane.Status{Steps: 5, Loss: 0.5})) {
		t.Error("a run that starts does not render the room")
	}
	if g.give(frameOf(1, store.Training, line, plane.Status{Steps: 50, Loss: 0.4})) {
		t.Error("a frame that moves only the numbers renders the room")
	}
	if len(g.ended) != 0 {
		t.Fatalf("a run ended while training: %+v", g.ended)
	}
	g.give(frameOf(1, store.Done, line, plane.Status{Steps: 200, Loss: 0.3}))
	g.give(frameOf(1, store.Done, line, plane.Status{Steps: 200, Loss: 0.3}))
	if want := (RunEnded{View: Hand, From: 0.9, To: 0.3, Steps: 200}); len(g.ended) != 1 || g.ended[0] != want {
		t.Errorf("the page was told %+v, want once %+v", g.ended, want)
	}
}

// TestOwnerTakesTheFrameWaitingWithItsState: a state takes the frame that
// waits for an animation frame with it, so that a status that says done
// says the last step; a state of another set-up leaves it waiting.
func TestOwnerTakesTheFrameWaitingWithItsState(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN)).setUp()
	f := frameOf(1, store.Done, zeros(2), plane.Status{Steps: 200})
	g.w.waiting = &f
	other := stateOf(g, 1, store.Done)
	other.Setup = 9
	if g.give(other) || g.w.waiting == nil {
		t.Fatal("a state of another set-up was taken, or took the frame")
	}
	g.give(stateOf(g, 1, store.Done))
	if s := g.snap(); g.w.waiting != nil || s.Status.Steps != 200 || s.State != store.Done {
		t.Errorf("the state did not take the frame waiting: step %d, %q", s.Status.Steps, s.State)
	}
	h := g.html()
	if steps, _ := attrOf(h, "plane-status", "data-steps"); steps != "200" {
		t.Errorf("#plane-status says step %s", steps)
	}
	if state, _ := attrOf(h, "plane-status", "data-state"); state != "done" {
		t.Error("#plane-status does not say done at the last step")
	}
}

// TestOwnerResumesANewWorker: a new worker goes on from the plane shown.
func TestOwnerResumesANewWorker(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN)).setUp()
	if g.o.replaced() != nil {
		t.Fatal("a resume before the worker said anything")
	}
	g.give(stateOf(g, 3, store.Training))
	g.give(frameOf(3, store.Training, zeros(2), plane.Status{Steps: 7}))
	r := g.o.replaced()
	if r == nil || !r.Training || r.Setup != 1 || len(r.W) != 4 || len(r.Data.Points) != len(g.snap().Data.Points) {
		t.Errorf("resume %+v", r)
	}
}
