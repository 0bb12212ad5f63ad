package store

import (
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/params"
	"softmaxdemo/wasm/ui/predict"
)

// The actions the room's panels post and its owner handles (package
// digits), each with its payload's type.
var (
	Train   = kit.Signal{Name: "digits/train"} // train with the Train panel's settings
	Step    = kit.Signal{Name: "digits/step"}  // take one step with them
	Reset   = kit.Signal{Name: "digits/reset"} // start the run afresh with them
	Pause   = kit.Signal{Name: "digits/pause"}
	Edit    = kit.Action[params.Edit]{Name: "digits/edit"} // one change in the Train panel
	Preset  = kit.Action[string]{Name: "digits/preset"}    // a preset's name: fill the Train panel from it
	Dataset = kit.Action[string]{Name: "digits/dataset"}   // a pack's name: load it

	Retry          = kit.Signal{Name: "digits/retry"}   // load the data again
	Restart        = kit.Signal{Name: "digits/restart"} // start a new worker
	Dismiss        = kit.Signal{Name: "digits/dismiss"} // hide the error banner
	WorkerNoticeOK = kit.Signal{Name: "digits/worker-notice-ok"}

	Axes      = kit.Action[chart.Axes]{Name: "digits/axes"} // what the chart's axes show
	Hessian   = kit.Signal{Name: "digits/hessian"}          // compute the 7×7 problem's Hessian
	ToggleRun = kit.Action[int]{Name: "digits/toggle-run"}  // a run's id: hide or show it
	RemoveRun = kit.Action[int]{Name: "digits/remove-run"}  // a run's id: forget it
	SelectRun = kit.Action[int]{Name: "digits/select-run"}  // a run's id, to rewind and keep (0: none)
	ScrubTo   = kit.Action[Scrub]{Name: "digits/scrub"}     // where the slider #scrub was moved

	Inspect      = kit.Action[predict.Example]{Name: "digits/inspect"} // the image to look inside one update on
	PickTrain    = kit.Signal{Name: "digits/pick-train"}               // inspect a random training image
	FindExamples = kit.Action[Cell]{Name: "digits/find-examples"}      // a confusion cell: its test images
	// ApplyUpdate makes the inspector's update on its image, with the
	// inspector's α and the Train panel's λ.
	ApplyUpdate = kit.Action[predict.Example]{Name: "digits/apply"}
	InspectRate = kit.Action[float64]{Name: "digits/inspect-rate"} // the inspector's own α

	DownloadModel  = kit.Action[string]{Name: "digits/download-model"}      // "json" or "npz"
	UploadModel    = kit.Action[browser.File]{Name: "digits/upload-model"}  // a model's file
	ForgetModel    = kit.Signal{Name: "digits/forget-model"}                // forget the kept model, start afresh
	AddDigit       = kit.Action[MyDigit]{Name: "digits/add-digit"}          // a drawing and its label
	RemoveDigit    = kit.Action[int]{Name: "digits/remove-digit"}           // the digit's index, -1 for all
	MyDigitsRate   = kit.Action[string]{Name: "digits/my-digits-rate"}      // one of MyDigitsRates
	DownloadDigits = kit.Signal{Name: "digits/download-digits"}             // save my digits as a file
	UploadDigits   = kit.Action[browser.File]{Name: "digits/upload-digits"} // my digits' file
)

// Cell is a cell of the confusion matrix: the true digit and the one
// predicted.
type Cell struct{ True, Predicted int }
