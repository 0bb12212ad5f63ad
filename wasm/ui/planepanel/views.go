package planepanel

import (
	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/planework"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/params"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The plane's pictures for a lesson: each is the panel with its own
// state, showing one picture and the few controls its point needs, so
// that it fits beside the digits on one screen. A page shows one of them
// at a time, so that every element id stays unique.

// View names the part of the plane a page mounts.
type View string

const (
	Whole   View = ""        // the whole panel
	Regions View = "regions" // regions and boundaries, K and Train
	Surface View = "surface" // the loss surface, its three paths and α
	Psi     View = "psi"     // the regions, and ψ added to every θ_c
	Hand    View = "hand"    // two classes, the line set by hand (#plane-theta or a drag), and Train
)

// AboveCeiling is the multiple of 2/λ_max that shows a step too long:
// enough for gradient descent to overshoot at every step and zig-zag
// across the valley, not so much that it leaves the picture at once.
const AboveCeiling = 1.5

// setUpFor is how a view starts: its data set, K and settings, and
// whether it trains at once.
type setUpFor struct {
	data string
	k    int
	set  plane.Settings
	warm bool // train to the end at full pace as soon as it is shown
}

// start returns how view v starts. The whole panel and the surface start
// from the exact surface's settings (K = 2, class 0 pinned, no bias), the
// surface on overlap, whose J has a minimum. The regions start with three
// classes and a bias, so that three straight boundaries cut the plane
// anywhere, and a little λ, so that training on blobs ends at a finite θ.
// ψ needs class 0 free and no λ, and a trained model, whose regions are
// worth keeping.
func start(v View) setUpFor {
	s := plane.Defaults()
	switch v {
	case Regions:
		s.Pin, s.Bias, s.Lambda = false, true, 0.01
		return setUpFor{data: "blobs", k: 3, set: s}
	case Surface:
		return setUpFor{data: "overlap", k: 2, set: s}
	case Psi:
		s.Pin, s.Bias = false, true
		return setUpFor{data: "blobs", k: 3, set: s, warm: true}
	case Hand:
		return setUpFor{data: "overlap", k: 2, set: s}
	}
	return setUpFor{data: "blobs", k: 2, set: s}
}

// showStart shows the view's start until the worker says more: the data
// set's name and points (made from the same seed as the worker makes
// them), K and the settings, with no model yet.
func (p *Panel) showStart() {
	s := start(p.IView)
	d, _ := plane.Generate(s.data, s.k, planework.Seed)
	*p = Panel{Compo: p.Compo, ILang: p.ILang, IPace: p.IPace, IView: p.IView, IWorker: p.IWorker,
		lineCtx: p.lineCtx, thetaCtx: p.thetaCtx, renders: p.renders, pace: p.pace, cv: p.cv, seen: p.seen, view: p.IView, setup: -1,
		state: stateReady, name: s.data, data: d, set: s.set, f: fieldsOf(s.set),
		building: true} // until the worker has the view's scene
}

// setUp asks the worker for the view's start.
func (p *Panel) setUp() {
	s := start(p.IView)
	p.view, p.setDone = p.IView, true
	if w := p.IWorker; w != nil {
		p.setup = w.nextSetup()
	}
	p.timing.asked = now()
	p.send(protocol.PlaneSetUp{Setup: p.setup, Data: s.data, K: s.k, Settings: s.set, Warm: s.warm})
	p.sendPace()
	for _, m := range p.early {
		p.send(m)
	}
	p.early = nil
}

// afterSetUp sends m, a demonstration the page asks of the view, once
// the worker has been set up for the view: a set-up sent after it would
// start the plane again and lose it (a question answered the moment its
// chapter opens, before the panel is near enough to be set up).
func (p *Panel) afterSetUp(m protocol.Msg) {
	if !p.setDone {
		p.early = append(p.early, m)
		return
	}
	p.send(m)
}

// sendPace tells the worker the page's pace, when it changed.
func (p *Panel) sendPace() {
	if p.IPace == p.pace && p.pace != "" {
		return
	}
	p.pace = p.IPace
	rate, ok := params.PaceRate(p.pace)
	if !ok {
		rate, _ = params.PaceRate(params.DefaultPace)
	}
	p.send(protocol.PlanePace{StepsPerSecond: rate})
}

// regionsView is the regions and boundaries, the classes, and Train.
func (p *Panel) regionsView() app.UI {
	return p.trainedBeside("regions", "plane.lesson.regions", app.Div().Class("plane-lesson-choices").Body(p.kChoice(), p.classChoice()))
}

// trainedBeside is the lesson view called name: the regions, and beside
// them the title (a catalog key), controls, Train, the status and a
// refusal.
func (p *Panel) trainedBeside(name, title string, controls app.UI) app.UI {
	return p.lessonView(name,
		p.regions(),
		app.Div().Class("plane-lesson-side").Body(
			app.H2().Text(p.ILang.T(title)),
			controls,
			p.trainButtons(),
			p.status(true),
			p.refusal(),
		),
	)
}

// lessonView is the section of the lesson view name, holding body.
func (p *Panel) lessonView(name string, body ...app.UI) app.UI {
	return app.Section().Class("panel plane-panel plane-lesson plane-lesson-"+name).Aria("label", p.ILang.T("plane.region")).Body(body...)
}

// surfaceView is J over θ's two numbers, the paths of gradient descent,
// SGD and Newton's method from one start, and α beside 2/λ_max.
func (p *Panel) surfaceView() app.UI {
	l := p.ILang
	return p.lessonView("surface",
		app.H2().Text(l.T("plane.lesson.surfaceTitle")),
		app.P().ID("plane-surface-note").Class("note").Body(kit.Rich(l.T("plane.lesson.surface"))...),
		app.Div().Class("plane-lesson-row").Body(
			p.surfaceCanvas(),
			app.Div().Class("plane-lesson-side").Body(
				p.rateField(),
				p.alphaMax(true),
				p.refusal(),
			),
		),
		&pathList{ILang: l, IScene: p.scene, IShort: true},
		p.noMinimum(),
	)
}

// handView is the regions of two overlapping classes, whose one line a
// person sets by hand (#plane-theta, or the line dragged on #plane), and
// Train, which goes on from it. It starts from the line of θ₁ = the
// settings' start, not from θ = 0, which has no line to take hold of.
func (p *Panel) handView() app.UI { return p.trainedBeside("hand", "plane.lesson.hand", p.thetaPart()) }

// psiView is the trained regions, and ψ added to every θ_c, which
// changes none of them.
func (p *Panel) psiView() app.UI {
	return p.lessonView("psi",
		app.H2().Text(p.ILang.T("plane.lesson.psi")),
		p.regions(),
		p.psiButton("plane.lesson.psiAdd"),
		p.psiResult(true),
		p.status(true),
		p.refusal(),
	)
}
