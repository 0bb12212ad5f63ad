package planepanel

import (
	"html"
	"slices"
	"strconv"
	"strings"
	"testing"

	"softmaxdemo/core/class"
	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/planepanel/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The plane in a class, natively: a student's line sent, and the
// presenter's picture of the class's lines with their J.

// handRig is a rig of the Hand view in part, set up, whose starting line
// is in; the lines it tells the page to send are in *sent.
func handRig(t *testing.T, l i18n.Lang, part Part) (*rig, *[]class.PlaneLine) {
	t.Helper()
	g := newRig(t, New().Lang(l).View(Hand)).setUp()
	var sent []class.PlaneLine
	SendLine.Handle(g.ctx, func(_ app.Context, p class.PlaneLine) { sent = append(sent, p) })
	do(g, ClassPart, part)
	g.give(stateOf(g, 1, store.Ready))
	g.give(frameOf(1, store.Ready, zeros(2), plane.Status{}))
	handFrame(g, 1, lineOf(g.snap().Settings.Start[0], g.snap().Settings.Start[1]))
	g.sent()
	return g, &sent
}

// lineOf is the Hand view's model of the line θ₁ = (a, b), class 0
// pinned.
func lineOf(a, b float64) *softmax.Model[float32] {
	return &softmax.Model[float32]{D: 2, W: []float32{0, float32(a), 0, float32(b)}, B: []float32{0, 0}}
}

// handFrame gives the owner a frame at rest with m, answering the θ by
// hand number hand.
func handFrame(g *rig, hand int, m *softmax.Model[float32]) {
	f := frameOf(1, store.Ready, m, plane.Status{})
	f.Hand = hand
	g.give(f)
}

// TestStudentSendsTheLineShown: a student's Hand view has #plane-send;
// clicking it tells the page the θ shown, as core/class's PlaneLine, and
// the status says sending, then sent once the server took it, and that
// the line changed once θ moved.
func TestStudentSendsTheLineShown(t *testing.T) {
	for _, l := range i18n.Langs {
		g, sent := handRig(t, l, Student)
		h := g.html()
		if v, _ := attrOf(h, "plane-send", "data-state"); v != store.SendIdle || !strings.Contains(h, html.EscapeString(l.T("plane.send"))) {
			t.Fatalf("%v: #plane-send is %q, or does not say %q", l, v, l.T("plane.send"))
		}
		if strings.Contains(h, `id="plane-class"`) {
			t.Errorf("%v: a student sees the class's lines", l)
		}
		signal(g, sendMine)
		m := g.snap().Model
		want := class.PlaneLine{K: 2, W: m.W, B: m.B}
		if len(*sent) != 1 || (*sent)[0].K != 2 || !slices.Equal((*sent)[0].W, want.W) || !slices.Equal((*sent)[0].B, want.B) {
			t.Fatalf("%v: the page was told %+v, want %+v", l, *sent, want)
		}
		if err := (*sent)[0].Validate(); err != nil {
			t.Error(err)
		}
		h = g.html()
		if v, _ := attrOf(h, "plane-send", "data-state"); v != store.SendSending || !strings.Contains(h, l.T("plane.send.sending")) {
			t.Errorf("%v: after a click #plane-send is %q", l, v)
		}
		signal(g, LineDelivered)
		h = g.html()
		if v, _ := attrOf(h, "plane-send-status", "data-state"); v != store.SendSent || !strings.Contains(h, l.T("plane.send.sent")) {
			t.Errorf("%v: once taken #plane-send-status is %q", l, v)
		}
		if v, _ := attrOf(h, "plane-send-status", "data-changed"); v != "no" {
			t.Errorf("%v: the line sent is said to have changed", l)
		}
		do(g, typeTheta, store.ThetaTyped{Param: store.Param{Class: 1, Of: "1"}, K: 2, Value: "0.5"})
		h = g.html()
		if v, _ := attrOf(h, "plane-send-status", "data-changed"); v != "yes" || !strings.Contains(h, html.EscapeString(l.T("plane.send.changed"))) {
			t.Errorf("%v: θ moved since it was sent, and the status does not say so", l)
		}
		signal(g, sendMine)
		if len(*sent) != 2 || (*sent)[1].W[1] != 0.5 {
			t.Errorf("%v: the second line sent is %+v, want θ₁,₁ = 0.5 as typed", l, (*sent)[1:])
		}
	}
}

// TestStudentCannotSendThetaOutOfRange: a θ beyond ±100 (trained there)
// is not sent, and the status says which number and why.
func TestStudentCannotSendThetaOutOfRange(t *testing.T) {
	g, sent := handRig(t, i18n.EN, Student)
	handFrame(g, 1, lineOf(-2, 150))
	signal(g, sendMine)
	if len(*sent) != 0 {
		t.Fatalf("θ beyond ±100 was sent: %+v", *sent)
	}
	why := g.snap().Class.Why
	h := g.html()
	if v, _ := attrOf(h, "plane-send", "data-state"); v != store.SendRefused || why.Key != "plane.send.beyond" ||
		!strings.Contains(h, html.EscapeString(i18n.EN.M(why))) || !strings.Contains(i18n.EN.M(why), "θ1,2") {
		t.Errorf("#plane-send is %q, and says %q", v, i18n.EN.M(why))
	}
}

// TestOutsideAClassThePlaneShowsNothingOfOne: Part None (the zero value)
// shows neither #plane-send nor #plane-class, whatever lines are given;
// a student sees no picture, a presenter no button.
func TestOutsideAClassThePlaneShowsNothingOfOne(t *testing.T) {
	for _, part := range []Part{None, Student, Presenter} {
		g, sent := handRig(t, i18n.ZH, part)
		do(g, ClassLines, []class.LineOf{{Slot: 1, Line: class.PlaneLine{K: 2, W: []float32{0, 1, 0, 1}, B: []float32{0, 0}}}})
		signal(g, sendMine)
		h := g.html()
		if has := strings.Contains(h, `id="plane-send"`); has != (part == Student) {
			t.Errorf("part %d: #plane-send shown: %v", part, has)
		}
		if has := strings.Contains(h, `id="plane-class"`); has != (part == Presenter) {
			t.Errorf("part %d: #plane-class shown: %v", part, has)
		}
		if part != Student && len(*sent) != 0 {
			t.Errorf("part %d sent a line", part)
		}
	}
	if New().(*room).o.st.Snapshot().Class.Part != None {
		t.Error("a room starts in a class")
	}
}

// TestPresenterShowsTheClassLinesWithTheirJ: the presenter's Hand view
// draws the class's lines of the plane's K, each with the J the plane's
// Lab gives for that θ (computed here through core/plane), listed best
// first with the best and worst J; a line of another K is counted, not
// drawn; cleared, none.
func TestPresenterShowsTheClassLinesWithTheirJ(t *testing.T) {
	g, _ := handRig(t, i18n.EN, Presenter)
	lines := []class.LineOf{
		{Slot: 1, Line: class.PlaneLine{K: 2, W: []float32{0, -2, 0, 2}, B: []float32{0, 0}}},
		{Slot: 2, Line: class.PlaneLine{K: 2, W: []float32{0, 1.5, 0, 0.25}, B: []float32{0, 0}}},
		{Slot: 3, Line: class.PlaneLine{K: 2, W: []float32{0.5, 3, -1, 0}, B: []float32{0.2, -1}}},
		{Slot: 4, Line: class.PlaneLine{K: 3, W: make([]float32, 6), B: make([]float32, 3)}},
	}
	do(g, ClassLines, lines)
	s := g.snap()
	lab, err := plane.NewLab(s.Data, s.Settings)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]float64{}
	for _, l := range lines[:3] {
		w, b := make([]float64, 4), make([]float64, 2)
		for i, v := range l.Line.W {
			w[i] = float64(v)
		}
		for i, v := range l.Line.B {
			b[i] = float64(v)
		}
		if err := lab.SetTheta(w, b); err != nil {
			t.Fatal(err)
		}
		want[l.Slot] = lab.Status().Loss
	}
	h := g.html()
	if v, _ := attrOf(h, "plane-class", "data-lines"); v != "3" {
		t.Errorf("#plane-class has data-lines %q, want 3", v)
	}
	if v, _ := attrOf(h, "plane-class", "data-other"); v != "1" {
		t.Errorf("#plane-class has data-other %q, want the line of K = 3", v)
	}
	list := h[strings.Index(h, `id="plane-class-lines"`):]
	var js []float64
	for _, li := range strings.Split(list, "<li")[1:] {
		slot, _ := strconv.Atoi(attrIn(li, "data-slot"))
		j, err := strconv.ParseFloat(attrIn(li, "data-j"), 64)
		if err != nil || j != want[slot] {
			t.Errorf("line %d: data-j %q, the plane's J %v", slot, attrIn(li, "data-j"), want[slot])
		}
		js = append(js, j)
	}
	if len(js) != 3 || !slices.IsSorted(js) {
		t.Errorf("the list has J %v, want 3 best first", js)
	}
	if len(js) == 3 {
		best, _ := attrOf(h, "plane-class-summary", "data-best")
		worst, _ := attrOf(h, "plane-class-summary", "data-worst")
		if best != strconv.FormatFloat(js[0], 'g', -1, 64) || worst != strconv.FormatFloat(js[2], 'g', -1, 64) ||
			!strings.Contains(h, html.EscapeString(i18n.EN.T("plane.class.summary", 3, i18n.Loss(js[0]), i18n.Loss(js[2])))) {
			t.Errorf("the summary says best %s, worst %s", best, worst)
		}
	}
	if strings.Contains(h, `id="plane-send"`) {
		t.Error("the presenter has #plane-send")
	}
	do(g, ClassLines, []class.LineOf{})
	h = g.html()
	if v, _ := attrOf(h, "plane-class", "data-lines"); v != "0" || !strings.Contains(h, i18n.EN.T("plane.class.none")) {
		t.Errorf("cleared, #plane-class has data-lines %q", v)
	}
}

// TestClassLinesJIsThePlanesOwn: with the plane's worker running, a line
// of the class that is the plane's live model has the J #plane-status
// shows for it; points added change every line's J with the plane's.
func TestClassLinesJIsThePlanesOwn(t *testing.T) {
	g := newRig(t, New().Lang(i18n.EN).Pace("full").View(Hand)).withWorker().setUp()
	do(g, ClassPart, Presenter)
	g.pump(func(s store.Snapshot) bool { return settled(s) && s.Hand == 1 })
	m := g.snap().Model
	mine := []class.LineOf{{Slot: 7, Line: class.PlaneLine{K: 2, W: m.W, B: m.B}}}
	do(g, ClassLines, mine)
	if s := g.snap(); len(s.Class.Lines) != 1 || s.Class.Lines[0].J != s.Status.Loss {
		t.Fatalf("the line's J is %+v, the plane's %v", s.Class.Lines, s.Status.Loss)
	}
	do(g, press, click{At: [2]float64{3.5, 3.5}, Radius: 0.05})
	n := len(g.snap().Data.Points)
	g.pump(func(s store.Snapshot) bool { return len(s.Data.Points) == n+1 && s.Status.Points == n+1 && settled(s) })
	if s := g.snap(); s.Class.Lines[0].J != s.Status.Loss {
		t.Errorf("with a point added the line's J is %v, the plane's %v", s.Class.Lines[0].J, s.Status.Loss)
	}
}

// attrIn returns the attribute name of the first tag of h.
func attrIn(h, name string) string {
	i := strings.Index(h, " "+name+`="`)
	if i < 0 {
		return ""
	}
	v := h[i+len(name)+3:]
	return v[:strings.IndexByte(v, '"')]
}

// TestPresenterDescendsFromTheBestAndTheWorstLine: the presenter's
// button runs gradient descent from the best line and from the worst;
// each ends where the loss surface's gradient-descent path from that
// line ends (core/plane's Scene, computed here), lower than it started;
// new lines forget them.
func TestPresenterDescendsFromTheBestAndTheWorstLine(t *testing.T) {
	g, _ := handRig(t, i18n.ZH, Presenter)
	lines := []class.LineOf{
		{Slot: 1, Line: class.PlaneLine{K: 2, W: []float32{0, -2, 0, 2}, B: []float32{0, 0}}},
		{Slot: 2, Line: class.PlaneLine{K: 2, W: []float32{0, 1.5, 0, 0.25}, B: []float32{0, 0}}},
		{Slot: 3, Line: class.PlaneLine{K: 2, W: []float32{0, 4, 0, -3}, B: []float32{0, 0}}},
	}
	do(g, ClassLines, lines)
	signal(g, descend)
	s := g.snap()
	ds, ls := s.Class.Descents, s.Class.Lines
	if len(ds) != 2 || !ds[0].Best || ds[0].Slot != ls[0].Slot || ds[1].Best || ds[1].Slot != ls[2].Slot {
		t.Fatalf("descents %+v from lines %+v", ds, ls)
	}
	h := g.html()
	for i, d := range ds {
		var l class.PlaneLine
		for _, x := range lines {
			if x.Slot == d.Slot {
				l = x.Line
			}
		}
		set := s.Settings
		set.Start = [2]float64{float64(l.W[1]), float64(l.W[3])}
		sc, err := plane.Build(s.Data, set)
		if err != nil {
			t.Fatal(err)
		}
		gd := sc.Paths[plane.GD]
		if d.To != gd.Loss[len(gd.Loss)-1] || d.Steps != gd.Steps || !(d.To < d.From) || d.From != ls[map[bool]int{true: 0, false: 2}[d.Best]].J {
			t.Errorf("from line %d: J %v → %v in %d steps; the surface's path ends at %v in %d", d.Slot, d.From, d.To, d.Steps, gd.Loss[len(gd.Loss)-1], gd.Steps)
		}
		item := strings.Split(h[strings.Index(h, `id="plane-class-descents"`):], "<li")[i+1]
		if attrIn(item, "data-end-j") != strconv.FormatFloat(d.To, 'g', -1, 64) || attrIn(item, "data-from") != map[bool]string{true: "best", false: "worst"}[d.Best] {
			t.Errorf("#plane-class-descents item %d: %s", i, item)
		}
	}
	do(g, ClassLines, lines[:2])
	if len(g.snap().Class.Descents) != 0 {
		t.Error("the worst line gone, its descent stays")
	}
}

// TestPresenterSurfaceShowsTheClassLines: on the loss surface of K = 2,
// the presenter's class's lines are dots; a student's surface has none.
func TestPresenterSurfaceShowsTheClassLines(t *testing.T) {
	lines := []class.LineOf{
		{Slot: 1, Line: class.PlaneLine{K: 2, W: []float32{0, -2, 0, 2}, B: []float32{0, 0}}},
		{Slot: 2, Line: class.PlaneLine{K: 2, W: []float32{0, 1.5, 0, 0.25}, B: []float32{0, 0}}},
	}
	for _, part := range []Part{Student, Presenter} {
		g := newRig(t, New().Lang(i18n.EN).View(Surface)).withWorker().setUp()
		do(g, ClassPart, part)
		do(g, ClassLines, lines)
		g.pump(settled)
		want := map[Part]string{Student: "0", Presenter: "2"}[part]
		if v, _ := attrOf(g.html(), "plane-surface", "data-class-lines"); v != want {
			t.Errorf("part %d: #plane-surface has data-class-lines %q, want %s", part, v, want)
		}
	}
}
