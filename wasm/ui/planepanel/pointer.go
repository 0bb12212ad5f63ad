package planepanel

import (
	"math"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/ui/planeview"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// pickRadius is how near a click must come to a point, in CSS pixels, to
// remove it rather than add one.
const pickRadius = 9

// grabRadius is how near a press must come to a boundary, in CSS
// pixels, to take hold of it; dragSlop how far the pointer must then move
// for a drag, not a click.
const (
	grabRadius = 6
	dragSlop   = 3
)

// dragged is the start being dragged on the surface.
type dragged struct {
	on bool
}

// cssPoint returns the pointer event's position in the element's CSS
// pixels, and the element's CSS size.
func cssPoint(el app.Value, e app.Event) (x, y, w, h float64) {
	r := el.Call("getBoundingClientRect")
	w, h = r.Get("width").Float(), r.Get("height").Float()
	return e.Get("clientX").Float() - r.Get("left").Float(), e.Get("clientY").Float() - r.Get("top").Float(), w, h
}

// onPlaneDown adds a point of the chosen class where the plane is
// clicked or tapped, or removes the point clicked on. A press within
// grabRadius of a boundary takes hold of it instead: dragged, the
// boundary follows the pointer (onPlaneMove); let go without a drag, the
// press is a click after all, and adds or removes a point there.
func (p *Panel) onPlaneDown(ctx app.Context, e app.Event) {
	e.PreventDefault()
	ctx.PreventUpdate() // the action renders
	x, y, w, h := cssPoint(ctx.JSSrc(), e)
	if !(w > 0 && h > 0) {
		return
	}
	f := planeview.Frame{W: w, H: h}
	press := click{At: f.FromCanvas(x, y), Radius: pickRadius * f.Units()}
	if g, ok := p.grabAt(f, x, y); ok {
		ctx.JSSrc().Call("setPointerCapture", e.Get("pointerId"))
		p.th.hold = held{on: true, grip: g, x: x, y: y, press: press}
		ctx.JSSrc().Get("style").Set("cursor", "grabbing")
		return
	}
	ctx.NewActionWithValue(actionPoint, press)
}

// grabAt returns the grip on the boundary within grabRadius of the CSS
// pixel (x, y) of a plane of frame f, if there is one: the boundaries of
// the latest frame's model, and the classes each separates.
func (p *Panel) grabAt(f planeview.Frame, x, y float64) (plane.Grip, bool) {
	m := p.base()
	if m == nil || m.D != 2 {
		return plane.Grip{}, false
	}
	segs := plane.Boundaries(m)
	i, d, along := f.Nearest(segs, x, y)
	if i < 0 || d > grabRadius {
		return plane.Grip{}, false
	}
	return plane.Grab(segs[i], along, p.set.Bias), true
}

// onPlaneMove drags the boundary held, once the pointer has moved beyond
// a click; holding nothing, it shows over a boundary that it can be
// taken (the cursor).
func (p *Panel) onPlaneMove(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	x, y, w, h := cssPoint(ctx.JSSrc(), e)
	if !(w > 0 && h > 0) {
		return
	}
	f := planeview.Frame{W: w, H: h}
	hd := &p.th.hold
	if !hd.on {
		if _, near := p.grabAt(f, x, y); near != hd.hover {
			hd.hover = near
			ctx.JSSrc().Get("style").Set("cursor", map[bool]string{false: "", true: "grab"}[near])
		}
		return
	}
	if !hd.moved && math.Hypot(x-hd.x, y-hd.y) < dragSlop {
		return
	}
	hd.moved, hd.last = true, f.FromCanvas(x, y)
	ctx.NewActionWithValue(actionDrag, dragTo{At: hd.last, Quick: true})
}

// onPlaneUp lets go of the boundary held: a drag sends its last θ, not
// quick, so that the whole scene is computed for it (where the pointer
// was last seen, if the browser cancelled the drag); a press that never
// moved is a click.
func (p *Panel) onPlaneUp(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	hd := &p.th.hold
	if !hd.on {
		return
	}
	hd.on = false
	ctx.JSSrc().Get("style").Set("cursor", "")
	hd.hover = false
	if !hd.moved {
		if e.Get("type").String() != "pointercancel" {
			ctx.NewActionWithValue(actionPoint, hd.press)
		}
		return
	}
	at := hd.last
	if x, y, w, h := cssPoint(ctx.JSSrc(), e); w > 0 && h > 0 && e.Get("type").String() != "pointercancel" {
		at = planeview.Frame{W: w, H: h}.FromCanvas(x, y)
	}
	ctx.NewActionWithValue(actionDrag, dragTo{At: at})
}

// onSurfaceDown moves the start where the surface is pressed, and starts
// dragging it.
func (p *Panel) onSurfaceDown(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	if p.scene == nil {
		return
	}
	e.PreventDefault()
	ctx.JSSrc().Call("setPointerCapture", e.Get("pointerId"))
	p.drag.on = true
	p.moveStart(ctx, e, true)
}

// onSurfaceMove drags the start: only the paths are computed again, on
// the surface already drawn.
func (p *Panel) onSurfaceMove(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	if p.drag.on {
		p.moveStart(ctx, e, true)
	}
}

// onSurfaceUp ends a drag: the whole scene is computed for the new start,
// its window chosen afresh.
func (p *Panel) onSurfaceUp(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	if p.drag.on {
		p.drag.on = false
		p.moveStart(ctx, e, false)
	}
}

// moveStart posts the start at the pointer; quick keeps the surface and
// computes only the paths.
func (p *Panel) moveStart(ctx app.Context, e app.Event, quick bool) {
	x, y, w, h := cssPoint(ctx.JSSrc(), e)
	if p.scene == nil || !(w > 0 && h > 0) {
		return
	}
	at := planeview.SurfaceFrame{Window: p.scene.Window, W: w, H: h}.FromCanvas(x, y)
	ctx.NewActionWithValue(actionStart, startAt{At: at, Quick: quick})
}
