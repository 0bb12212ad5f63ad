package classroom

import (
	"softmaxdemo/core/class"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/kit"
)

// What the room tells the page: actions it posts, which the page handles.
var (
	// Follow is where the projector is, for a phone that follows it: the
	// page shows the chapter and the language.
	Follow = kit.Action[class.State]{Name: "class/follow"}
	// Theta is the projector's θ, for a phone that follows it: the page
	// shows it, bit for bit, without training.
	Theta = kit.Action[*softmax.Model[float32]]{Name: "class/theta"}
	// Joined says the page's part in the class once the server said it
	// (class.RolePresenter or class.RoleStudent), after each Hello.
	Joined = kit.Action[string]{Name: "class/joined"}
	// Lines is every phone's latest line in the plane, on the
	// projector, each time one changes (empty once cleared).
	Lines = kit.Action[[]class.LineOf]{Name: "class/lines"}
	// LineTaken says the server took the line a phone sent last.
	LineTaken = kit.Signal{Name: "class/line-taken"}
)

// What the page asks of the room: actions it posts, which the room
// handles.
var (
	// Answer is a phone's choice in the class's question: its chapter's
	// id and the choice's index (the lesson's data-choice).
	Answer = kit.Action[Choice]{Name: "class/answer"}
	// Leave says a phone's person went to look around on their own: the
	// phone stops following until #class-rejoin.
	Leave = kit.Signal{Name: "class/leave"}
	// SendLine is a phone's line in the plane, to send to the class.
	SendLine = kit.Action[class.PlaneLine]{Name: "class/send-line"}
	// ClearLines asks the server to forget the class's lines (the
	// projector's).
	ClearLines = kit.Signal{Name: "class/clear-lines"}
	// Present says the projector's page changed what it shows: the room
	// tells the class at once, rather than at its next look.
	Present = kit.Signal{Name: "class/present"}
)

// The room's own: what its view posts.
var rejoin = kit.Signal{Name: "class/rejoin"}

// A Choice is a choice in a question: the question's id and the
// choice's index.
type Choice struct {
	Question string
	Choice   int
}

// Shown is what the projector's page shows, which the class follows:
// where it is, its question, and the θ it shows.
type Shown struct {
	State    class.State
	Question class.Question
	Model    *softmax.Model[float32]
}
