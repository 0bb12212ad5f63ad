package planepanel

import (
	"html"
	"math"
	"strconv"
	"strings"
	"testing"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit/kittest"
	"softmaxdemo/wasm/ui/planepanel/store"
)

// The room with the plane's worker running natively beside it, as the
// browser runs it in a Web Worker: what the room shows of what the
// worker says, and what its actions do to the plane.

// TestRoomShowsWhatTheWorkerSays: the room has the elements the page's
// tests and lessons rely on, in both languages, with the status and the
// three paths once the worker's scene is in.
func TestRoomShowsWhatTheWorkerSays(t *testing.T) {
	for _, l := range i18n.Langs {
		g := newRig(t, New().Lang(l).Pace("full")).withWorker().setUp()
		g.pump(settled)
		page := g.html()
		for _, want := range []string{`id="plane"`, `id="plane-points"`, `id="plane-data"`, `value="overlap"`, `value="separable"`,
			`value="ring"`, `id="plane-k"`, `id="plane-train"`, `id="plane-reset"`, `id="plane-psi"`, `data-state="ready"`,
			`data-points="120"`, `id="plane-surface"`, `data-kind="exact"`, `data-method="gd"`, `data-method="sgd"`,
			`data-method="newton"`, `id="plane-alpha-max"`, html.EscapeString(l.T("plane.k2")), html.EscapeString(l.T("plane.surfaceExact"))} {
			if !strings.Contains(page, want) {
				t.Errorf("%v: the room lacks %q", l, want)
			}
		}
		if strings.Contains(page, "NaN") {
			t.Errorf("%v: the room shows NaN", l)
		}
	}
}

// TestRoomAppliesGoodFields: α, λ and B typed go to the worker once all
// three are good, and the worker's next scene has them.
func TestRoomAppliesGoodFields(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN)).withWorker().setUp()
	g.pump(settled)
	scene := g.snap().Scene
	do(g, typeNumber, store.Typing{Field: store.LR, Value: "NaN"})
	do(g, typeNumber, store.Typing{Field: store.Batch, Value: "4"})
	do(g, typeNumber, store.Typing{Field: store.L2, Value: "0.01"})
	do(g, typeNumber, store.Typing{Field: store.LR, Value: "2"})
	g.pump(func(s store.Snapshot) bool { return settled(s) && s.Scene != scene && s.Scene.Settings.Batch == 4 })
	if s := g.snap(); s.Scene.Settings.Rate != 2 || s.Scene.Settings.Lambda != 0.01 || s.Settings != s.Scene.Settings {
		t.Errorf("good fields were not applied: %+v, the room shows %+v", s.Scene.Settings, s.Settings)
	}
}

// TestRoomEditsPoints: a click adds a point of the chosen class, a click
// on it removes it; K cannot drop a class that has points, which stay,
// and the refusal says why.
func TestRoomEditsPoints(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN)).withWorker().setUp()
	g.pump(settled)
	do(g, chooseK, 3)
	g.pump(func(s store.Snapshot) bool { return s.Data.K == 3 && settled(s) })
	if s := g.snap(); len(s.Data.Points) != 3*plane.PerClass || s.Edited {
		t.Fatalf("K = 3 on an unedited data set: %d points", len(s.Data.Points))
	}
	do(g, chooseClass, 2)
	do(g, chooseClass, 7) // no such class: kept at 2
	do(g, press, click{At: [2]float64{3.9, -3.9}, Radius: 0.05})
	g.pump(func(s store.Snapshot) bool { return len(s.Data.Points) == 3*plane.PerClass+1 && settled(s) })
	s := g.snap()
	if last := s.Data.Points[len(s.Data.Points)-1]; last.Class != 2 || !s.Edited || s.Status.Points != 3*plane.PerClass+1 {
		t.Fatalf("the click added %+v; the model trains on %d points", last, s.Status.Points)
	}
	do(g, chooseK, 2)
	g.pump(func(s store.Snapshot) bool { return !s.Refused.IsZero() })
	if s := g.snap(); s.Data.K != 3 || s.Refused.Key != "plane.removed" {
		t.Errorf("K = 2 dropped class 2's points: K = %d, message %q", s.Data.K, s.Refused.Key)
	}
	do(g, press, click{At: [2]float64{3.88, -3.9}, Radius: 0.05})
	g.pump(func(s store.Snapshot) bool { return len(s.Data.Points) == 3*plane.PerClass && settled(s) })
}

// TestRoomTrainsAtFullPace: Train runs the live model to the end of its
// budget; on separable data without λ it separates the points and the
// room says J has no minimum.
func TestRoomTrainsAtFullPace(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN).Pace("full")).withWorker().setUp()
	do(g, chooseData, "separable")
	g.pump(func(s store.Snapshot) bool { return s.Name == "separable" && settled(s) })
	signal(g, toggleTrain)
	g.pump(func(s store.Snapshot) bool { return s.State == store.Done && s.Status.Steps == plane.DefaultSteps })
	if st := g.snap().Status; st.Accuracy != 1 {
		t.Errorf("after training: %+v", st)
	}
	if !strings.Contains(g.html(), `data-note="plane.separated"`) {
		t.Error("separable data without λ do not say that J has no minimum")
	}
}

// TestPlaneViewsShowTheirPictures: each of the lesson's views of the plane
// shows its picture and the controls its chapter needs, and none of the
// others', each id once, in both languages; each starts with its own data
// and settings, and the view of ψ trains its model to the end at full
// pace, whatever the page's pace.
func TestPlaneViewsShowTheirPictures(t *testing.T) {
	tests := []struct {
		view   View
		want   []string
		absent []string
		start  func(s store.Snapshot) bool
	}{
		{Whole, []string{"plane", "plane-points", "plane-data", "plane-k", "plane-train", "plane-psi", "plane-status", "plane-surface", "plane-paths", "plane-lr", "plane-alpha-max", "plane-theta"},
			nil, func(s store.Snapshot) bool { return s.Data.K == 2 && s.Name == "blobs" && s.Scene.Exact }},
		{Regions, []string{"plane", "plane-points", "plane-k", "plane-add-class", "plane-train", "plane-reset", "plane-status", "plane-error"},
			[]string{"plane-surface", "plane-paths", "plane-psi", "plane-lr", "plane-data", "plane-theta"},
			func(s store.Snapshot) bool {
				return s.Data.K == 3 && s.Settings.Bias && !s.Settings.Pin && s.State == store.Ready
			}},
		{Surface, []string{"plane-surface", "plane-surface-note", "plane-paths", "plane-lr", "plane-alpha-max", "plane-error", "plane-start"},
			[]string{"plane", "plane-points", "plane-status", "plane-psi", "plane-train"},
			func(s store.Snapshot) bool { return s.Name == "overlap" && s.Scene.Exact && s.Scene.HasMin }},
		{Psi, []string{"plane", "plane-points", "plane-psi", "plane-psi-result", "plane-status", "plane-error"},
			[]string{"plane-surface", "plane-paths", "plane-lr", "plane-train"},
			func(s store.Snapshot) bool {
				return s.Data.K == 3 && !s.Settings.Pin && s.Settings.Lambda == 0 && s.State == store.Done && s.Status.Steps == plane.DefaultSteps
			}},
		{Hand, []string{"plane", "plane-points", "plane-theta", "plane-train", "plane-status", "plane-error"},
			[]string{"plane-surface", "plane-psi", "plane-data"},
			func(s store.Snapshot) bool { return s.Data.K == 2 && s.Name == "overlap" && s.Hand == 1 }},
	}
	for _, tt := range tests {
		for _, l := range i18n.Langs {
			g := newRig(t, New().Lang(l).Pace("1").View(tt.view)).withWorker().setUp()
			g.pump(func(s store.Snapshot) bool { return settled(s) && tt.start(s) })
			h := g.html()
			n := kittest.IDs(h)
			for _, id := range tt.want {
				if n[id] != 1 {
					t.Errorf("view %q, %s: #%s is there %d times", tt.view, l, id, n[id])
				}
			}
			for _, id := range tt.absent {
				if n[id] != 0 {
					t.Errorf("view %q, %s: shows #%s", tt.view, l, id)
				}
			}
			if tt.view == Surface || tt.view == Whole {
				if c := strings.Count(h, `data-method="`); c != 3 {
					t.Errorf("view %q, %s: %d paths", tt.view, l, c)
				}
			}
			if strings.Contains(h, "NaN") || strings.Contains(h, "plane.") {
				t.Errorf("view %q, %s shows NaN or a catalog key", tt.view, l)
			}
		}
	}
}

// TestRoomTakesWhatThePageAsks: α asked at a multiple of 2/λ_max and a ψ
// asked while the model trains go to the worker, which does each as soon
// as it can; the fields show the α set.
func TestRoomTakesWhatThePageAsks(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN).View(Surface)).withWorker().setUp()
	do(g, AlphaAbove, AboveCeiling)
	g.pump(func(s store.Snapshot) bool { return settled(s) && s.Settings.Rate != plane.Defaults().Rate })
	s := g.snap()
	if gd := s.Scene.Paths[plane.GD]; gd.ZigZags < gd.Steps-5 || s.Fields.LR != store.FieldsOf(s.Settings).LR {
		t.Errorf("α above 2/λ_max: %d zig-zags in %d steps; the field shows %q", gd.ZigZags, gd.Steps, s.Fields.LR)
	}
	if above, _ := attrOf(g.html(), "plane-alpha-max", "data-above"); above != "yes" {
		t.Error("#plane-alpha-max does not say α is above 2/λ_max")
	}
	q := newRig(t, New().Lang(i18n.EN).Pace("1").View(Psi)).withWorker().setUp()
	signal(q, AddPsi)
	q.pump(func(s store.Snapshot) bool { return s.Psi != nil })
	if s := q.snap(); s.State != store.Done || s.Psi.MaxDP > 1e-5 {
		t.Errorf("ψ added in state %q: %+v", s.State, s.Psi)
	}
	if dp, _ := attrOf(q.html(), "plane-psi-result", "data-max-dp"); dp == "" {
		t.Error("#plane-psi-result does not say what ψ changed")
	}
}

// jOf is J of the model shown on the data shown, computed natively.
func jOf(s store.Snapshot) float64 {
	m64 := softmax.NewClasses[float64](2, s.Data.K)
	softmax.Convert(m64, s.Model)
	all := make([]int32, len(s.Data.Points))
	for i := range all {
		all[i] = int32(i)
	}
	return softmax.Loss(m64, plane.Examples[float64](s.Data), all, s.Settings.Objective())
}

// TestARunAskedBeforeTheLineStartsFromIt: in the Hand view, a run asked
// for before the view's starting line is in (a question answered the
// moment its chapter opens) waits for it: it starts from θ₁ = the
// settings' start, and the run the page is told of starts from that
// line's J as core computes it, not from the model before.
func TestARunAskedBeforeTheLineStartsFromIt(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN).View(Hand).Pace("full")).withWorker().setUp()
	signal(g, StartRun) // before any frame: no model, no line yet
	var from float64
	g.pump(func(s store.Snapshot) bool {
		if m := s.Model; from == 0 && s.State != store.Training && m != nil && m.W[1] == float32(s.Settings.Start[0]) && m.W[3] == float32(s.Settings.Start[1]) {
			from = jOf(s) // the line's J, in the frame before the run
		}
		return len(g.ended) > 0
	})
	e := g.ended[0]
	if from == 0 || e.View != Hand || e.From != from || !(e.To < e.From) || e.Steps < 1 {
		t.Errorf("the run from the line of θ₁ = %v ended as %+v; the line's J is %v", g.snap().Settings.Start, e, from)
	}
}

// TestADemonstrationAskedBeforeTheSetUpIsKept: ψ and α above the ceiling,
// asked for by a lesson's answer after the room changed to another view
// but before it set the worker up for it, reach the worker after that
// set-up, which would otherwise start the plane again and lose them: the
// ψ view shows ψ's result, and the surface view its α.
func TestADemonstrationAskedBeforeTheSetUpIsKept(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN).View(Regions).Pace("full")).withWorker().setUp()
	g.pump(settled)
	switchTo := func(v View) {
		g.r.IView = v
		g.o.reset(v) // as OnUpdate does; the set-up waits for the room to be near
	}
	switchTo(Psi)
	signal(g, AddPsi)
	g.setUp()
	g.pump(func(s store.Snapshot) bool { return s.Psi != nil })

	switchTo(Surface)
	do(g, AlphaAbove, AboveCeiling)
	g.setUp()
	g.pump(func(s store.Snapshot) bool {
		return settled(s) && s.Scene.AlphaMax > 0 && s.Scene.Settings.Rate > s.Scene.AlphaMax
	})
}

// TestRoomTakesThetaByHand: #plane-theta has a labelled field per number
// of the model, class 0's disabled while pinned; a number typed goes to
// the worker, which draws it with J as core computes it; for the exact
// surface it is the paths' start. Refused text says why beside its field
// and nothing is sent; a change of K makes the table again and drops what
// was half typed, without a word.
func TestRoomTakesThetaByHand(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN)).withWorker().setUp()
	g.pump(settled)
	table := func() string { return thetaHTML(g.snap(), i18n.EN) }
	h := g.html()
	for _, want := range []string{`id="plane-theta"`, `id="plane-theta-1-1"`, `id="plane-theta-1-2"`, `id="plane-theta-0-1"`,
		`aria-label="θ_(1,2), class 1's weight of x₂"`, `data-pin="yes"`} {
		if !strings.Contains(h, want) {
			t.Errorf("the room lacks %s", want)
		}
	}
	if strings.Contains(h, `id="plane-theta-0-b"`) || !isTrue(table(), "plane-theta-0-1", "disabled") {
		t.Error("without a bias the table has a bias, or pinned class 0's fields are not disabled")
	}

	do(g, typeTheta, store.ThetaTyped{Param: store.Param{Class: 1, Of: "1"}, K: 2, Value: "1.5"})
	do(g, typeTheta, store.ThetaTyped{Param: store.Param{Class: 1, Of: "2"}, K: 2, Value: "−0.75"}) // before the worker answers the first
	g.pump(func(s store.Snapshot) bool {
		return s.Hand == 2 && settled(s) && s.Scene.Settings.Start == [2]float64{1.5, -0.75}
	})
	s := g.snap()
	if m := s.Model; m.W[1] != 1.5 || m.W[3] != -0.75 {
		t.Fatalf("θ typed: the model is %v", m.W)
	}
	if got, want := s.Status.Loss, jOf(s); got != want {
		t.Errorf("J of θ typed is %v, core says %v", got, want)
	}

	g.sent()
	q := store.Param{Class: 1, Of: "1"}
	for _, bad := range []struct{ text, key string }{
		{"NaN", "plane.theta.notFinite"}, {"0,5", "plane.theta.comma"}, {"", "plane.theta.empty"}, {"1e3", "plane.theta.tooBig"},
	} {
		do(g, typeTheta, store.ThetaTyped{Param: q, K: 2, Value: bad.text})
		if _, why, _ := g.snap().Typed.Shown(q, 2); why.Key != bad.key || len(g.sent()) != 0 {
			t.Errorf("%q: reason %q, want %q, or a command was sent", bad.text, why.Key, bad.key)
		}
		if h := table(); !strings.Contains(h, "last good value") {
			t.Errorf("%q: the field does not say why it is refused", bad.text)
		}
	}
	if g.snap().Model.W[1] != 1.5 {
		t.Errorf("the refusals changed θ: %v", g.snap().Model.W)
	}
	do(g, typeTheta, store.ThetaTyped{Param: store.Param{Class: 0, Of: "1"}, K: 3, Value: "2"}) // a table of K = 3, gone
	if len(g.sent()) != 0 {
		t.Error("a number typed in a table of another K was sent")
	}

	do(g, chooseK, 3)
	g.pump(func(s store.Snapshot) bool { return s.Data.K == 3 && settled(s) && s.Model.Classes() == 3 })
	if ty := g.snap().Typed; len(ty.Text) != 0 || len(ty.Why) != 0 {
		t.Errorf("K changed, and the half-typed text stays: %v %v", ty.Text, ty.Why)
	}
	h = table()
	if !strings.Contains(h, `id="plane-theta-2-2"`) || strings.Contains(h, "last good value") || !g.snap().Refused.IsZero() {
		t.Errorf("after K = 3 the table lacks class 2, or says something was refused: %q", g.snap().Refused.Key)
	}
}

// TestRoomDragsABoundary: a boundary held and dragged to a point passes
// through it once the worker has drawn the θ sent; let go, the whole
// scene is computed for it.
func TestRoomDragsABoundary(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN).Pace("full")).withWorker().setUp()
	g.pump(settled)
	do(g, setOption, option{Name: "bias", On: true})
	g.pump(func(s store.Snapshot) bool { return s.Settings.Bias && settled(s) })
	signal(g, toggleTrain)
	g.pump(func(s store.Snapshot) bool { return s.State == store.Done && settled(s) })
	if segs := plane.Boundaries(g.snap().Model); len(segs) != 1 {
		t.Fatalf("K = 2 trained on blobs: %d boundaries", len(segs))
	}
	for _, c := range []struct {
		along float64
		at    [2]float64
	}{{0.5, [2]float64{1, 1}}, {0.05, [2]float64{-3, 0.5}}} {
		grip := plane.Grab(plane.Boundaries(g.snap().Model)[0], c.along, true)
		do(g, dragLine, dragTo{Grip: grip, At: [2]float64{0, 0.5}, Quick: true})
		do(g, dragLine, dragTo{Grip: grip, At: c.at})
		last, ok := g.w.sent[len(g.w.sent)-1].(protocol.PlaneTheta)
		if !ok || last.Quick {
			t.Fatalf("the drag let go sent %#v", g.w.sent[len(g.w.sent)-1])
		}
		g.pump(func(s store.Snapshot) bool { return s.Hand == last.Hand && settled(s) })
		m := g.snap().Model
		z0 := float64(m.B[0]) + c.at[0]*float64(m.W[0]) + c.at[1]*float64(m.W[2])
		z1 := float64(m.B[1]) + c.at[0]*float64(m.W[1]) + c.at[1]*float64(m.W[3])
		if math.Abs(z0-z1) > 1e-4 {
			t.Errorf("dragged to %v (taken at %.2f): z₀ − z₁ = %v there", c.at, c.along, z0-z1)
		}
	}
}

// TestThetaFieldKeepsTheTypistsText: while training moves θ, a field a
// person is in keeps their text, and the others follow the model; left,
// it follows the model again.
func TestThetaFieldKeepsTheTypistsText(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN).Pace("full")).withWorker().setUp()
	g.pump(settled)
	in := store.Param{Class: 1, Of: "1"}
	do(g, typeTheta, store.ThetaTyped{Param: in, K: 2, Value: "0", Did: store.FieldFocus})
	signal(g, toggleTrain)
	g.pump(func(s store.Snapshot) bool { return s.State == store.Done && settled(s) })
	shown := func(id string) string {
		v, ok := attrOf(thetaHTML(g.snap(), i18n.EN), id, "value")
		if !ok {
			t.Fatalf("no #%s", id)
		}
		return v
	}
	m := g.snap().Model
	if m.W[1] == 0 {
		t.Fatal("training left θ₁,₁ at 0")
	}
	if got := shown(in.ID()); got != "0" {
		t.Errorf("the field the person is in shows %q, not their 0", got)
	}
	if got, want := shown("plane-theta-1-2"), strconv.FormatFloat(float64(m.W[3]), 'g', 4, 32); got != want || got == "0" {
		t.Errorf("the field no one is in shows %q, the model %s", got, want)
	}
	do(g, typeTheta, store.ThetaTyped{Param: in, K: 2, Value: "0", Did: store.FieldBlur})
	if got := shown(in.ID()); got == "0" {
		t.Error("left, the field still shows the person's 0")
	}
}
