package digits

import (
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/params"
)

// What the page asks of the room: actions it posts, which the room
// handles, with their payloads' types.
var (
	// Apply makes the settings the room's, as a link or a chapter gives
	// them: the Train panel shows their fields, a run in training takes
	// their α and λ at once, the worker their pace and workers, and their
	// data load if they differ. The room then says LinkChanged.
	Apply = kit.Action[Settings]{Name: "digits/apply-settings"}
	// SetFields makes the fields the Train panel's, as the lesson gives
	// them.
	SetFields = kit.Action[params.Fields]{Name: "digits/set-fields"}
	// TrainWith makes the fields the Train panel's and trains on, from the
	// current model where the run can go on with them (a change of α or
	// λ).
	TrainWith = kit.Action[params.Fields]{Name: "digits/train-with"}
	// Fresh makes the fields the Train panel's and starts a new run with
	// them from its start, keeping the runs before it on the chart; a run
	// in training pauses first.
	Fresh = kit.Action[params.Fields]{Name: "digits/fresh"}
	// Pause pauses the run in training, if any, as the Train panel's
	// Pause does.
	Pause = store.Pause
	// UseModel makes the model that of a new run, which goes on as the
	// current run would (View.ContinueConfig).
	UseModel = kit.Action[*softmax.Model[float32]]{Name: "digits/use-model"}
	// Follow makes the model the one the panels show, without a run: a
	// phone of a class shows the projector's θ (store.State.Follow).
	Follow = kit.Action[*softmax.Model[float32]]{Name: "digits/follow"}
	// SetMyDigits makes the drawings my digits, in place of any before
	// (at most modelfile.MaxDigits: the latest), as the class's digits
	// become them to train on; their share of each batch stays as chosen.
	SetMyDigits = kit.Action[protocol.Samples]{Name: "digits/set-my-digits"}
	// Show is what a chapter needs on entering it.
	Show = kit.Action[Shown]{Name: "digits/show"}
	// ComputeHessian pauses the run in training and asks the worker for
	// the Hessian of the 7×7 problem, as the Hessian panel's button does.
	ComputeHessian = store.Hessian
	// ApplyInspected makes the inspector's update on its image, as its
	// Apply button does, if it has one.
	ApplyInspected = kit.Signal{Name: "digits/apply-inspected"}
	// Lang is the page's language, which the link kept with the model
	// says.
	Lang = kit.Action[i18n.Lang]{Name: "digits/lang"}
)

// Shown is what a chapter needs of the room on entering it: the chart's
// axes (nil: as they are), and an image in the inspector if it has none.
type Shown struct {
	Axes    *chart.Axes
	Inspect bool
}

// What the room tells the page: actions it posts, which the page handles.
var (
	// LinkChanged says that the room's part of the page's link changed
	// (View.Settings): the page writes its link.
	LinkChanged = kit.Signal{Name: "digits/link-changed"}
	// Notice says what a link asked of the room that it could not do,
	// and so did not.
	Notice = kit.Action[i18n.Msg]{Name: "digits/notice"}
)
