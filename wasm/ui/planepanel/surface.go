package planepanel

import (
	"math"
	"strconv"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// surfacePart renders the loss surface (its canvas), what the scene sc
// is (#plane-surface-note), its axes, and the paths.
func surfacePart(l i18n.Lang, canvas app.UI, sc *plane.Scene) app.UI {
	t := l.T
	desc, axes := t("plane.computing"), ""
	if sc != nil {
		desc, axes = t("plane.surfaceExact"), t("plane.axesExact")
		if !sc.Exact {
			at := t("plane.sliceAtZero")
			if sc.HasMin {
				at = t("plane.sliceAtMin")
			}
			desc = t("plane.surfaceSlice", freeParameters(sc), at, i18n.Loss(sc.LambdaMax), i18n.Loss(sc.Lambda2))
			axes = t("plane.axesSlice")
		}
	}
	return app.Div().Class("plane-surface-part").Body(
		app.H3().Text(t("plane.surfaceTitle")),
		app.P().ID("plane-surface-note").Class("note").Text(desc),
		app.Div().Class("plane-row").Body(
			app.Div().Class("plane-view").Body(
				canvas,
				app.P().Class("note").Text(axes),
			),
			app.Div().Class("plane-side").Body(
				&pathList{ILang: l, IScene: sc},
				noMinimum(l, sc),
			),
		),
	)
}

// noMinimum says, when J has no minimum and the data are not separated
// (which the notes explain), that Newton's method found none.
func noMinimum(l i18n.Lang, sc *plane.Scene) app.UI {
	return app.If(sc != nil && !sc.HasMin && !sc.Separated, func() app.UI {
		return app.P().Class("note").Text(l.T("plane.noMin"))
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

// alphaMax shows 2/λ_max of the scene sc beside α = rate
// (#plane-alpha-max: data-value is 2/λ_max, data-lambda-max λ_max,
// data-above yes when α is above it); short says it in a sentence, for a
// lesson's picture.
func alphaMax(l i18n.Lang, sc *plane.Scene, rate float64, short bool) app.UI {
	box := app.Div().ID("plane-alpha-max").Class("note alpha-max")
	if sc == nil {
		return box
	}
	where := l.T("plane.atMin")
	if sc.CurvatureAtStart {
		where = l.T("plane.atStart")
	}
	above := rate > sc.AlphaMax
	value := "∞"
	if !math.IsInf(sc.AlphaMax, 0) {
		value = i18n.Loss(sc.AlphaMax)
	}
	says, over := l.T("plane.alphaMax", value, i18n.Loss(sc.LambdaMax), where), l.T("plane.alphaAbove", i18n.Loss(rate))
	if short {
		says, over = l.T("plane.lesson.alphaMax", value), l.T("plane.lesson.alphaAbove", i18n.Loss(rate))
	}
	return box.Attr("data-value", strconv.FormatFloat(sc.AlphaMax, 'g', -1, 64)).
		Attr("data-lambda-max", strconv.FormatFloat(sc.LambdaMax, 'g', -1, 64)).Attr("data-above", kit.YesNo(above)).Body(
		app.Span().Body(kit.Rich(says)...),
		app.If(above, func() app.UI {
			return app.Strong().Class("alpha-above").Body(kit.Rich(" " + over)...)
		}),
	)
}
