package planepanel

import (
	"slices"
	"strconv"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/paint"
	"softmaxdemo/wasm/ui/planepanel/store"
	"softmaxdemo/wasm/ui/planeview"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// surfaceCanvas is the loss surface (#plane-surface): J's bands, its
// contours, the three paths, the minimum (+) and the start (○) of the
// last scene. data-kind is exact or slice, data-minimum found or none,
// data-version the scenes taken so far, data-computing whether one is
// being computed, data-build-ms how long the last took from the command
// that asked for it, data-scene its checksum, data-class-lines the class's
// lines drawn on it as dots, each shaded by its J (the presenter's, K = 2
// only). A press or a drag moves the
// start, and so do the arrow keys (#plane-surface-keys), which
// #plane-start follows: the paths follow each move, and the whole scene
// is computed once the pointer or the key is let go.
type surfaceCanvas struct {
	app.Compo

	ILang     i18n.Lang
	IView     View // the room's view: another one measures the canvas again
	IScene    *plane.Scene
	IStart    [2]float64 // the settings' start, in the surface's coordinates
	IBuilding bool
	IScenes   int
	IBuildMS  float64
	ISum      string
	IClass    []store.ClassLine // the class's lines, drawn as dots for K = 2 (the presenter's)

	size       paint.Size
	view       View
	drawn      *plane.Scene      // the scene drawn last
	drawnClass []store.ClassLine // the class's lines drawn last
	buf        []byte
	drag       bool       // the start is being dragged
	start      [2]float64 // the start as the keys last moved it
	holding    bool       // a key that moves the start is down
}

// OnMount draws the scene once the canvas is in.
func (v *surfaceCanvas) OnMount(ctx app.Context) {
	v.view = v.IView
	v.measure(ctx)
}

// OnUpdate draws a new scene, and measures the canvas again for another
// view.
func (v *surfaceCanvas) OnUpdate(ctx app.Context) {
	if v.IView != v.view {
		v.view = v.IView
		v.measure(ctx)
		return
	}
	if v.IScene != v.drawn || !slices.Equal(v.IClass, v.drawnClass) {
		ctx.Defer(func(app.Context) { v.draw() })
	}
}

// OnResize measures the canvas again and redraws it.
func (v *surfaceCanvas) OnResize(ctx app.Context) { v.measure(ctx) }

// measure measures the canvas again once it is in, and redraws it.
func (v *surfaceCanvas) measure(ctx app.Context) {
	v.size.Reset()
	ctx.Defer(func(app.Context) { v.draw() })
}

// Render shows the canvas and the start's line.
func (v *surfaceCanvas) Render() app.UI {
	exact, hasMin := false, false
	if sc := v.IScene; sc != nil {
		exact, hasMin = sc.Exact, sc.HasMin
	}
	l := v.ILang
	return app.Div().ID("plane-surface-keys").Class("plane-surface-keys").TabIndex(0).Attr("role", "application").
		Aria("label", l.T("plane.surfaceKeys")).Aria("describedby", "plane-start").
		On("keydown", v.onKey).On("keyup", v.onKeyUp).Body(
		app.Canvas().ID("plane-surface").Attr("role", "img").Aria("label", l.T("plane.surfaceCanvas")).
			Attr("data-kind", map[bool]string{false: "slice", true: "exact"}[exact]).
			Attr("data-minimum", map[bool]string{false: "none", true: "found"}[hasMin]).Attr("data-version", v.IScenes).
			Attr("data-computing", kit.YesNo(v.IBuilding)).Attr("data-build-ms", strconv.FormatFloat(v.IBuildMS, 'f', 1, 64)).
			Attr("data-scene", v.ISum).Attr("data-class-lines", len(v.classDots())).
			On("pointerdown", v.onDown).On("pointermove", v.onMove).
			On("pointerup", v.onUp).On("pointercancel", v.onUp),
		v.startLine(),
	)
}

// draw paints the scene: J's bands, its contours, the paths, the minimum
// (+) and the start (○).
func (v *surfaceCanvas) draw() {
	c, w, h, ratio := v.size.Context("plane-surface")
	sc := v.IScene
	if !c.Truthy() || sc == nil || w == 0 {
		return
	}
	v.drawn, v.drawnClass = sc, v.IClass
	s := planeview.LayoutSurface(sc, w, h)
	paint.PutScaled(c, s.Shade, plane.GridSize, plane.GridSize, w, h)
	hp := paint.Helpers()
	for _, pts := range s.Contours {
		hp.Call("segments", c, paint.Points(&v.buf, pts), len(pts), planeview.Contour, ratio)
	}
	for m, lines := range s.Paths {
		color := planeview.PathColors[m]
		for _, l := range lines {
			hp.Call("path", c, paint.Points(&v.buf, l), len(l), color, 2.5*ratio)
			if plane.Method(m) == plane.Newton {
				hp.Call("dots", c, paint.Points(&v.buf, l), len(l), color, 3.5*ratio)
			}
		}
		if s.EndsIn[m] {
			hp.Call("marks", c, paint.Points(&v.buf, []chart.Pt{s.Ends[m]}), 1, color, "#fff", 4*ratio, 1.5*ratio)
		}
	}
	if s.HasMin {
		r := 7 * ratio
		cross := []chart.Pt{{X: s.Min.X - r, Y: s.Min.Y}, {X: s.Min.X + r, Y: s.Min.Y}, {X: s.Min.X, Y: s.Min.Y - r}, {X: s.Min.X, Y: s.Min.Y + r}}
		hp.Call("segments", c, paint.Points(&v.buf, cross), len(cross), planeview.MinMark, 2.5*ratio)
	}
	hp.Call("marks", c, paint.Points(&v.buf, []chart.Pt{s.Start}), 1, "rgba(255, 255, 255, 0.6)", planeview.StartMark, 6*ratio, 2*ratio)
	f := planeview.SurfaceFrame{Window: sc.Window, W: w, H: h}
	for i, p := range v.classDots() {
		hp.Call("marks", c, paint.Points(&v.buf, []chart.Pt{f.ToCanvas(p)}), 1, jColor(v.IClass, i), "#fff", 4*ratio, ratio)
	}
}

// classDots are the class's lines in the surface's coordinates, best
// first: none unless the scene is of K = 2.
func (v *surfaceCanvas) classDots() [][2]float64 {
	sc := v.IScene
	if sc == nil || sc.K != 2 {
		return nil
	}
	var out [][2]float64
	for _, l := range v.IClass {
		if l.Model.Classes() != 2 {
			return nil
		}
		theta := make([]float64, 0, len(l.Model.W)+len(l.Model.B))
		for _, x := range l.Model.W {
			theta = append(theta, float64(x))
		}
		for _, x := range l.Model.B {
			theta = append(theta, float64(x))
		}
		out = append(out, sc.Project(theta))
	}
	return out
}

// startLine is #plane-start: where the paths start, in the surface's
// coordinates.
func (v *surfaceCanvas) startLine() app.UI {
	s := v.IStart
	if v.holding {
		s = v.start
	}
	return app.P().ID("plane-start").Class("sr-only").Attr("aria-live", "polite").
		Attr("data-a", kit.Exact64(s[0])).Attr("data-b", kit.Exact64(s[1])).Text(v.ILang.T("plane.startAt", i18n.Loss(s[0]), i18n.Loss(s[1])))
}

// onDown moves the start where the surface is pressed, and starts
// dragging it.
func (v *surfaceCanvas) onDown(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	if v.IScene == nil {
		return
	}
	e.PreventDefault()
	ctx.JSSrc().Call("setPointerCapture", e.Get("pointerId"))
	v.drag = true
	v.moveStart(ctx, e, true)
}

// onMove drags the start: only the paths are computed again, on the
// surface already drawn.
func (v *surfaceCanvas) onMove(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	if v.drag {
		v.moveStart(ctx, e, true)
	}
}

// onUp ends a drag: the whole scene is computed for the new start, its
// window chosen afresh.
func (v *surfaceCanvas) onUp(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	if v.drag {
		v.drag = false
		v.moveStart(ctx, e, false)
	}
}

// moveStart posts the start at the pointer; quick keeps the surface and
// computes only the paths.
func (v *surfaceCanvas) moveStart(ctx app.Context, e app.Event, quick bool) {
	x, y, w, h := cssPoint(ctx.JSSrc(), e)
	if v.IScene == nil || !(w > 0 && h > 0) {
		return
	}
	at := planeview.SurfaceFrame{Window: v.IScene.Window, W: w, H: h}.FromCanvas(x, y)
	moveStart.Post(ctx, startAt{At: at, Quick: quick})
}

// onKey moves the paths' start by a twentieth of the window shown (a
// fifth with Shift): the paths alone while the key is down.
func (v *surfaceCanvas) onKey(ctx app.Context, e app.Event) {
	d, ok := arrow(e)
	if !ok || v.IScene == nil || e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() || e.Get("altKey").Bool() {
		ctx.PreventUpdate()
		return
	}
	w := v.IScene.Window
	if !v.holding {
		v.start = v.IStart
	}
	v.holding = true
	v.start[0] += d[0] * (w[1] - w[0]) / 20
	v.start[1] += d[1] * (w[3] - w[2]) / 20
	moveStart.Post(ctx, startAt{At: v.start, Quick: true})
}

// onKeyUp computes the whole scene for the start the keys chose.
func (v *surfaceCanvas) onKeyUp(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	if _, ok := arrow(e); ok && v.holding {
		v.holding = false
		moveStart.Post(ctx, startAt{At: v.start})
	}
}
