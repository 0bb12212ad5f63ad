package ui

import (
	"softmaxdemo/wasm/ui/i18n"

	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"softmaxdemo/core/plane"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// planeFields are the plane's number fields as typed, and the reason each
// is refused (zero when accepted).
type planeFields struct {
	LR, L2, Batch          string
	LRErr, L2Err, BatchErr i18n.Msg
}

// fieldsOf returns the fields that show s.
func fieldsOf(s plane.Settings) planeFields {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return planeFields{LR: g(s.Rate), L2: g(s.Lambda), Batch: strconv.Itoa(max(s.Batch, 1))}
}

// dataKeys are the catalog keys of the data sets' names.
var dataKeys = map[string]string{"blobs": "plane.data.blobs", "overlap": "plane.data.overlap",
	"separable": "plane.data.separable", "ring": "plane.data.ring"}

// controls renders the data, the model's options, the step size and the
// buttons.
func (p *planePanel) controls() app.UI {
	l := p.ILang
	return app.Div().Class("plane-controls").Body(
		p.choice("plane-data", l.T("plane.data"), plane.DataSets, p.name, func(v string) string { return l.T(dataKeys[v]) }, p.onData),
		p.kChoice(),
		p.classChoice(),
		p.check("plane-bias", p.set.Bias, l.T("plane.bias"), l.T("plane.biasWhy"), func(s *plane.Settings, on bool) { s.Bias = on }),
		p.check("plane-pin", p.set.Pin, l.T("plane.pin"), l.T("plane.pinWhy"), func(s *plane.Settings, on bool) { s.Pin = on }),
		p.rateField(),
		p.alphaMax(false),
		p.number("plane-l2", l.T("plane.l2"), p.f.L2, p.f.L2Err, func(v string) { p.f.L2 = v }),
		p.number("plane-batch", l.T("plane.batch"), p.f.Batch, p.f.BatchErr, func(v string) { p.f.Batch = v }),
		p.trainButtons(),
		p.psiButton("plane.psi"),
		p.psiResult(false),
	)
}

// kChoice chooses K, the number of classes (#plane-k).
func (p *planePanel) kChoice() app.UI {
	l := p.ILang
	return p.choice("plane-k", l.T("plane.k"), []string{"2", "3", "4", "5"}, strconv.Itoa(p.data.K), func(v string) string {
		if v == "2" {
			return l.T("plane.k2")
		}
		n, _ := strconv.Atoi(v)
		return l.T("plane.kN", n)
	}, p.onK)
}

// classChoice chooses the class a click adds (#plane-class).
func (p *planePanel) classChoice() app.UI {
	l := p.ILang
	return p.choice("plane-class", l.T("plane.class"), classNames(p.data.K), strconv.Itoa(p.add), func(v string) string {
		n, _ := strconv.Atoi(v)
		return l.T("plane.classN", n)
	}, func(ctx app.Context, v string) { p.add, _ = strconv.Atoi(v) })
}

// rateField is α (#plane-lr).
func (p *planePanel) rateField() app.UI {
	return p.number("plane-lr", p.ILang.T("plane.lr"), p.f.LR, p.f.LRErr, func(v string) { p.f.LR = v })
}

// trainButtons are Train or Pause (#plane-train) and θ = 0 (#plane-reset).
func (p *planePanel) trainButtons() app.UI {
	l := p.ILang
	training := p.state == planeTraining
	trainKey := map[bool]string{false: "plane.train", true: "plane.pause"}[training]
	return app.Div().Class("buttons").Body(
		app.Button().ID("plane-train").Class("primary").Title(l.T("plane.trainWhy")).Text(l.T(trainKey)).
			Disabled(!training && !p.msg.IsZero()).OnClick(p.onTrain),
		app.Button().ID("plane-reset").Title(l.T("plane.resetWhy")).Text(l.T("plane.reset")).OnClick(p.onReset),
	)
}

// psiButton adds the same ψ to every θ_c (#plane-psi), saying so in
// the words of key.
func (p *planePanel) psiButton(key string) app.UI {
	l := p.ILang
	return app.Button().ID("plane-psi").Class("plane-psi").Title(plain(l.T("plane.psiWhy"))).Body(rich(l.T(key))...).OnClick(p.onPsi)
}

func classNames(k int) []string {
	out := make([]string, k)
	for c := range k {
		out[c] = strconv.Itoa(c)
	}
	return out
}

// choice is a labelled select of values, the one chosen selected.
func (p *planePanel) choice(id, label string, values []string, chosen string, text func(string) string, set func(app.Context, string)) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		app.Select().ID(id).OnChange(func(ctx app.Context, e app.Event) {
			if v := ctx.JSSrc().Get("value").String(); slices.Contains(values, v) {
				set(ctx, v)
			}
		}).Body(app.Range(values).Slice(func(i int) app.UI {
			return app.Option().Value(values[i]).Text(text(values[i])).Selected(values[i] == chosen)
		})),
	)
}

// check is a labelled checkbox that changes one of the settings.
func (p *planePanel) check(id string, on bool, label, why string, set func(*plane.Settings, bool)) app.UI {
	return app.Div().Class("field check").Body(
		app.Input().ID(id).Type("checkbox").Checked(on).OnChange(func(ctx app.Context, e app.Event) {
			s := p.set
			set(&s, ctx.JSSrc().Get("checked").Bool())
			p.apply(p.data, s)
		}),
		app.Label().For(id).Title(why).Text(label),
	)
}

// number is a labelled text field for a number, with its reason when it
// is refused; the value is rendered once and then left to the person (see
// trainPanel.field).
func (p *planePanel) number(id, label, value string, reason i18n.Msg, set func(string)) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		app.Input().ID(id).Type("text").Attr("inputmode", "decimal").Attr("autocomplete", "off").Value(value).
			Aria("invalid", !reason.IsZero()).Aria("describedby", id+"-error").
			OnInput(func(ctx app.Context, e app.Event) {
				set(ctx.JSSrc().Get("value").String())
				p.onFields()
			}),
		app.Div().ID(id+"-error").Class("field-error").Aria("live", "polite").Text(p.ILang.M(reason)),
	)
}

// onFields reads α, λ and B as typed: if all are numbers in range they
// apply at once; otherwise each refused one says why, and the plane keeps
// the last good settings.
func (p *planePanel) onFields() {
	f := &p.f
	f.LRErr, f.L2Err, f.BatchErr = i18n.Msg{}, i18n.Msg{}, i18n.Msg{}
	s := p.set
	var ok bool
	if s.Rate, ok = parseNumber(f.LR, &f.LRErr); ok {
		f.LRErr = fieldReason(plane.Settings{Rate: s.Rate, Batch: 1}.Validate(1))
	}
	if s.Lambda, ok = parseNumber(f.L2, &f.L2Err); ok {
		f.L2Err = fieldReason(plane.Settings{Rate: 1, Lambda: s.Lambda, Batch: 1}.Validate(1))
	}
	if b, ok := parseNumber(f.Batch, &f.BatchErr); ok {
		s.Batch = int(b)
		if b != math.Trunc(b) || b < 1 || b > float64(len(p.data.Points)) {
			f.BatchErr = i18n.Text("plane.badBatch", strings.TrimSpace(f.Batch), len(p.data.Points))
		}
	}
	if f.LRErr.IsZero() && f.L2Err.IsZero() && f.BatchErr.IsZero() {
		p.apply(p.data, s)
	}
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

// fieldReason is the reason a field's value is refused, or the zero msg.
func fieldReason(err error) i18n.Msg {
	if err == nil {
		return i18n.Msg{}
	}
	return planeRefusal(err)
}
