package ui

import (
	"softmaxdemo/wasm/ui/i18n"

	"softmaxdemo/core/plane"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// planePanel is softmax regression on points in the plane: the plane cut
// into regions by the live model (#plane, points on #plane-points), its
// controls, its status (#plane-status), and the loss surface with the
// paths of gradient descent, SGD and Newton's method (#plane-surface,
// #plane-paths). It keeps its own state (core/plane's Data, Lab and Scene)
// and handles its own controls, so that a page can mount it wherever it
// wants it, given only the language and the pace; it trains and computes
// on the page's main thread in frames of a few milliseconds (plane-loop.go,
// and docs/ARCHITECTURE.md, "Decisions"). A lesson's chapter mounts one of
// its pictures instead of the whole (IView, plane-lesson.go).
type planePanel struct {
	app.Compo

	ILang i18n.Lang
	IPace string    // the page's pace: "full" or steps per second (params.Paces)
	IView planeView // the part shown: the whole panel, or one picture of it
	// IAbove asks, once for each new version, for α at a multiple of
	// 2/λ_max, as soon as the scene knows 2/λ_max.
	IAbove planeAsk
	// IPsi asks, once for each new value, for a ψ added to every θ_c, as
	// soon as no run is in training.
	IPsi int

	view     planeView // the view the state was set up for
	asked    int       // the last IAbove.Version applied
	psiAsked int       // the last IPsi applied
	warming  bool      // training at full pace until done, whatever the page's pace (planePsi)

	name   string     // the data set chosen
	edited bool       // points were added or removed since it was chosen
	data   plane.Data // the points, as drawn
	set    plane.Settings
	f      planeFields // α, λ and B as typed, with their reasons
	add    int         // the class a click adds
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

	loop planeLoop   // the frame loop (plane-loop.go)
	cv   planeCanvas // the canvases' sizes and buffers (plane-draw.go)
}

// planeSeed is the seed of the data sets the panel makes: the page's
// data sets are always the same points.
const planeSeed = 1

// Plane states, as #plane-status's data-state.
const (
	planeReady    = "ready"
	planeTraining = "training"
	planeDone     = "done"
)

func newPlanePanel() *planePanel { return &planePanel{} }

func (p *planePanel) Lang(l i18n.Lang) *planePanel { p.ILang = l; return p }
func (p *planePanel) Pace(v string) *planePanel    { p.IPace = v; return p }
func (p *planePanel) View(v planeView) *planePanel { p.IView = v; return p }
func (p *planePanel) Above(a planeAsk) *planePanel { p.IAbove = a; return p }
func (p *planePanel) AddPsi(n int) *planePanel     { p.IPsi = n; return p }

// OnInit sets the panel up for its view (planeStart).
func (p *planePanel) OnInit() { p.setUp() }

// setUp starts the view's data and settings afresh: for the whole panel
// the data set blobs, K = 2, and the exact surface's settings, so that
// the first picture is logistic regression with J itself below it.
func (p *planePanel) setUp() {
	start := planeStart(p.IView)
	p.view, p.name, p.set, p.state = p.IView, start.data, start.set, planeReady
	p.edited, p.add, p.psi, p.msg, p.lab, p.scene, p.build, p.warming = false, 0, nil, i18n.Msg{}, nil, nil, nil, false
	p.f = fieldsOf(p.set)
	d, _ := plane.Generate(p.name, start.k, planeSeed)
	p.apply(d, p.set)
	if start.warm {
		p.state, p.warming = planeTraining, true
		p.loop.restart()
	}
}

func (p *planePanel) OnMount(ctx app.Context) {
	p.cv.reset()
	p.loop.start(ctx, p)
	ctx.Defer(func(app.Context) { p.redraw() })
}

// OnUpdate sets the panel up again if the page now shows another of its
// views in its place, and does what the page asks (takeAsk).
func (p *planePanel) OnUpdate(ctx app.Context) {
	if p.IView != p.view {
		p.setUp()
		p.cv.reset()
		ctx.Defer(func(app.Context) {
			p.loop.watch(p.JSValue()) // the view's element replaced the last one
			p.redraw()
		})
	}
	p.takeAsk()
}

func (p *planePanel) OnDismount() { p.loop.stop() }

// OnResize measures the canvases again and redraws them.
func (p *planePanel) OnResize(ctx app.Context) {
	p.cv.reset()
	ctx.Defer(func(app.Context) { p.redraw() })
}

func (p *planePanel) Render() app.UI {
	switch p.IView {
	case planeRegions:
		return p.regionsView()
	case planeSurface:
		return p.surfaceView()
	case planePsi:
		return p.psiView()
	}
	l := p.ILang
	return app.Section().Class("panel plane-panel").Aria("label", l.T("plane.region")).Body(
		app.H2().Text(l.T("plane.title")),
		app.P().Class("note").Body(rich(l.T("plane.note"))...),
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
func (p *planePanel) regions() app.UI {
	return app.Div().Class("plane-stack").Body(
		app.Canvas().ID("plane").Attr("role", "img").Aria("label", p.ILang.T("plane.canvas")),
		app.Canvas().ID("plane-points").Aria("hidden", "true").
			On("pointerdown", p.onPlaneDown),
	)
}

// status is #plane-status; short for a lesson's picture.
func (p *planePanel) status(short bool) app.UI {
	return &planeStatus{ILang: p.ILang, IState: p.state, IStatus: p.st, IPoints: len(p.data.Points), ICounts: p.countsText(), IModel: p.modelText(), IShort: short}
}

// apply makes d and s the panel's data and settings if they are good:
// the live model goes on from where it was on them (or starts again, for
// a new K), and the scene is computed again. What is refused is said
// (msg), and the last good picture stays. It reports whether both were
// taken.
func (p *planePanel) apply(d plane.Data, s plane.Settings) bool {
	if err := d.Check(); err != nil {
		p.refuse(err)
		return false
	}
	p.data, p.msg = d, i18n.Msg{}
	p.dataV++
	var err error
	switch {
	case p.lab == nil || p.lab.Data().K != d.K:
		var lab *plane.Lab
		if lab, err = plane.NewLab(d, s); err == nil {
			p.lab = lab
		}
	default:
		if err = p.lab.SetData(d); err == nil {
			err = p.lab.SetSettings(s)
		}
	}
	if err == nil {
		p.set = s
		if p.state == planeDone {
			p.state = planeReady // the model goes on with a new budget of steps, or starts again
		}
		p.st = p.lab.Status()
		var b *plane.Builder
		if b, err = plane.NewBuilder(d, s); err == nil {
			p.startBuild(b)
		}
	}
	if err != nil {
		p.refuse(err)
		p.stopTraining()
	}
	p.cv.regionsDirty, p.cv.pointsDirty = true, true
	p.loop.wake()
	return err == nil
}

// refuse shows why an input was refused.
func (p *planePanel) refuse(err error) { p.msg = planeRefusal(err) }

// stopTraining ends a run in training: the state goes back to ready.
func (p *planePanel) stopTraining() {
	if p.state == planeTraining {
		p.state, p.warming = planeReady, false
	}
}
