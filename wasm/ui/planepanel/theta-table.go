package planepanel

import (
	"reflect"
	"strconv"

	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/planepanel/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// thetaTable is #plane-theta: one field per number of the plane's model,
// a row per class (its weights θ_c,1 and θ_c,2, and its bias b_c when the
// model has one), each labelled with the notes' symbols. Class 0's fields
// are disabled and show its zeros while it is pinned. A field shows the
// live model's number, so that the table follows training, except while
// a person is in it: their text stays until they leave the field, and a
// refused one stays with its reason beside it.
//
// A live view (live.go): the frames render it alone, a run in training's
// ten times a second (due), and so does θ typed.
type thetaTable struct {
	app.Compo

	ILang  i18n.Lang
	IK     int
	IBias  bool
	IPin   bool
	IExact bool // the settings are the exact surface's: θ typed is the paths' start
	ITheta thetaLive

	typed    map[store.Param]string // typed in a field, until the owner has it
	typedK   int                    // the K of the table it was typed in
	shownAt  float64                // when a frame last rendered the table, ms (due); 0 before one did
	shownFor int                    // the Hand of that frame
}

// OnMount asks for the live model.
func (s *thetaTable) OnMount(ctx app.Context) { watchLive.Post(ctx, watching{ctx: ctx, view: s}) }

// thetaEvery is how often, in ms, the frames of a run in training render
// #plane-theta: numbers that change sixty times a second cannot be read,
// and each render of the table is the page's main thread's.
const thetaEvery = 100

// take takes the live model and θ as typed, and renders the table for
// them if due: at once for θ typed, or a frame that answers a θ set by
// hand or is not of a run in training; a run's frames every thetaEvery.
// The run's end renders the whole room.
func (s *thetaTable) take(l live) bool {
	t, was := l.theta, s.ITheta
	if t.Model == was.Model && t.State == was.State && t.Hand == was.Hand && sameTyped(t.Typed, was.Typed) {
		return false
	}
	if sameTyped(t.Typed, was.Typed) && !s.due(t, now()) {
		return false
	}
	s.ITheta = t
	s.settle()
	return true
}

// due reports whether a frame of t renders the table at time ms.
func (s *thetaTable) due(t thetaLive, ms float64) bool {
	if t.State == store.Training && t.Hand == s.shownFor && s.shownAt != 0 && ms-s.shownAt < thetaEvery {
		return false
	}
	s.shownAt, s.shownFor = ms, t.Hand
	return true
}

// sameTyped reports whether a and b are the same typing: the store
// replaces its maps on every change, so the same maps are the same.
func sameTyped(a, b store.Typed) bool { return reflect.DeepEqual(a, b) }

// OnUpdate forgets what was typed that the owner now has.
func (s *thetaTable) OnUpdate(ctx app.Context) { s.settle() }

// settle forgets what was typed that the owner has, or that was typed in
// a table of another K.
func (s *thetaTable) settle() {
	if s.typedK != s.IK {
		s.typed = nil
	}
	for q, v := range s.typed {
		if text, _, ok := s.ITheta.Typed.Shown(q, s.IK); ok && text == v {
			delete(s.typed, q)
		}
	}
}

// Render shows the table.
func (s *thetaTable) Render() app.UI {
	l, k := s.ILang, s.IK
	ofs := store.Ofs[:2]
	if s.IBias {
		ofs = store.Ofs[:]
	}
	note := l.T("plane.theta.note")
	if s.IExact {
		note += " " + l.T("plane.theta.exact")
	}
	return app.Div().Class("plane-theta-box").Body(
		app.Table().ID("plane-theta").Class("plane-theta").Attr("data-k", k).Attr("data-bias", kit.YesNo(s.IBias)).
			Attr("data-pin", kit.YesNo(s.IPin)).Body(
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
						return s.field(store.Param{Class: c, Of: ofs[i]})
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

// field is the cell of param q: its field, and beneath it why what was
// typed is refused.
func (s *thetaTable) field(q store.Param) app.UI {
	l, k := s.ILang, s.IK
	pinned := s.IPin && q.Class == 0
	value := ""
	if m := s.ITheta.Model; m != nil && m.Classes() == k {
		i, bias := q.Index(k)
		v := m.W[i]
		if bias {
			v = m.B[i]
		}
		value = strconv.FormatFloat(float64(v), 'g', 4, 32)
	}
	why := i18n.Msg{}
	if text, w, ok := s.ITheta.Typed.Shown(q, k); ok && !pinned {
		value, why = text, w
	}
	if text, ok := s.typed[q]; ok && s.typedK == k && !pinned {
		value = text
	}
	label := kit.Plain(l.T(thetaKeys[q.Of].label, q.Class))
	if pinned {
		label += " " + l.T("plane.theta.pinned")
	}
	id := q.ID()
	input := app.Input().ID(id).Type("text").Class("plane-theta-field").Attr("inputmode", "decimal").Attr("autocomplete", "off").
		Attr("spellcheck", "false").Attr("data-class", q.Class).Attr("data-param", q.Of).Aria("label", label).Value(value)
	if pinned {
		return app.Td().Body(input.Disabled(true))
	}
	return app.Td().Body(
		input.Attr("data-k", k).Aria("invalid", !why.IsZero()).Aria("describedby", id+"-error").
			OnInput(s.onInput).OnChange(s.onChange).On("focus", s.onFocus).On("blur", s.onBlur),
		app.Div().ID(id+"-error").Class("field-error").Aria("live", "polite").Body(
			app.If(!why.IsZero(), func() app.UI { return app.Text(l.M(why) + " " + l.T("plane.theta.kept")) }),
		),
	)
}

// onInput takes what is typed in a field, onChange Enter, onFocus and
// onBlur the person coming into the field and leaving it. Each reads
// which number it is from the field's data attributes, not from the
// render that made it: go-app keeps an element's first handler while
// later ones share its code.
func (s *thetaTable) onInput(ctx app.Context, e app.Event)  { s.event(ctx, store.FieldInput) }
func (s *thetaTable) onChange(ctx app.Context, e app.Event) { s.event(ctx, store.FieldChange) }
func (s *thetaTable) onFocus(ctx app.Context, e app.Event)  { s.event(ctx, store.FieldFocus) }
func (s *thetaTable) onBlur(ctx app.Context, e app.Event)   { s.event(ctx, store.FieldBlur) }

// event posts what happened in a field: did is one of store's Field….
// What is typed is the field's own: kept at once, so that a render before
// the owner takes it shows it, not what was typed before.
func (s *thetaTable) event(ctx app.Context, did int) {
	ctx.PreventUpdate() // the table renders alone, as the owner takes it
	el := ctx.JSSrc()
	c, err1 := strconv.Atoi(el.Call("getAttribute", "data-class").String())
	k, err2 := strconv.Atoi(el.Call("getAttribute", "data-k").String())
	if err1 != nil || err2 != nil {
		return
	}
	t := store.ThetaTyped{Param: store.Param{Class: c, Of: el.Call("getAttribute", "data-param").String()}, K: k, Value: el.Get("value").String(), Did: did}
	s.keep(t)
	typeTheta.Post(ctx, t)
}

// keep keeps what the person typed, or the text of a field they came
// into, until the owner has it; a field left follows the owner at once.
func (s *thetaTable) keep(t store.ThetaTyped) {
	if s.typed == nil || s.typedK != t.K {
		s.typed, s.typedK = map[store.Param]string{}, t.K
	}
	switch t.Did {
	case store.FieldInput, store.FieldChange:
		s.typed[t.Param] = t.Value
	case store.FieldFocus:
		if _, _, ok := s.ITheta.Typed.Shown(t.Param, t.K); !ok {
			s.typed[t.Param] = t.Value
		}
	case store.FieldBlur:
		delete(s.typed, t.Param)
	}
}
