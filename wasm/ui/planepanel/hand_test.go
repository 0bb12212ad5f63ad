package planepanel

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

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
		v, why := parseTheta(c.in)
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
		v, why := parseTheta(text)
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

// jOf is J of the panel's model on its data, computed natively.
func jOf(p *Panel) float64 {
	m64 := softmax.NewClasses[float64](2, p.data.K)
	softmax.Convert(m64, p.model)
	all := make([]int32, len(p.data.Points))
	for i := range all {
		all[i] = int32(i)
	}
	return softmax.Loss(m64, plane.Examples[float64](p.data), all, p.set.Objective())
}

// TestPanelTakesThetaByHand: #plane-theta has a labelled field per
// number of the model, class 0's disabled while pinned; a number typed
// goes to the worker, which draws it with J as core computes it; for the
// exact surface it is the paths' start. Refused text says why beside its
// field and nothing is sent; a change of K makes the table again and
// drops what was half typed, without a word.
func TestPanelTakesThetaByHand(t *testing.T) {
	r := mount(t, New().Lang(i18n.EN))
	r.pump(t, settled)
	html := app.HTMLString(r.p.Render()) + app.HTMLString(r.p.thetaPart())
	for _, want := range []string{`id="plane-theta"`, `id="plane-theta-1-1"`, `id="plane-theta-1-2"`, `id="plane-theta-0-1"`,
		`aria-label="θ_(1,2), class 1's weight of x₂"`, `data-pin="yes"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the panel lacks %s", want)
		}
	}
	if strings.Contains(html, `id="plane-theta-0-b"`) || !strings.Contains(app.HTMLString(r.p.thetaPart()), `disabled`) {
		t.Error("without a bias the table has a bias, or pinned class 0's fields are not disabled")
	}

	r.do(actionTheta, thetaTyped{Param: param{Class: 1, Of: "1"}, K: 2, Value: "1.5"})
	r.do(actionTheta, thetaTyped{Param: param{Class: 1, Of: "2"}, K: 2, Value: "−0.75"}) // before the worker answers the first
	r.pump(t, func(p *Panel) bool {
		return p.th.answered == 2 && settled(p) && p.scene.Settings.Start == [2]float64{1.5, -0.75}
	})
	if m := r.p.model; m.W[1] != 1.5 || m.W[3] != -0.75 {
		t.Fatalf("θ typed: the model is %v", m.W)
	}
	if got, want := r.p.st.Loss, jOf(r.p); got != want {
		t.Errorf("J of θ typed is %v, core says %v", got, want)
	}

	for _, bad := range []struct{ text, key string }{
		{"NaN", "plane.theta.notFinite"}, {"0,5", "plane.theta.comma"}, {"", "plane.theta.empty"}, {"1e3", "plane.theta.tooBig"},
	} {
		r.do(actionTheta, thetaTyped{Param: param{Class: 1, Of: "1"}, K: 2, Value: bad.text})
		q := param{Class: 1, Of: "1"}
		if r.p.th.why[q].Key != bad.key || len(r.in) != 0 {
			t.Errorf("%q: reason %q, want %q; %d commands sent", bad.text, r.p.th.why[q].Key, bad.key, len(r.in))
		}
		if h := app.HTMLString(r.p.thetaPart()); !strings.Contains(h, "last good value") {
			t.Errorf("%q: the field does not say why it is refused", bad.text)
		}
	}
	if r.p.model.W[1] != 1.5 {
		t.Errorf("the refusals changed θ: %v", r.p.model.W)
	}
	r.do(actionTheta, thetaTyped{Param: param{Class: 0, Of: "1"}, K: 3, Value: "2"}) // a table of K = 3, gone
	if len(r.in) != 0 {
		t.Error("a number typed in a table of another K was sent")
	}

	r.do(actionK, 3)
	r.pump(t, func(p *Panel) bool { return p.data.K == 3 && settled(p) && p.model.Classes() == 3 })
	if len(r.p.th.text) != 0 || len(r.p.th.why) != 0 {
		t.Errorf("K changed, and the half-typed text stays: %v %v", r.p.th.text, r.p.th.why)
	}
	h := app.HTMLString(r.p.thetaPart())
	if !strings.Contains(h, `id="plane-theta-2-2"`) || strings.Contains(h, "last good value") || !r.p.refused.IsZero() {
		t.Errorf("after K = 3 the table lacks class 2, or says something was refused: %q", r.p.refused.Key)
	}
}

// TestPanelDragsABoundary: a boundary held and dragged to a point passes
// through it once the worker has drawn the θ sent; let go, the whole
// scene is computed for it.
func TestPanelDragsABoundary(t *testing.T) {
	r := mount(t, New().Lang(i18n.EN).Pace("full"))
	r.pump(t, settled)
	r.do(actionOption, option{Name: "bias", On: true})
	r.pump(t, func(p *Panel) bool { return p.set.Bias && settled(p) })
	r.do(actionTrain, nil)
	r.pump(t, func(p *Panel) bool { return p.state == stateDone && settled(p) })
	segs := plane.Boundaries(r.p.model)
	if len(segs) != 1 {
		t.Fatalf("K = 2 trained on blobs: %d boundaries", len(segs))
	}
	for _, c := range []struct {
		along float64
		at    [2]float64
	}{{0.5, [2]float64{1, 1}}, {0.05, [2]float64{-3, 0.5}}} {
		r.p.th.hold = held{on: true, grip: plane.Grab(plane.Boundaries(r.p.model)[0], c.along, true)}
		r.do(actionDrag, dragTo{At: [2]float64{0, 0.5}, Quick: true})
		r.p.th.hold.on = false
		r.do(actionDrag, dragTo{At: c.at})
		sent := r.p.th.sent
		r.pump(t, func(p *Panel) bool { return p.th.answered == sent && settled(p) })
		m := r.p.model
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
	r := mount(t, New().Lang(i18n.EN).Pace("full"))
	r.pump(t, settled)
	in := param{Class: 1, Of: "1"}
	r.do(actionTheta, thetaTyped{Param: in, K: 2, Value: "0", Did: fieldFocus})
	r.do(actionTrain, nil)
	r.pump(t, func(p *Panel) bool { return p.state == stateDone && settled(p) })
	shown := func(id string) string {
		h := app.HTMLString(r.p.thetaPart())
		i := strings.Index(h, `id="`+id+`"`)
		if i < 0 {
			t.Fatalf("no #%s", id)
		}
		tag := h[strings.LastIndex(h[:i], "<"):]
		tag = tag[:strings.Index(tag, ">")]
		j := strings.Index(tag, `value="`)
		return tag[j+7 : j+7+strings.Index(tag[j+7:], `"`)]
	}
	if r.p.model.W[1] == 0 {
		t.Fatal("training left θ₁,₁ at 0")
	}
	if got := shown(in.id()); got != "0" {
		t.Errorf("the field the person is in shows %q, not their 0", got)
	}
	if got, want := shown("plane-theta-1-2"), strconv.FormatFloat(float64(r.p.model.W[3]), 'g', 4, 32); got != want || got == "0" {
		t.Errorf("the field no one is in shows %q, the model %s", got, want)
	}
	r.do(actionTheta, thetaTyped{Param: in, K: 2, Value: "0", Did: fieldBlur})
	if got := shown(in.id()); got == "0" {
		t.Error("left, the field still shows the person's 0")
	}
}

// TestThetaTableRendersTenTimesASecondWhileTraining: the frames of a run
// in training render #plane-theta at most every thetaEvery, but a frame
// that answers a θ set by hand, or one of a model at rest, at once.
func TestThetaTableRendersTenTimesASecondWhileTraining(t *testing.T) {
	p := New()
	f := protocol.PlaneFrame{State: stateTraining}
	if !p.thetaDue(f) {
		t.Error("the first frame of a run does not render the table")
	}
	if p.thetaDue(f) {
		t.Error("a frame of the same run at once after it renders the table again")
	}
	f.Hand = 1
	if !p.thetaDue(f) {
		t.Error("a frame that answers a θ set by hand waits")
	}
	f.State = stateDone
	if !p.thetaDue(f) {
		t.Error("a frame of a model at rest waits")
	}
	p.th.shownAt -= thetaEvery
	f.State = stateTraining
	if !p.thetaDue(f) {
		t.Errorf("a frame %d ms after the last does not render the table", thetaEvery)
	}
}
