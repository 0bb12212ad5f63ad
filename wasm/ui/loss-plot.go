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

	ILosses  []protocol.Point
	IAcc     []accPoint
	IVersion int
}

func newLossPlot() *lossPlot { return &lossPlot{} }

func (p *lossPlot) OnMount(ctx app.Context) {
	ctx.Defer(func(app.Context) { p.draw() })
}

func (p *lossPlot) OnUpdate(ctx app.Context) {
	ctx.Defer(func(app.Context) { p.draw() })
}

func (p *lossPlot) OnResize(ctx app.Context) {
	ctx.Defer(func(app.Context) { p.draw() })
}

func (p *lossPlot) Render() app.UI {
	return app.Section().Class("panel chart").Aria("label", "Loss chart").Body(
		app.H2().Text("Loss and test accuracy"),
		app.Canvas().ID("loss-chart").Attr("data-points", len(p.ILosses)).Attr("data-epochs", len(p.IAcc)).
			Aria("label", p.summary()).Attr("role", "img"),
		app.Div().Class("legend").Body(
			app.Span().Class("key raw").Text("batch loss"),
			app.Span().Class("key smooth").Text("smoothed loss"),
			app.Span().Class("key acc").Text("test accuracy (right axis)"),
		),
	)
}

// summary describes the chart in words for screen readers.
func (p *lossPlot) summary() string {
	if len(p.ILosses) == 0 {
		return "No training yet."
	}
	last := p.ILosses[len(p.ILosses)-1]
	s := fmt.Sprintf("Batch loss %.3f at step %d.", last.Loss, last.Step)
	if n := len(p.IAcc); n > 0 {
		s += fmt.Sprintf(" Test accuracy %.1f%% after epoch %d.", 100*p.IAcc[n-1].Acc, p.IAcc[n-1].Epoch)
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
	canvas, c := context2D("loss-chart")
	if !c.Truthy() {
		return
	}
	w, h, ratio := fitCanvas(canvas)
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
	c.Call("fillText", "step (minibatches)", (g.Left+g.Right)/2, g.Bottom+6*ratio+g.Font*1.2)
	c.Set("textAlign", "left")
	c.Set("textBaseline", "middle")
	c.Set("fillStyle", colorAcc)
	for _, t := range g.AccTicks {
		c.Call("fillText", t.Label, g.Right+6*ratio, t.Pos)
	}
	c.Set("strokeStyle", colorAxis)
	line(c, g.Left, g.Top, g.Left, g.Bottom)
	line(c, g.Left, g.Bottom, g.Right, g.Bottom)

	// Data.
	c.Set("strokeStyle", colorRaw)
	c.Set("lineWidth", 1.5*ratio)
	c.Call("beginPath")
	for _, seg := range g.Raw {
		c.Call("moveTo", seg[0].X, seg[0].Y+0.75*ratio)
		c.Call("lineTo", seg[1].X, seg[1].Y-0.75*ratio)
	}
	c.Call("stroke")
	polyline(c, g.Smooth, colorSmooth, 3*ratio)
	polyline(c, g.Acc, colorAcc, 3*ratio)
	c.Set("fillStyle", colorAcc)
	for _, q := range g.Acc {
		c.Call("beginPath")
		c.Call("arc", q.X, q.Y, 5*ratio, 0, 6.2832)
		c.Call("fill")
	}
}

func line(c app.Value, x0, y0, x1, y1 float64) {
	c.Call("beginPath")
	c.Call("moveTo", x0, y0)
	c.Call("lineTo", x1, y1)
	c.Call("stroke")
}

func polyline(c app.Value, pts []pt, color string, width float64) {
	if len(pts) == 0 {
		return
	}
	c.Set("strokeStyle", color)
	c.Set("lineWidth", width)
	c.Set("lineJoin", "round")
	c.Call("beginPath")
	c.Call("moveTo", pts[0].X, pts[0].Y)
	for _, q := range pts[1:] {
		c.Call("lineTo", q.X, q.Y)
	}
	c.Call("stroke")
}
