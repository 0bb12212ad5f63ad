package ui

import (
	"softmaxdemo/wasm/ui/planeview"

	"softmaxdemo/core/plane"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// pickRadius is how near a click must come to a point, in CSS pixels, to
// remove it rather than add one.
const pickRadius = 9

// cssPoint returns the pointer event's position in the element's CSS
// pixels, and the element's CSS size.
func cssPoint(el app.Value, e app.Event) (x, y, w, h float64) {
	r := el.Call("getBoundingClientRect")
	w, h = r.Get("width").Float(), r.Get("height").Float()
	return e.Get("clientX").Float() - r.Get("left").Float(), e.Get("clientY").Float() - r.Get("top").Float(), w, h
}

// onPlaneDown adds a point of the chosen class where the plane is
// clicked or tapped, or removes the point clicked on.
func (p *planePanel) onPlaneDown(ctx app.Context, e app.Event) {
	e.PreventDefault()
	x, y, w, h := cssPoint(ctx.JSSrc(), e)
	if !(w > 0 && h > 0) {
		return
	}
	f := planeview.Frame{W: w, H: h}
	p.clickAt(f.FromCanvas(x, y), pickRadius*f.Units())
}

// clickAt removes the point within radius r of at, or adds one of the
// chosen class there.
func (p *planePanel) clickAt(at [2]float64, r float64) {
	d := p.data
	if i := d.Nearest(at, r); i >= 0 {
		d = d.Remove(i)
	} else {
		var err error
		if d, err = d.Add(plane.Point{X: at, Class: p.add}); err != nil {
			p.refuse(err)
			return
		}
	}
	p.apply(d, p.set) // the points are taken even if the model cannot train on them (none left, B above m)
	p.edited = true
}

// onSurfaceDown moves the start where the surface is pressed, and starts
// dragging it.
func (p *planePanel) onSurfaceDown(ctx app.Context, e app.Event) {
	if p.scene == nil {
		return
	}
	e.PreventDefault()
	ctx.JSSrc().Call("setPointerCapture", e.Get("pointerId"))
	p.loop.dragging = true
	p.moveStart(ctx, e, true)
}

// onSurfaceMove drags the start: only the paths are computed again, on
// the surface already drawn.
func (p *planePanel) onSurfaceMove(ctx app.Context, e app.Event) {
	if !p.loop.dragging {
		ctx.PreventUpdate()
		return
	}
	p.moveStart(ctx, e, true)
}

// onSurfaceUp ends a drag: the whole scene is computed for the new start,
// its window chosen afresh.
func (p *planePanel) onSurfaceUp(ctx app.Context, e app.Event) {
	if !p.loop.dragging {
		return
	}
	p.loop.dragging = false
	p.moveStart(ctx, e, false)
}

// moveStart sets the start at the pointer; quick keeps the surface and
// computes only the paths.
func (p *planePanel) moveStart(ctx app.Context, e app.Event, quick bool) {
	x, y, w, h := cssPoint(ctx.JSSrc(), e)
	if p.scene == nil || !(w > 0 && h > 0) {
		return
	}
	p.setStart(planeview.SurfaceFrame{Window: p.scene.Window, W: w, H: h}.FromCanvas(x, y), quick)
}

// setStart moves the paths' start to the surface point at; quick keeps
// the surface drawn, if it is the one of the data and settings in force
// (not one still being replaced), and computes only the paths.
func (p *planePanel) setStart(at [2]float64, quick bool) {
	s := p.set
	s.Start = at
	was := p.scene.Settings
	was.Start = s.Start
	if !quick || p.sceneV != p.dataV || was != s {
		p.apply(p.data, s)
		return
	}
	b, err := plane.NewPathBuilder(p.data, s, p.scene)
	if err != nil {
		p.refuse(err)
		return
	}
	p.set = s
	p.startBuild(b)
	p.loop.wake()
}
