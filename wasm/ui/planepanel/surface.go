package planepanel

import (
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"

	"math"
	"strconv"

	"softmaxdemo/core/plane"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// surfacePart renders the loss surface (surfaceCanvas), what it is
// (#plane-surface-note), its axes, and the paths.
func (p *Panel) surfacePart() app.UI {
	l, sc := p.ILang, p.scene
	desc, axes := l.T("plane.computing"), ""
	if sc != nil {
		desc, axes = l.T("plane.surfaceExact"), l.T("plane.axesExact")
		if !sc.Exact {
			at := l.T("plane.sliceAtZero")
			if sc.HasMin {
				at = l.T("plane.sliceAtMin")
			}
			desc = l.T("plane.surfaceSlice", freeParameters(sc), at, i18n.Loss(sc.LambdaMax), i18n.Loss(sc.Lambda2))
			axes = l.T("plane.axesSlice")
		}
	}
	return app.Div().Class("plane-surface-part").Body(
		app.H3().Text(l.T("plane.surfaceTitle")),
		app.P().ID("plane-surface-note").Class("note").Text(desc),
		app.Div().Class("plane-row").Body(
			app.Div().Class("plane-view").Body(
				p.surfaceCanvas(),
				app.P().Class("note").Text(axes),
			),
			app.Div().Class("plane-side").Body(
				&pathList{ILang: l, IScene: sc},
				p.noMinimum(),
			),
		),
	)
}

// surfaceCanvas is #plane-surface: data-kind exact or slice, data-minimum
// found or none, data-version the scenes drawn so far, data-computing
// whether one is being computed, data-build-ms how long the last took
// from the command that asked for it to its drawing, data-scene its
// checksum; a press or a drag moves the start, and so do the arrow keys
// (#plane-surface-keys, keys.go), which #plane-start follows.
func (p *Panel) surfaceCanvas() app.UI {
	exact, hasMin := false, false
	if sc := p.scene; sc != nil {
		exact, hasMin = sc.Exact, sc.HasMin
	}
	l := p.ILang
	return app.Div().ID("plane-surface-keys").Class("plane-surface-keys").TabIndex(0).Attr("role", "application").
		Aria("label", l.T("plane.surfaceKeys")).Aria("describedby", "plane-start").
		On("keydown", p.onSurfaceKey).On("keyup", p.onSurfaceKeyUp).Body(
		app.Canvas().ID("plane-surface").Attr("role", "img").Aria("label", l.T("plane.surfaceCanvas")).
			Attr("data-kind", map[bool]string{false: "slice", true: "exact"}[exact]).
			Attr("data-minimum", map[bool]string{false: "none", true: "found"}[hasMin]).Attr("data-version", p.timing.scenes).
			Attr("data-computing", kit.YesNo(p.building)).Attr("data-build-ms", strconv.FormatFloat(p.timing.ms, 'f', 1, 64)).
			Attr("data-scene", p.sceneSum).
			On("pointerdown", p.onSurfaceDown).On("pointermove", p.onSurfaceMove).
			On("pointerup", p.onSurfaceUp).On("pointercancel", p.onSurfaceUp),
		p.startLine(),
	)
}

// noMinimum says, when J has no minimum and the data are not separated
// (which the notes explain), that Newton's method found none.
func (p *Panel) noMinimum() app.UI {
	sc := p.scene
	return app.If(sc != nil && !sc.HasMin && !sc.Separated, func() app.UI {
		return app.P().Class("note").Text(p.ILang.T("plane.noMin"))
	})
}

// freeParameters returns the number of θ's numbers the scene's model
// leaves free: 2 weights and a bias (if any) per class, less class 0's if
// it is pinned.
func freeParameters(sc *plane.Scene) int {
	per := 2
	if sc.Settings.Bias {
		per = 3
	}
	n := per * sc.K
	if sc.Settings.Pin {
		n -= per
	}
	return n
}

// alphaMax shows 2/λ_max beside α (#plane-alpha-max: data-value is
// 2/λ_max, data-lambda-max λ_max, data-above yes when α is above it);
// short says it in a sentence, for a lesson's picture.
func (p *Panel) alphaMax(short bool) app.UI {
	l, sc := p.ILang, p.scene
	box := app.Div().ID("plane-alpha-max").Class("note alpha-max")
	if sc == nil {
		return box
	}
	where := l.T("plane.atMin")
	if sc.CurvatureAtStart {
		where = l.T("plane.atStart")
	}
	above := p.set.Rate > sc.AlphaMax
	value := "∞"
	if !math.IsInf(sc.AlphaMax, 0) {
		value = i18n.Loss(sc.AlphaMax)
	}
	says, over := l.T("plane.alphaMax", value, i18n.Loss(sc.LambdaMax), where), l.T("plane.alphaAbove", i18n.Loss(p.set.Rate))
	if short {
		says, over = l.T("plane.lesson.alphaMax", value), l.T("plane.lesson.alphaAbove", i18n.Loss(p.set.Rate))
	}
	return box.Attr("data-value", strconv.FormatFloat(sc.AlphaMax, 'g', -1, 64)).
		Attr("data-lambda-max", strconv.FormatFloat(sc.LambdaMax, 'g', -1, 64)).Attr("data-above", kit.YesNo(above)).Body(
		app.Span().Body(kit.Rich(says)...),
		app.If(above, func() app.UI {
			return app.Strong().Class("alpha-above").Body(kit.Rich(" " + over)...)
		}),
	)
}
