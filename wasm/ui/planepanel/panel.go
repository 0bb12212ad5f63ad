// Package planepanel is softmax regression on points in the plane, as the
// page shows it: the plane cut into regions by the live model, its
// points, its controls and status, and the loss surface with the paths of
// gradient descent, SGD and Newton's method.
//
// The plane's data, model and scene live in a worker of their own
// (wasm/planework), off the page's main thread; Worker is the page's side
// of it. Panel sends it what the person did, through the panel's actions
// (actions.go), and draws what it says (took.go, draw.go): the panel's
// copy of the plane changes only as the worker's events arrive. What the
// page asks of the plane comes the same way: ActionPsi and ActionAbove. It
// imports none of the page's other rooms.
package planepanel

import (
	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Panel is the plane: the regions of the live model (#plane, points on
// #plane-points), its controls, its status (#plane-status), and the loss
// surface with the three paths (#plane-surface, #plane-paths). A page
// mounts it wherever it wants it, given the language, the pace and the
// page's plane Worker. A lesson's chapter mounts one of its pictures
// instead of the whole (IView, views.go).
type Panel struct {
	app.Compo

	ILang   i18n.Lang
	IPace   string  // the page's pace: "full" or steps per second (params.Paces)
	IView   View    // the part shown: the whole panel, or one picture of it
	IWorker *Worker // the page's plane worker; nil draws nothing live (natively)

	lineCtx  *app.Context   // the status line's, while it is mounted (statusLine)
	thetaCtx *app.Context   // #plane-theta's, while it is mounted (thetaTable)
	renders  int            // renders so far, for the status line
	view     View           // the view the panel shows the start of (showStart)
	setDone  bool           // the worker was set up for view
	early    []protocol.Msg // the page's demonstrations asked for before that: sent after it
	setup    int            // the set-up's id: events of another are dropped
	pace     string         // the pace the worker was last told

	// The plane as the worker last said it (took.go).
	seq      int // the version of the data and settings
	state    string
	name     string
	edited   bool
	data     plane.Data
	set      plane.Settings
	refused  i18n.Msg // the last refusal, with its reason
	psi      *plane.Psi
	building bool
	st       plane.Status
	model    *softmax.Model[float32]
	scene    *plane.Scene
	sceneSum string // the scene's checksum (sceneSum)
	timing   sceneTiming

	// What is the page's alone: the fields as typed, the class a click
	// adds, θ by hand (hand.go), the canvases.
	f    fields
	add  int
	th   hand
	cv   canvas   // the canvases' sizes and buffers (draw.go)
	drag dragged  // the start being dragged on the surface (pointer.go)
	keys keyboard // the plane's cursor and the start, by keyboard (keys.go)
	seen watcher  // whether the panel is near the viewport (visible.go)

	run runs // the runs of gradient descent it has seen start and end (runs.go)
}

// sceneTiming is how long the last scene took from the page's command
// that asked for it to the scene drawn (#plane-surface's data-build-ms,
// for the benchmarks; no test asserts a time).
type sceneTiming struct {
	asked  float64 // when the command that asks for a scene was sent, ms
	ms     float64
	scenes int // scenes drawn so far
}

// The panel's states, as #plane-status's data-state.
const (
	stateReady    = "ready"
	stateTraining = "training"
	stateDone     = "done"
)

// New returns a plane panel showing the whole of it.
func New() *Panel { return &Panel{state: stateReady} }

func (p *Panel) Lang(l i18n.Lang) *Panel { p.ILang = l; return p }
func (p *Panel) Pace(v string) *Panel    { p.IPace = v; return p }
func (p *Panel) View(v View) *Panel      { p.IView = v; return p }
func (p *Panel) Worker(w *Worker) *Panel { p.IWorker = w; return p }

// OnInit shows the view's start until the worker says more (views.go).
func (p *Panel) OnInit() { p.showStart() }

// OnMount takes the worker's events, and sets the worker up for the view
// once the panel is near the viewport (visible.go).
func (p *Panel) OnMount(ctx app.Context) {
	claimKeys()
	p.handle(ctx)
	if w := p.IWorker; w != nil {
		w.attach(p, ctx)
	}
	p.cv.reset()
	ctx.Defer(func(app.Context) {
		p.watch(ctx)
		if p.seen.near && !p.setDone {
			p.setUp()
		}
		p.measure()
		p.redraw()
	})
}

// OnUpdate sets the worker up again if the page now shows another of the
// panel's views in its place, and tells it a new pace.
func (p *Panel) OnUpdate(ctx app.Context) {
	if p.IView != p.view {
		p.showStart()
		p.cv.reset()
		ctx.Defer(func(app.Context) {
			p.watch(ctx) // the view's element replaced the last one
			if p.seen.near && !p.setDone {
				p.setUp()
			}
			p.measure()
			p.redraw()
		})
	}
	p.sendPace()
}

// OnDismount pauses the plane: nobody sees it train.
func (p *Panel) OnDismount() {
	p.unwatch()
	p.send(protocol.PlaneTrain{On: false})
	if w := p.IWorker; w != nil {
		w.detach(p)
	}
}

// OnResize measures the canvases again and redraws them.
func (p *Panel) OnResize(ctx app.Context) {
	p.cv.reset()
	ctx.Defer(func(app.Context) { p.measure(); p.redraw() })
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
	case Hand:
		return p.handView()
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
				p.thetaPart(),
			),
			p.controls(),
		),
		p.surfacePart(),
	)
}

// regions is the plane (#plane), with its points on #plane-points above
// it, which takes the clicks and the boundaries dragged (pointer.go); the
// two take the keyboard's focus together (#plane-keys, keys.go), and
// #plane-cursor says where the cursor is.
func (p *Panel) regions() app.UI {
	l := p.ILang
	return app.Div().Class("plane-stack-wrap").Body(
		app.Div().ID("plane-keys").Class("plane-stack").TabIndex(0).Attr("role", "application").
			Aria("label", l.T("plane.keys")).Aria("describedby", "plane-cursor").
			On("keydown", p.onPlaneKey).On("focus", p.onPlaneFocus).On("blur", p.onPlaneBlur).Body(
			app.Canvas().ID("plane").Attr("role", "img").Aria("label", l.T("plane.canvas")),
			app.Canvas().ID("plane-points").Aria("hidden", "true").
				On("pointerdown", p.onPlaneDown).On("pointermove", p.onPlaneMove).
				On("pointerup", p.onPlaneUp).On("pointercancel", p.onPlaneUp),
		),
		p.cursorLine(),
	)
}

// status is #plane-status; short for a lesson's picture.
func (p *Panel) status(short bool) app.UI {
	return &statusLine{IPanel: p, IShort: short, IRender: p.renders}
}

// send sends a command to the plane's worker, if there is one.
func (p *Panel) send(m protocol.Msg) {
	if w := p.IWorker; w != nil {
		w.send(m)
	}
}
