package planepanel

import (
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/planepanel/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// layout lays out the views of one of the room's renders, from a
// snapshot of the plane and its live part: the whole room, or one of the
// lesson's pictures (view.go).
type layout struct {
	lang i18n.Lang
	view View
	s    store.Snapshot
	live live
}

// whole is the whole room: the regions, the status, the notes and θ
// beside the controls, and the loss surface below.
func (l layout) whole() app.UI {
	return app.Section().Class("panel plane-panel").Aria("label", l.lang.T("plane.region")).Body(
		app.H2().Text(l.lang.T("plane.title")),
		app.P().Class("note").Body(kit.Rich(l.lang.T("plane.note"))...),
		app.Div().Class("plane-row").Body(
			app.Div().Class("plane-view").Body(
				l.regions(),
				l.status(false),
				notes(l.lang, l.s),
				l.theta(),
			),
			controls(l.lang, l.s),
		),
		surfacePart(l.lang, l.surface(), l.s.Scene),
	)
}

// regionsView is the regions and boundaries, the classes, and Train.
func (l layout) regionsView() app.UI {
	return l.trainedBeside("regions", "plane.lesson.regions",
		app.Div().Class("plane-lesson-choices").Body(kChoice(l.lang, l.s.Data.K), classChoice(l.lang, l.s.Data.K, l.s.Add)))
}

// handView is the regions of two overlapping classes, whose one line a
// person sets by hand (#plane-theta, or the line dragged on #plane), and
// Train, which goes on from it. In a class, a student's #plane-send follows θ, and the presenter's
// #plane-class shows the class's lines below.
func (l layout) handView() app.UI {
	c := l.s.Class
	side := l.theta()
	if c.Part == store.Student {
		side = app.Div().Class("plane-hand-theta").Body(side, &sendLine{ILang: l.lang, IClass: c, IBase: l.live.base})
	}
	var below []app.UI
	if c.Part == store.Presenter {
		below = append(below, &classPicture{ILang: l.lang, IData: l.s.Data, IClass: c})
	}
	return l.trainedBeside("hand", "plane.lesson.hand", side, below...)
}

// trainedBeside is the lesson view called name: the regions, and beside
// them the title (a catalog key), controls, Train, the status and a
// refusal; below them, what below holds.
func (l layout) trainedBeside(name, title string, controls app.UI, below ...app.UI) app.UI {
	return l.lessonView(name, append([]app.UI{
		l.regions(),
		app.Div().Class("plane-lesson-side").Body(
			app.H2().Text(l.lang.T(title)),
			controls,
			trainButtons(l.lang, l.s),
			l.status(true),
			refusal(l.lang, l.s.Refused),
		),
	}, below...)...)
}

// lessonView is the section of the lesson view name, holding body.
func (l layout) lessonView(name string, body ...app.UI) app.UI {
	return app.Section().Class("panel plane-panel plane-lesson plane-lesson-"+name).Aria("label", l.lang.T("plane.region")).Body(body...)
}

// surfaceView is J over θ's two numbers, the paths of gradient descent,
// SGD and Newton's method from one start, and α beside 2/λ_max.
func (l layout) surfaceView() app.UI {
	return l.lessonView("surface",
		app.H2().Text(l.lang.T("plane.lesson.surfaceTitle")),
		app.P().ID("plane-surface-note").Class("note").Body(kit.Rich(l.lang.T("plane.lesson.surface"))...),
		app.Div().Class("plane-lesson-row").Body(
			l.surface(),
			app.Div().Class("plane-lesson-side").Body(
				rateField(l.lang, l.s.Fields),
				alphaMax(l.lang, l.s.Scene, l.s.Settings.Rate, true),
				refusal(l.lang, l.s.Refused),
			),
		),
		&pathList{ILang: l.lang, IScene: l.s.Scene, IShort: true},
		noMinimum(l.lang, l.s.Scene),
	)
}

// psiView is the trained regions, and ψ added to every θ_c, which
// changes none of them.
func (l layout) psiView() app.UI {
	return l.lessonView("psi",
		app.H2().Text(l.lang.T("plane.lesson.psi")),
		l.regions(),
		psiButton(l.lang, "plane.lesson.psiAdd"),
		psiResult(l.lang, l.s.Psi, true),
		l.status(true),
		refusal(l.lang, l.s.Refused),
	)
}

// regions is the plane's canvases (regions-canvas.go).
func (l layout) regions() app.UI {
	return &regionsCanvas{ILang: l.lang, IView: l.view, IData: l.s.Data, IModel: l.s.Model, IBias: l.s.Settings.Bias}
}

// status is #plane-status; short for a lesson's picture.
func (l layout) status(short bool) app.UI {
	return &statusLine{ILang: l.lang, IShort: short, IStatus: l.live.status}
}

// theta is #plane-theta.
func (l layout) theta() app.UI {
	set := l.s.Settings
	return &thetaTable{ILang: l.lang, IK: l.s.Data.K, IBias: set.Bias, IPin: set.Pin, IExact: set.Exact(l.s.Data.K), ITheta: l.live.theta}
}

// surface is the loss surface's canvas (surface-canvas.go).
func (l layout) surface() app.UI {
	s := l.s
	return &surfaceCanvas{ILang: l.lang, IView: l.view, IScene: s.Scene, IStart: s.Settings.Start,
		IBuilding: s.Building, IScenes: s.Scenes, IBuildMS: s.BuildMS, ISum: s.SceneSum, IClass: s.Class.Lines}
}
