// Package lessonview is the lesson: the lecture notes' story told on the
// live model, one chapter a screen, with its formulas, its question and
// its live panels, the bar of chapters and the QR code of the chapter's
// link. What a chapter shows, sets, asks and demonstrates is its row in
// package lesson; this package lays it out and keeps the lesson's state
// (the answers, the digit shown, the ψ added).
//
// The lesson imports none of the page's other rooms. The page gives it
// what it reads of the digits instrument as a value (Instrument), and the
// panels of the instrument and of the plane that a chapter shows as
// ready-made elements (ISlots); the lesson asks for what it cannot do
// itself through its actions, which the page carries out.
package lessonview

import (
	"strconv"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/mathml"
	"softmaxdemo/wasm/ui/params"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// What the lesson asks of the page, with their payloads' types.
var (
	Chapter  = kit.Action[int]{Name: "lesson/chapter"}                       // show chapter n, from 1; 0 for the full page
	Train    = kit.Action[params.Fields]{Name: "lesson/train"}               // make them the Train panel's and train on
	Fresh    = kit.Action[params.Fields]{Name: "lesson/fresh"}               // make them the Train panel's and start a run afresh
	Pause    = kit.Signal{Name: "lesson/pause"}                              // pause the run in training
	Fields   = kit.Action[params.Fields]{Name: "lesson/fields"}              // make them the Train panel's
	Demo     = kit.Action[lesson.Demo]{Name: "lesson/demo"}                  // a question's demonstration, besides ψ (UseModel)
	UseModel = kit.Action[*softmax.Model[float32]]{Name: "lesson/use-model"} // go on from this model (ψ added or undone)
	// Answered says a chapter's question was answered on this page: on
	// a class's projector, the answer is revealed to the class.
	Answered = kit.Action[Answer]{Name: "lesson/answered"}
	// ClassChoice is a phone's choice in the class's question, which the
	// lesson does not answer itself: the projector reveals it.
	ClassChoice = kit.Action[Answer]{Name: "lesson/class-choice"}
)

// An Answer is a choice made in chapter Chapter's question (its id).
type Answer struct {
	Chapter string
	Choice  int
}

// Class is what the lesson shows of a class the page is in: its part
// and the class's question. Its zero value is no class.
type Class struct {
	Role     ClassRole
	Question string      // the id of the chapter whose question is open to the class, "" for none
	Revealed bool        // the projector revealed it
	Counts   map[int]int // presenter, or once revealed: how many chose each choice
	Mine     int         // phone: its choice in the open question, −1 for none
	Address  string      // projector: the students' address, which the QR code carries
}

// ClassRole is a page's part in a class.
type ClassRole int

// A page's parts in a class.
const (
	NoClass ClassRole = iota
	Presenter
	Student
)

// answerAction is the lesson's own: a choice made in a question.
var answerAction = kit.Action[Answer]{Name: "lesson/answer"}

// Lesson shows chapter IChapter of lesson.Chapters. #lesson carries the
// chapter's number (data-chapter, from 1), their count (data-chapters)
// and its name (data-chapter-id).
type Lesson struct {
	app.Compo

	ILang       i18n.Lang
	IChapter    int        // from 1
	IInstrument Instrument // what the digits instrument shows now
	IPlane      PlaneRun   // the plane's run that the hand chapter's question started
	// ISlots are the other rooms' panels the chapter shows, made by the
	// page for this render.
	ISlots map[lesson.Panel]app.UI
	IClass Class // the class the page is in, if any

	answers  map[string]int // the choice made in each chapter's question
	stepped  [2]float64     // p_y before and after the update question's step
	sample   int            // the gallery's digit the chapters show, after its first 7
	psi      *psiShift      // the ψ last added to the model
	qrBig    bool           // the QR code fills the screen
	qrFor    string         // the link qrSVG encodes
	qrSVG    string
	stopKeys func()
}

// OnMount registers the lesson's handler and the keys that move between
// chapters.
func (v *Lesson) OnMount(ctx app.Context) {
	answerAction.Handle(ctx, func(ctx app.Context, c Answer) {
		if v.IClass.Role == Student {
			ClassChoice.Post(ctx, c)
			return
		}
		if demo, ok := v.answer(c.Chapter, c.Choice); ok {
			if demo.Psi {
				useModel(ctx, v.addPsi())
			}
			Demo.Post(ctx, demo)
			Answered.Post(ctx, c)
		}
	})
	v.stopKeys = browser.OnKey(func(key string) bool {
		n := v.IChapter
		switch key {
		case "ArrowRight", "PageDown":
			n++
		case "ArrowLeft", "PageUp":
			n--
		case "Home":
			n = 1
		case "End":
			n = len(lesson.Chapters)
		default:
			return false
		}
		n = min(max(n, 1), len(lesson.Chapters))
		if n != v.IChapter {
			browser.Mark("softmax:lesson-key") // for tools/browsertest's benchmark
			ctx.Dispatch(func(ctx app.Context) { Chapter.Post(ctx, n) })
		}
		return true
	})
}

func (v *Lesson) OnDismount() {
	if v.stopKeys != nil {
		v.stopKeys()
	}
}

// chapter is the chapter shown.
func (v *Lesson) chapter() lesson.Chapter {
	return lesson.Chapters[min(max(v.IChapter, 1), len(lesson.Chapters))-1]
}

func (v *Lesson) Render() app.UI {
	l := v.ILang
	n := min(max(v.IChapter, 1), len(lesson.Chapters))
	c := v.chapter()
	live := v.live()
	words := func(k string) string { return l.T(k) }
	formulas := c.Formulas(live, words)
	return app.Main().ID("lesson").Class("lesson chapter-"+c.ID).
		Attr("data-chapter", n).Attr("data-chapters", len(lesson.Chapters)).Attr("data-chapter-id", c.ID).
		Aria("label", l.T("lesson.region")).Body(
		v.bar(n),
		app.Section().Class("chapter").Aria("labelledby", "chapter-title").Body(
			v.text(l, c, live, false),
			// index.html is in Chinese; a reader of English sees this
			// while the program loads (web/app.css).
			app.If(!app.IsClient && l != i18n.EN, func() app.UI { return v.text(i18n.EN, c, live, true) }),
			app.Div().Class("chapter-live").Body(
				app.Div().Class("formulas").Body(
					app.Range(formulas).Slice(func(i int) app.UI {
						// A box of its own, which scrolls on a phone too narrow for it.
						return app.Div().Class("formula").Body(mathml.Math(formulas[i], true))
					}),
				),
				app.If(c.Bar != lesson.NoBar, func() app.UI { return v.runBar(c.Bar) }),
				app.Range(c.Panels).Slice(func(i int) app.UI { return v.panel(c.Panels[i], live) }),
			),
			app.If(len(c.Under) > 0, func() app.UI {
				return app.Div().Class("chapter-under").Body(
					app.Range(c.Under).Slice(func(i int) app.UI { return v.panel(c.Under[i], live) }),
				)
			}),
		),
		v.qrOverlay(),
	)
}

// text is the chapter's title, what the teacher says, the step to try
// and the question; twin is the English copy index.html carries.
func (v *Lesson) text(l i18n.Lang, c lesson.Chapter, live lesson.Live, twin bool) app.UI {
	id := "chapter-title"
	cls := "chapter-text"
	if twin {
		id, cls = "chapter-title-twin", "chapter-text twin"
	}
	key := "lesson." + c.ID
	return app.Div().Class(cls).Attr("lang", l.Tag()).Body(
		app.H2().ID(id).TabIndex(-1).Body(kit.Rich(l.T(key+".title"))...),
		app.P().Class("chapter-say").Attr("elementtiming", "chapter").Body(kit.Rich(l.T(key+".text"))...),
		app.P().Class("try").Body(append([]app.UI{app.Strong().Text(l.T("lesson.try")), app.Text(" ")}, kit.Rich(l.T(key+".try"))...)...),
		app.If(c.Question != nil && !twin, func() app.UI { return v.question(l, c, live) }),
	)
}

// question is the chapter's question, answered or not.
func (v *Lesson) question(l i18n.Lang, c lesson.Chapter, live lesson.Live) app.UI {
	q := c.Question
	chosen, answered := v.answers[c.ID]
	if !answered {
		chosen = -1
	}
	cl := v.IClass
	var counts map[int]int
	if cl.Role != NoClass && cl.Question == c.ID {
		counts = cl.Counts
	}
	if cl.Role == Student {
		// A phone's choice is the class's, and the projector reveals the
		// answer; on a phone that looked around alone, as without a class.
		if cl.Question == c.ID {
			chosen, answered = cl.Mine, cl.Revealed
		} else if !answered {
			chosen = -1
		}
	}
	var args []any
	if q.Args != nil {
		args = q.Args(live)
	}
	choices := make([]string, q.Choices)
	for i := range choices {
		choices[i] = l.T("lesson." + c.ID + ".q.c" + strconv.Itoa(i+1))
	}
	return &question{ILang: l, IID: c.ID, IQuestion: l.T("lesson." + c.ID + ".q"), IChoices: choices,
		IChosen: chosen, IShown: answered, IRight: q.Right(live), IAnswer: l.T("lesson."+c.ID+".q.a", args...),
		IRole: cl.Role, ICounts: counts}
}

// answer records the class's choice in chapter id's question and
// returns its demonstration, the first time only. The lesson does its own
// part of it (the p_y the update question compares; ψ, which the caller
// adds) and the page the rest (Demo).
func (v *Lesson) answer(id string, choice int) (lesson.Demo, bool) {
	if v.answers == nil {
		v.answers = map[string]int{}
	}
	n, ok := lesson.Find(id)
	if _, done := v.answers[id]; done || !ok || lesson.Chapters[n-1].Question == nil {
		return lesson.Demo{}, false
	}
	v.answers[id] = choice
	d := lesson.Chapters[n-1].Question.Demo
	if d.Step {
		if v.IInstrument.Inspect != nil {
			live := v.live()
			v.stepped = [2]float64{live.PBefore, live.PAfter}
		} else {
			d.Step = false // no image to step on
		}
	}
	return d, true
}
