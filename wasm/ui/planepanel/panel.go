// Package planepanel is softmax regression on points in the plane: the
// plane cut into regions by the live model, its points, its controls and
// status, and the loss surface with the paths of gradient descent, SGD
// and Newton's method. The model, its trainer and the scene are
// core/plane's; this package shows them and takes the person's input.
//
// Panel owns the plane's state. Its controls and canvases post the
// panel's actions (actions.go) and its handlers are the only place the
// state changes (state.go), besides the frames that train and compute
// (loop.go). What the page asks of it comes the same way: ActionPsi and
// ActionAbove. It imports none of the page's other rooms.
package planepanel

import (
	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Panel is the plane: the regions of the live model (#plane, points on
// #plane-points), its controls, its status (#plane-status), and the loss
// surface with the three paths (#plane-surface, #plane-paths). It keeps
// its own state, so that a page mounts it wherever it wants it, given
// only the language and the pace; it trains and computes in frames of a
// few milliseconds (loop.go). A lesson's chapter mounts one of its
// pictures instead of the whole (IView, views.go).
type Panel struct {
	app.Compo

	ILang i18n.Lang
	IPace string // the page's pace: "full" or steps per second (params.Paces)
	IView View   // the part shown: the whole panel, or one picture of it

	lineCtx *app.Context // the status line's, while it is mounted (statusLine)
	renders int          // renders so far, for the status line

	view    View // the view the state was set up for
	warming bool // training at full pace until done, whatever the page's pace (Psi)
	wants   wants

	name   string     // the data set chosen
	edited bool       // points were added or removed since it was chosen
	data   plane.Data // the points, as drawn
	set    plane.Settings
	f      fields // α, λ and B as typed, with their reasons
	add    int    // the class a click adds
	lab    *plane.Lab
	st     plane.Status
	state  string   // ready, training or done
	msg    i18n.Msg // the last refusal, with its reason
	psi    *plane.Psi
	psis   int // ψ added so far

	dataV  int            // grows whenever data or settings are applied
	build  *plane.Builder // the scene being computed, or nil
	buildV int            // the dataV it is computed for
	scene  *plane.Scene   // the last complete scene
	sceneV int            // the dataV it was computed for
	scenes int            // scenes completed
	timing sceneTiming    // how long the last scene took, and the one in progress

	loop loop    // the frame loop (loop.go)
	cv   canvas  // the canvases' sizes and buffers (draw.go)
	drag dragged // the start being dragged on the surface (pointer.go)
}

// wants is what the page asked for that waits until the panel can do it:
// ψ once no run is in training, α above the ceiling once the scene knows
// 2/λ_max.
type wants struct {
	psi   int     // ψ asked for and not yet added
	above float64 // the multiple of 2/λ_max α is asked at; 0 for none
}

// seed is the seed of the data sets the panel makes: the page's data
// sets are always the same points.
const seed = 1

// The panel's states, as #plane-status's data-state.
const (
	stateReady    = "ready"
	stateTraining = "training"
	stateDone     = "done"
)

// New returns a plane panel showing the whole of it.
func New() *Panel { return &Panel{} }

func (p *Panel) Lang(l i18n.Lang) *Panel { p.ILang = l; return p }
func (p *Panel) Pace(v string) *Panel    { p.IPace = v; return p }
func (p *Panel) View(v View) *Panel      { p.IView = v; return p }

// OnInit sets the panel up for its view (start).
func (p *Panel) OnInit() { p.setUp() }

func (p *Panel) OnMount(ctx app.Context) {
	p.handle(ctx)
	p.cv.reset()
	p.loop.start(ctx, p)
	ctx.Defer(func(app.Context) { p.redraw() })
}

// OnUpdate sets the panel up again if the page now shows another of its
// views in its place.
func (p *Panel) OnUpdate(ctx app.Context) {
	if p.IView != p.view {
		p.setUp()
		p.cv.reset()
		ctx.Defer(func(app.Context) {
			p.loop.watch(p.JSValue()) // the view's element replaced the last one
			p.redraw()
		})
	}
}

func (p *Panel) OnDismount() { p.loop.stop() }

// OnResize measures the canvases again and redraws them.
func (p *Panel) OnResize(ctx app.Context) {
	p.cv.reset()
	ctx.Defer(func(app.Context) { p.redraw() })
}

func (p *Panel) Render() app.UI {
	p.renders++
	switch p.IView {
	case Regions:
		return p.regionsView()
	case Surface:
		return p.surfaceView()
	case Psi:
		return p.psiView()
	}
	l := p.ILang
	return app.Section().Class("panel plane-panel").Aria("label", l.T("plane.region")).Body(
		app.H2().Text(l.T("plane.title")),
		app.P().Class("note").Body(kit.Rich(l.T("plane.note"))...),
		app.Div().Class("plane-row").Body(
			app.Div().Class("plane-view").Body(
				p.regions(),
				p.status(false),
				p.notes(),
			),
			p.controls(),
		),
		p.surfacePart(),
	)
}

// regions is the plane (#plane), with its points on #plane-points above
// it, which takes the clicks.
func (p *Panel) regions() app.UI {
	return app.Div().Class("plane-stack").Body(
		app.Canvas().ID("plane").Attr("role", "img").Aria("label", p.ILang.T("plane.canvas")),
		app.Canvas().ID("plane-points").Aria("hidden", "true").
			On("pointerdown", p.onPlaneDown),
	)
}

// status is #plane-status; short for a lesson's picture.
func (p *Panel) status(short bool) app.UI {
	return &statusLine{IPanel: p, IShort: short, IRender: p.renders}
}
