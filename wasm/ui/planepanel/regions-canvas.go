package planepanel

import (
	"fmt"
	"math"
	"strconv"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/planeimage"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/paint"
	"softmaxdemo/wasm/ui/planepanel/store"
	"softmaxdemo/wasm/ui/planeview"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// regionsCanvas is the plane (#plane): the regions and boundaries of the
// latest frame, drawn as it comes (a live view, live.go), with the points
// on #plane-points above it, which takes the clicks and the boundaries
// dragged; the two take the keyboard's focus together (#plane-keys: the
// arrow keys move a cursor, Enter adds a point there, Delete removes the
// one under it), and #plane-cursor says where the cursor is.
type regionsCanvas struct {
	app.Compo

	ILang  i18n.Lang
	IView  View // the room's view: another one measures the canvases again
	IData  plane.Data
	IModel *softmax.Model[float32] // the live model as the room last rendered: what the cursor's line predicts
	IBias  bool                    // the model has biases: a boundary dragged moves them

	plane, points paint.Size
	view          View
	picture       store.Picture           // the regions drawn last
	base          *softmax.Model[float32] // the θ a boundary held moves
	draws         int                     // region drawings so far (data-draws)
	segs          []chart.Pt
	buf           []byte
	cursor        [2]float64 // the keyboard's cursor, in the plane's units
	shown         bool       // the plane has the focus from the keyboard: the cursor is drawn
	hold          held
}

// held is the boundary a pointer holds on #plane-points: its grip, where
// the press was (CSS pixels, and the click it is if the pointer does not
// move), and whether it has moved beyond a click.
type held struct {
	on    bool
	grip  plane.Grip
	x, y  float64
	press click
	moved bool
	last  [2]float64 // where the drag last was, in the plane's units
	hover bool       // the pointer, holding nothing, is over a boundary
}

// pickRadius is how near a click must come to a point, in CSS pixels, to
// remove it rather than add one; grabRadius how near a press must come to
// a boundary to take hold of it; dragSlop how far the pointer must then
// move for a drag, not a click.
const (
	pickRadius = 9
	grabRadius = 6
	dragSlop   = 3
)

// regionCell is the size, in canvas pixels, of the cells the regions are
// computed on; the image is stretched smoothly over the canvas and the
// boundaries drawn exactly on top.
const regionCell = 3

// OnMount asks for the latest frame, and draws once the canvases are in.
func (v *regionsCanvas) OnMount(ctx app.Context) {
	watchLive.Post(ctx, watching{ctx: ctx, view: v})
	v.view = v.IView
	v.measure(ctx)
}

// OnUpdate draws the points again, and measures the canvases again for
// another view.
func (v *regionsCanvas) OnUpdate(ctx app.Context) {
	if v.IView != v.view {
		v.view = v.IView
		v.measure(ctx)
		return
	}
	ctx.Defer(func(app.Context) { v.drawPoints() })
}

// OnResize measures the canvases again and redraws them.
func (v *regionsCanvas) OnResize(ctx app.Context) { v.measure(ctx) }

// measure measures the canvases again once they are in, redraws them, and
// asks the worker for the regions' image the canvas wants: a cell every
// regionCell pixels, 32 to 256 a side.
func (v *regionsCanvas) measure(ctx app.Context) {
	v.plane.Reset()
	v.points.Reset()
	ctx.Defer(func(ctx app.Context) {
		if _, w, _, _ := v.plane.Context("plane"); w > 0 {
			askGrid.Post(ctx, min(max(int(w)/regionCell, 32), 256))
		}
		v.drawRegions()
		v.drawPoints()
	})
}

// take takes the latest frame's regions, and draws them if they are new,
// and the θ a boundary held moves. It never renders the view.
func (v *regionsCanvas) take(l live) bool {
	v.base = l.base
	if l.picture.Frame != v.picture.Frame {
		v.picture = l.picture
		v.drawRegions()
	}
	return false
}

// Render shows the canvases and the cursor's line.
func (v *regionsCanvas) Render() app.UI {
	l := v.ILang
	return app.Div().Class("plane-stack-wrap").Body(
		app.Div().ID("plane-keys").Class("plane-stack").TabIndex(0).Attr("role", "application").
			Aria("label", l.T("plane.keys")).Aria("describedby", "plane-cursor").
			On("keydown", v.onKey).On("focus", v.onFocus).On("blur", v.onBlur).Body(
			app.Canvas().ID("plane").Attr("role", "img").Aria("label", l.T("plane.canvas")),
			app.Canvas().ID("plane-points").Aria("hidden", "true").
				On("pointerdown", v.onDown).On("pointermove", v.onMove).
				On("pointerup", v.onUp).On("pointercancel", v.onUp),
		),
		v.cursorLine(),
	)
}

// drawRegions paints the regions and boundaries of the latest frame on
// #plane, and notes on it (data-drawn-step) the step of the model it
// shows.
func (v *regionsCanvas) drawRegions() {
	c, w, h, ratio := v.plane.Context("plane")
	p := v.picture
	n := p.N
	if !c.Truthy() || w == 0 || n == 0 || len(p.Image) != 4*n*n {
		return
	}
	paint.PutScaled(c, p.Image, n, n, w, h)
	f := planeview.Frame{W: w, H: h}
	segs := v.segs[:0]
	for i := 0; i+3 < len(p.Bounds); i += 4 {
		b := p.Bounds[i : i+4]
		segs = append(segs, f.ToCanvas([2]float64{b[0], b[1]}), f.ToCanvas([2]float64{b[2], b[3]}))
	}
	v.segs = segs
	paint.Helpers().Call("segments", c, paint.Points(&v.buf, segs), len(segs), planeview.Boundary, 2*ratio)
	v.draws++
	canvas, _ := paint.Context2D("plane")
	canvas.Call("setAttribute", "data-drawn-step", p.Steps)
	canvas.Call("setAttribute", "data-draws", v.draws)
}

// drawPoints paints the data's points on #plane-points, above the
// regions, each in its class's colour with a dark ring, and the
// keyboard's cursor.
func (v *regionsCanvas) drawPoints() {
	c, w, h, ratio := v.points.Context("plane-points")
	if !c.Truthy() || w == 0 {
		return
	}
	c.Call("clearRect", 0, 0, w, h)
	f := planeview.Frame{W: w, H: h}
	for k := range v.IData.K {
		pts := f.Points(v.IData, k)
		if len(pts) > 0 {
			paint.Helpers().Call("marks", c, paint.Points(&v.buf, pts), len(pts), classCSS(k), "#111", 4.5*ratio, 1.25*ratio)
		}
	}
	v.drawCursor(c, f, ratio)
}

// classCSS is class c's colour as CSS.
func classCSS(c int) string {
	col := planeimage.Classes[c]
	return fmt.Sprintf("rgb(%d, %d, %d)", col[0], col[1], col[2])
}

// drawCursor rings the cursor on #plane-points, with a cross at its
// centre, in dark over light so that it shows on every region.
func (v *regionsCanvas) drawCursor(c app.Value, f planeview.Frame, ratio float64) {
	if !v.shown {
		return
	}
	at := f.ToCanvas(v.cursor)
	r := pickRadius * ratio
	for _, ink := range []struct {
		color string
		width float64
	}{{"#fff", 4 * ratio}, {"#111", 2 * ratio}} {
		c.Set("strokeStyle", ink.color)
		c.Set("lineWidth", ink.width)
		c.Call("beginPath")
		c.Call("arc", at.X, at.Y, r, 0, 2*math.Pi)
		c.Call("moveTo", at.X-r/2, at.Y)
		c.Call("lineTo", at.X+r/2, at.Y)
		c.Call("moveTo", at.X, at.Y-r/2)
		c.Call("lineTo", at.X, at.Y+r/2)
		c.Call("stroke")
	}
}

// cursorLine is #plane-cursor: where the cursor is (data-x, data-y), the
// class the live model predicts there, and the point under it, if any
// (data-under: its class, or empty).
func (v *regionsCanvas) cursorLine() app.UI {
	l, x := v.ILang, v.cursor
	text := l.T("plane.cursorAt", i18n.Loss(x[0]), i18n.Loss(x[1]))
	if m := v.IModel; m != nil && m.D == 2 {
		c, prob := m.Predict([]uint16{0, 1}, []float32{float32(x[0]), float32(x[1])})
		text += " " + l.T("plane.cursorClass", c, i18n.Percent(float64(prob[c])))
	}
	under := ""
	if i := v.IData.Nearest(x, v.cursorRadius()); i >= 0 {
		under = strconv.Itoa(v.IData.Points[i].Class)
		text += " " + l.T("plane.cursorPoint", v.IData.Points[i].Class)
	}
	return app.P().ID("plane-cursor").Class("sr-only").Attr("aria-live", "polite").
		Attr("data-x", kit.Exact64(x[0])).Attr("data-y", kit.Exact64(x[1])).Attr("data-under", under).Text(text)
}

// cursorRadius is the radius of the cursor's ring, in the plane's units:
// a point within it is under the cursor.
func (v *regionsCanvas) cursorRadius() float64 {
	s := v.points
	if s[0] > 0 && s[2] > 0 {
		return pickRadius * planeview.Frame{W: s[0] / s[2], H: s[1] / s[2]}.Units()
	}
	return cursorStep / 2
}

// onKey moves the cursor, adds a point there, or removes the point under
// it.
func (v *regionsCanvas) onKey(ctx app.Context, e app.Event) {
	if e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() || e.Get("altKey").Bool() {
		ctx.PreventUpdate()
		return
	}
	if d, ok := arrow(e); ok {
		v.shown = true
		for i := range 2 {
			v.cursor[i] = min(max(v.cursor[i]+d[i]*cursorStep, -plane.Extent), plane.Extent)
		}
		v.drawPoints()
		return // the cursor's line renders
	}
	do := ""
	switch e.Get("key").String() {
	case "Enter", " ":
		do = protocol.PointAdd
	case "Delete", "Backspace":
		do = protocol.PointRemove
	default:
		ctx.PreventUpdate()
		return
	}
	ctx.PreventUpdate() // the worker's answer renders
	v.shown = true
	press.Post(ctx, click{At: v.cursor, Radius: v.cursorRadius(), Do: do})
}

// onFocus draws the cursor when the plane has the focus from the keyboard
// (not from a click, which adds a point where it is).
func (v *regionsCanvas) onFocus(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	if ctx.JSSrc().Call("matches", ":focus-visible").Bool() != v.shown {
		v.shown = !v.shown
		v.drawPoints()
	}
}

// onBlur hides the cursor.
func (v *regionsCanvas) onBlur(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	if v.shown {
		v.shown = false
		v.drawPoints()
	}
}

// onDown adds a point of the chosen class where the plane is clicked or
// tapped, or removes the point clicked on. A press within grabRadius of a
// boundary takes hold of it instead: dragged, the boundary follows the
// pointer (onMove); let go without a drag, the press is a click after
// all, and adds or removes a point there.
func (v *regionsCanvas) onDown(ctx app.Context, e app.Event) {
	e.PreventDefault()
	ctx.PreventUpdate() // the worker's answer renders
	x, y, w, h := cssPoint(ctx.JSSrc(), e)
	if !(w > 0 && h > 0) {
		return
	}
	f := planeview.Frame{W: w, H: h}
	at := click{At: f.FromCanvas(x, y), Radius: pickRadius * f.Units()}
	if g, ok := v.grabAt(f, x, y); ok {
		ctx.JSSrc().Call("setPointerCapture", e.Get("pointerId"))
		v.hold = held{on: true, grip: g, x: x, y: y, press: at}
		ctx.JSSrc().Get("style").Set("cursor", "grabbing")
		return
	}
	press.Post(ctx, at)
}

// grabAt returns the grip on the boundary within grabRadius of the CSS
// pixel (x, y) of a plane of frame f, if there is one: the boundaries of
// the θ the room last knew, and the classes each separates.
func (v *regionsCanvas) grabAt(f planeview.Frame, x, y float64) (plane.Grip, bool) {
	m := v.base
	if m == nil || m.D != 2 {
		return plane.Grip{}, false
	}
	segs := plane.Boundaries(m)
	i, d, along := f.Nearest(segs, x, y)
	if i < 0 || d > grabRadius {
		return plane.Grip{}, false
	}
	return plane.Grab(segs[i], along, v.IBias), true
}

// onMove drags the boundary held, once the pointer has moved beyond a
// click; holding nothing, it shows over a boundary that it can be taken
// (the cursor).
func (v *regionsCanvas) onMove(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	x, y, w, h := cssPoint(ctx.JSSrc(), e)
	if !(w > 0 && h > 0) {
		return
	}
	f := planeview.Frame{W: w, H: h}
	hd := &v.hold
	if !hd.on {
		if _, near := v.grabAt(f, x, y); near != hd.hover {
			hd.hover = near
			ctx.JSSrc().Get("style").Set("cursor", map[bool]string{false: "", true: "grab"}[near])
		}
		return
	}
	if !hd.moved && math.Hypot(x-hd.x, y-hd.y) < dragSlop {
		return
	}
	hd.moved, hd.last = true, f.FromCanvas(x, y)
	dragLine.Post(ctx, dragTo{Grip: hd.grip, At: hd.last, Quick: true})
}

// onUp lets go of the boundary held: a drag sends its last θ, not quick,
// so that the whole scene is computed for it (where the pointer was last
// seen, if the browser cancelled the drag); a press that never moved is a
// click.
func (v *regionsCanvas) onUp(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	hd := &v.hold
	if !hd.on {
		return
	}
	hd.on, hd.hover = false, false
	ctx.JSSrc().Get("style").Set("cursor", "")
	cancel := e.Get("type").String() == "pointercancel"
	if !hd.moved {
		if !cancel {
			press.Post(ctx, hd.press)
		}
		return
	}
	at := hd.last
	if x, y, w, h := cssPoint(ctx.JSSrc(), e); w > 0 && h > 0 && !cancel {
		at = planeview.Frame{W: w, H: h}.FromCanvas(x, y)
	}
	dragLine.Post(ctx, dragTo{Grip: hd.grip, At: at})
}
