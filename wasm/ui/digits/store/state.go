package store

import (
	"softmaxdemo/core/dataset"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/predict"
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

// Dismiss hides the error shown.
func (s *State) Dismiss() { s.Err = nil }

// DismissWorkerNotice hides what happened to the last worker.
func (s *State) DismissWorkerNotice() { s.WorkerNotice = i18n.Msg{} }

// Failed shows an error of the page's own, with no recovery to offer.
func (s *State) Failed(message i18n.Msg) { s.Err = &Error{Message: message} }

// Offered records the packs the manifest offers; the first becomes the
// selected one if none is.
func (s *State) Offered(packs []dataset.PackInfo, first string) {
	s.Packs = packs
	if s.Dataset == "" {
		s.Dataset = first
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

// TookOver records that a new worker has taken over the run of one that
// died.
func (s *State) TookOver() { s.Replacing = false }

// PageMeasured records the page's own heap, measured beside the worker's.
func (s *State) PageMeasured(heap uint64) { s.PageHeap = heap }

// HessianAsked records that the worker is computing the Hessian.
func (s *State) HessianAsked() { s.HessianBusy = true }

// SetAxes makes a what the chart's axes show.
func (s *State) SetAxes(a chart.Axes) {
	if a != s.Axes {
		s.Axes = a
		s.ChartVersion++
	}
}

// Inspecting makes e the image the inspector looks inside one update on.
func (s *State) Inspecting(e *predict.Example) { s.Inspect, s.Applied = e, 0 }

// AppliedOne counts an update the inspector applied.
func (s *State) AppliedOne() { s.Applied++ }
