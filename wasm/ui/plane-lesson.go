package ui

import (
	"math"
	"strconv"

	"softmaxdemo/core/plane"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The plane's pictures for the lesson's chapters: each is the panel with
// its own state, showing one picture and the few controls its chapter
// needs, so that it fits beside the digits on one screen. A chapter shows
// one of them at a time, so every element id stays unique in the page.

// planeView names the part of the plane a page mounts.
type planeView string

const (
	planeWhole   planeView = ""        // the whole panel: the full page's
	planeRegions planeView = "regions" // regions and boundaries, K and Train: the model chapter
	planeSurface planeView = "surface" // the loss surface, its three paths and α: the descent chapter
	planePsi     planeView = "psi"     // the regions, and ψ added to every θ_c: the redundancy chapter
)

// planeAsk asks the panel for α at Times × 2/λ_max, once for each new
// Version: the descent chapter's demonstration of a step too long.
type planeAsk struct {
	Version int
	Times   float64
}

// aboveCeiling is the multiple of 2/λ_max that the descent chapter's
// demonstration sets α to: enough for gradient descent to overshoot at
// every step and zig-zag across the valley, not so much that it leaves
// the picture at once.
const aboveCeiling = 1.5

// planeSetUp is how a view starts: its data set, K and settings, and
// whether it trains at once.
type planeSetUp struct {
	data string
	k    int
	set  plane.Settings
	warm bool // train to the end at full pace as soon as it is shown
}

// planeStart returns how view v starts. The whole panel and the surface
// start from the exact surface's settings (K = 2, class 0 pinned, no
// bias), the surface on overlap, whose J has a minimum. The regions start
// with three classes and a bias, so that three straight boundaries cut the
// plane anywhere, and a little λ, so that training on blobs ends at a
// finite θ. ψ needs class 0 free and no λ (the redundancy chapter's
// settings), and a trained model, whose regions are worth keeping.
func planeStart(v planeView) planeSetUp {
	s := plane.Defaults()
	switch v {
	case planeRegions:
		s.Pin, s.Bias, s.Lambda = false, true, 0.01
		return planeSetUp{data: "blobs", k: 3, set: s}
	case planeSurface:
		return planeSetUp{data: "overlap", k: 2, set: s}
	case planePsi:
		s.Pin, s.Bias = false, true
		return planeSetUp{data: "blobs", k: 3, set: s, warm: true}
	}
	return planeSetUp{data: "blobs", k: 2, set: s}
}

// takeAsk does what the page asked for and the panel can do now: α at
// the multiple of 2/λ_max asked for, once the scene of the data and
// settings in force knows 2/λ_max; a ψ added, once no run is in training.
func (p *planePanel) takeAsk() {
	if n := p.IPsi; n > p.psiAsked && p.state != planeTraining && p.lab != nil {
		p.psiAsked = n
		p.onPsi(app.Context{}, app.Event{})
	}
	a, sc := p.IAbove, p.scene
	if a.Version <= p.asked || sc == nil || p.sceneV != p.dataV || !(a.Times > 0) ||
		!(sc.AlphaMax > 0) || math.IsInf(sc.AlphaMax, 0) {
		return
	}
	p.asked = a.Version
	p.f.LR = strconv.FormatFloat(a.Times*sc.AlphaMax, 'g', 3, 64)
	p.onFields()
}

// regionsView is the model chapter's picture: the regions and
// boundaries, the classes, and Train.
func (p *planePanel) regionsView() app.UI {
	l := p.ILang
	return app.Section().Class("panel plane-panel plane-lesson plane-lesson-regions").Aria("label", l.T("plane.region")).Body(
		p.regions(),
		app.Div().Class("plane-lesson-side").Body(
			app.H2().Text(l.T("plane.lesson.regions")),
			app.Div().Class("plane-lesson-choices").Body(p.kChoice(), p.classChoice()),
			p.trainButtons(),
			p.status(true),
			p.refusal(),
		),
	)
}

// surfaceView is the descent chapter's picture: J over θ's two numbers,
// the paths of gradient descent, SGD and Newton's method from one start,
// and α beside 2/λ_max.
func (p *planePanel) surfaceView() app.UI {
	l := p.ILang
	return app.Section().Class("panel plane-panel plane-lesson plane-lesson-surface").Aria("label", l.T("plane.region")).Body(
		app.H2().Text(l.T("plane.lesson.surfaceTitle")),
		app.P().ID("plane-surface-note").Class("note").Body(rich(l.T("plane.lesson.surface"))...),
		app.Div().Class("plane-lesson-row").Body(
			p.surfaceCanvas(),
			app.Div().Class("plane-lesson-side").Body(
				p.rateField(),
				p.alphaMax(true),
				p.refusal(),
			),
		),
		&planePaths{ILang: l, IScene: p.scene, IShort: true},
		p.noMinimum(),
	)
}

// psiView is the redundancy chapter's picture: the trained regions, and ψ
// added to every θ_c, which changes none of them.
func (p *planePanel) psiView() app.UI {
	l := p.ILang
	return app.Section().Class("panel plane-panel plane-lesson plane-lesson-psi").Aria("label", l.T("plane.region")).Body(
		app.H2().Text(l.T("plane.lesson.psi")),
		p.regions(),
		p.psiButton("plane.lesson.psiAdd"),
		p.psiResult(true),
		p.status(true),
		p.refusal(),
	)
}
