package lessonview

import (
	"html"

	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/mathml"
	"softmaxdemo/wasm/ui/params"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The lesson's own panels: the first chapter's digit and its strip, a
// digit with its ten probabilities, the descent chapter's three runs, the
// redundancy chapter's ψ, Newton's runs beside H, and the run bar. The
// other rooms' panels come from the page (ISlots).

// panel is the live panel k of a chapter.
func (v *Lesson) panel(k lesson.Panel, live lesson.Live) app.UI {
	switch k {
	case lesson.Digit:
		return v.digitPanel(live.Example)
	case lesson.Example:
		return app.Section().Class("panel lesson-example-panel").Body(v.exampleView(live.Example))
	case lesson.Descent:
		return v.descentPanel()
	case lesson.PsiShift:
		return v.psiPanel(live)
	case lesson.Hessian:
		return app.Div().Class("lesson-newton").Body(v.newtonRuns(), v.slot(k))
	}
	return v.slot(k)
}

// slot is the page's panel k, or an empty element if the page has none.
func (v *Lesson) slot(k lesson.Panel) app.UI {
	if ui, ok := v.ISlots[k]; ok && ui != nil {
		return ui
	}
	return app.Div()
}

// runBar trains, pauses and resets with the Train panel's settings, which
// the chapter has set; with DeskewBar, it chooses whether to straighten
// the digits.
func (v *Lesson) runBar(kind lesson.Bar) app.UI {
	s, l := v.IInstrument, v.ILang
	f := s.Settings.Fields
	return app.Div().Class("run-bar").Body(
		app.Button().ID("lesson-train").Class("primary").Text(l.T("button.train")).Disabled(s.Training || s.NoData).
			OnClick(post(Train, f)),
		app.Button().ID("lesson-pause").Text(l.T("button.pause")).Disabled(!s.Training).
			OnClick(func(ctx app.Context, e app.Event) { Pause.Post(ctx) }),
		app.Button().ID("lesson-reset").Text(l.T("button.reset")).Disabled(s.Training || s.NoData).
			OnClick(post(Fresh, f)),
		app.If(kind == lesson.DeskewBar, func() app.UI {
			return app.Label().Class("run-deskew").Body(
				app.Input().ID("lesson-deskew").Type("checkbox").Checked(f.Deskew).Disabled(s.Training).
					OnChange(func(ctx app.Context, e app.Event) {
						g := f
						g.Deskew = ctx.JSSrc().Get("checked").Bool()
						Fields.Post(ctx, g)
					}),
				app.Text(" "+l.T("train.deskew")),
			)
		}),
		app.Span().Class("run-status").Text(l.M(s.Status)),
	)
}

// post returns an event handler that posts the fields f with action.
func post(action kit.Action[params.Fields], f params.Fields) app.EventHandler {
	return func(ctx app.Context, e app.Event) { action.Post(ctx, f) }
}

// digitPanel is a digit and its 784 numbers as a strip: the gallery's,
// live, or until the data are in, the still digit that index.html shows.
func (v *Lesson) digitPanel(ex *lesson.Shown) app.UI {
	s, l := v.IInstrument, v.ILang
	var pictures app.UI
	if ex == nil {
		// Raw, since go-app puts a site's path prefix before every src,
		// data: links included.
		pictures = app.Div().Class("digit-pictures still").Body(
			app.Raw(`<img id="lesson-digit" class="pixelated digit-big" src="`+lesson.StillDigit+`" alt="`+html.EscapeString(l.T("lesson.still"))+`">`),
			app.Raw(`<img id="lesson-strip" class="pixelated strip" src="`+lesson.StillStrip+`" alt="`+html.EscapeString(l.T("lesson.stripLabel"))+`">`),
		)
	} else {
		pictures = app.Div().Class("digit-pictures").Body(
			app.Div().Class("digit-big").Body(&kit.GreyCanvas{IID: "lesson-digit", IPixels: ex.Pixels, IW: 28, IH: 28, ILabel: l.T("lesson.digitLabel", ex.Label)}),
			app.Div().Class("strip").Body(&kit.GreyCanvas{IID: "lesson-strip", IPixels: ex.Pixels, IW: 784, IH: 1, ILabel: l.T("lesson.stripLabel")}),
		)
	}
	facts := l.T("lesson.loading")
	if s.TrainN > 0 {
		facts = l.T("lesson.facts", i18n.Count(s.TrainN), i18n.Count(s.TestN))
	}
	return app.Section().Class("panel lesson-digit").Attr("data-state", map[bool]string{true: "still", false: "live"}[ex == nil]).Body(
		pictures,
		app.P().Class("note strip-note").Text(l.T("lesson.stripNote")),
		app.P().ID("lesson-facts").Class("facts").Text(facts),
		app.Button().ID("lesson-another").Text(l.T("lesson.another")).Disabled(ex == nil).
			OnClick(v.onAnother),
	)
}

// onAnother shows another digit of the gallery.
func (v *Lesson) onAnother(ctx app.Context, e app.Event) { v.sample += 7 }

// exampleView is one gallery digit with the current model's ten
// probabilities (each bar's data-p exact), and a button for the next.
func (v *Lesson) exampleView(ex *lesson.Shown) app.UI {
	s, l := v.IInstrument, v.ILang
	if ex == nil {
		return app.Div().ID("lesson-example").Attr("data-state", "loading").Body(app.P().Class("note").Text(l.T("lesson.loading")))
	}
	top := -1
	if ex.Model {
		top = ex.Predicted()
	}
	return app.Div().ID("lesson-example").Class("lesson-example").Attr("data-state", "shown").Attr("data-label", ex.Label).
		Attr("data-model", kit.Checksum(s.Model)).Attr("data-sample", v.sample).Body(
		&kit.GreyCanvas{IID: "lesson-example-digit", IPixels: ex.Pixels, IW: 28, IH: 28, ILabel: l.T("lesson.digitLabel", ex.Label)},
		app.Div().ID("lesson-probs").Class("bars").Attr("role", "list").Aria("label", l.T("lesson.example.probs")).Body(
			app.Range(make([]struct{}, 10)).Slice(func(c int) app.UI {
				p, z := float32(0), ""
				if ex.Model {
					p, z = ex.P[c], kit.Exact32(ex.Z[c])
				}
				return kit.Bar(c, p, i18n.Percent(float64(p))).Class(map[bool]string{true: "top"}[c == top]).
					Class(map[bool]string{true: "true"}[c == ex.Label]).
					Attr("role", "listitem").Attr("data-p", kit.Exact32(p)).Attr("data-z", z)
			}),
		),
		app.Button().ID("lesson-another").Text(l.T("lesson.another")).OnClick(v.onAnother),
	)
}

// descentPanel starts runs of full-batch descent, minibatches and SGD
// from θ = 0, each beside the runs before it on the chart.
func (v *Lesson) descentPanel() app.UI {
	s, l := v.IInstrument, v.ILang
	run := func(id, key, name, pace string) app.UI {
		return app.Button().ID(id).Text(l.T(key)).Disabled(s.TrainN == 0).
			OnClick(post(Fresh, params.PresetFields(name, s.TrainN, pace)))
	}
	return app.Section().Class("panel lesson-descent").Body(
		app.Div().Class("descent-buttons").Body(
			run("descent-full", "lesson.descent.full", "full", params.DefaultPace),
			run("descent-minibatch", "lesson.descent.minibatch", "minibatch", params.DefaultPace),
			run("descent-sgd", "lesson.descent.sgd", "sgd", "full"),
		),
		app.P().Class("note").Text(l.T("lesson.descent.note")),
	)
}

// newtonRuns start a run of Newton's method and one of full-batch
// descent, for the chart to compare.
func (v *Lesson) newtonRuns() app.UI {
	s, l := v.IInstrument, v.ILang
	return app.Div().Class("descent-buttons").Body(
		app.Button().ID("newton-run").Text(l.T("lesson.newton.run")).Disabled(s.TrainN == 0).
			OnClick(post(Fresh, params.PresetFields("newton", s.TrainN, ""))),
		app.Button().ID("newton-gd").Text(l.T("lesson.newton.gd")).Disabled(s.TrainN == 0).
			OnClick(post(Fresh, params.PresetFields("full", s.TrainN, ""))),
	)
}

// psiPanel adds a random ψ to every θ_c and undoes it; #psi-result says
// what changed: the largest change of a probability of the digit shown
// (data-max-dp), of ‖θ‖² (data-dnorm) and of the digit's J, with the L2
// term it names.
func (v *Lesson) psiPanel(live lesson.Live) app.UI {
	s, l := v.IInstrument, v.ILang
	ps := v.psi
	noModel := s.Model == nil || live.Example == nil
	busy := s.NoData || s.TrainN == 0
	result := app.Div().ID("psi-result").Class("psi-result").Attr("data-state", "none").Attr("role", "status")
	if ps != nil {
		e := ps.effect
		state := "added"
		if ps.undone {
			state = "undone"
		}
		result = result.Attr("data-state", state).
			Attr("data-max-dp", kit.Exact64(e.MaxDP)).Attr("data-dnorm", kit.Exact64(e.DNorm)).
			Attr("data-j-before", kit.Exact64(e.JBefore)).Attr("data-j-after", kit.Exact64(e.JAfter)).
			Attr("data-lambda-term", kit.Exact64(e.LambdaTerm)).Attr("data-lambda", kit.Exact64(ps.lambda)).
			Attr("data-model-before", kit.Checksum(ps.before)).Attr("data-model-after", kit.Checksum(ps.after)).
			Body(app.P().Body(kit.Rich(l.T("lesson.psi.result", kit.Small(e.MaxDP), kit.Small(e.DNorm), kit.Small(e.JAfter-e.JBefore), kit.Small(e.LambdaTerm)))...))
	}
	note := ""
	switch {
	case noModel:
		note = l.T("lesson.psi.noModel")
	case s.Pinned:
		note = l.T("lesson.psi.pinned")
	}
	with := func(change func(*params.Fields)) params.Fields { g := s.Settings.Fields; change(&g); return g }
	return app.Section().Class("panel lesson-psi").Body(
		v.exampleView(live.Example),
		app.Div().Class("psi-buttons").Body(
			app.Button().ID("psi-add").Class("primary").Body(kit.Rich(l.T("lesson.psi.add"))...).Disabled(noModel || s.Pinned || busy).
				OnClick(func(ctx app.Context, e app.Event) { useModel(ctx, v.addPsi()) }),
			app.Button().ID("psi-undo").Text(l.T("lesson.psi.undo")).Disabled(ps == nil || ps.undone).
				OnClick(func(ctx app.Context, e app.Event) { useModel(ctx, v.undoPsi()) }),
		),
		app.If(note != "", func() app.UI { return app.P().Class("note").Body(kit.Rich(note)...) }),
		result,
		app.If(!noModel, func() app.UI {
			sum := lesson.SumNorm(s.Model)
			return app.P().ID("psi-sum").Attr("data-value", kit.Exact64(sum)).Body(kit.Rich(l.T("lesson.psi.sum", mathml.Number(sum, 3)))...)
		}),
		app.Div().Class("psi-buttons").Body(
			app.Button().ID("psi-l2").Text(l.T("lesson.psi.l2")).Disabled(noModel || busy).
				OnClick(post(Train, with(func(f *params.Fields) { f.L2 = "0.01" }))),
			app.Button().ID("psi-l2zero").Text(l.T("lesson.psi.l2zero")).Disabled(noModel || busy).
				OnClick(post(Train, with(func(f *params.Fields) { f.L2 = "0" }))),
			app.Button().ID("psi-pin").Text(l.T("lesson.psi.pin")).Disabled(busy).
				OnClick(post(Fresh, with(func(f *params.Fields) { f.Pin = true }))),
		),
	)
}
