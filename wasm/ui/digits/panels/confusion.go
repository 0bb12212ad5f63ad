package panels

import (
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"

	"encoding/binary"
	"strconv"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Confusion shows the confusion matrix on the test sample: row y,
// column p counts test digits y predicted as p. Cells are shaded by the
// fraction of their row; the diagonal is what the model gets right.
//
// go-app makes the 100 cells, each with its digits (data-true,
// data-predicted); their counts, shades, and whether they can be clicked
// are written by one call into web/plot.js (softmaxConfusion.fill) each
// time the counts change. Through go-app, an evaluation would rewrite up
// to 400 attributes and texts of the cells, each a call into JavaScript
// with two strings the garbage collector later releases one by one, and
// make the frames that show an evaluation, and the one that says a run is
// done, the page's longest (docs/decisions/0007-main-thread-short-tasks.md).
type Confusion struct {
	app.Compo

	ILang     i18n.Lang
	IEval     *protocol.Evaluated
	IExamples *protocol.Examples // the test images of the cell last clicked
	ICells    bool               // make the 100 cells before there are counts (after the page's start)

	filled      *protocol.Evaluated // the counts the cells show (fill)
	filledCells bool                // and the ICells they were written for
	counts      app.Value           // a Uint8Array of the counts for fill, reused
	buf         [2 * softmax.K * softmax.K]byte
}

func NewConfusion() *Confusion { return &Confusion{} }

func (t *Confusion) Eval(l i18n.Lang, e *protocol.Evaluated) *Confusion {
	t.ILang, t.IEval = l, e
	return t
}

func (t *Confusion) Render() app.UI {
	l := t.ILang
	caption := l.T("confusion.empty")
	step := -1
	if t.IEval != nil {
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
							return confusionCell(y, p)
						}),
					)
				}),
			),
		),
		&cellExamples{ILang: l, IExamples: t.IExamples},
	)
}

func (t *Confusion) OnMount(ctx app.Context) {
	t.filled, t.filledCells = nil, false
	ctx.Defer(func(app.Context) { t.fill() })
}

func (t *Confusion) OnUpdate(ctx app.Context) {
	if t.IEval != t.filled || t.ICells != t.filledCells {
		ctx.Defer(func(app.Context) { t.fill() })
	}
}

// fill writes the counts of IEval (zeros before the first evaluation) into
// the cells, as little-endian uint16s: a test set has at most 10,000
// images.
func (t *Confusion) fill() {
	if !app.IsClient || !t.Mounted() {
		return
	}
	fill := app.Window().Get("softmaxConfusion")
	if !fill.Truthy() {
		return // web/plot.js did not load: the cells stay blank, the page goes on
	}
	var m [softmax.K][softmax.K]int
	if t.IEval != nil {
		m = t.IEval.Confusion
	}
	for y := range softmax.K {
		for p := range softmax.K {
			binary.LittleEndian.PutUint16(t.buf[2*(y*softmax.K+p):], uint16(min(max(m[y][p], 0), 1<<16-1)))
		}
	}
	if t.counts == nil {
		t.counts = app.Window().Get("Uint8Array").New(len(t.buf))
	}
	app.CopyBytesToJS(t.counts, t.buf[:])
	table := app.Window().GetElementByID("confusion")
	if table.Truthy() && fill.Call("fill", table, t.counts, softmax.K).Bool() {
		t.filled, t.filledCells = t.IEval, t.ICells
	}
}

// confusionCell is cell (y, p), which fill completes.
func confusionCell(y, p int) app.UI {
	cls := "cell"
	if y == p {
		cls += " diag"
	}
	return app.Td().Class(cls).Attr("data-true", y).Attr("data-predicted", p)
}

// onCell lists the test images of the cell clicked, or of the focused cell
// on Enter or Space. The table has the one handler (for its hundred
// cells), which finds the cell from the event's target.
func (t *Confusion) onCell(ctx app.Context, e app.Event) {
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
		store.FindExamples.Post(ctx, store.Cell{True: y, Predicted: p})
	}
}
