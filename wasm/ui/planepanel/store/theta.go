package store

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
)

// θ by hand: a person types one of the model's numbers in #plane-theta
// or drags a boundary on the plane; the page sends the whole θ to the
// worker, which draws it at once and trains on from it
// (protocol.PlaneTheta). A field's text is the person's from the moment
// they come into it until they leave it; otherwise it shows the live
// model.

// Param names one number of the model: class c's weight of x₁ ("1"), of
// x₂ ("2"), or its bias ("b").
type Param struct {
	Class int
	Of    string
}

// Ofs are what a class's numbers are called, in #plane-theta's order.
var Ofs = [3]string{"1", "2", "b"}

// ID is the param's field's id: plane-theta-<class>-<1|2|b>.
func (q Param) ID() string { return "plane-theta-" + strconv.Itoa(q.Class) + "-" + q.Of }

// Index returns where the param is in a model of k classes: in W
// (softmax.Model's layout, w[j·k + c]) or, for a bias, in B.
func (q Param) Index(k int) (i int, bias bool) {
	switch q.Of {
	case "1":
		return q.Class, false
	case "2":
		return k + q.Class, false
	}
	return q.Class, true
}

// ThetaTyped is what happened in one field of #plane-theta: its param,
// the K of the table it was in, its text, and what happened (Did: one of
// FieldInput, FieldChange, FieldFocus, FieldBlur).
type ThetaTyped struct {
	Param Param
	K     int
	Value string
	Did   int
}

// What happens in a field of #plane-theta: typing, Enter (a change), the
// person coming into the field, which keeps its text from then on, and
// leaving it, after which it follows the model again unless its text is
// refused.
const (
	FieldInput = iota
	FieldChange
	FieldFocus
	FieldBlur
)

// Typed is #plane-theta's fields as typed, for a table of K classes: the
// text of each field that is the person's, and why a text is refused. Its
// maps are replaced, never changed, so that a Typed is a value.
type Typed struct {
	K    int
	Text map[Param]string
	Why  map[Param]i18n.Msg
}

// Shown returns the text field q of a table of k classes shows, if it is
// the person's, and why it is refused.
func (t Typed) Shown(q Param, k int) (text string, why i18n.Msg, ok bool) {
	if t.K != k {
		return "", i18n.Msg{}, false
	}
	text, ok = t.Text[q]
	return text, t.Why[q], ok
}

// keep returns t with the text of a field typed in, or come into, in a
// table of K = e.K: the field shows it from now on.
func (t Typed) keep(e ThetaTyped) Typed {
	if t.K != e.K || t.Text == nil {
		t = Typed{K: e.K, Text: map[Param]string{}, Why: map[Param]i18n.Msg{}}
	}
	if _, ok := t.Text[e.Param]; ok && e.Did == FieldFocus {
		return t
	}
	if e.Did == FieldBlur {
		return t
	}
	t.Text = maps.Clone(t.Text)
	t.Text[e.Param] = e.Value
	return t
}

// with returns t with q's text and reason (none, when why is zero); drop
// removes q's.
func (t Typed) with(q Param, text string, why i18n.Msg) Typed {
	t.Text, t.Why = maps.Clone(t.Text), maps.Clone(t.Why)
	t.Text[q] = text
	if why.IsZero() {
		delete(t.Why, q)
	} else {
		t.Why[q] = why
	}
	return t
}

func (t Typed) drop(q Param) Typed {
	t.Text, t.Why = maps.Clone(t.Text), maps.Clone(t.Why)
	delete(t.Text, q)
	delete(t.Why, q)
	return t
}

// hand is what the page keeps of θ by hand: the θs sent and the last of
// them.
type hand struct {
	sent int // PlaneThetas sent: each one's Hand
	last *softmax.Model[float32]
}

// ParseTheta reads a number typed for θ. It refuses, saying why and what
// is allowed, an empty field, a comma (a decimal comma, or two numbers),
// what is not a number, NaN and ±Inf, and a number beyond ±MaxTheta (as
// written, so "1e999" is beyond it, not infinite). A leading "−" (the
// minus sign the page prints) or "+" is read as a sign.
func ParseTheta(s string) (float64, i18n.Msg) {
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

// Base is the θ the page last knew: the last θ it sent, if the worker has
// not yet answered it, or the live model of the latest frame. A person
// typing two fields in quick succession changes both, not the second
// alone; a boundary held moves from it.
func (p *Plane) Base() *softmax.Model[float32] {
	h, m := &p.hand, p.s.Model
	if h.last != nil && h.sent > p.s.Hand && (m == nil || h.last.Classes() == m.Classes()) {
		return h.last
	}
	return m
}

// Theta takes what happened in a field of #plane-theta, at now (ms).
// Typed, a number that is taken goes to the worker in the θ the page last
// knew (Base), with that field changed; one that is refused says why
// beside its field, and nothing is sent: the model keeps its last good θ.
// From the moment a person comes into a field until they leave it, it
// shows their text and not the model's, so that a frame never writes
// under their cursor. A field of a table of another K than the model's,
// or of a param the model does not have, is dropped without a word: the
// table has been made again.
func (p *Plane) Theta(e ThetaTyped, now float64) {
	p.asked = now
	m := p.Base()
	if !slices.Contains(Ofs[:], e.Param.Of) || m == nil || e.K != m.Classes() || e.Param.Class < 0 || e.Param.Class >= e.K {
		return
	}
	t := p.s.Typed.keep(e)
	p.s.Typed = t
	switch e.Did {
	case FieldFocus:
		return
	case FieldBlur:
		if t.Why[e.Param].IsZero() {
			p.s.Typed = t.drop(e.Param)
		}
		return
	}
	v, why := ParseTheta(e.Value)
	p.s.Typed = t.with(e.Param, e.Value, why)
	if !why.IsZero() {
		return
	}
	i, bias := e.Param.Index(e.K)
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

// Drag moves the boundary held by grip g to at, at now (ms): core/plane's
// Drag on the θ the page last knew (Base), sent to the worker; quick
// while the pointer moves, so that the worker computes only the paths. A
// drag core/plane refuses (a model already beyond ±MaxTheta) sends
// nothing.
func (p *Plane) Drag(g plane.Grip, at [2]float64, quick bool, now float64) {
	p.asked = now
	m := p.Base()
	if m == nil {
		return
	}
	next, err := plane.Drag(m, g, at, p.s.Settings)
	if err != nil {
		return
	}
	p.sendTheta(next, quick)
}

// sendTheta queues m as θ set by hand, and keeps it until the worker's
// frames say it has been answered.
func (p *Plane) sendTheta(m *softmax.Model[float32], quick bool) {
	h := &p.hand
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
