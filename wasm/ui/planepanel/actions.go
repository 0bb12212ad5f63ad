package planepanel

import (
	"softmaxdemo/core/class"
	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/planepanel/store"
)

// What the page asks of the plane: a room mounted takes them, and its
// worker does each as soon as it can.
var (
	// AddPsi adds one ψ to every θ_c of the plane's model, once no run is
	// in training.
	AddPsi = kit.Signal{Name: "plane/psi"}
	// AlphaAbove sets α at a multiple of 2/λ_max (AboveCeiling, say), once
	// the scene of the data and settings in force knows 2/λ_max.
	AlphaAbove = kit.Action[float64]{Name: "plane/above"}
	// StartRun starts the live model's gradient descent from the θ it has
	// (the line set by hand, in the Hand view), if it is not training. In
	// the Hand view, asked before the view's starting line is in (a
	// question answered the moment its chapter opens), the run starts once
	// it is, so that it starts from that line and not from the view
	// before.
	StartRun = kit.Signal{Name: "plane/run"}
)

// Ended is what the plane tells the page: a run of its live model's
// gradient descent ended (done, or paused).
var Ended = kit.Action[RunEnded]{Name: "plane/ended"}

// RunEnded is one run of the live model's gradient descent, from the
// state it started in to the state it ended in.
type RunEnded struct {
	View  View    // the view of the room it ran in
	From  float64 // J when it started: the θ it started from
	To    float64 // J when it ended
	Steps int     // the steps it took
}

// The room's own actions: what its views post.
var (
	chooseData  = kit.Action[string]{Name: "plane/data"} // a data set's name
	chooseK     = kit.Action[int]{Name: "plane/k"}       // the number of classes
	chooseClass = kit.Action[int]{Name: "plane/class"}   // the class a click adds
	setOption   = kit.Action[option]{Name: "plane/option"}
	typeNumber  = kit.Action[store.Typing]{Name: "plane/typed"} // α, λ or B as typed
	toggleTrain = kit.Signal{Name: "plane/train"}               // train, or pause
	restart     = kit.Signal{Name: "plane/reset"}               // θ = 0
	press       = kit.Action[click]{Name: "plane/point"}        // a point added or removed
	moveStart   = kit.Action[startAt]{Name: "plane/start"}      // the paths' start moved
	typeTheta   = kit.Action[store.ThetaTyped]{Name: "plane/theta"}
	dragLine    = kit.Action[dragTo]{Name: "plane/drag"} // the boundary held dragged
	askGrid     = kit.Action[int]{Name: "plane/grid"}    // the regions' cells a side the canvas wants
	sendMine    = kit.Signal{Name: "plane/send"}         // a student sends the line shown (SendLine)
	descend     = kit.Signal{Name: "plane/descend"}      // gradient descent from the class's best and worst lines
)

// option is a choice among the settings: which ("bias" or "pin"), and on
// or off.
type option struct {
	Name string
	On   bool
}

// click is a press on the plane: at, in the plane's units, how near a
// point must be to be taken for it, and, from a key, whether it only adds
// or only removes (protocol.PointAdd, protocol.PointRemove).
type click struct {
	At     [2]float64
	Radius float64
	Do     string
}

// startAt is the paths' start moved to At; Quick keeps the surface and
// computes only the paths (a drag under way).
type startAt struct {
	At    [2]float64
	Quick bool
}

// dragTo is the boundary held by Grip dragged to At, in the plane's
// units; Quick while the pointer moves, not when it lets go.
type dragTo struct {
	Grip  plane.Grip
	At    [2]float64
	Quick bool
}

// The plane's part in a class (core/class): the page tells the room what
// it is, and the room tells the page a line a student sends. Outside a
// class (Part None, the zero value) the room shows nothing of it.
var (
	// ClassPart says the plane's part in a class: None, Student or
	// Presenter.
	ClassPart = kit.Action[Part]{Name: "plane/class-part"}
	// ClassLines gives the presenter's plane the class's lines: all of
	// them, each phone's latest by slot; an empty slice once they were
	// cleared.
	ClassLines = kit.Action[[]class.LineOf]{Name: "plane/class-lines"}
	// LineDelivered says the line last sent (SendLine) was taken by the
	// class's server.
	LineDelivered = kit.Signal{Name: "plane/line-delivered"}
	// AskClass is what a room that shows the class posts as it mounts:
	// the page answers with ClassPart and ClassLines, which a room not
	// mounted when they were posted never saw.
	AskClass = kit.Signal{Name: "plane/class-asked"}
)

// SendLine is what a student's plane tells the page: the line shown by
// hand, to send to the class (POST /class/line). It is posted only if
// PlaneLine.Validate passes.
var SendLine = kit.Action[class.PlaneLine]{Name: "plane/send-line"}

// Part is the plane's part in a class: None (the zero value: the plane
// shows nothing of a class), Student or Presenter.
type Part = store.Part

// The parts: outside a class, a student's phone, the presenter's page.
const (
	None      = store.None
	Student   = store.Student
	Presenter = store.Presenter
)
