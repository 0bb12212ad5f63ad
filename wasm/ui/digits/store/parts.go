package store

import (
	"softmaxdemo/core/dataset"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/predict"
)

// The parts of the run's State that have decisions of their own.

// Alert is the error the page shows, with how to recover (the error
// banner); nil when all is well.
type Alert struct {
	Err *Error
}

// Dismiss hides the error shown.
func (a *Alert) Dismiss() { a.Err = nil }

// Failed shows an error of the page's own, with no recovery to offer.
func (a *Alert) Failed(message i18n.Msg) { a.Err = &Error{Message: message} }

// Data are the packs the page can load and the one it loads.
type Data struct {
	Packs   []dataset.PackInfo // the packs that can be loaded here
	Dataset string             // the selected pack's name
	Loading protocol.Loading
	TrainN  int
	TestN   int
}

// Offered records the packs the manifest offers; the first becomes the
// selected one if none is.
func (d *Data) Offered(packs []dataset.PackInfo, first string) {
	d.Packs = packs
	if d.Dataset == "" {
		d.Dataset = first
	}
}

// Machine is what the worker says of the machine it trains on (#kernel,
// #workers, #memory).
type Machine struct {
	Kernel string // the worker's training kernel: "wasm-simd" or "go"
	// KernelRefused says why the worker refused its SIMD kernel (it
	// disagreed with the Go code), or is empty.
	KernelRefused string
	// The pool of workers that compute full passes (protocol.PoolState):
	// how many run, how many were asked for, why not all, if not, and how
	// many helpers were replaced after failing or falling silent.
	Workers, WorkersAsked, WorkersReplaced int
	WorkersRefused                         string
	// WorkerHeap and PageHeap are the worker's and the page's Go heap in
	// bytes (protocol.HeapLive), measured when a run last came to rest;
	// 0 until then.
	WorkerHeap, PageHeap uint64
	// HelpersHeap is the sum of the pool's helpers' heaps (the same).
	HelpersHeap uint64
}

// PageMeasured records the page's own heap, measured beside the worker's.
func (m *Machine) PageMeasured(heap uint64) { m.PageHeap = heap }

// Hessians are what the worker computed of the Hessian: λ_max at the
// current model, and the 7×7 problem's H.
type Hessians struct {
	// Curvature is the worker's latest λ_max and 2/λ_max (#alpha-max).
	Curvature   *protocol.CurvatureIs
	Hessian     *protocol.HessianView // the 7×7 problem's H, once asked for
	HessianBusy bool                  // the worker is computing it
}

// HessianAsked records that the worker is computing the Hessian.
func (h *Hessians) HessianAsked() { h.HessianBusy = true }

// Replacement is what the page says of the workers replaced.
type Replacement struct {
	// Replacing: a new worker is loading the pack to take over the run
	// of one that died, and its Loaded keeps the run.
	Replacing bool
	// Replaced counts the workers replaced; WorkerNotice says, once, what
	// happened to the last (zero: nothing to say).
	Replaced     int
	WorkerNotice i18n.Msg
	ResumedFrom  int // the step the last replaced worker's run went on from; 0: from the start
}

// TookOver records that a new worker has taken over the run of one that
// died.
func (r *Replacement) TookOver() { r.Replacing = false }

// DismissWorkerNotice hides what happened to the last worker.
func (r *Replacement) DismissWorkerNotice() { r.WorkerNotice = i18n.Msg{} }

// Inspection is the inspector's: the image it looks inside one update on
// (nil before one is chosen), the updates applied from it, and the test
// images of the confusion cell last clicked.
type Inspection struct {
	Inspect      *predict.Example
	Applied      int
	CellExamples *protocol.Examples
}

// Inspecting makes e the image the inspector looks inside one update on.
func (i *Inspection) Inspecting(e *predict.Example) { i.Inspect, i.Applied = e, 0 }

// AppliedOne counts an update the inspector applied.
func (i *Inspection) AppliedOne() { i.Applied++ }
