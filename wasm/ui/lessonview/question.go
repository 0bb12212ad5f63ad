package lessonview

import (
	"strconv"
	"strings"

	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// question asks the class to predict before the page shows: the question
// ([data-predict], its chapter's name), its choices ([data-choice]) and
// the answer ([data-answer]), hidden until it is shown. A choice posts
// actionAnswer; the lesson records it and runs the chapter's
// demonstration. In a class, the projector shows how many phones chose
// each choice (#class-answers) until a choice made there reveals the
// answer; a phone's choice stays open until then.
type question struct {
	app.Compo

	ILang     i18n.Lang
	IID       string // the chapter's name
	IQuestion string
	IChoices  []string
	IChosen   int    // the choice made, −1 for none yet
	IShown    bool   // the answer is shown
	IRight    int    // the choice the page shows to be right, −1 while it cannot tell
	IAnswer   string // the answer, with the live numbers
	IRole     ClassRole
	ICounts   map[int]int // the class's choices, counted; nil outside a class's open question
}

func (q *question) Render() app.UI {
	l := q.ILang
	answered := q.IShown
	state := "open"
	switch {
	case answered:
		state = "answered"
	case q.IChosen >= 0:
		state = "chosen" // a phone's choice, until the projector reveals the answer
	}
	verdict := ""
	switch {
	case answered && q.IChosen >= 0 && q.IRight == q.IChosen:
		verdict = l.T("lesson.right")
	case answered && q.IChosen >= 0 && q.IRight >= 0:
		verdict = l.T("lesson.wrong")
	}
	total := 0
	for _, n := range q.ICounts {
		total += n
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
					Disabled(q.IRole == Student && answered).
					Body(append(kit.Rich(q.IChoices[i]), q.count(i, total))...).
					OnClick(func(ctx app.Context, e app.Event) {
						answerAction.Post(ctx, Answer{Chapter: q.IID, Choice: i})
					})
			}),
		),
		app.If(q.IRole == Presenter && q.ICounts != nil, func() app.UI {
			return app.P().ID("class-answers").Class("class-answers").Attr("data-counts", countsJSON(q.ICounts, len(q.IChoices))).
				Attr("aria-live", "polite").Text(l.T("class.answers", total))
		}),
		app.If(q.IRole == Student && q.IChosen >= 0 && !answered, func() app.UI {
			return app.P().Class("class-sent").Attr("role", "status").Text(l.T("class.chosen"))
		}),
		app.P().Class("predict-a").Attr("data-answer", q.IID).Attr("role", "status").Hidden(!answered).Body(
			append([]app.UI{app.Strong().Text(verdict), app.Text(" ")}, kit.Rich(q.IAnswer)...)...,
		),
	)
}

// count is a choice's bar of the class's answers: how many, and their
// share of all, as the bar's width.
func (q *question) count(i, total int) app.UI {
	if q.ICounts == nil {
		return nil
	}
	n := q.ICounts[i]
	share := 0.0
	if total > 0 {
		share = float64(n) / float64(total)
	}
	return app.Span().Class("class-count").Attr("data-count", n).Body(
		app.Span().Class("class-share").Style("width", strconv.FormatFloat(100*share, 'f', 1, 64)+"%"),
		app.Span().Class("class-n").Text(n),
	)
}

// countsJSON is #class-answers' data-counts: a JSON object from each
// choice (data-choice) to its count, every choice named.
func countsJSON(counts map[int]int, choices int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range choices {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + strconv.Itoa(i) + `":` + strconv.Itoa(counts[i]))
	}
	b.WriteByte('}')
	return b.String()
}
