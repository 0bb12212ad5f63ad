package ui

import (
	"fmt"
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// statusBar shows the state, the epoch with a progress bar, the speed and
// the test accuracy. Its elements carry data-* attributes with the raw
// values, for tests and for anyone reading the page with tools.
type statusBar struct {
	app.Compo

	IState    string
	IText     string
	IEpoch    int // epochs completed
	IEpochs   int
	IFraction float64 // progress through the run, 0..1
	IPerSec   float64
	IAccuracy float64 // NaN before the first evaluation
	IRun      int     // the worker's run id, 0 before the first run
	IStep     int     // steps taken in that run
}

func newStatusBar() *statusBar { return &statusBar{IAccuracy: math.NaN()} }

func (s *statusBar) Render() app.UI {
	acc, accValue := "–", ""
	if !math.IsNaN(s.IAccuracy) {
		acc = fmt.Sprintf("%.1f%%", 100*s.IAccuracy)
		accValue = strconv.FormatFloat(s.IAccuracy, 'f', 4, 64)
	}
	speed := "–"
	if s.IPerSec > 0 {
		speed = humanRate(s.IPerSec)
	}
	epoch := "–"
	if s.IEpochs > 0 {
		epoch = fmt.Sprintf("%d of %d", s.IEpoch, s.IEpochs)
	}
	return app.Section().Class("status-bar").Aria("label", "Status").Body(
		app.Div().ID("status").Class("status "+s.IState).Attr("data-state", s.IState).Attr("data-run", s.IRun).Attr("data-step", s.IStep).
			Attr("role", "status").Text(s.IText),
		app.Div().Class("stat").Body(
			app.Span().Class("stat-label").Text("Epoch"),
			app.Span().ID("epoch").Class("stat-value").Attr("data-value", s.IEpoch).Text(epoch),
			app.Progress().ID("run-progress").Max(1).Value(math.Max(0, math.Min(1, s.IFraction))).Aria("label", "training progress"),
		),
		app.Div().Class("stat").Body(
			app.Span().Class("stat-label").Text("Speed"),
			app.Span().ID("examples-per-second").Class("stat-value").Attr("data-value", int64(s.IPerSec)).Text(speed),
		),
		app.Div().Class("stat").Body(
			app.Span().Class("stat-label").Text("Test accuracy"),
			app.Span().ID("test-accuracy").Class("stat-value big").Attr("data-value", accValue).Text(acc),
		),
	)
}

// humanRate formats examples per second: 950/s, 12k/s, 1.2M/s.
func humanRate(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.1fM images/s", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.0fk images/s", v/1e3)
	case v >= 1e3:
		return fmt.Sprintf("%.1fk images/s", v/1e3)
	}
	return fmt.Sprintf("%.0f images/s", v)
}

// Run sets the run id and its step count, which #status carries as
// data-run and data-step.
func (s *statusBar) Run(id, step int) *statusBar { s.IRun, s.IStep = id, step; return s }

// withState sets every input at once.
func (s *statusBar) withState(state, text string, epoch, epochs int, fraction, perSec, acc float64) *statusBar {
	s.IState, s.IText, s.IEpoch, s.IEpochs = state, text, epoch, epochs
	s.IFraction, s.IPerSec, s.IAccuracy = fraction, perSec, acc
	return s
}
