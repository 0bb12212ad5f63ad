package planepanel

import (
	"strconv"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// thetaTable is #plane-theta: one field per number of the plane's model,
// a row per class (its weights θ_c,1 and θ_c,2, and its bias b_c when the
// model has one), each labelled with the notes' symbols. Class 0's fields
// are disabled and show its zeros while it is pinned. A field shows the
// live model's number, so that the table follows training, except while
// a person is in it (hand.go): their text stays until they leave the
// field, and a refused one stays with its reason beside it.
//
// Like statusLine, it reads the panel's state as it renders, and a frame
// renders it alone (drawFrame), not the panel and the page above it; a
// run in training, ten times a second (thetaDue).
type thetaTable struct {
	app.Compo

	IPanel  *Panel
	IRender int // the panel's render it belongs to
}

// OnMount gives the panel the table's context, for the frames and the
// typing that render it alone.
func (s *thetaTable) OnMount(ctx app.Context) { s.IPanel.thetaCtx = &ctx }

func (s *thetaTable) OnDismount() { forgetCtx(&s.IPanel.thetaCtx, s) }

func (s *thetaTable) Render() app.UI {
	p := s.IPanel
	l, m, k := p.ILang, p.model, p.data.K
	if m != nil && m.Classes() != k {
		m = nil // the frame of the new K is on its way
	}
	ofs := []string{"1", "2"}
	if p.set.Bias {
		ofs = append(ofs, "b")
	}
	note := l.T("plane.theta.note")
	if p.set.Exact(k) {
		note += " " + l.T("plane.theta.exact")
	}
	return app.Div().Class("plane-theta-box").Body(
		app.Table().ID("plane-theta").Class("plane-theta").Attr("data-k", k).Attr("data-bias", kit.YesNo(p.set.Bias)).
			Attr("data-pin", kit.YesNo(p.set.Pin)).Body(
			app.Caption().Text(l.T("plane.theta.title")),
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text(l.T("plane.theta.class")),
				app.Range(ofs).Slice(func(i int) app.UI {
					return app.Th().Scope("col").Body(kit.Rich(l.T(thetaKeys[ofs[i]].head))...)
				}),
			)),
			app.TBody().Body(app.Range(classNames(k)).Slice(func(c int) app.UI {
				return app.Tr().Attr("data-class", c).Body(
					app.Th().Scope("row").Text(l.T("plane.classN", c)),
					app.Range(ofs).Slice(func(i int) app.UI {
						return p.thetaField(param{Class: c, Of: ofs[i]}, k)
					}),
				)
			})),
		),
		app.P().Class("note").Body(kit.Rich(note)...),
	)
}

// thetaKeys are the catalog keys of each of a class's numbers: its
// column's head, and its field's label.
var thetaKeys = map[string]struct{ head, label string }{
	"1": {"plane.theta.head1", "plane.theta.label1"},
	"2": {"plane.theta.head2", "plane.theta.label2"},
	"b": {"plane.theta.headb", "plane.theta.labelb"},
}

// thetaField is the cell of param q in a table of k classes: its field,
// and beneath it why what was typed is refused.
func (p *Panel) thetaField(q param, k int) app.UI {
	l, h := p.ILang, &p.th
	pinned := p.set.Pin && q.Class == 0
	value := ""
	if m := p.model; m != nil && m.Classes() == k {
		i, bias := q.index(k)
		v := m.W[i]
		if bias {
			v = m.B[i]
		}
		value = strconv.FormatFloat(float64(v), 'g', 4, 32)
	}
	why := i18n.Msg{}
	if t, ok := h.text[q]; ok && h.k == k && !pinned {
		value, why = t, h.why[q]
	}
	label := kit.Plain(l.T(thetaKeys[q.Of].label, q.Class))
	if pinned {
		label += " " + l.T("plane.theta.pinned")
	}
	id := q.id()
	input := app.Input().ID(id).Type("text").Class("plane-theta-field").Attr("inputmode", "decimal").Attr("autocomplete", "off").
		Attr("spellcheck", "false").Attr("data-class", q.Class).Attr("data-param", q.Of).Aria("label", label).Value(value)
	if pinned {
		return app.Td().Body(input.Disabled(true))
	}
	return app.Td().Body(
		input.Attr("data-k", k).Aria("invalid", !why.IsZero()).Aria("describedby", id+"-error").
			OnInput(p.onThetaInput).OnChange(p.onThetaChange).On("focus", p.onThetaFocus).On("blur", p.onThetaBlur),
		app.Div().ID(id+"-error").Class("field-error").Aria("live", "polite").Body(
			app.If(!why.IsZero(), func() app.UI { return app.Text(l.M(why) + " " + l.T("plane.theta.kept")) }),
		),
	)
}

// onThetaInput takes what is typed in a field of #plane-theta,
// onThetaChange Enter, onThetaFocus and onThetaBlur the person coming
// into the field and leaving it. Each reads which number it is from the
// field's data attributes, not from the render that made it: go-app keeps
// an element's first handler while later ones share its code.
func (p *Panel) onThetaInput(ctx app.Context, e app.Event)  { p.thetaEvent(ctx, fieldInput) }
func (p *Panel) onThetaChange(ctx app.Context, e app.Event) { p.thetaEvent(ctx, fieldChange) }
func (p *Panel) onThetaFocus(ctx app.Context, e app.Event)  { p.thetaEvent(ctx, fieldFocus) }
func (p *Panel) onThetaBlur(ctx app.Context, e app.Event)   { p.thetaEvent(ctx, fieldBlur) }

func (p *Panel) thetaEvent(ctx app.Context, did int) {
	ctx.PreventUpdate() // the table renders alone (actionTheta)
	el := ctx.JSSrc()
	c, err1 := strconv.Atoi(el.Call("getAttribute", "data-class").String())
	k, err2 := strconv.Atoi(el.Call("getAttribute", "data-k").String())
	if err1 != nil || err2 != nil {
		return
	}
	t := thetaTyped{Param: param{Class: c, Of: el.Call("getAttribute", "data-param").String()}, K: k, Value: el.Get("value").String(), Did: did}
	// What is typed is the field's own: kept at once, so that a render
	// before the action is handled shows it, not what was typed before.
	p.th.keep(t)
	ctx.NewActionWithValue(actionTheta, t)
}

// thetaEvery is how often, in ms, the frames of a run in training render
// #plane-theta: numbers that change sixty times a second cannot be read,
// and each render of the table is the page's main thread's.
const thetaEvery = 100

// thetaDue reports whether the frame m renders #plane-theta: every frame
// that answers a θ set by hand, or that is not of a run in training, and
// one every thetaEvery of a run's. The run's end renders the whole panel.
func (p *Panel) thetaDue(m protocol.PlaneFrame) bool {
	h, t := &p.th, now()
	if m.State == stateTraining && m.Hand == h.shownFor && t-h.shownAt < thetaEvery {
		return false
	}
	h.shownAt, h.shownFor = t, m.Hand
	return true
}

// thetaPart is #plane-theta for the panel's render.
func (p *Panel) thetaPart() app.UI { return &thetaTable{IPanel: p, IRender: p.renders} }

// renderTheta renders #plane-theta alone, if it is mounted, from an event
// or action that ctx handles and renders nothing else.
func (p *Panel) renderTheta(ctx app.Context) {
	ctx.PreventUpdate()
	if c := p.thetaCtx; c != nil {
		c.Dispatch(func(app.Context) { ctx.PreventUpdate() })
	}
}
