package store

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
)

// Fields are the plane's number fields as typed (α, λ and the SGD path's
// B), and the reason each is refused (zero when accepted).
type Fields struct {
	LR, L2, Batch          string
	LRErr, L2Err, BatchErr i18n.Msg
}

// The number fields, as Typing's Field names them.
const (
	LR    = "lr"
	L2    = "l2"
	Batch = "batch"
)

// Typing is one number field as typed: LR, L2 or Batch, and its text.
type Typing struct {
	Field string
	Value string
}

// FieldsOf returns the fields that show s.
func FieldsOf(s plane.Settings) Fields {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return Fields{LR: g(s.Rate), L2: g(s.Lambda), Batch: strconv.Itoa(max(s.Batch, 1))}
}

// Text returns what field name holds.
func (f Fields) Text(name string) string {
	switch name {
	case LR:
		return f.LR
	case L2:
		return f.L2
	}
	return f.Batch
}

// show returns f with v as what field name holds.
func (f Fields) show(name, v string) Fields {
	switch name {
	case LR:
		f.LR = v
	case L2:
		f.L2 = v
	case Batch:
		f.Batch = v
	}
	return f
}

// Typed takes one field as typed and reads all three: if all are numbers
// in range, it queues them for the worker, at now (ms); otherwise each
// refused one says why, nothing is sent, and the plane keeps its last
// good settings. B may be at most the number of points.
func (p *Plane) Typed(t Typing, now float64) {
	f := p.s.Fields.show(t.Field, t.Value)
	m := len(p.s.Data.Points)
	f.LRErr, f.L2Err, f.BatchErr = i18n.Msg{}, i18n.Msg{}, i18n.Msg{}
	var n protocol.PlaneNumbers
	var ok bool
	if n.Rate, ok = parseNumber(f.LR, &f.LRErr); ok {
		f.LRErr = fieldReason(plane.Settings{Rate: n.Rate, Batch: 1}.Validate(1))
	}
	if n.Lambda, ok = parseNumber(f.L2, &f.L2Err); ok {
		f.L2Err = fieldReason(plane.Settings{Rate: 1, Lambda: n.Lambda, Batch: 1}.Validate(1))
	}
	if b, ok := parseNumber(f.Batch, &f.BatchErr); ok {
		n.Batch = int(b)
		if b != math.Trunc(b) || b < 1 || b > float64(m) {
			f.BatchErr = i18n.Text("plane.badBatch", strings.TrimSpace(f.Batch), m)
		}
	}
	p.s.Fields = f
	if f.LRErr.IsZero() && f.L2Err.IsZero() && f.BatchErr.IsZero() {
		p.Ask(n, now)
	}
}

// follow returns f showing s where it differs from what the fields read
// (α set by the page, say), unless a field is refused: what a person
// typed and the plane has not taken stays, with its reason.
func (f Fields) follow(s plane.Settings) Fields {
	if !f.LRErr.IsZero() || !f.L2Err.IsZero() || !f.BatchErr.IsZero() {
		return f
	}
	g := FieldsOf(s)
	read := func(v string) float64 { x, _ := strconv.ParseFloat(strings.TrimSpace(v), 64); return x }
	if read(f.LR) != s.Rate {
		f.LR = g.LR
	}
	if read(f.L2) != s.Lambda {
		f.L2 = g.L2
	}
	if read(f.Batch) != float64(max(s.Batch, 1)) {
		f.Batch = g.Batch
	}
	return f
}

// parseNumber reads a number, or sets why it is not one.
func parseNumber(s string, why *i18n.Msg) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		*why = i18n.Text("plane.notNumber", s)
		return 0, false
	}
	return v, true
}

// fieldReason is the reason a field's value is refused, or the zero Msg.
func fieldReason(err error) i18n.Msg {
	if err == nil {
		return i18n.Msg{}
	}
	return refusal(err)
}
