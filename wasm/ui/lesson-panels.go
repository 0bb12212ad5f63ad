package ui

import (
	"html"
	"slices"
	"strconv"

	"softmaxdemo/wasm/ui/files"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/mathml"
	"softmaxdemo/wasm/ui/params"
	"softmaxdemo/wasm/ui/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The lesson's own panels: the first chapter's digit and its strip, the
// descent chapter's three runs, and the redundancy chapter's ψ.

// digitPanel is a digit and its 784 numbers as a strip: the gallery's,
// live, or until the data are in, the still digit that index.html shows.
func (p *page) digitPanel(ex *lesson.Shown) app.UI {
	s, l := p.st, p.st.Lang
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
			app.Div().Class("digit-big").Body(&greyCanvas{IID: "lesson-digit", IPixels: ex.Pixels, IW: 28, IH: 28, ILabel: l.T("lesson.digitLabel", ex.Label)}),
			app.Div().Class("strip").Body(&greyCanvas{IID: "lesson-strip", IPixels: ex.Pixels, IW: 784, IH: 1, ILabel: l.T("lesson.stripLabel")}),
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
			OnClick(func(ctx app.Context, e app.Event) { p.lesson.sample += 7 }),
	)
}

// preset returns the fields of the Train panel's preset name for m
// training images, at pace (or the preset's own, for "").
func preset(name string, m int, pace string) params.Fields {
	i := slices.IndexFunc(params.Presets, func(pr params.Preset) bool { return pr.Name == name })
	f := params.Presets[i].Fields(m)
	if pace != "" {
		f.Pace = pace
	} else if f.Pace == "" {
		f.Pace = params.DefaultPace
	}
	return f
}

// descentPanel starts runs of full-batch descent, minibatches and SGD
// from θ = 0, each beside the runs before it on the chart.
func (p *page) descentPanel() app.UI {
	s, l := p.st, p.st.Lang
	none := s.TrainN == 0
	run := func(id, key, name, pace string) app.UI {
		return app.Button().ID(id).Text(l.T(key)).Disabled(none).
			OnClick(func(ctx app.Context, e app.Event) { p.startFresh(ctx, preset(name, s.TrainN, pace)) })
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

// psiPanel adds a random ψ to every θ_c and undoes it; #psi-result says
// what changed: the largest change of a probability of the digit shown
// (data-max-dp), of ‖θ‖² (data-dnorm) and of the digit's J, with the L2
// term it names.
func (p *page) psiPanel(live lesson.Live) app.UI {
	s, l := p.st, p.st.Lang
	ps := p.lesson.psi
	pinned := p.psiPinned()
	noModel := s.Model == nil || live.Example == nil
	busy := s.Status == store.StatusLoading || s.TrainN == 0
	result := app.Div().ID("psi-result").Class("psi-result").Attr("data-state", "none").Attr("role", "status")
	if ps != nil {
		e := ps.effect
		state := "added"
		if ps.undone {
			state = "undone"
		}
		result = result.Attr("data-state", state).
			Attr("data-max-dp", exact64(e.MaxDP)).Attr("data-dnorm", exact64(e.DNorm)).
			Attr("data-j-before", exact64(e.JBefore)).Attr("data-j-after", exact64(e.JAfter)).
			Attr("data-lambda-term", exact64(e.LambdaTerm)).Attr("data-lambda", exact64(ps.cfg.L2)).
			Attr("data-model-before", files.Checksum(ps.before)).Attr("data-model-after", files.Checksum(ps.after)).
			Body(app.P().Body(rich(l.T("lesson.psi.result", fmtSmall(e.MaxDP), fmtSmall(e.DNorm), fmtSmall(e.JAfter-e.JBefore), fmtSmall(e.LambdaTerm)))...))
	}
	note := ""
	switch {
	case noModel:
		note = l.T("lesson.psi.noModel")
	case pinned:
		note = l.T("lesson.psi.pinned")
	}
	f := p.link.Fields
	return app.Section().Class("panel lesson-psi").Body(
		p.exampleView(live.Example),
		app.Div().Class("psi-buttons").Body(
			app.Button().ID("psi-add").Class("primary").Body(rich(l.T("lesson.psi.add"))...).Disabled(noModel || pinned || busy).
				OnClick(func(ctx app.Context, e app.Event) { p.addPsi() }),
			app.Button().ID("psi-undo").Text(l.T("lesson.psi.undo")).Disabled(ps == nil || ps.undone).
				OnClick(func(ctx app.Context, e app.Event) { p.undoPsi() }),
		),
		app.If(note != "", func() app.UI { return app.P().Class("note").Body(rich(note)...) }),
		result,
		app.If(!noModel, func() app.UI {
			return app.P().ID("psi-sum").Attr("data-value", exact64(lesson.SumNorm(s.Model))).Body(rich(l.T("lesson.psi.sum", mathml.Number(lesson.SumNorm(s.Model), 3)))...)
		}),
		app.Div().Class("psi-buttons").Body(
			app.Button().ID("psi-l2").Text(l.T("lesson.psi.l2")).Disabled(noModel || busy).
				OnClick(func(ctx app.Context, e app.Event) { g := f; g.L2 = "0.01"; p.trainWith(ctx, g) }),
			app.Button().ID("psi-l2zero").Text(l.T("lesson.psi.l2zero")).Disabled(noModel || busy).
				OnClick(func(ctx app.Context, e app.Event) { g := f; g.L2 = "0"; p.trainWith(ctx, g) }),
			app.Button().ID("psi-pin").Text(l.T("lesson.psi.pin")).Disabled(busy).
				OnClick(func(ctx app.Context, e app.Event) { g := f; g.Pin = true; p.startFresh(ctx, g) }),
		),
	)
}

// exact64 formats v so that it reads back as the same float64: for data
// attributes that tests compare.
func exact64(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
