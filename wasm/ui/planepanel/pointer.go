package planepanel

import (
	"softmaxdemo/wasm/ui/planeview"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// pickRadius is how near a click must come to a point, in CSS pixels, to
// remove it rather than add one.
const pickRadius = 9

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
// clicked or tapped, or removes the point clicked on.
func (p *Panel) onPlaneDown(ctx app.Context, e app.Event) {
	e.PreventDefault()
	ctx.PreventUpdate() // the action renders
	x, y, w, h := cssPoint(ctx.JSSrc(), e)
	if !(w > 0 && h > 0) {
		return
	}
	f := planeview.Frame{W: w, H: h}
	ctx.NewActionWithValue(actionPoint, click{At: f.FromCanvas(x, y), Radius: pickRadius * f.Units()})
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
