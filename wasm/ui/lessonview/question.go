package lessonview

import (
	"strconv"

	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// question asks the class to predict before the page shows: the question
// ([data-predict], its chapter's name), its choices ([data-choice]) and
// the answer ([data-answer]), hidden until a choice is made. A choice
// posts actionAnswer; the lesson records it and runs the chapter's
// demonstration.
type question struct {
	app.Compo

	ILang     i18n.Lang
	IID       string // the chapter's name
	IQuestion string
	IChoices  []string
	IChosen   int    // the choice made, −1 for none yet
	IRight    int    // the choice the page shows to be right, −1 while it cannot tell
	IAnswer   string // the answer, with the live numbers
}

// answer is a choice made in a chapter's question.
type answer struct {
	Chapter string
	Choice  int
}

func (q *question) Render() app.UI {
	l := q.ILang
	answered := q.IChosen >= 0
	state := "open"
	if answered {
		state = "answered"
	}
	verdict := ""
	switch {
	case answered && q.IRight == q.IChosen:
		verdict = l.T("lesson.right")
	case answered && q.IRight >= 0:
		verdict = l.T("lesson.wrong")
	}
	return app.Div().Class("predict").Attr("data-predict", q.IID).Attr("data-state", state).Attr("data-right", q.IRight).Body(
		app.P().ID("predict-q-"+q.IID).Class("predict-q").Body(append([]app.UI{app.Strong().Text(l.T("lesson.predict")), app.Text(" ")}, kit.Rich(q.IQuestion)...)...),
		app.Div().Class("choices").Attr("role", "group").Aria("labelledby", "predict-q-"+q.IID).Body(
			app.Range(q.IChoices).Slice(func(i int) app.UI {
				cls := ""
				switch {
				case answered && i == q.IRight:
					cls = "right"
				case answered && i == q.IChosen:
					cls = "wrong"
				}
				return app.Button().Class(cls).Attr("data-choice", i).Aria("pressed", strconv.FormatBool(i == q.IChosen)).
					Body(kit.Rich(q.IChoices[i])...).
					OnClick(func(ctx app.Context, e app.Event) {
						answerAction.Post(ctx, answer{Chapter: q.IID, Choice: i})
					})
			}),
		),
		app.P().Class("predict-a").Attr("data-answer", q.IID).Attr("role", "status").Hidden(!answered).Body(
			append([]app.UI{app.Strong().Text(verdict), app.Text(" ")}, kit.Rich(q.IAnswer)...)...,
		),
	)
}
