package store

import (
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/chart"
)

// The instrument's own changes of state, besides the worker's events
// (Apply): each method is one decision, named for it.

// Asked records the settings of the run the worker was last asked to
// train, step, reset or take a model into, which is not a branch (until
// Branching says it is); a run that starts clears the error shown.
func (s *State) Asked(c protocol.Config, fresh bool) {
	s.Pending, s.branching = c, nil
	if fresh {
		s.Err = nil
	}
}

// LoadingPack records that the worker was asked for the pack name, of
// total bytes.
func (s *State) LoadingPack(name string, total int64) {
	s.Status, s.Dataset = StatusLoading, name
	s.Loading = protocol.Loading{Name: name, Total: total}
}

// Retrying clears the error for another try at the data; with no
// manifest yet, the page is loading again.
func (s *State) Retrying(manifest bool) {
	s.Err = nil
	if !manifest {
		s.Status = StatusLoading
	}
}

// SetAxes makes a what the chart's axes show.
func (s *State) SetAxes(a chart.Axes) {
	if a != s.Axes {
		s.Axes = a
		s.ChartVersion++
	}
}
