package planepanel

import (
	"strconv"

	"softmaxdemo/wasm/ui/i18n"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// statusLine is the plane's status line (#plane-status): the state of
// its training and the live model's step, training accuracy, J and ‖θ‖,
// as text and, at full precision, as attributes; data-counts holds the
// points of each class, and data-theta θ and b as the model stores them
// (W, then B), for tests that check the regions.
//
// It reads the panel's state as it renders, rather than taking it as
// props: a frame that moves only these numbers renders the line alone
// (loop.go), not the panel, nor the page and the rooms above it, which
// go-app would render with every component that contains the line. It
// renders with the panel too (IRender changes).
type statusLine struct {
	app.Compo

	IPanel  *Panel
	IShort  bool // the state, step, J and ‖θ‖ only, for a lesson's picture
	IRender int  // the panel's render it belongs to
}

// OnMount gives the panel the line's context, for the frames that render
// it alone.
func (s *statusLine) OnMount(ctx app.Context) { s.IPanel.lineCtx = &ctx }

func (s *statusLine) OnDismount() { forgetCtx(&s.IPanel.lineCtx, s) }

// forgetCtx clears the panel's slot for c's context as c dismounts,
// unless a component mounted since holds it.
func forgetCtx(slot **app.Context, c app.UI) {
	if *slot != nil && (*slot).Src() == c {
		*slot = nil
	}
}

func (s *statusLine) Render() app.UI {
	p := s.IPanel
	l, st, state, points := p.ILang, p.st, p.state, len(p.data.Points)
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	word := map[string]string{stateReady: "plane.ready", stateTraining: "plane.training", stateDone: "plane.done"}[state]
	text := l.T("plane.status", st.Steps, i18n.Percent(st.Accuracy), i18n.Loss(st.Loss), i18n.Loss(st.ThetaNorm), points)
	if s.IShort {
		text = l.T("plane.lesson.status", st.Steps, i18n.Loss(st.Loss), i18n.Loss(st.ThetaNorm))
	}
	return app.P().ID("plane-status").Class("plane-status "+state).Attr("aria-live", "polite").
		Attr("data-state", state).Attr("data-steps", st.Steps).Attr("data-points", points).
		Attr("data-accuracy", g(st.Accuracy)).Attr("data-loss", g(st.Loss)).Attr("data-theta-norm", g(st.ThetaNorm)).
		Attr("data-counts", p.countsText()).Attr("data-theta", p.modelText()).Body(
		app.Strong().Text(l.T(word)),
		app.Text(" "+text),
	)
}
