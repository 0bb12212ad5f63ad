package ui

import (
	"fmt"

	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// lossPlot draws the loss chart on a canvas: the per-step batch loss as a
// thin band, its smoothed line, and the test accuracy per epoch on a second
// axis. It renders one canvas once; new data are drawn onto it directly
// (layoutChart computes the geometry), so the page is not re-rendered.
type lossPlot struct {
	app.Compo

	ILang    lang
	ILosses  []protocol.Point
	IAcc     []accPoint
	IVersion int

	buf  []byte
	size canvasSize
}

func newLossPlot() *lossPlot { return &lossPlot{} }

func (p *lossPlot) OnMount(ctx app.Context) {
	ctx.Defer(func(app.Context) { p.size.reset(); p.draw() })
}

func (p *lossPlot) OnUpdate(ctx app.Context) {
	ctx.Defer(func(app.Context) { p.draw() })
}

// OnResize measures the canvas again: reading its size forces a layout, so
// it is done only when the window changes, not on every draw.
func (p *lossPlot) OnResize(ctx app.Context) {
	ctx.Defer(func(app.Context) { p.size.reset(); p.draw() })
}

func (p *lossPlot) Render() app.UI {
	l := p.ILang
	return app.Section().Class("panel chart").Aria("label", l.T("chart.region")).Body(
		app.H2().Text(l.T("chart.title")),
		app.Canvas().ID("loss-chart").Attr("data-points", len(p.ILosses)).Attr("data-epochs", len(p.IAcc)).
			Attr("data-lang", string(l)).Aria("label", p.summary()).Attr("role", "img"),
		app.Div().Class("legend").Body(
			app.Span().Class("key raw").Text(l.T("chart.raw")),
			app.Span().Class("key smooth").Text(l.T("chart.smooth")),
			app.Span().Class("key acc").Text(l.T("chart.acc")),
		),
	)
}

// summary describes the chart in words for screen readers.
func (p *lossPlot) summary() string {
	l := p.ILang
	if len(p.ILosses) == 0 {
		return l.T("chart.empty")
	}
	last := p.ILosses[len(p.ILosses)-1]
	s := l.T("chart.summaryLoss", fmt.Sprintf("%.3f", last.Loss), last.Step)
	if n := len(p.IAcc); n > 0 {
		s += l.T("chart.summaryAcc", fmtPercent(p.IAcc[n-1].Acc), p.IAcc[n-1].Epoch)
	}
	return s
}

const (
	colorAxis   = "#444"
	colorGrid   = "#e4e4e4"
	colorRaw    = "rgba(33, 102, 172, 0.35)"
	colorSmooth = "#2166ac"
	colorAcc    = "#d6604d"
)

func (p *lossPlot) draw() {
	c, w, h, ratio := p.size.context("loss-chart")
	if !c.Truthy() {
		return
	}
	g := layoutChart(p.ILosses, p.IAcc, w, h, ratio)
	c.Call("clearRect", 0, 0, w, h)
	c.Set("font", fmt.Sprintf("%.0fpx system-ui, sans-serif", g.Font))
	c.Set("lineWidth", ratio)

	// Grid and ticks.
	c.Set("strokeStyle", colorGrid)
	c.Set("fillStyle", colorAxis)
	c.Set("textAlign", "right")
	c.Set("textBaseline", "middle")
	for _, t := range g.LossTicks {
		line(c, g.Left, t.Pos, g.Right, t.Pos)
		c.Call("fillText", t.Label, g.Left-6*ratio, t.Pos)
	}
	c.Set("textAlign", "center")
	c.Set("textBaseline", "top")
	for _, t := range g.XTicks {
		c.Call("fillText", t.Label, t.Pos, g.Bottom+6*ratio)
	}
	c.Call("fillText", p.ILang.T("chart.xaxis"), (g.Left+g.Right)/2, g.Bottom+6*ratio+g.Font*1.2)
	c.Set("textAlign", "left")
	c.Set("textBaseline", "middle")
	c.Set("fillStyle", colorAcc)
	for _, t := range g.AccTicks {
		c.Call("fillText", t.Label, g.Right+6*ratio, t.Pos)
	}
	c.Set("strokeStyle", colorAxis)
	line(c, g.Left, g.Top, g.Left, g.Bottom)
	line(c, g.Left, g.Bottom, g.Right, g.Bottom)

	// Data: one call per series (web/plot.js), not one per point.
	js := helpers()
	if !js.Truthy() {
		return
	}
	raw := make([]pt, 0, 2*len(g.Raw))
	for _, seg := range g.Raw {
		// Widen each column's band a little, so a flat stretch still shows.
		raw = append(raw, pt{seg[0].X, seg[0].Y + 1.5*ratio}, pt{seg[1].X, seg[1].Y - 1.5*ratio})
	}
	js.Call("segments", c, points(&p.buf, raw), len(raw), colorRaw, 2*ratio)
	js.Call("path", c, points(&p.buf, g.Smooth), len(g.Smooth), colorSmooth, 3*ratio)
	js.Call("path", c, points(&p.buf, g.Acc), len(g.Acc), colorAcc, 3*ratio)
	js.Call("dots", c, points(&p.buf, g.Acc), len(g.Acc), colorAcc, 5*ratio)
}

func line(c app.Value, x0, y0, x1, y1 float64) {
	c.Call("beginPath")
	c.Call("moveTo", x0, y0)
	c.Call("lineTo", x1, y1)
	c.Call("stroke")
}
