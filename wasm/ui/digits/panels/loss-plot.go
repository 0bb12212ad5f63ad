package panels

import (
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/paint"

	"fmt"
	"math"
	"strconv"

	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// LossPlot draws the loss chart on a canvas: the current run's per-step
// batch loss as a thin band, its smoothed line, and its test accuracy per
// epoch on a second axis, with the other runs of the session as lines in
// their colours beneath it. It renders one canvas once; new data are drawn
// onto it directly (chart.LayoutRuns computes the geometry), so the page is not
// re-rendered. Below it, the runs' legend (#runs) and the axes' choices.
type LossPlot struct {
	app.Compo

	ITasks    *kit.Tasks // the page's queue: each redraw is a task of its own
	ILang     i18n.Lang
	ILosses   []protocol.Point // the current run's
	IAcc      []chart.AccPoint // the current run's
	IRuns     []chart.Run      // every run shown, the current one last
	IRecords  []*store.Run     // every run kept, for the legend
	ICurrent  int              // the current run's id
	ISelected int              // the run selected in the legend, whose keyframes are kept
	IScrub    store.ScrubView  // the slider under the chart
	IBranch   bool             // Train branches from the keyframe the slider shows
	IAxes     chart.Axes
	IVersion  int

	buf     []byte
	size    paint.Size
	scratch chart.Scratch // chart.LayoutRunsInto's buffers, reused from draw to draw
	raw     []chart.Pt
	queued  bool // a redraw is queued (kit.Tasks.DrawLater)
}

func (p *LossPlot) OnMount(ctx app.Context) {
	ctx.Defer(func(app.Context) { p.size.Reset(); p.draw() })
}

func (p *LossPlot) OnUpdate(ctx app.Context) {
	p.ITasks.DrawLater(ctx, p, &p.queued, p.draw)
}

// OnResize measures the canvas again: reading its size forces a layout, so
// it is done only when the window changes, not on every draw.
func (p *LossPlot) OnResize(ctx app.Context) {
	ctx.Defer(func(app.Context) { p.size.Reset(); p.draw() })
}

func (p *LossPlot) Render() app.UI {
	l := p.ILang
	return app.Section().Class("panel chart").Aria("label", l.T("chart.region")).Body(
		app.Div().Class("chart-head").Body(
			app.H2().Text(l.T("chart.title")),
			app.Div().Class("axes").Body(
				app.Label().For("x-axis").Text(l.T("chart.xLabel")),
				app.Select().ID("x-axis").OnChange(p.onAxis(func(a *chart.Axes, v string) { a.X = v })).Body(
					app.Option().Value(chart.AxisSteps).Text(l.T("chart.xSteps")).Selected(p.IAxes.X == chart.AxisSteps),
					app.Option().Value(chart.AxisPasses).Text(l.T("chart.xPasses")).Selected(p.IAxes.X == chart.AxisPasses),
					app.Option().Value(chart.AxisSeconds).Text(l.T("chart.xSeconds")).Selected(p.IAxes.X == chart.AxisSeconds),
				),
				app.Label().For("y-axis").Text(l.T("chart.yLabel")),
				app.Select().ID("y-axis").OnChange(p.onAxis(func(a *chart.Axes, v string) { a.Y = v })).Body(
					app.Option().Value(chart.AxisLinear).Text(l.T("chart.yLinear")).Selected(p.IAxes.Y == chart.AxisLinear),
					app.Option().Value(chart.AxisLog).Text(l.T("chart.yLog")).Selected(p.IAxes.Y == chart.AxisLog),
					app.Option().Value(chart.AxisGap).Text(l.T("chart.yGap")).Selected(p.IAxes.Y == chart.AxisGap),
				),
			),
		),
		app.Canvas().ID("loss-chart").Attr("data-points", len(p.ILosses)).Attr("data-epochs", len(p.IAcc)).
			Attr("data-lang", string(l)).Attr("data-x", p.IAxes.X).Attr("data-y", p.IAxes.Y).Attr("data-mark", p.mark()).
			Aria("label", p.summary()).Attr("role", "img"),
		NewScrub().View(l, p.IScrub, p.IBranch),
		app.Div().Class("legend").Body(
			app.Span().Class("key raw").Text(l.T("chart.raw")),
			app.Span().Class("key smooth").Text(l.T("chart.smooth")),
			app.Span().Class("key acc").Text(l.T("chart.acc")),
		),
		newRunList().Runs(l, p.IRecords, p.ICurrent, p.ISelected, p.IVersion),
	)
}

// onAxis posts the axes with one of them changed by set.
func (p *LossPlot) onAxis(set func(*chart.Axes, string)) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		a := p.IAxes
		set(&a, ctx.JSSrc().Get("value").String())
		store.Axes.Post(ctx, a)
	}
}

// mark is the step the chart marks, the keyframe the slider shows, or ""
// at the live end.
func (p *LossPlot) mark() string {
	for _, r := range p.IRuns {
		if r.Marked {
			return strconv.Itoa(r.Mark)
		}
	}
	return ""
}

// summary describes the chart in words for screen readers.
func (p *LossPlot) summary() string {
	l := p.ILang
	if len(p.ILosses) == 0 {
		return l.T("chart.empty")
	}
	last := p.ILosses[len(p.ILosses)-1]
	s := l.T("chart.summaryLoss", fmt.Sprintf("%.3f", last.Loss), last.Step)
	if n := len(p.IAcc); n > 0 {
		s += l.T("chart.summaryAcc", i18n.Percent(p.IAcc[n-1].Acc), p.IAcc[n-1].Epoch)
	}
	return s
}

func (p *LossPlot) draw() {
	c, w, h, ratio := p.size.Context("loss-chart")
	if !c.Truthy() {
		return
	}
	runs := p.IRuns
	if len(runs) == 0 {
		runs = []chart.Run{{Losses: p.ILosses, Acc: p.IAcc, Color: paint.LossSmooth, StepsPerEpoch: 1}}
	}
	axes := p.IAxes
	if axes.X == "" {
		axes = chart.Axes{X: chart.AxisSteps, Y: chart.AxisLinear}
	}
	g := chart.LayoutRunsInto(&p.scratch, runs, axes, w, h, ratio)
	c.Call("clearRect", 0, 0, w, h)
	c.Set("font", fmt.Sprintf("%.0fpx system-ui, sans-serif", g.Font))
	c.Set("lineWidth", ratio)

	// Grid and ticks.
	c.Set("strokeStyle", paint.Str(paint.Grid))
	c.Set("fillStyle", paint.Str(paint.Axis))
	c.Set("textAlign", paint.Str("right"))
	c.Set("textBaseline", paint.Str("middle"))
	for _, t := range g.LossTicks {
		line(c, g.Left, t.Pos, g.Right, t.Pos)
		c.Call("fillText", t.Label, g.Left-6*ratio, t.Pos)
	}
	c.Set("textAlign", paint.Str("center"))
	c.Set("textBaseline", paint.Str("top"))
	for _, t := range g.XTicks {
		c.Call("fillText", t.Label, t.Pos, g.Bottom+6*ratio)
	}
	c.Call("fillText", p.ILang.T("chart.x."+axes.X), (g.Left+g.Right)/2, g.Bottom+6*ratio+g.Font*1.2)
	c.Set("textAlign", paint.Str("left"))
	c.Set("textBaseline", paint.Str("middle"))
	c.Set("fillStyle", paint.Str(paint.Accuracy))
	for _, t := range g.AccTicks {
		c.Call("fillText", t.Label, g.Right+6*ratio, t.Pos)
	}
	c.Set("strokeStyle", paint.Str(paint.Axis))
	line(c, g.Left, g.Top, g.Left, g.Bottom)
	line(c, g.Left, g.Bottom, g.Right, g.Bottom)

	// Data: one call per series (web/plot.js), not one per point.
	js := paint.Helpers()
	if !js.Truthy() {
		return
	}
	raw := p.raw[:0]
	for _, seg := range g.Raw {
		// Widen each column's band a little, so a flat stretch still shows.
		raw = append(raw, chart.Pt{X: seg[0].X, Y: seg[0].Y + 1.5*ratio}, chart.Pt{X: seg[1].X, Y: seg[1].Y - 1.5*ratio})
	}
	for _, o := range g.Others {
		js.Call("path", c, paint.Points(&p.buf, o.Pts), len(o.Pts), paint.Str(o.Color), 2*ratio)
	}
	cur := paint.LossSmooth
	if len(runs) > 0 && runs[len(runs)-1].Color != "" {
		cur = runs[len(runs)-1].Color
	}
	p.raw = raw
	js.Call("segments", c, paint.Points(&p.buf, raw), len(raw), paint.Str(paint.LossBand), 2*ratio)
	js.Call("path", c, paint.Points(&p.buf, g.Smooth), len(g.Smooth), paint.Str(cur), 3*ratio)
	js.Call("path", c, paint.Points(&p.buf, g.Acc), len(g.Acc), paint.Str(paint.Accuracy), 3*ratio)
	js.Call("dots", c, paint.Points(&p.buf, g.Acc), len(g.Acc), paint.Str(paint.Accuracy), 5*ratio)
	if !math.IsNaN(g.Mark) {
		// The step the slider shows: a line across the plot in its run's
		// colour.
		c.Set("strokeStyle", paint.Str(g.MarkColor))
		c.Set("lineWidth", 2*ratio)
		line(c, g.Mark, g.Top, g.Mark, g.Bottom)
	}
}

func line(c app.Value, x0, y0, x1, y1 float64) {
	c.Call("beginPath")
	c.Call("moveTo", x0, y0)
	c.Call("lineTo", x1, y1)
	c.Call("stroke")
}
