package ui

import (
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/store"

	"fmt"
	"strconv"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// confusionTable shows the confusion matrix on the test sample: row y,
// column p counts test digits y predicted as p. Cells are shaded by the
// fraction of their row; the diagonal is what the model gets right.
type confusionTable struct {
	app.Compo

	ILang     i18n.Lang
	IEval     *protocol.Evaluated
	IExamples *protocol.Examples // the test images of the cell last clicked
	ICells    bool               // make the 100 cells before there are counts (after the page's start)
}

func newConfusionTable() *confusionTable { return &confusionTable{} }

func (t *confusionTable) Eval(l i18n.Lang, e *protocol.Evaluated) *confusionTable {
	t.ILang, t.IEval = l, e
	return t
}

func (t *confusionTable) Render() app.UI {
	var m [softmax.K][softmax.K]int
	l := t.ILang
	caption := l.T("confusion.empty")
	step := -1
	if t.IEval != nil {
		m = t.IEval.Confusion
		caption = l.T("confusion.caption", t.IEval.Epoch)
		step = t.IEval.Step
	}
	return app.Section().Class("panel confusion-panel").Aria("label", l.T("confusion.region")).Body(
		app.H2().Text(l.T("confusion.title")),
		app.Table().ID("confusion").Class("confusion").Attr("data-step", step).OnClick(t.onCell).OnKeyDown(t.onCell).Body(
			app.Caption().Text(caption),
			app.THead().Body(app.Tr().Body(
				app.Th().Attr("scope", "col").Text(l.T("confusion.corner")),
				app.Range(make([]struct{}, softmax.K)).Slice(func(p int) app.UI {
					return app.Th().Attr("scope", "col").Text(strconv.Itoa(p))
				}),
			)),
			app.TBody().Body(
				app.Range(make([]struct{}, softmax.K)).Slice(func(y int) app.UI {
					total := 0
					for _, n := range m[y] {
						total += n
					}
					if t.IEval == nil && !t.ICells {
						// Until there are counts, one blank cell per row: the
						// same height and width, and 90 fewer cells for the
						// page to create while it starts. The page's warm-up
						// makes the 100 cells once it is ready (ICells), so
						// the first evaluation only fills them: creating them
						// then made that task 55-65 ms long.
						return app.Tr().Body(
							app.Th().Attr("scope", "row").Text(strconv.Itoa(y)),
							app.Td().Class("blank").ColSpan(softmax.K).Text("\u00a0"),
						)
					}
					return app.Tr().Body(
						app.Th().Attr("scope", "row").Text(strconv.Itoa(y)),
						app.Range(make([]struct{}, softmax.K)).Slice(func(p int) app.UI {
							return confusionCell(y, p, m[y][p], total)
						}),
					)
				}),
			),
		),
		&cellExamples{ILang: l, IExamples: t.IExamples},
	)
}

// confusionCell shades a count by its share of the row: green on the
// diagonal, red elsewhere. Clicking a cell with a count, or pressing Enter
// or Space on it, lists its test images (cellExamples).
func confusionCell(y, p, n, total int) app.UI {
	diagonal := y == p
	share := 0.0
	if total > 0 {
		share = float64(n) / float64(total)
	}
	bg := "transparent"
	switch {
	case diagonal && n > 0:
		bg = fmt.Sprintf("rgba(27, 120, 55, %.2f)", 0.15+0.75*share)
	case n > 0:
		bg = fmt.Sprintf("rgba(178, 24, 43, %.2f)", 0.1+0.9*min(1, 4*share))
	}
	text := ""
	if n > 0 {
		text = strconv.Itoa(n)
	}
	cls := "cell"
	if diagonal {
		cls += " diag"
	}
	if n > 0 {
		cls += " pick"
	}
	td := app.Td().Class(cls).Attr("data-true", y).Attr("data-predicted", p).Attr("data-count", n).Style("background", bg).Text(text)
	if n == 0 {
		return td
	}
	return td.TabIndex(0).Attr("role", "button")
}

// onCell lists the test images of the cell clicked, or of the focused cell
// on Enter or Space. The table has the one handler (for its hundred
// cells), which finds the cell from the event's target.
func (t *confusionTable) onCell(ctx app.Context, e app.Event) {
	if e.Get("type").String() == "keydown" {
		if k := e.Get("key").String(); k != "Enter" && k != " " {
			return
		}
	}
	td := e.Get("target").Call("closest", "td.pick")
	if !td.Truthy() {
		return
	}
	e.PreventDefault()
	y, err1 := strconv.Atoi(td.Call("getAttribute", "data-true").String())
	p, err2 := strconv.Atoi(td.Call("getAttribute", "data-predicted").String())
	if err1 == nil && err2 == nil {
		ctx.NewActionWithValue(store.ActionFindExamples, [2]int{y, p})
	}
}
