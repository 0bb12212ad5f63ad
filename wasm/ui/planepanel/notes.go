package planepanel

import (
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"

	"errors"
	"strconv"

	"softmaxdemo/core/plane"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// notes says what is worth saying about the data and the model, and
// (#plane-error) why the last input was refused, with how to recover.
func (p *Panel) notes() app.UI {
	l := p.ILang
	var says []i18n.Msg
	for _, n := range p.data.Notes() {
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
	separated := p.st.Separated || (p.scene != nil && p.scene.Separated)
	switch {
	case separated && p.set.Lambda == 0:
		says = append(says, i18n.Text("plane.separated"))
	case p.name == "separable" && !p.edited && p.set.Lambda > 0:
		says = append(says, i18n.Text("plane.lambdaStops"))
	}
	if p.name == "ring" && !p.edited {
		says = append(says, i18n.Text("plane.ring"))
	}
	return app.Div().Class("plane-notes").Body(
		p.refusal(),
		app.Ul().ID("plane-notes").Body(app.Range(says).Slice(func(i int) app.UI {
			return app.Li().Attr("data-note", says[i].Key).Body(kit.Rich(l.M(says[i]))...)
		})),
	)
}

// refusal is #plane-error: why the last input was refused, if it was.
func (p *Panel) refusal() app.UI {
	l := p.ILang
	return app.Div().ID("plane-error").Class("field-error").Attr("role", "alert").Body(
		app.If(!p.refused.IsZero(), func() app.UI {
			return app.Text(l.M(p.refused) + " " + l.T("plane.kept"))
		}),
	)
}

// psiResult shows what adding ψ did (#plane-psi-result); short says it
// in a sentence, for a lesson's picture.
func (p *Panel) psiResult(short bool) app.UI {
	box := app.P().ID("plane-psi-result").Class("note")
	r := p.psi
	if r == nil {
		return box
	}
	num := func(v float64) string { return i18n.Weight(v) }
	small := func(v float64) string { return strconv.FormatFloat(v, 'g', 2, 64) }
	text := p.ILang.T("plane.psiResult", num(r.Psi[0]), num(r.Psi[1]), num(r.Psi[2]),
		i18n.Loss(r.NormBefore), i18n.Loss(r.NormAfter), small(r.MaxDZ), small(r.MaxDP))
	if short {
		text = p.ILang.T("plane.lesson.psiResult", i18n.Loss(r.NormBefore), i18n.Loss(r.NormAfter), small(r.MaxDP))
	}
	return box.Attr("data-max-dp", strconv.FormatFloat(r.MaxDP, 'g', -1, 64)).
		Attr("data-dnorm", strconv.FormatFloat(r.NormAfter-r.NormBefore, 'g', -1, 64)).Text(text)
}

// refusal says why core/plane refused an input, in the page's
// words.
func refusal(err error) i18n.Msg {
	var e *plane.InputError
	if !errors.As(err, &e) {
		return i18n.Text("raw", err.Error())
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
	x, y := num(e.Point.X[0]), num(e.Point.X[1])
	switch e.Problem {
	case plane.NotFinite:
		return i18n.Text("plane.notFinite", x, y)
	case plane.OutsideView:
		return i18n.Text("plane.outside", x, y)
	case plane.NoSuchClass:
		return i18n.Text("plane.noSuchClass", e.Class, int(e.Value))
	case plane.TooManyPoints:
		return i18n.Text("plane.tooMany", plane.MaxPoints)
	case plane.BadClasses:
		return i18n.Text("plane.badK", num(e.Value))
	case plane.RemovedClass:
		return i18n.Text("plane.removed", num(e.Value), e.Count, e.Class)
	case plane.NoPoints:
		return i18n.Text("plane.noPoints")
	case plane.BadRate:
		return i18n.Text("plane.badRate", num(e.Value))
	case plane.BadLambda:
		return i18n.Text("plane.badLambda", num(e.Value))
	case plane.BadBatch:
		return i18n.Text("plane.badBatch", num(e.Value), e.Count)
	case plane.BadStart:
		return i18n.Text("plane.badStart")
	case plane.BadSteps:
		return i18n.Text("plane.badSteps", num(e.Value))
	case plane.UnknownData:
		return i18n.Text("plane.unknownData", e.Name)
	case plane.Pinned:
		return i18n.Text("plane.pinned")
	case plane.BadTheta:
		return i18n.Text("plane.badTheta", e.Class, num(e.Value))
	}
	return i18n.Text("raw", err.Error())
}
