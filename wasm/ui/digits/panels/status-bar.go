package panels

import (
	"softmaxdemo/wasm/ui/i18n"

	"fmt"
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// StatusBar shows the state, the epoch with a progress bar, the speed and
// the test accuracy. Its elements carry data-* attributes with the raw
// values, for tests and for anyone reading the page with tools.
type StatusBar struct {
	app.Compo

	ILang     i18n.Lang
	IState    string
	IText     i18n.Msg
	IEpoch    int // epochs completed
	IEpochs   int
	IFraction float64 // progress through the run, 0..1
	IPerSec   float64
	IAccuracy float64 // NaN before the first evaluation
	ILikeli   float64 // the likelihood value, NaN before the first evaluation
	IRun      int     // the worker's run id, 0 before the first run
	IStep     int     // steps taken in that run
}

func NewStatusBar() *StatusBar { return &StatusBar{IAccuracy: math.NaN(), ILikeli: math.NaN()} }

func (s *StatusBar) Render() app.UI {
	l := s.ILang
	return app.Section().Class("status-bar").Aria("label", l.T("stat.region")).Body(
		app.Div().ID("status").Class("status "+s.IState).Attr("data-state", s.IState).Attr("data-run", s.IRun).Attr("data-step", s.IStep).
			Attr("role", "status").Text(l.M(s.IText)),
		s.epoch(),
		s.speed(),
		s.accuracy(),
		s.likelihood(),
	)
}

// stat is one figure of the bar: its label, then the value's elements.
func stat(label string, value ...app.UI) app.HTMLDiv {
	return app.Div().Class("stat").Body(append([]app.UI{app.Span().Class("stat-label").Text(label)}, value...)...)
}

// epoch is the epochs completed of the run's, and its progress.
func (s *StatusBar) epoch() app.UI {
	l := s.ILang
	epoch := "–"
	if s.IEpochs > 0 {
		epoch = l.T("stat.epochOf", s.IEpoch, s.IEpochs)
	}
	return stat(l.T("stat.epoch"),
		app.Span().ID("epoch").Class("stat-value").Attr("data-value", s.IEpoch).Text(epoch),
		app.Progress().ID("run-progress").Max(1).Value(math.Max(0, math.Min(1, s.IFraction))).Aria("label", l.T("stat.progress")),
	)
}

// speed is the examples trained on each second.
func (s *StatusBar) speed() app.UI {
	l := s.ILang
	speed := "–"
	if s.IPerSec > 0 {
		speed = l.T("stat.rate", fmtRate(s.IPerSec))
	}
	return stat(l.T("stat.speed"), app.Span().ID("examples-per-second").Class("stat-value").Attr("data-value", int64(s.IPerSec)).Text(speed))
}

// accuracy is the test accuracy, its exact value in data-value.
func (s *StatusBar) accuracy() app.UI {
	l := s.ILang
	acc, value := "–", ""
	if !math.IsNaN(s.IAccuracy) {
		acc = i18n.Percent(s.IAccuracy)
		value = strconv.FormatFloat(s.IAccuracy, 'f', 4, 64)
	}
	return stat(l.T("stat.accuracy"), app.Span().ID("test-accuracy").Class("stat-value big").Attr("data-value", value).Text(acc))
}

// likelihood is the likelihood value of the notes, with what it means on
// hover or focus (a tap on a touch screen focuses it).
func (s *StatusBar) likelihood() app.UI {
	l := s.ILang
	likeli, value := "–", ""
	if !math.IsNaN(s.ILikeli) {
		likeli = i18n.Likelihood(s.ILikeli)
		value = strconv.FormatFloat(s.ILikeli, 'g', -1, 64)
	}
	return stat(l.T("stat.likelihood"),
		app.Span().ID("likelihood").Class("stat-value").Attr("data-value", value).Attr("tabindex", 0).
			Title(l.T("stat.likelihoodWhy")).Aria("describedby", "likelihood-why").Text(likeli),
		app.Span().ID("likelihood-why").Class("why").Attr("role", "tooltip").Text(l.T("stat.likelihoodWhy")),
	).Class("explained")
}

// fmtRate formats a rate compactly, the same in every language: 950,
// 12k, 1.2M.
func fmtRate(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.0fk", v/1e3)
	case v >= 1e3:
		return fmt.Sprintf("%.1fk", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}

// Run sets the run id and its step count, which #status carries as
// data-run and data-step.
func (s *StatusBar) Run(id, step int) *StatusBar { s.IRun, s.IStep = id, step; return s }

// Likelihood sets the likelihood value shown, NaN for none.
func (s *StatusBar) Likelihood(v float64) *StatusBar { s.ILikeli = v; return s }

// With sets every input but the run and the likelihood at once.
func (s *StatusBar) With(l i18n.Lang, state string, text i18n.Msg, epoch, epochs int, fraction, perSec, acc float64) *StatusBar {
	s.ILang, s.IState, s.IText, s.IEpoch, s.IEpochs = l, state, text, epoch, epochs
	s.IFraction, s.IPerSec, s.IAccuracy = fraction, perSec, acc
	return s
}
