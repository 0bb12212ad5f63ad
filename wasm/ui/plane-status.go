package ui

import (
	"softmaxdemo/wasm/ui/i18n"

	"strconv"

	"softmaxdemo/core/plane"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// planeStatus is the plane's status line (#plane-status): the state of
// its training and the live model's step, training accuracy, J and ‖θ‖,
// as text and, at full precision, as attributes; data-counts holds the
// points of each class, and data-theta θ and b as the model stores them
// (W, then B), for tests that check the regions.
type planeStatus struct {
	app.Compo

	ILang   i18n.Lang
	IState  string
	IStatus plane.Status
	IPoints int    // the points shown (the model may not have taken them, if they were refused)
	ICounts string // the points of each class, comma-separated
	IModel  string // the live model's parameters, comma-separated
	IShort  bool   // the state, step, J and ‖θ‖ only, for a lesson's picture
}

func (s *planeStatus) Render() app.UI {
	l, st := s.ILang, s.IStatus
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	word := map[string]string{planeReady: "plane.ready", planeTraining: "plane.training", planeDone: "plane.done"}[s.IState]
	text := l.T("plane.status", st.Steps, i18n.Percent(st.Accuracy), i18n.Loss(st.Loss), i18n.Loss(st.ThetaNorm), s.IPoints)
	if s.IShort {
		text = l.T("plane.lesson.status", st.Steps, i18n.Loss(st.Loss), i18n.Loss(st.ThetaNorm))
	}
	return app.P().ID("plane-status").Class("plane-status "+s.IState).Attr("aria-live", "polite").
		Attr("data-state", s.IState).Attr("data-steps", st.Steps).Attr("data-points", s.IPoints).
		Attr("data-accuracy", g(st.Accuracy)).Attr("data-loss", g(st.Loss)).Attr("data-theta-norm", g(st.ThetaNorm)).
		Attr("data-counts", s.ICounts).Attr("data-theta", s.IModel).Body(
		app.Strong().Text(l.T(word)),
		app.Text(" "+text),
	)
}
