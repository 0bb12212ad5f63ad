package store

// Actions that components post and the page handles (on the UI goroutine,
// through ctx.Handle). Their values are typed: see each constant.
const (
	ActionTrain          = "softmax/train"            // protocol.Config
	ActionStep           = "softmax/step"             // protocol.Config
	ActionReset          = "softmax/reset"            // protocol.Config
	ActionPause          = "softmax/pause"            // no value
	ActionDataset        = "softmax/dataset"          // string: a pack's name
	ActionRetry          = "softmax/retry"            // no value: load the data again
	ActionRestart        = "softmax/restart"          // no value: start a new worker
	ActionDismiss        = "softmax/dismiss"          // no value: hide the error banner
	ActionSettings       = "softmax/settings"         // fields: the Train panel's accepted settings, for the link
	ActionLang           = "softmax/lang"             // lang: the language chosen
	ActionCopyLink       = "softmax/copy-link"        // no value: copy the page's link
	ActionNoticeOK       = "softmax/notice-ok"        // no value: hide the link's notices
	ActionWorkerNoticeOK = "softmax/worker-notice-ok" // no value: hide what happened to the worker
	ActionAxes           = "softmax/axes"             // chart.Axes: what the chart's axes show
	ActionPace           = "softmax/pace"             // string: one of params.Paces
	ActionHessian        = "softmax/hessian"          // no value: compute the 7×7 problem's Hessian
	ActionToggleRun      = "softmax/toggle-run"       // int: a run's id, to hide or show
	ActionRemoveRun      = "softmax/remove-run"       // int: a run's id, to forget
	ActionScrub          = "softmax/scrub"            // Scrub: where the slider #scrub was moved
	ActionSelectRun      = "softmax/select-run"       // int: a run's id, to rewind and keep (0: none)

	ActionInspect      = "softmax/inspect"       // predict.Example: the image to look inside one update on
	ActionPickTrain    = "softmax/pick-train"    // no value: inspect a random training image
	ActionFindExamples = "softmax/find-examples" // [2]int: true and predicted digit of a confusion cell
	ActionApply        = "softmax/apply"         // predict.Example: make its update, with the inspector's α and the Train panel's λ
	ActionInspectRate  = "softmax/inspect-rate"  // float64: the inspector's own α

	ActionDownloadModel  = "softmax/download-model"  // string: "json" or "npz"
	ActionUploadModel    = "softmax/upload-model"    // app.Value: a File
	ActionForgetModel    = "softmax/forget-model"    // no value: forget the kept model, start afresh
	ActionAddDigit       = "softmax/add-digit"       // myDigit (Label 255: nothing was drawn)
	ActionRemoveDigit    = "softmax/remove-digit"    // int: the digit's index, -1 for all
	ActionMyDigitsRate   = "softmax/my-digits-rate"  // string: one of myDigitsRates
	ActionDownloadDigits = "softmax/download-digits" // no value
	ActionUploadDigits   = "softmax/upload-digits"   // app.Value: a File
)
