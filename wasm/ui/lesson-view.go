package ui

import (
	"strconv"

	"softmaxdemo/wasm/ui/files"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/mathml"
	"softmaxdemo/wasm/ui/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// lessonView is the lesson: the bar of chapters, then the chapter shown,
// its text beside its formulas and live panels. #lesson carries the
// chapter's number (data-chapter, from 1), their count (data-chapters)
// and its name (data-chapter-id).
func (p *page) lessonView() app.UI {
	l := p.st.Lang
	n := p.link.Lesson
	c := lesson.Chapters[n-1]
	live := p.lessonLive()
	words := func(k string) string { return l.T(k) }
	return app.Main().ID("lesson").Class("lesson chapter-"+c.ID).
		Attr("data-chapter", n).Attr("data-chapters", len(lesson.Chapters)).Attr("data-chapter-id", c.ID).
		Aria("label", l.T("lesson.region")).Body(
		p.lessonBar(n),
		app.Section().Class("chapter").Aria("labelledby", "chapter-title").Body(
			p.chapterText(l, c, live, false),
			// index.html is in Chinese; a reader of English sees this
			// while the program loads (web/app.css).
			app.If(!app.IsClient && l != i18n.EN, func() app.UI { return p.chapterText(i18n.EN, c, live, true) }),
			app.Div().Class("chapter-live").Body(
				app.Div().Class("formulas").Body(
					app.Range(lesson.Formulas(c.ID, live, words)).Slice(func(i int) app.UI {
						// A box of its own, which scrolls on a phone too narrow for it.
						return app.Div().Class("formula").Body(mathml.Math(lesson.Formulas(c.ID, live, words)[i], true))
					}),
				),
				app.If(c.ID != "task", func() app.UI { return p.runBar() }),
				app.Range(c.Panels).Slice(func(i int) app.UI { return p.lessonPanel(c.Panels[i], live) }),
			),
			app.If(len(c.Under) > 0, func() app.UI {
				return app.Div().Class("chapter-under").Body(
					app.Range(c.Under).Slice(func(i int) app.UI { return p.lessonPanel(c.Under[i], live) }),
				)
			}),
		),
		p.qrOverlay(),
	)
}

// chapterText is the chapter's title, what the teacher says, the step to
// try and the question; twin is the English copy index.html carries.
func (p *page) chapterText(l i18n.Lang, c lesson.Chapter, live lesson.Live, twin bool) app.UI {
	id := "chapter-title"
	cls := "chapter-text"
	if twin {
		id, cls = "chapter-title-twin", "chapter-text twin"
	}
	key := "lesson." + c.ID
	return app.Div().Class(cls).Attr("lang", htmlLang(l)).Body(
		app.H2().ID(id).TabIndex(-1).Body(rich(l.T(key+".title"))...),
		app.P().Class("chapter-say").Attr("elementtiming", "chapter").Body(rich(l.T(key+".text"))...),
		app.P().Class("try").Body(append([]app.UI{app.Strong().Text(l.T("lesson.try")), app.Text(" ")}, rich(l.T(key+".try"))...)...),
		app.If(c.Question != nil && !twin, func() app.UI { return p.questionFor(l, c, live) }),
	)
}

// questionFor is the chapter's question, answered or not.
func (p *page) questionFor(l i18n.Lang, c lesson.Chapter, live lesson.Live) app.UI {
	chosen, answered := p.lesson.answers[c.ID]
	if !answered {
		chosen = -1
	}
	right := c.Question.Right(live)
	var args []any
	switch c.ID {
	case "task":
		args = []any{live.Example.NonZero()}
		if live.Example == nil {
			args = []any{(&lesson.Shown{Pixels: lesson.StillPixels()}).NonZero()}
		}
	case "update":
		st := p.lesson.step
		args = []any{mathml.Number(st[0], 4), mathml.Number(st[1], 4)}
		right = stepRight(st)
	case "redundancy":
		args = []any{"?", "?"}
		if ps := p.lesson.psi; ps != nil {
			args = []any{fmtSmall(ps.effect.MaxDP), fmtSmall(ps.effect.DNorm)}
		}
	case "newton":
		args = []any{countOr(live.HessianZero), countOr(live.HessianPinned), countOr(live.HessianL2)}
	}
	choices := make([]string, c.Question.Choices)
	for i := range choices {
		choices[i] = l.T("lesson." + c.ID + ".q.c" + strconv.Itoa(i+1))
	}
	return &question{ILang: l, IID: c.ID, IQuestion: l.T("lesson." + c.ID + ".q"), IChoices: choices,
		IChosen: chosen, IRight: right, IAnswer: l.T("lesson."+c.ID+".q.a", args...)}
}

// stepRight is the update question's right choice for p_y before and
// after the step: up, down or the same; −1 before the step.
func stepRight(st [2]float64) int {
	switch {
	case st[0] == 0 && st[1] == 0:
		return -1
	case st[1] > st[0]:
		return 0
	case st[1] < st[0]:
		return 1
	}
	return 2
}

// countOr formats a count, "?" while it is not known.
func countOr(n int) string {
	if n < 0 {
		return "?"
	}
	return strconv.Itoa(n)
}

// fmtSmall formats a change with three significant digits: 3.91e-07.
func fmtSmall(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }

// lessonBar is the lesson's navigation: previous, the chapters (also the
// progress), next, the keys, and the QR code of the chapter's link.
func (p *page) lessonBar(n int) app.UI {
	l := p.st.Lang
	last := len(lesson.Chapters)
	return app.Nav().Class("lesson-bar").Aria("label", l.T("lesson.chapters")).Body(
		app.Button().ID("lesson-prev").Text("←").Aria("label", l.T("lesson.prev")).Title(l.T("lesson.prev")).Disabled(n <= 1).
			OnClick(func(ctx app.Context, e app.Event) { p.goChapter(ctx, n-1) }),
		app.Ol().Class("lesson-list").Body(
			app.Range(lesson.Chapters).Slice(func(i int) app.UI {
				title := plain(l.T("lesson." + lesson.Chapters[i].ID + ".title"))
				b := app.Button().Attr("data-goto", i+1).Text(strconv.Itoa(i+1)).Title(title).Aria("label", l.T("lesson.chapterLabel", i+1, title)).
					OnClick(func(ctx app.Context, e app.Event) { p.goChapter(ctx, i+1) })
				if i+1 == n {
					b = b.Aria("current", "step")
				}
				cls := ""
				if i+1 <= n {
					cls = "done"
				}
				return app.Li().Class(cls).Body(b)
			}),
		),
		app.Span().ID("lesson-progress").Class("lesson-progress").Text(l.T("lesson.progress", n, last)),
		app.Button().ID("lesson-next").Text("→").Aria("label", l.T("lesson.next")).Title(l.T("lesson.next")).Disabled(n >= last).
			OnClick(func(ctx app.Context, e app.Event) { p.goChapter(ctx, n+1) }),
		app.Span().Class("lesson-keys").Text(l.T("lesson.keys")),
		app.If(app.IsClient, func() app.UI {
			return app.Button().ID("lesson-qr-show").Class("qr-show").Title(l.T("lesson.qrBig")).Body(
				app.Span().Text(l.T("lesson.qr")),
			).OnClick(func(ctx app.Context, e app.Event) {
				p.lesson.qrBig = true
				ctx.Defer(func(app.Context) { focus("lesson-qr-close") })
			})
		}),
	)
}

// qrOverlay is the QR code of the chapter's link, filling the screen so
// that phones across a room can scan it.
func (p *page) qrOverlay() app.UI {
	l := p.st.Lang
	if !p.lesson.qrBig {
		return app.Div().Class("qr-overlay empty")
	}
	svg := p.lessonQR()
	return app.Div().Class("qr-overlay").Attr("role", "dialog").Aria("modal", "true").Aria("labelledby", "lesson-qr-title").Body(
		app.P().ID("lesson-qr-title").Class("qr-title").Text(l.T("lesson.qr")),
		app.Div().ID("lesson-qr").Class("qr").Attr("role", "img").Aria("label", l.T("lesson.qrLabel", p.lesson.qrFor)).
			Attr("data-link", p.lesson.qrFor).Body(app.Raw(svg)),
		app.P().Class("qr-link").Text(p.lesson.qrFor),
		app.Button().ID("lesson-qr-close").Text(l.T("lesson.qrSmall")).
			OnClick(func(ctx app.Context, e app.Event) {
				p.lesson.qrBig = false
				ctx.Defer(func(app.Context) { focus("lesson-qr-show") })
			}),
	)
}

// runBar trains, pauses and resets with the Train panel's settings, which
// the chapter has set.
func (p *page) runBar() app.UI {
	s, l := p.st, p.st.Lang
	busy := s.Status == store.StatusTraining
	noData := s.Status == store.StatusLoading || s.TrainN == 0
	return app.Div().Class("run-bar").Body(
		app.Button().ID("lesson-train").Class("primary").Text(l.T("button.train")).Disabled(busy || noData).
			OnClick(func(ctx app.Context, e app.Event) { p.trainWith(ctx, p.link.Fields) }),
		app.Button().ID("lesson-pause").Text(l.T("button.pause")).Disabled(!busy).
			OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(store.ActionPause) }),
		app.Button().ID("lesson-reset").Text(l.T("button.reset")).Disabled(busy || noData).
			OnClick(func(ctx app.Context, e app.Event) { p.startFresh(ctx, p.link.Fields) }),
		app.If(p.link.Lesson == len(lesson.Chapters), func() app.UI {
			return app.Label().Class("run-deskew").Body(
				app.Input().ID("lesson-deskew").Type("checkbox").Checked(p.link.Fields.Deskew).Disabled(busy).
					OnChange(func(ctx app.Context, e app.Event) {
						f := p.link.Fields
						f.Deskew = ctx.JSSrc().Get("checked").Bool()
						set := p.link
						set.Fields = f
						p.applyLink(ctx, set)
					}),
				app.Text(" "+l.T("train.deskew")),
			)
		}),
		app.Span().Class("run-status").Text(l.M(s.StatusText())),
	)
}

// lessonPanel is one live panel of a chapter.
func (p *page) lessonPanel(k lesson.Panel, live lesson.Live) app.UI {
	s, l := p.st, p.st.Lang
	switch k {
	case lesson.Digit:
		return p.digitPanel(live.Example)
	case lesson.Example:
		return app.Section().Class("panel lesson-example-panel").Body(p.exampleView(live.Example))
	case lesson.Templates:
		return &weightGrid{ILang: l, IModel: s.Model, IVersion: s.WeightsVersion}
	case lesson.Draw:
		return &digitCanvas{ILang: l, IModel: s.Model, IDeskew: s.ModelDeskew(), IVersion: s.WeightsVersion}
	case lesson.Chart:
		return &lossPlot{ILang: l, ILosses: s.Losses, IAcc: s.Acc, IRuns: s.ChartRuns(), IRecords: s.Runs, ICurrent: s.Run,
			IAxes: p.axes(), IVersion: s.ChartVersion}
	case lesson.Inspector:
		return p.inspector()
	case lesson.Descent:
		return p.descentPanel()
	case lesson.PsiShift:
		return p.psiPanel(live)
	case lesson.Hessian:
		return app.Div().Class("lesson-newton").Body(
			app.Div().Class("descent-buttons").Body(
				app.Button().ID("newton-run").Text(l.T("lesson.newton.run")).Disabled(s.TrainN == 0).
					OnClick(func(ctx app.Context, e app.Event) { p.startFresh(ctx, preset("newton", s.TrainN, "")) }),
				app.Button().ID("newton-gd").Text(l.T("lesson.newton.gd")).Disabled(s.TrainN == 0).
					OnClick(func(ctx app.Context, e app.Event) { p.startFresh(ctx, preset("full", s.TrainN, "")) }),
			),
			&hessianView{ILang: l, IView: s.Hessian, IBusy: s.HessianBusy || s.Status == store.StatusTraining || s.TrainN == 0},
		)
	case lesson.PlaneRegions:
		return newPlanePanel().Lang(l).Pace(p.link.Fields.Pace).View(planeRegions)
	case lesson.PlaneSurface:
		return newPlanePanel().Lang(l).Pace(p.link.Fields.Pace).View(planeSurface).Above(p.lesson.above)
	case lesson.PlanePsi:
		return newPlanePanel().Lang(l).Pace(p.link.Fields.Pace).View(planePsi).AddPsi(p.lesson.planePsi)
	case lesson.MyDigits:
		f := &p.files
		rate := f.myDigitsRate
		if rate == "" {
			rate = defaultMyDigitsRate
		}
		return &myDigits{ILang: l, IDigits: f.myDigits, IModel: s.Model, IDeskew: s.ModelDeskew(), IVersion: f.myDigitsVersion,
			IRate: rate, IStatus: f.digitsStatus, IKind: f.digitsKind}
	}
	return app.Div()
}

// exampleView is one gallery digit with the current model's ten
// probabilities (each bar's data-p exact), and a button for the next.
func (p *page) exampleView(ex *lesson.Shown) app.UI {
	s, l := p.st, p.st.Lang
	if ex == nil {
		return app.Div().ID("lesson-example").Attr("data-state", "loading").Body(app.P().Class("note").Text(l.T("lesson.loading")))
	}
	top := -1
	if ex.Model {
		top = ex.Predicted()
	}
	return app.Div().ID("lesson-example").Class("lesson-example").Attr("data-state", "shown").Attr("data-label", ex.Label).
		Attr("data-model", files.Checksum(s.Model)).Attr("data-sample", p.lesson.sample).Body(
		&greyCanvas{IID: "lesson-example-digit", IPixels: ex.Pixels, IW: 28, IH: 28, ILabel: l.T("lesson.digitLabel", ex.Label)},
		app.Div().ID("lesson-probs").Class("bars").Attr("role", "list").Aria("label", l.T("lesson.example.probs")).Body(
			app.Range(make([]struct{}, 10)).Slice(func(c int) app.UI {
				v := float32(0)
				if ex.Model {
					v = ex.P[c]
				}
				cls := "bar"
				if c == top {
					cls += " top"
				}
				if c == ex.Label {
					cls += " true"
				}
				z := ""
				if ex.Model {
					z = exact32(ex.Z[c])
				}
				return app.Div().Class(cls).Attr("role", "listitem").Attr("data-digit", c).Attr("data-p", exact32(v)).Attr("data-z", z).Body(
					app.Span().Class("bar-label").Text(strconv.Itoa(c)),
					app.Span().Class("bar-track").Body(app.Span().Class("bar-fill").Style("width", strconv.FormatFloat(100*float64(v), 'f', 1, 64)+"%")),
					app.Span().Class("bar-value").Text(i18n.Percent(float64(v))),
				)
			}),
		),
		app.Button().ID("lesson-another").Text(l.T("lesson.another")).
			OnClick(func(ctx app.Context, e app.Event) { p.lesson.sample += 7 }),
	)
}
