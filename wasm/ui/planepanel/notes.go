package planepanel

import (
	"strconv"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/planepanel/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// notes says what is worth saying about the data and the model of the
// plane s, and (#plane-error) why the last input was refused, with how to
// recover.
func notes(l i18n.Lang, s store.Snapshot) app.UI {
	var says []i18n.Msg
	for _, n := range s.Data.Notes() {
		switch n.Kind {
		case plane.EmptyClass:
			says = append(says, i18n.Text("plane.emptyClass", n.Class))
		case plane.OnePoint:
			says = append(says, i18n.Text("plane.onePoint"))
		case plane.OneClass:
			says = append(says, i18n.Text("plane.oneClass", n.Class))
		case plane.Duplicates:
			says = append(says, i18n.Text("plane.duplicates", n.Count))
		}
	}
	separated := s.Status.Separated || (s.Scene != nil && s.Scene.Separated)
	switch {
	case separated && s.Settings.Lambda == 0:
		says = append(says, i18n.Text("plane.separated"))
	case s.Name == "separable" && !s.Edited && s.Settings.Lambda > 0:
		says = append(says, i18n.Text("plane.lambdaStops"))
	}
	if s.Name == "ring" && !s.Edited {
		says = append(says, i18n.Text("plane.ring"))
	}
	return app.Div().Class("plane-notes").Body(
		refusal(l, s.Refused),
		app.Ul().ID("plane-notes").Body(app.Range(says).Slice(func(i int) app.UI {
			return app.Li().Attr("data-note", says[i].Key).Body(kit.Rich(l.M(says[i]))...)
		})),
	)
}

// refusal is #plane-error: why the last input was refused, if it was.
func refusal(l i18n.Lang, refused i18n.Msg) app.UI {
	return app.Div().ID("plane-error").Class("field-error").Attr("role", "alert").Body(
		app.If(!refused.IsZero(), func() app.UI {
			return app.Text(l.M(refused) + " " + l.T("plane.kept"))
		}),
	)
}

// psiResult shows what adding ψ did (#plane-psi-result); short says it
// in a sentence, for a lesson's picture.
func psiResult(l i18n.Lang, r *plane.Psi, short bool) app.UI {
	box := app.P().ID("plane-psi-result").Class("note")
	if r == nil {
		return box
	}
	num := func(v float64) string { return i18n.Weight(v) }
	small := func(v float64) string { return strconv.FormatFloat(v, 'g', 2, 64) }
	text := l.T("plane.psiResult", num(r.Psi[0]), num(r.Psi[1]), num(r.Psi[2]),
		i18n.Loss(r.NormBefore), i18n.Loss(r.NormAfter), small(r.MaxDZ), small(r.MaxDP))
	if short {
		text = l.T("plane.lesson.psiResult", i18n.Loss(r.NormBefore), i18n.Loss(r.NormAfter), small(r.MaxDP))
	}
	return box.Attr("data-max-dp", strconv.FormatFloat(r.MaxDP, 'g', -1, 64)).
		Attr("data-dnorm", strconv.FormatFloat(r.NormAfter-r.NormBefore, 'g', -1, 64)).Text(text)
}
