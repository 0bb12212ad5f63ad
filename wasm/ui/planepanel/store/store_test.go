package store

import (
	"math"
	"reflect"
	"strconv"
	"testing"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
)

// regions is the Regions view's start: three classes, a bias, class 0
// free, a little λ.
func regions() Start {
	s := plane.Defaults()
	s.Pin, s.Bias, s.Lambda = false, true, 0.01
	return Start{Data: "blobs", K: 3, Settings: s}
}

// handStart is the Hand view's start: overlap, K = 2, the exact
// surface's settings, the line set by hand.
func handStart() Start { return Start{Data: "overlap", K: 2, Settings: plane.Defaults(), Hand: true} }

// setUp returns a plane reset to s and set up as set-up 1, its outbox
// emptied.
func setUp(t *testing.T, s Start) *Plane {
	t.Helper()
	p := &Plane{}
	p.Reset(s)
	p.SetUp(1, "full", 0)
	p.Outbox()
	return p
}

// stateOf is the worker's PlaneState for p's data and settings, at seq,
// in state.
func stateOf(p *Plane, seq int, state string) protocol.PlaneState {
	s := p.Snapshot()
	return protocol.PlaneState{Setup: 1, Seq: seq, State: state, Name: s.Name, Data: s.Data, Settings: s.Settings}
}

// frameOf is a frame of set-up 1 at seq in state, with the model m and
// status st.
func frameOf(seq int, state string, m *softmax.Model[float32], st plane.Status) protocol.PlaneFrame {
	f := protocol.PlaneFrame{Setup: 1, Seq: seq, State: state, N: 1, Image: make([]byte, 4), Status: st}
	if m != nil {
		f.W, f.B = m.W, m.B
	}
	return f
}

// sent fails t unless the outbox holds want, in order.
func sent(t *testing.T, p *Plane, want ...protocol.Msg) {
	t.Helper()
	got := p.Outbox()
	if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
		t.Fatalf("sent %#v, want %#v", got, want)
	}
}

func TestSetUpSendsTheStartThenWhatWasAskedBefore(t *testing.T) {
	p := &Plane{}
	p.Reset(regions())
	s := p.Snapshot()
	if s.State != Ready || !s.Building || s.Name != "blobs" || s.Data.K != 3 || len(s.Data.Points) != 3*plane.PerClass || s.Fields.L2 != "0.01" {
		t.Fatalf("the start shows %+v", s)
	}
	if p.IsSetUp() {
		t.Fatal("set up before SetUp")
	}
	p.Early(protocol.PlanePsi{})
	p.Early(protocol.PlaneAbove{Times: 1.5})
	sent(t, p)
	p.SetUp(7, "50", 0)
	st := regions()
	sent(t, p, protocol.PlaneSetUp{Setup: 7, Data: "blobs", K: 3, Settings: st.Settings},
		protocol.PlanePace{StepsPerSecond: 50}, protocol.PlanePsi{}, protocol.PlaneAbove{Times: 1.5})
	if !p.IsSetUp() {
		t.Fatal("not set up after SetUp")
	}
	p.Early(protocol.PlanePsi{})
	sent(t, p, protocol.PlanePsi{})

	p.Reset(Start{Data: "overlap", K: 2, Settings: plane.Defaults(), Warm: true})
	p.SetUp(8, "50", 0)
	sent(t, p, protocol.PlaneSetUp{Setup: 8, Data: "overlap", K: 2, Settings: plane.Defaults(), Warm: true}) // the pace told stays
}

func TestPaceIsToldWhenItChanges(t *testing.T) {
	p := setUp(t, regions())
	p.Pace("full")
	sent(t, p)
	p.Pace("200")
	sent(t, p, protocol.PlanePace{StepsPerSecond: 200})
	def, _ := strconv.ParseFloat("50", 64)
	p.Pace("no such pace")
	sent(t, p, protocol.PlanePace{StepsPerSecond: def})
}

func TestStaleEventsAreDropped(t *testing.T) {
	p := setUp(t, regions())
	if !p.Apply(stateOf(p, 3, Ready), 0) {
		t.Fatal("a state of the set-up was not taken")
	}
	for _, c := range []struct {
		name string
		m    protocol.Msg
	}{
		{"a state of another set-up", protocol.PlaneState{Setup: 2, Seq: 4, State: Done}},
		{"a state that says nothing (Seq 0)", protocol.PlaneState{Setup: 1, State: Done}},
		{"a scene for older data", protocol.PlaneScene{Setup: 1, Seq: 2, Scene: &plane.Scene{}}},
		{"a scene of another set-up", protocol.PlaneScene{Setup: 0, Seq: 3, Scene: &plane.Scene{}}},
		{"a scene with none in it", protocol.PlaneScene{Setup: 1, Seq: 3}},
		{"a digits' event", protocol.Heartbeat{}},
	} {
		before := p.Snapshot()
		if p.Apply(c.m, 0) || !reflect.DeepEqual(before, p.Snapshot()) {
			t.Errorf("%s was taken", c.name)
		}
	}
	m := softmax.NewClasses[float32](2, 3)
	if p.Frame(frameOf(2, Training, m, plane.Status{Steps: 9})) || p.Snapshot().Status.Steps == 9 {
		t.Error("a frame for older data was taken")
	}
	f := frameOf(3, Training, m, plane.Status{Steps: 1})
	f.Setup = 2
	if p.Frame(f) || p.Snapshot().Model != nil {
		t.Error("a frame of another set-up was taken")
	}
}

func TestStateTakesTheWorkersWord(t *testing.T) {
	p := setUp(t, regions())
	p.Class(2)
	m := stateOf(p, 1, Ready)
	m.Data = plane.Data{K: 2, Points: m.Data.Points[:plane.PerClass]}
	m.Settings.Rate = 0.25
	m.Chosen = true
	m.Refused = &protocol.PlaneRefusal{Problem: int(plane.RemovedClass), Value: "2", Count: 4, Class: 2}
	m.Psi = &plane.Psi{MaxDP: 1e-9}
	p.Apply(m, 0)
	s := p.Snapshot()
	if s.Data.K != 2 || s.Fields.LR != "0.25" || s.Add != 1 || s.Psi != m.Psi || s.Refused.Key != "plane.removed" {
		t.Errorf("after the state: K %d, α shown %q, class added %d, ψ %v, refusal %q", s.Data.K, s.Fields.LR, s.Add, s.Psi, s.Refused.Key)
	}
	m.Seq, m.Refused, m.Chosen = 2, nil, false
	m.Settings.Rate = 3
	p.Apply(m, 0)
	if s := p.Snapshot(); !s.Refused.IsZero() || s.Fields.LR != "0.25" {
		t.Errorf("a state with nothing refused keeps %q; settings the page chose show α %q in its field", s.Refused.Key, s.Fields.LR)
	}
	p.Apply(protocol.Failed{Message: "the worker broke"}, 0)
	if r := p.Snapshot().Refused; r.Key != "raw" || i18n.EN.M(r) != "the worker broke" {
		t.Errorf("a failure shows %+v", r)
	}
}

func TestSceneTakesItsTime(t *testing.T) {
	p := setUp(t, regions())
	p.Ask(protocol.PlaneData{Name: "ring"}, 10)
	sent(t, p, protocol.PlaneData{Name: "ring"})
	d, _ := plane.Generate("overlap", 2, 1)
	sc, err := plane.Build(d, plane.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if !p.Apply(protocol.PlaneScene{Setup: 1, Scene: sc}, 35) {
		t.Fatal("the scene was not taken")
	}
	s := p.Snapshot()
	if s.Scene != sc || s.BuildMS != 25 || s.Scenes != 1 || len(s.SceneSum) == 0 {
		t.Errorf("scene %p (want %p), %v ms, %d scenes, sum %q", s.Scene, sc, s.BuildMS, s.Scenes, s.SceneSum)
	}
	other := *sc
	other.J = append([]float64{1}, sc.J[1:]...)
	p.Apply(protocol.PlaneScene{Setup: 1, Scene: &other}, 40)
	if p.Snapshot().SceneSum == s.SceneSum {
		t.Error("two scenes have the same checksum")
	}
}

// TestFieldsRefuseWithTheirReason: α, λ and B that are not numbers or out
// of range are refused beside their fields, and nothing goes to the
// worker; good ones go, all three at once.
func TestFieldsRefuseWithTheirReason(t *testing.T) {
	p := setUp(t, Start{Data: "blobs", K: 2, Settings: plane.Defaults()})
	for _, c := range []struct {
		lr, l2, batch string
		field         func(f Fields) i18n.Msg
		key           string
	}{
		{"NaN", "0", "1", func(f Fields) i18n.Msg { return f.LRErr }, "plane.badRate"},
		{"1e999", "0", "1", func(f Fields) i18n.Msg { return f.LRErr }, "plane.badRate"},
		{"0", "0", "1", func(f Fields) i18n.Msg { return f.LRErr }, "plane.badRate"},
		{"abc", "0", "1", func(f Fields) i18n.Msg { return f.LRErr }, "plane.notNumber"},
		{"1", "-1", "1", func(f Fields) i18n.Msg { return f.L2Err }, "plane.badLambda"},
		{"1", "x", "1", func(f Fields) i18n.Msg { return f.L2Err }, "plane.notNumber"},
		{"1", "0", "0", func(f Fields) i18n.Msg { return f.BatchErr }, "plane.badBatch"},
		{"1", "0", "2.5", func(f Fields) i18n.Msg { return f.BatchErr }, "plane.badBatch"},
		{"1", "0", "121", func(f Fields) i18n.Msg { return f.BatchErr }, "plane.badBatch"},
		{"1", "0", "", func(f Fields) i18n.Msg { return f.BatchErr }, "plane.notNumber"},
	} {
		p.Typed(Typing{Field: L2, Value: c.l2}, 0)
		p.Typed(Typing{Field: Batch, Value: c.batch}, 0)
		p.Outbox()
		p.Typed(Typing{Field: LR, Value: c.lr}, 0)
		f := p.Snapshot().Fields
		if got := c.field(f); got.Key != c.key || len(p.Outbox()) != 0 {
			t.Errorf("α %q, λ %q, B %q: reason %q, want %q, or a command was sent", c.lr, c.l2, c.batch, got.Key, c.key)
		}
		if f.LR != c.lr || f.L2 != c.l2 || f.Batch != c.batch {
			t.Errorf("the fields show %q %q %q, not what was typed", f.LR, f.L2, f.Batch)
		}
		for _, why := range []i18n.Msg{f.LRErr, f.L2Err, f.BatchErr} {
			if !why.IsZero() && (i18n.EN.M(why) == why.Key || i18n.ZH.M(why) == why.Key) {
				t.Errorf("%q has no words", why.Key)
			}
		}
	}
	p.Typed(Typing{Field: Batch, Value: "4"}, 0)
	p.Typed(Typing{Field: L2, Value: " 0.01 "}, 0)
	p.Outbox()
	p.Typed(Typing{Field: LR, Value: "2"}, 0)
	sent(t, p, protocol.PlaneNumbers{Rate: 2, Lambda: 0.01, Batch: 4})
	if f := p.Snapshot().Fields; !f.LRErr.IsZero() || !f.L2Err.IsZero() || !f.BatchErr.IsZero() {
		t.Errorf("good fields say %+v", f)
	}
}

// TestFieldsFollowTheSettingsChosen: settings the worker chose (α set at
// a multiple of 2/λ_max) show in the fields, unless one is refused, which
// keeps what was typed and why.
func TestFieldsFollowTheSettingsChosen(t *testing.T) {
	p := setUp(t, Start{Data: "blobs", K: 2, Settings: plane.Defaults()})
	m := stateOf(p, 1, Ready)
	m.Chosen, m.Settings.Rate, m.Settings.Batch = true, 3.25, 7
	p.Apply(m, 0)
	if f := p.Snapshot().Fields; f.LR != "3.25" || f.Batch != "7" || f.L2 != "0" {
		t.Fatalf("the fields show %+v", f)
	}
	p.Typed(Typing{Field: LR, Value: "zero"}, 0)
	m.Seq, m.Settings.Rate = 2, 0.5
	p.Apply(m, 0)
	if f := p.Snapshot().Fields; f.LR != "zero" || f.LRErr.Key != "plane.notNumber" {
		t.Errorf("a refused field changed: %+v", f)
	}
}

// model is a model of k classes of the plane with w and b.
func model(w, b []float32) *softmax.Model[float32] { return &softmax.Model[float32]{D: 2, W: w, B: b} }

// TestThetaTypedGoesInTheThetaLastKnown: a number typed goes to the worker
// in the θ the page last knew, so that two fields typed before the worker
// answers change both; refused, it says why, nothing is sent, and its
// text stays; a field left follows the model unless refused; a table of
// another K, or a param the model lacks, is dropped without a word.
func TestThetaTypedGoesInTheThetaLastKnown(t *testing.T) {
	p := setUp(t, regions())
	p.Apply(stateOf(p, 1, Ready), 0)
	p.Frame(frameOf(1, Ready, model([]float32{0, 0, 0, 0, 0, 0}, []float32{0, 0, 0}), plane.Status{}))
	q := Param{Class: 1, Of: "2"}
	p.Theta(ThetaTyped{Param: q, K: 3, Value: "0", Did: FieldFocus}, 0)
	sent(t, p)
	if text, _, ok := p.Snapshot().Typed.Shown(q, 3); !ok || text != "0" {
		t.Fatalf("the field come into shows %q, %v", text, ok)
	}
	p.Theta(ThetaTyped{Param: q, K: 3, Value: "−1.5", Did: FieldInput}, 0)
	p.Theta(ThetaTyped{Param: Param{Class: 2, Of: "b"}, K: 3, Value: "0.25", Did: FieldChange}, 0)
	sent(t, p,
		protocol.PlaneTheta{W: []float64{0, 0, 0, 0, -1.5, 0}, B: []float64{0, 0, 0}, Hand: 1},
		protocol.PlaneTheta{W: []float64{0, 0, 0, 0, -1.5, 0}, B: []float64{0, 0, 0.25}, Hand: 2})
	if b := p.Base(); b.B[2] != 0.25 || b.W[4] != -1.5 {
		t.Errorf("the θ last known is %v %v", b.W, b.B)
	}
	p.Theta(ThetaTyped{Param: q, K: 3, Value: "-1.5", Did: FieldChange}, 0)
	sent(t, p) // Enter after typing: nothing changes

	before := p.Snapshot().Typed
	for _, bad := range []struct{ text, key string }{
		{"NaN", "plane.theta.notFinite"}, {"0,5", "plane.theta.comma"}, {"", "plane.theta.empty"},
		{"1e3", "plane.theta.tooBig"}, {"x", "plane.theta.notNumber"},
	} {
		p.Theta(ThetaTyped{Param: q, K: 3, Value: bad.text}, 0)
		text, why, _ := p.Snapshot().Typed.Shown(q, 3)
		if why.Key != bad.key || text != bad.text {
			t.Errorf("%q: shows %q, reason %q, want %q", bad.text, text, why.Key, bad.key)
		}
		sent(t, p)
	}
	if text, _, _ := before.Shown(q, 3); text != "-1.5" {
		t.Errorf("a snapshot taken before changed: %q", text)
	}
	p.Theta(ThetaTyped{Param: q, K: 3, Value: "x", Did: FieldBlur}, 0)
	if _, why, ok := p.Snapshot().Typed.Shown(q, 3); !ok || why.Key != "plane.theta.notNumber" {
		t.Error("a refused field left forgets what was typed and why")
	}
	p.Theta(ThetaTyped{Param: q, K: 3, Value: "2"}, 0)
	p.Theta(ThetaTyped{Param: q, K: 3, Value: "2", Did: FieldBlur}, 0)
	if _, _, ok := p.Snapshot().Typed.Shown(q, 3); ok {
		t.Error("a good field left keeps showing what was typed")
	}
	p.Outbox()
	for _, gone := range []ThetaTyped{
		{Param: q, K: 2, Value: "1"},                        // a table of K = 2, gone
		{Param: Param{Class: 3, Of: "1"}, K: 3, Value: "1"}, // no class 3
		{Param: Param{Class: 0, Of: "c"}, K: 3, Value: "1"}, // no such number
	} {
		p.Theta(gone, 0)
		sent(t, p)
	}
	m := stateOf(p, 2, Ready)
	m.Data.K = 4
	p.Apply(m, 0)
	if ty := p.Snapshot().Typed; len(ty.Text) != 0 || len(ty.Why) != 0 {
		t.Errorf("K changed, and what was typed stays: %+v", ty)
	}
}

// TestBaseIsTheLiveModelOnceAnswered: the θ last sent is the base until
// a frame says the worker has answered it, or a frame of another K comes.
func TestBaseIsTheLiveModelOnceAnswered(t *testing.T) {
	p := setUp(t, regions())
	p.Apply(stateOf(p, 1, Ready), 0)
	live := model(make([]float32, 6), make([]float32, 3))
	p.Frame(frameOf(1, Ready, live, plane.Status{}))
	p.Theta(ThetaTyped{Param: Param{Class: 0, Of: "1"}, K: 3, Value: "1"}, 0)
	if p.Base() == p.Snapshot().Model || p.Base().W[0] != 1 {
		t.Fatal("the θ sent is not the base")
	}
	f := frameOf(1, Ready, model([]float32{1, 0, 0, 0, 0, 0}, make([]float32, 3)), plane.Status{})
	f.Hand = 1
	p.Frame(f)
	if p.Base() != p.Snapshot().Model {
		t.Error("the model that answered the θ sent is not the base")
	}
	p.Theta(ThetaTyped{Param: Param{Class: 0, Of: "1"}, K: 3, Value: "2"}, 0)
	p.Frame(frameOf(1, Ready, model(make([]float32, 4), make([]float32, 2)), plane.Status{}))
	if p.Base() != p.Snapshot().Model {
		t.Error("a θ of K = 3 is the base of a model of K = 2")
	}
}

// TestDragMovesTheLineThroughThePoint: a boundary held and dragged to a
// point passes through it in the θ sent; quick while the pointer moves;
// a drag core/plane refuses sends nothing.
func TestDragMovesTheLineThroughThePoint(t *testing.T) {
	st := Start{Data: "blobs", K: 2, Settings: plane.Defaults()}
	st.Settings.Bias, st.Settings.Pin = true, false
	p := setUp(t, st)
	p.Apply(stateOf(p, 1, Ready), 0)
	p.Frame(frameOf(1, Ready, model([]float32{-1, 1, 0.5, -0.5}, []float32{0, 0}), plane.Status{}))
	segs := plane.Boundaries(p.Base())
	if len(segs) != 1 {
		t.Fatalf("%d boundaries", len(segs))
	}
	at := [2]float64{1, 1}
	p.Drag(plane.Grab(segs[0], 0.5, true), at, true, 0)
	out := p.Outbox()
	th, ok := out[0].(protocol.PlaneTheta)
	if len(out) != 1 || !ok || !th.Quick || th.Hand != 1 {
		t.Fatalf("a drag sent %#v", out)
	}
	z0 := th.B[0] + at[0]*th.W[0] + at[1]*th.W[2]
	z1 := th.B[1] + at[0]*th.W[1] + at[1]*th.W[3]
	if math.Abs(z0-z1) > 1e-4 {
		t.Errorf("dragged to %v: z₀ − z₁ = %v there", at, z0-z1)
	}
	p.Frame(frameOf(1, Ready, model([]float32{1e3, 0, 0, 0}, []float32{0, 0}), plane.Status{})) // beyond ±MaxTheta
	p.hand.last = nil
	p.Drag(plane.Grip{I: 0, J: 1}, at, false, 0)
	sent(t, p)
}

// TestARunEndsOnceWithItsJ: a run of the live model starts when the state
// becomes training and ends, once, when it leaves it, with J and the steps
// from the status before it started to the status it ended at; states
// that do not train end nothing.
func TestARunEndsOnceWithItsJ(t *testing.T) {
	p := setUp(t, regions())
	p.Apply(stateOf(p, 1, Ready), 0)
	m := model(make([]float32, 6), make([]float32, 3))
	step := func(state string, steps int, loss float64) {
		p.Frame(frameOf(1, state, m, plane.Status{Steps: steps, Loss: loss}))
	}
	step(Ready, 3, 0.8)
	if _, ok := p.Ended(); ok {
		t.Fatal("a ready state ended a run")
	}
	step(Training, 10, 0.5)
	step(Training, 100, 0.35)
	if _, ok := p.Ended(); ok {
		t.Fatal("a run ended while training")
	}
	step(Done, 203, 0.31)
	if e, ok := p.Ended(); !ok || e != (Run{From: 0.8, To: 0.31, Steps: 200}) {
		t.Fatalf("the run ended as %+v, %v", e, ok)
	}
	step(Done, 203, 0.31)
	if e, ok := p.Ended(); ok {
		t.Errorf("a second done ended the run again: %+v", e)
	}
	p.Apply(stateOf(p, 2, Training), 0)
	p.Apply(stateOf(p, 3, Ready), 0)
	if e, ok := p.Ended(); !ok || e.Steps != 0 {
		t.Errorf("a run paused by its states ended as %+v, %v", e, ok)
	}
}

// TestARunAskedBeforeTheLineWaitsForIt: at the Hand start, the first
// model in sends the line θ₁ = the settings' start; a run asked for
// before that line is in starts with the first frame that has it, and
// not before; once it is in, a run starts at once, but not while one
// trains.
func TestARunAskedBeforeTheLineWaitsForIt(t *testing.T) {
	p := setUp(t, handStart())
	p.AskRun()
	sent(t, p)
	p.Apply(stateOf(p, 1, Ready), 0)
	p.Frame(frameOf(1, Ready, model(make([]float32, 4), make([]float32, 2)), plane.Status{}))
	start := p.Snapshot().Settings.Start
	line := []float64{0, start[0], 0, start[1]}
	sent(t, p, protocol.PlaneTheta{W: line, B: []float64{0, 0}, Hand: 1})
	p.Frame(frameOf(1, Ready, model(make([]float32, 4), make([]float32, 2)), plane.Status{}))
	sent(t, p) // the line is not in yet
	in := frameOf(1, Ready, model([]float32{0, float32(start[0]), 0, float32(start[1])}, make([]float32, 2)), plane.Status{Loss: 0.9})
	in.Hand = 1
	p.Frame(in)
	sent(t, p, protocol.PlaneTrain{On: true})
	p.Frame(in)
	sent(t, p)
	p.AskRun()
	sent(t, p, protocol.PlaneTrain{On: true})
	in.State = Training
	p.Frame(in)
	p.AskRun()
	sent(t, p)

	q := setUp(t, regions())
	q.AskRun()
	sent(t, q, protocol.PlaneTrain{On: true})
	q.Frame(frameOf(-1, Ready, model(make([]float32, 4), make([]float32, 2)), plane.Status{}))
	sent(t, q)
}

// TestResumeGoesOnFromThePlaneShown: a new worker gets the data, the
// settings, the state and the live model the page shows, and counts θs
// by hand afresh; before the worker has said anything there is nothing
// to resume.
func TestResumeGoesOnFromThePlaneShown(t *testing.T) {
	p := setUp(t, regions())
	if p.Resume() != nil {
		t.Fatal("a resume before the worker said anything")
	}
	m := stateOf(p, 4, Training)
	m.Edited = true
	p.Apply(m, 0)
	f := frameOf(4, Training, model([]float32{1, 2, 3, 4, 5, 6}, []float32{7, 8, 9}), plane.Status{})
	f.Hand = 3
	p.hand.sent = 3
	p.Frame(f)
	r := p.Resume()
	if r == nil || r.Setup != 1 || r.Name != "blobs" || !r.Edited || !r.Training || len(r.Data.Points) != len(m.Data.Points) ||
		r.Settings != m.Settings || r.W[5] != 6 || r.B[2] != 9 {
		t.Fatalf("resume %+v", r)
	}
	if p.hand.sent != 0 || p.Snapshot().Hand != 0 {
		t.Error("the new worker's θs by hand are not counted afresh")
	}
}

// TestClassAndPoints: the class a click adds is one of the data's; a
// click sends it, with the press's place and radius; Train pauses a run
// in training.
func TestClassAndPoints(t *testing.T) {
	p := setUp(t, regions())
	p.Class(2)
	p.Class(3)
	p.Class(-1)
	if c := p.Snapshot().Add; c != 2 {
		t.Fatalf("the class added is %d", c)
	}
	p.Point([2]float64{1, -1}, 0.1, protocol.PointAdd, 0)
	sent(t, p, protocol.PlanePoint{At: [2]float64{1, -1}, Radius: 0.1, Class: 2, Do: protocol.PointAdd})
	p.Train()
	sent(t, p, protocol.PlaneTrain{On: true})
	p.Apply(stateOf(p, 1, Training), 0)
	p.Train()
	sent(t, p, protocol.PlaneTrain{On: false})
}

// TestEveryRefusalHasItsWords: each of core/plane's refusals, as the
// worker sends it, reads in both languages with its numbers.
func TestEveryRefusalHasItsWords(t *testing.T) {
	for pr := plane.NotFinite; pr <= plane.BadTheta; pr++ {
		m := refusalOf(&protocol.PlaneRefusal{Problem: int(pr), X: [2]string{"NaN", "2"}, Value: "3", Count: 4, Class: 1, Name: "moons"})
		for _, l := range i18n.Langs {
			if s := l.M(m); m.Key == "raw" || s == m.Key || s == "" {
				t.Errorf("problem %d in %s: %q (%q)", pr, l, s, m.Key)
			}
		}
	}
	if m := refusalOf(&protocol.PlaneRefusal{Problem: -1, Message: "out of memory"}); i18n.EN.M(m) != "out of memory" {
		t.Errorf("another error reads %q", i18n.EN.M(m))
	}
	if !refusalOf(nil).IsZero() {
		t.Error("no refusal reads as one")
	}
}

// TestParseThetaSaysWhy: what a person may type for a number of θ, and
// the reason for each refusal.
func TestParseThetaSaysWhy(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		key  string
	}{
		{"0.5", 0.5, ""},
		{"  -2 ", -2, ""},
		{"−1.25", -1.25, ""}, // the minus sign the page prints
		{"+3", 3, ""},
		{"1e-3", 0.001, ""},
		{"100", 100, ""},
		{"-100", -100, ""},
		{"1e-999", 0, ""}, // underflows to 0: a number, and within bounds
		{"", 0, "plane.theta.empty"},
		{"   ", 0, "plane.theta.empty"},
		{"0,5", 0, "plane.theta.comma"},
		{"1，5", 0, "plane.theta.comma"},
		{"1, 2", 0, "plane.theta.comma"},
		{"abc", 0, "plane.theta.notNumber"},
		{"1.2.3", 0, "plane.theta.notNumber"},
		{"−", 0, "plane.theta.notNumber"},
		{"NaN", 0, "plane.theta.notFinite"},
		{"nan", 0, "plane.theta.notFinite"},
		{"Inf", 0, "plane.theta.notFinite"},
		{"-infinity", 0, "plane.theta.notFinite"},
		{"100.0001", 0, "plane.theta.tooBig"},
		{"-1e3", 0, "plane.theta.tooBig"},
		{"1e999", 0, "plane.theta.tooBig"},
	} {
		v, why := ParseTheta(c.in)
		if why.Key != c.key || (c.key == "" && v != c.want) {
			t.Errorf("%q: %v, %q; want %v, %q", c.in, v, why.Key, c.want, c.key)
		}
	}
}

// FuzzPlaneTheta: whatever is typed, reading it never panics and never
// takes a number that is not finite or is beyond ±MaxTheta; a number
// taken is one core/plane's Lab takes too, and its model and J stay
// finite.
func FuzzPlaneTheta(f *testing.F) {
	for _, s := range []string{"0.5", "−2", "1e-3", "", "0,5", "NaN", "Inf", "-infinity", "1e999", "100", "0x1p-2", "1_000", "+.5e+1", "١٢"} {
		f.Add(s)
	}
	d, err := plane.Generate("blobs", 2, 1)
	if err != nil {
		f.Fatal(err)
	}
	s := plane.Defaults()
	s.Pin, s.Bias = false, true
	lab, err := plane.NewLab(d, s)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, why := ParseTheta(text)
		if !why.IsZero() {
			if i18n.EN.M(why) == why.Key || i18n.ZH.M(why) == why.Key {
				t.Fatalf("%q is refused without a reason in words (%q)", text, why.Key)
			}
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > plane.MaxTheta {
			t.Fatalf("%q is taken as %v", text, v)
		}
		w, b := []float64{v, 0, 0, v}, []float64{v, -v}
		if err := lab.SetTheta(w, b); err != nil {
			t.Fatalf("%q, read as %v, is refused by the Lab: %v", text, v, err)
		}
		if m := lab.Model(); !m.Finite() || math.IsNaN(lab.Status().Loss) || math.IsInf(lab.Status().Loss, 0) {
			t.Fatalf("%q: the model %v %v, J = %v", text, m.W, m.B, lab.Status().Loss)
		}
	})
}
