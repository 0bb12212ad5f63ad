package planepanel

import (
	"math"
	"strconv"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/planeview"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The plane and the loss surface answer a keyboard as they answer a
// pointer. Each is a focusable element (role application, so that a
// screen reader passes the arrow keys on), named by what it shows and
// what its keys do. On the plane the arrow keys move a cursor, drawn on
// #plane-points while the plane has the keyboard's focus; Enter (or the
// space bar) adds a point of the chosen class there, Delete (or
// Backspace) removes the point under it. On the surface the arrow keys
// move the paths' start: the paths follow each press, as they follow a
// drag, and the whole scene is computed once the key is let go. Shift
// makes a step four times longer. A line read out politely says where the
// cursor is, what the model predicts there and which point is under it
// (#plane-cursor), or where the start is (#plane-start).

// claimKeys makes the keys the plane and the surface take theirs alone:
// once, for the document, a listener cancels their default action (a
// scroll, a click) as the key goes down. go-app runs an element's handlers
// later, on its own goroutine, too late to cancel anything; and the
// lesson's keys (browser.OnKey) leave an event whose default was
// cancelled alone, so an arrow on the plane moves its cursor, not the
// chapter.
func claimKeys() {
	if claimed || !app.IsClient {
		return
	}
	claimed = true
	app.Window().Get("document").Call("addEventListener", "keydown", app.FuncOf(func(_ app.Value, args []app.Value) any {
		e := args[0]
		if e.Get("ctrlKey").Bool() || e.Get("altKey").Bool() || e.Get("metaKey").Bool() {
			return nil
		}
		key := e.Get("key").String()
		switch e.Get("target").Get("id").String() {
		case "plane-keys":
			switch key {
			case "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Enter", " ", "Delete", "Backspace":
				e.Call("preventDefault")
			}
		case "plane-surface-keys":
			switch key {
			case "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown":
				e.Call("preventDefault")
			}
		}
		return nil
	}))
}

// claimed is whether claimKeys has listened.
var claimed bool

// keyboard is the keyboard's side of the plane and the surface.
type keyboard struct {
	cursor  [2]float64 // the plane's cursor, in the plane's units
	shown   bool       // the plane has the focus from the keyboard: its cursor is drawn
	start   [2]float64 // the start as the keys last moved it, in the surface's coordinates
	holding bool       // a key that moves the start is down
}

// cursorStep is a step of the plane's cursor, in the plane's units (the
// view is 2·plane.Extent wide: 32 steps across).
const cursorStep = 0.25

// arrow returns the step an arrow key asks for, in units of a step, and
// whether the key is an arrow key; Shift makes it four.
func arrow(e app.Event) (d [2]float64, ok bool) {
	n := 1.0
	if e.Get("shiftKey").Bool() {
		n = 4
	}
	switch e.Get("key").String() {
	case "ArrowLeft":
		return [2]float64{-n, 0}, true
	case "ArrowRight":
		return [2]float64{n, 0}, true
	case "ArrowUp":
		return [2]float64{0, n}, true
	case "ArrowDown":
		return [2]float64{0, -n}, true
	}
	return d, false
}

// onPlaneKey moves the cursor, adds a point there, or removes the point
// under it.
func (p *Panel) onPlaneKey(ctx app.Context, e app.Event) {
	if e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() || e.Get("altKey").Bool() {
		ctx.PreventUpdate()
		return
	}
	k := &p.keys
	if d, ok := arrow(e); ok {
		k.shown = true
		for i := range 2 {
			k.cursor[i] = min(max(k.cursor[i]+d[i]*cursorStep, -plane.Extent), plane.Extent)
		}
		p.cv.pointsDirty = true
		p.draw()
		return
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
	k.shown = true
	ctx.NewActionWithValue(actionPoint, click{At: k.cursor, Radius: p.cursorRadius(), Do: do})
}

// cursorRadius is the radius of the cursor's ring, in the plane's units:
// a point within it is under the cursor.
func (p *Panel) cursorRadius() float64 {
	s := p.cv.points
	if s[0] > 0 && s[2] > 0 {
		return pickRadius * planeview.Frame{W: s[0] / s[2], H: s[1] / s[2]}.Units()
	}
	return cursorStep / 2
}

// onPlaneFocus draws the cursor when the plane has the focus from the
// keyboard (not from a click, which adds a point where it is).
func (p *Panel) onPlaneFocus(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	if ctx.JSSrc().Call("matches", ":focus-visible").Bool() != p.keys.shown {
		p.keys.shown = !p.keys.shown
		p.cv.pointsDirty = true
		p.draw()
	}
}

// onPlaneBlur hides the cursor.
func (p *Panel) onPlaneBlur(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	if p.keys.shown {
		p.keys.shown = false
		p.cv.pointsDirty = true
		p.draw()
	}
}

// drawCursor rings the cursor on #plane-points, with a cross at its
// centre, in dark over light so that it shows on every region.
func (p *Panel) drawCursor(c app.Value, f planeview.Frame, ratio float64) {
	if !p.keys.shown {
		return
	}
	at := f.ToCanvas(p.keys.cursor)
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
func (p *Panel) cursorLine() app.UI {
	l, x := p.ILang, p.keys.cursor
	text := l.T("plane.cursorAt", i18n.Loss(x[0]), i18n.Loss(x[1]))
	if m := p.model; m != nil && m.D == 2 {
		c, prob := m.Predict([]uint16{0, 1}, []float32{float32(x[0]), float32(x[1])})
		text += " " + l.T("plane.cursorClass", c, i18n.Percent(float64(prob[c])))
	}
	under := ""
	if i := p.data.Nearest(x, p.cursorRadius()); i >= 0 {
		under = strconv.Itoa(p.data.Points[i].Class)
		text += " " + l.T("plane.cursorPoint", p.data.Points[i].Class)
	}
	return app.P().ID("plane-cursor").Class("sr-only").Attr("aria-live", "polite").
		Attr("data-x", kit.Exact64(x[0])).Attr("data-y", kit.Exact64(x[1])).Attr("data-under", under).Text(text)
}

// onSurfaceKey moves the paths' start by a twentieth of the window shown
// (a fifth with Shift): the paths alone while the key is down.
func (p *Panel) onSurfaceKey(ctx app.Context, e app.Event) {
	d, ok := arrow(e)
	if !ok || p.scene == nil || e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() || e.Get("altKey").Bool() {
		ctx.PreventUpdate()
		return
	}
	k, w := &p.keys, p.scene.Window
	if !k.holding {
		k.start = p.set.Start
	}
	k.holding = true
	k.start[0] += d[0] * (w[1] - w[0]) / 20
	k.start[1] += d[1] * (w[3] - w[2]) / 20
	ctx.NewActionWithValue(actionStart, startAt{At: k.start, Quick: true})
}

// onSurfaceKeyUp computes the whole scene for the start the keys chose.
func (p *Panel) onSurfaceKeyUp(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	if _, ok := arrow(e); ok && p.keys.holding {
		p.keys.holding = false
		ctx.NewActionWithValue(actionStart, startAt{At: p.keys.start})
	}
}

// startLine is #plane-start: where the paths start, in the surface's
// coordinates.
func (p *Panel) startLine() app.UI {
	s := p.set.Start
	if p.keys.holding {
		s = p.keys.start
	}
	return app.P().ID("plane-start").Class("sr-only").Attr("aria-live", "polite").
		Attr("data-a", kit.Exact64(s[0])).Attr("data-b", kit.Exact64(s[1])).Text(p.ILang.T("plane.startAt", i18n.Loss(s[0]), i18n.Loss(s[1])))
}
