package planepanel

import (
	"strconv"

	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/planepanel/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// statusLine is the plane's status line (#plane-status): the state of
// its training and the live model's step, training accuracy, J and ‖θ‖,
// as text and, at full precision, as attributes; data-counts holds the
// points of each class, and data-theta θ and b as the model stores them
// (W, then B), for tests that check the regions. A live view (live.go):
// a frame that moves only its numbers renders it alone.
type statusLine struct {
	app.Compo

	ILang   i18n.Lang
	IShort  bool // the state, step, J and ‖θ‖ only, for a lesson's picture
	IStatus statusLive
}

// OnMount asks for the live numbers.
func (s *statusLine) OnMount(ctx app.Context) { watchLive.Post(ctx, watching{ctx: ctx, view: s}) }

// take takes the live numbers, and renders if they changed.
func (s *statusLine) take(l live) bool {
	if l.status == s.IStatus {
		return false
	}
	s.IStatus = l.status
	return true
}

// Render shows the line.
func (s *statusLine) Render() app.UI {
	l, v := s.ILang, s.IStatus
	st := v.Status
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	word := map[string]string{store.Ready: "plane.ready", store.Training: "plane.training", store.Done: "plane.done"}[v.State]
	text := l.T("plane.status", st.Steps, i18n.Percent(st.Accuracy), i18n.Loss(st.Loss), i18n.Loss(st.ThetaNorm), v.Points)
	if s.IShort {
		text = l.T("plane.lesson.status", st.Steps, i18n.Loss(st.Loss), i18n.Loss(st.ThetaNorm))
	}
	return app.P().ID("plane-status").Class("plane-status "+v.State).Attr("aria-live", "polite").
		Attr("data-state", v.State).Attr("data-steps", st.Steps).Attr("data-points", v.Points).
		Attr("data-accuracy", g(st.Accuracy)).Attr("data-loss", g(st.Loss)).Attr("data-theta-norm", g(st.ThetaNorm)).
		Attr("data-counts", v.Counts).Attr("data-theta", v.Theta).Body(
		app.Strong().Text(l.T(word)),
		app.Text(" "+text),
	)
}
