package ui

// Actions that components post and the page handles (on the UI goroutine,
// through ctx.Handle). Their values are typed: see each constant.
const (
	actionTrain     = "softmax/train"      // protocol.Config
	actionStep      = "softmax/step"       // protocol.Config
	actionReset     = "softmax/reset"      // protocol.Config
	actionPause     = "softmax/pause"      // no value
	actionDataset   = "softmax/dataset"    // string: a pack's name
	actionRetry     = "softmax/retry"      // no value: load the data again
	actionRestart   = "softmax/restart"    // no value: start a new worker
	actionDismiss   = "softmax/dismiss"    // no value: hide the error banner
	actionSettings  = "softmax/settings"   // fields: the Train panel's accepted settings, for the link
	actionLang      = "softmax/lang"       // lang: the language chosen
	actionCopyLink  = "softmax/copy-link"  // no value: copy the page's link
	actionNoticeOK  = "softmax/notice-ok"  // no value: hide the link's notices
	actionAxes      = "softmax/axes"       // chartAxes: what the chart's axes show
	actionPace      = "softmax/pace"       // string: one of paceStops
	actionHessian   = "softmax/hessian"    // no value: compute the 7×7 problem's Hessian
	actionToggleRun = "softmax/toggle-run" // int: a run's id, to hide or show
	actionRemoveRun = "softmax/remove-run" // int: a run's id, to forget

	actionInspect      = "softmax/inspect"       // inspectExample: the image to look inside one update on
	actionPickTrain    = "softmax/pick-train"    // no value: inspect a random training image
	actionFindExamples = "softmax/find-examples" // [2]int: true and predicted digit of a confusion cell
	actionApply        = "softmax/apply"         // inspectExample: make its update, with the Train panel's α and λ
)
