package planepanel

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// fields are the plane's number fields as typed, and the reason each
// is refused (zero when accepted).
type fields struct {
	LR, L2, Batch          string
	LRErr, L2Err, BatchErr i18n.Msg
}

// fieldsOf returns the fields that show s.
func fieldsOf(s plane.Settings) fields {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return fields{LR: g(s.Rate), L2: g(s.Lambda), Batch: strconv.Itoa(max(s.Batch, 1))}
}

// dataKeys are the catalog keys of the data sets' names.
var dataKeys = map[string]string{"blobs": "plane.data.blobs", "overlap": "plane.data.overlap",
	"separable": "plane.data.separable", "ring": "plane.data.ring"}

// controls renders the data, the model's options, the step size and the
// buttons.
func (p *Panel) controls() app.UI {
	l := p.ILang
	return app.Div().Class("plane-controls").Body(
		p.choice("plane-data", l.T("plane.data"), plane.DataSets, p.name, func(v string) string { return l.T(dataKeys[v]) },
			func(v string) any { return v }, actionData),
		p.kChoice(),
		p.classChoice(),
		p.check("plane-bias", "bias", p.set.Bias, l.T("plane.bias"), l.T("plane.biasWhy")),
		p.check("plane-pin", "pin", p.set.Pin, l.T("plane.pin"), l.T("plane.pinWhy")),
		p.rateField(),
		p.alphaMax(false),
		p.number("plane-l2", fieldL2, l.T("plane.l2"), p.f.L2, p.f.L2Err),
		p.number("plane-batch", fieldBatch, l.T("plane.batch"), p.f.Batch, p.f.BatchErr),
		p.trainButtons(),
		p.psiButton("plane.psi"),
		p.psiResult(false),
	)
}

// kChoice chooses K, the number of classes (#plane-k).
func (p *Panel) kChoice() app.UI {
	l := p.ILang
	return p.choice("plane-k", l.T("plane.k"), []string{"2", "3", "4", "5"}, strconv.Itoa(p.data.K), func(v string) string {
		if v == "2" {
			return l.T("plane.k2")
		}
		n, _ := strconv.Atoi(v)
		return l.T("plane.kN", n)
	}, whole, actionK)
}

// classChoice chooses the class a click adds (#plane-class).
func (p *Panel) classChoice() app.UI {
	l := p.ILang
	return p.choice("plane-class", l.T("plane.class"), classNames(p.data.K), strconv.Itoa(p.add), func(v string) string {
		n, _ := strconv.Atoi(v)
		return l.T("plane.classN", n)
	}, whole, actionClass)
}

// rateField is α (#plane-lr).
func (p *Panel) rateField() app.UI {
	return p.number("plane-lr", fieldLR, p.ILang.T("plane.lr"), p.f.LR, p.f.LRErr)
}

// trainButtons are Train or Pause (#plane-train) and θ = 0 (#plane-reset).
func (p *Panel) trainButtons() app.UI {
	l := p.ILang
	training := p.state == stateTraining
	trainKey := map[bool]string{false: "plane.train", true: "plane.pause"}[training]
	return app.Div().Class("buttons").Body(
		app.Button().ID("plane-train").Class("primary").Title(l.T("plane.trainWhy")).Text(l.T(trainKey)).
			Disabled(!training && !p.refused.IsZero()).OnClick(post(actionTrain, nil)),
		app.Button().ID("plane-reset").Title(l.T("plane.resetWhy")).Text(l.T("plane.reset")).OnClick(post(actionReset, nil)),
	)
}

// psiButton adds the same ψ to every θ_c (#plane-psi), saying so in
// the words of key.
func (p *Panel) psiButton(key string) app.UI {
	l := p.ILang
	return app.Button().ID("plane-psi").Class("plane-psi").Title(kit.Plain(l.T("plane.psiWhy"))).Body(kit.Rich(l.T(key))...).OnClick(post(ActionPsi, nil))
}

func classNames(k int) []string {
	out := make([]string, k)
	for c := range k {
		out[c] = strconv.Itoa(c)
	}
	return out
}

// choice is a labelled select of values, the one chosen selected; a
// choice posts action with the value as value returns it.
func (p *Panel) choice(id, label string, values []string, chosen string, text func(string) string, value func(string) any, action string) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		app.Select().ID(id).OnChange(func(ctx app.Context, e app.Event) {
			if v := ctx.JSSrc().Get("value").String(); slices.Contains(values, v) {
				ctx.NewActionWithValue(action, value(v))
			}
		}).Body(app.Range(values).Slice(func(i int) app.UI {
			return app.Option().Value(values[i]).Text(text(values[i])).Selected(values[i] == chosen)
		})),
	)
}

// whole is a choice's value as a whole number.
func whole(v string) any {
	n, _ := strconv.Atoi(v)
	return n
}

// putBack shows v again in the select id, whose choice was refused: the
// page renders the value in force, which go-app sees as no change.
func putBack(id string, v int) {
	if el := app.Window().GetElementByID(id); el.Truthy() {
		el.Set("value", strconv.Itoa(v))
	}
}

// check is a labelled checkbox for the option name of the settings.
func (p *Panel) check(id, name string, on bool, label, why string) app.UI {
	return app.Div().Class("field check").Body(
		app.Input().ID(id).Type("checkbox").Checked(on).OnChange(func(ctx app.Context, e app.Event) {
			ctx.NewActionWithValue(actionOption, option{Name: name, On: ctx.JSSrc().Get("checked").Bool()})
		}),
		app.Label().For(id).Title(why).Text(label),
	)
}

// number is a labelled text field for the number name (fieldLR, …), with
// its reason when it is refused; the value is rendered once and then
// left to the person, as the Train panel's are (typing again after a
// render would lose what was typed in between).
func (p *Panel) number(id, name, label, value string, reason i18n.Msg) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		app.Input().ID(id).Type("text").Attr("inputmode", "decimal").Attr("autocomplete", "off").Value(value).
			Aria("invalid", !reason.IsZero()).Aria("describedby", id+"-error").
			OnInput(func(ctx app.Context, e app.Event) {
				// What is typed is the field's own: kept at once, so that a
				// render before the action is handled shows it, not what was
				// typed before it.
				v := ctx.JSSrc().Get("value").String()
				p.f.show(name, v)
				ctx.NewActionWithValue(actionTyped, typing{Field: name, Value: v})
			}),
		app.Div().ID(id+"-error").Class("field-error").Aria("live", "polite").Text(p.ILang.M(reason)),
	)
}

// show keeps v as what field name holds.
func (f *fields) show(name, v string) {
	switch name {
	case fieldLR:
		f.LR = v
	case fieldL2:
		f.L2 = v
	case fieldBatch:
		f.Batch = v
	}
}

// typed takes one field as typed and reads all three: if all are numbers
// in range, it returns them for the worker; otherwise each refused one
// says why, and the plane keeps its last good settings. m is the number of
// points, the most B may be.
func (f *fields) typed(t typing, m int) (protocol.PlaneNumbers, bool) {
	f.show(t.Field, t.Value)
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
	return n, f.LRErr.IsZero() && f.L2Err.IsZero() && f.BatchErr.IsZero()
}

// follow shows s in the fields where it differs from what they read (α
// set by the page, say), unless a field is refused: what a person typed
// and the plane has not taken stays, with its reason.
func (f *fields) follow(s plane.Settings) {
	if !f.LRErr.IsZero() || !f.L2Err.IsZero() || !f.BatchErr.IsZero() {
		return
	}
	g := fieldsOf(s)
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
	return refusal(err)
}
