package store

import (
	"fmt"
	"math"
	"strconv"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
)

// What the status line and the status bar's figures say of the state.

// TestAccuracy returns the latest test accuracy, or NaN before the first.
func (s *State) TestAccuracy() float64 {
	if s.Eval == nil {
		return math.NaN()
	}
	return s.Eval.Accuracy
}

// StatusText is the status line a person reads.
func (s *State) StatusText() i18n.Msg {
	switch s.Status {
	case StatusLoading:
		if s.Loading.Total > 0 {
			return i18n.Text("status.loadingData", fmt.Sprintf("%.0f%%", 100*float64(s.Loading.Received)/float64(s.Loading.Total)))
		}
		return i18n.Text("status.loading")
	case StatusReady:
		return i18n.Text("status.ready", i18n.Count(s.TrainN), i18n.Count(s.TestN))
	case StatusTraining:
		if s.Progress.Method == "newton" {
			return i18n.Text("status.newton", s.Progress.Iteration)
		}
		return i18n.Text("status.training")
	case StatusPaused:
		return i18n.Text("status.paused")
	case StatusDone:
		if s.Progress.Method == "newton" {
			return newtonStop(s.Progress)
		}
		switch s.Progress.Stop {
		case "diverged":
			return i18n.Text("status.diverged")
		case "converged":
			return i18n.Text("status.converged")
		}
		return i18n.Text("status.done")
	case StatusError:
		return i18n.Text("status.error")
	}
	return i18n.Text("raw", s.Status)
}

// newtonStop is the status text of a Newton run that has ended.
func newtonStop(p protocol.Progress) i18n.Msg {
	g := strconv.FormatFloat(p.GradNorm, 'e', 2, 64)
	switch p.Stop {
	case "converged":
		return i18n.Text("newton.stop.converged", g, p.Iteration)
	case "budget":
		return i18n.Text("newton.stop.budget", g, p.Iteration)
	case "line search failed":
		return i18n.Text("newton.stop.linesearch", g, p.Iteration)
	case "not descent":
		return i18n.Text("newton.stop.notdescent", g, p.Iteration)
	case "singular":
		return i18n.Text("newton.stop.singular", g, p.Iteration)
	}
	return i18n.Text("newton.stop.diverged", g, p.Iteration)
}
