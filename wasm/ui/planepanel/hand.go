package planepanel

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
)

// θ by hand: the page's side. A person types one of the model's numbers
// in #plane-theta (theta.go) or drags a boundary on the plane
// (pointer.go); the page sends the whole θ to the worker, which draws it
// at once and trains on from it (protocol.PlaneTheta). The fields are
// the page's alone while a person types in them; otherwise they show the
// live model.

// A param names one number of the model: class c's weight of x₁ ("1"),
// of x₂ ("2"), or its bias ("b").
type param struct {
	Class int
	Of    string
}

// id is the param's field's id: plane-theta-<class>-<1|2|b>.
func (q param) id() string { return "plane-theta-" + strconv.Itoa(q.Class) + "-" + q.Of }

// index returns where the param is in a model of k classes: in W
// (softmax.Model's layout, w[j·k + c]) or, for a bias, in B.
func (q param) index(k int) (i int, bias bool) {
	switch q.Of {
	case "1":
		return q.Class, false
	case "2":
		return k + q.Class, false
	}
	return q.Class, true
}

// thetaTyped is what happened in one field of #plane-theta: its param,
// the K of the table it was in, its text, and what happened (Did).
type thetaTyped struct {
	Param param
	K     int
	Value string
	Did   int
}

// What happens in a field of #plane-theta: typing, Enter (a change), the
// person coming into the field, which keeps its text from then on, and
// leaving it, after which it follows the model again unless its text is
// refused.
const (
	fieldInput = iota
	fieldChange
	fieldFocus
	fieldBlur
)

// dragTo is the held boundary dragged to At, in the plane's units; Quick
// while the pointer moves, not when it lets go.
type dragTo struct {
	At    [2]float64
	Quick bool
}

// hand is what the page keeps of θ by hand: the fields as typed and why
// each is refused, the θs sent and the last of them, the last one the
// worker's frames say it has answered, and the boundary held by the
// pointer.
type hand struct {
	text     map[param]string   // a field's text while it is the person's
	why      map[param]i18n.Msg // why a field's text is refused
	k        int                // the K the fields were typed for
	sent     int                // PlaneThetas sent: each one's Hand
	last     *softmax.Model[float32]
	answered int     // the Hand of the latest frame
	shownAt  float64 // when a frame last rendered #plane-theta, ms (thetaDue)
	shownFor int     // the Hand of that frame
	hold     held
}

// held is the boundary a pointer holds on #plane-points: its grip, where
// the press was (CSS pixels, and the click it is if the pointer does not
// move), and whether it has moved beyond a click.
type held struct {
	on    bool
	grip  plane.Grip
	x, y  float64
	press click
	moved bool
	last  [2]float64 // where the drag last was, in the plane's units
	hover bool       // the pointer, holding nothing, is over a boundary
}

// keep keeps the text of a field typed in, or come into, in a table of
// K = t.K: the field shows it from now on.
func (h *hand) keep(t thetaTyped) {
	if h.k != t.K || h.text == nil {
		h.k, h.text, h.why = t.K, map[param]string{}, map[param]i18n.Msg{}
	}
	switch t.Did {
	case fieldInput, fieldChange:
		h.text[t.Param] = t.Value
	case fieldFocus:
		if _, ok := h.text[t.Param]; !ok {
			h.text[t.Param] = t.Value
		}
	}
}

// forget drops what was typed, as when the table is made again for
// another K.
func (h *hand) forget() {
	h.text, h.why = nil, nil
}

// parseTheta reads a number typed for θ. It refuses, saying why and what
// is allowed, an empty field, a comma (a decimal comma, or two numbers),
// what is not a number, NaN and ±Inf, and a number beyond ±MaxTheta (as
// written, so "1e999" is beyond it, not infinite). A leading "−" (the
// minus sign the page prints) or "+" is read as a sign.
func parseTheta(s string) (float64, i18n.Msg) {
	t := strings.TrimSpace(s)
	switch {
	case t == "":
		return 0, i18n.Text("plane.theta.empty")
	case strings.ContainsAny(t, ",，"):
		return 0, i18n.Text("plane.theta.comma", t)
	}
	if r, ok := strings.CutPrefix(t, "−"); ok {
		t = "-" + r
	}
	v, err := strconv.ParseFloat(t, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0):
		return 0, i18n.Text("plane.theta.tooBig", t)
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, i18n.Text("plane.theta.notNumber", t)
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, i18n.Text("plane.theta.notFinite", t)
	case math.Abs(v) > plane.MaxTheta:
		return 0, i18n.Text("plane.theta.tooBig", t)
	}
	return v, i18n.Msg{} // an underflow (1e-999) reads as 0, or the nearest subnormal
}

// base is the θ the page last knew: the last θ it sent, if the worker has
// not yet answered it, or the live model of the latest frame. A person
// typing two fields in quick succession changes both, not the second
// alone.
func (p *Panel) base() *softmax.Model[float32] {
	h := &p.th
	if h.last != nil && h.sent > h.answered && (p.model == nil || h.last.Classes() == p.model.Classes()) {
		return h.last
	}
	return p.model
}

// typedTheta takes what happened in a field of #plane-theta. Typed, a
// number that is taken goes to the worker in the θ the page last knew,
// with that field changed; one that is refused says why beside its
// field, and nothing is sent: the model keeps its last good θ. From the
// moment a person comes into a field until they leave it, it shows their
// text and not the model's, so that a frame never writes under their
// cursor. A field of a table of another K than the model's is dropped,
// without a word: the table has been made again.
func (p *Panel) typedTheta(t thetaTyped) {
	h := &p.th
	m := p.base()
	if _, ok := thetaKeys[t.Param.Of]; !ok || m == nil || t.K != m.Classes() || t.Param.Class < 0 || t.Param.Class >= t.K {
		return
	}
	h.keep(t)
	switch t.Did {
	case fieldFocus:
		return
	case fieldBlur:
		if h.why[t.Param].IsZero() {
			delete(h.text, t.Param)
			delete(h.why, t.Param)
		}
		return
	}
	v, why := parseTheta(t.Value)
	if !why.IsZero() {
		h.text[t.Param], h.why[t.Param] = t.Value, why
		return
	}
	delete(h.why, t.Param)
	h.text[t.Param] = t.Value
	i, bias := t.Param.index(t.K)
	at := &m.W
	if bias {
		at = &m.B
	}
	if (*at)[i] == float32(v) {
		return // nothing changes: Enter after typing, or the same number again
	}
	next := m.Clone()
	if bias {
		next.B[i] = float32(v)
	} else {
		next.W[i] = float32(v)
	}
	p.sendTheta(next, false)
}

// dragged moves the boundary the pointer holds to d.At: core/plane's Drag
// on the θ the page last knew, sent to the worker. A drag core/plane
// refuses (a model already beyond ±MaxTheta) sends nothing.
func (p *Panel) dragged(d dragTo) {
	m := p.base()
	if m == nil || !p.th.hold.on && d.Quick {
		return
	}
	next, err := plane.Drag(m, p.th.hold.grip, d.At, p.set)
	if err != nil {
		return
	}
	p.sendTheta(next, d.Quick)
}

// sendTheta sends m as θ set by hand, and keeps it until the worker's
// frames say it has been answered.
func (p *Panel) sendTheta(m *softmax.Model[float32], quick bool) {
	h := &p.th
	h.sent++
	h.last = m
	w, b := make([]float64, len(m.W)), make([]float64, len(m.B))
	for i, v := range m.W {
		w[i] = float64(v)
	}
	for i, v := range m.B {
		b[i] = float64(v)
	}
	p.send(protocol.PlaneTheta{W: w, B: b, Quick: quick, Hand: h.sent})
}
