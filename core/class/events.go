package class

import (
	"fmt"
)

// Roles a Hello gives a page: whoever holds the key presents; anyone else
// is a student.
const (
	RolePresenter = "presenter"
	RoleStudent   = "student"
)

// An Event is a message of the class's event stream (GET /class/events),
// server → page: the SSE field "event:" is its Name and "data:" its wire
// form, one line of JSON. The set is closed: the types of this file.
// EncodeEvent and DecodeEvent convert them.
type Event interface {
	// Name returns the event's name on the stream, such as "state".
	Name() string
}

// Hello is the first event of a stream that does not continue another
// (see the package comment): everything a page needs to show the class
// as it is. Some fields are a student's own and some the presenter's;
// the others are zero.
//
//	{"v":1,"role":"student","state":{…},"teacher":true,
//	 "theta":{"version":12,"checksum":"9d2…"},"question":{…},
//	 "mine":"1","sent":3,"maxSent":50,
//	 "joined":0,"drawings":0,"last":0,"lines":[],"fault":""}
type Hello struct {
	Version  int          // the protocol's
	Role     string       // RolePresenter or RoleStudent
	State    State        // where the presenter is (zero: not said yet)
	Teacher  bool         // a presenter's page is connected
	Theta    ThetaVersion // the latest θ (version 0: none yet)
	Poll     Poll         // the question: its counts for the presenter, or once revealed
	Mine     string       // student: its choice in the open question, "" for none
	Sent     int          // student: drawings it has sent in this class
	MaxSent  int          // student: drawings a phone may send in this class
	Joined   int          // presenter: phones joined
	Drawings int          // presenter: drawings kept
	Last     uint32       // presenter: the highest drawing number (GET /class/drawings)
	Lines    []LineOf     // presenter: every phone's latest line
	Fault    string       // presenter: why drawings are not being written to the file, "" when they are
}

// Teacher says whether a presenter's page is connected ("teacher"):
// {"here":false} a few seconds after the last one left, so that phones
// say they are waiting for the teacher.
type Teacher struct{ Here bool }

// ThetaVersion announces the presenter's latest θ ("theta"): its version
// (1, 2, … as uploaded) and its Checksum. A phone fetches it with GET
// /class/theta when it is ready for it, skipping the versions it had no
// time for. {"version":12,"checksum":"9d2f…"}
type ThetaVersion struct {
	Version  uint64
	Checksum string
}

// A Count is how many phones chose Choice.
type Count struct {
	Choice string
	N      int
}

// A Poll is the question as the class sees it ("question"): the
// Question and, for the presenter or once revealed, how many chose each
// choice, in the question's order; nil otherwise. Counts travel as a
// JSON object from choice to count:
//
//	{"id":"q1","choices":["0","1","2"],"revealed":true,"counts":{"0":4,"1":20,"2":3}}
type Poll struct {
	Question Question
	Counts   []Count
}

// A Tally is the presenter's live count of the open question's answers
// ("counts"): {"question":"q1","counts":{"0":4,"1":19,"2":3}}. Students
// never get it.
type Tally struct {
	Question string
	Counts   []Count
}

// Joined is how many phones are in the class ("joined", presenter only):
// {"n":27}.
type Joined struct{ N int }

// A Digit is a drawing as the presenter gets it ("drawing", presenter
// only): its number in the class, its label and its pixels, without the
// phone that sent it. {"n":12,"label":3,"pixels":"AAAA…"}
type Digit struct {
	N      uint32
	Label  uint8
	Pixels [Pixels]byte
}

// Removed says the presenter removed drawing N ("removed", presenter
// only): {"n":12}.
type Removed struct{ N uint32 }

// A LineOf is a phone's latest line in the plane ("line", presenter
// only). Slot numbers the phones that sent lines, 1, 2, …, so that a new
// line replaces the same phone's last one without saying which phone it
// is. {"slot":3,"k":2,"w":[…],"b":[…]}
type LineOf struct {
	Slot int
	Line PlaneLine
}

// Cleared says the presenter cleared the class's lines ("cleared",
// presenter only): {}.
type Cleared struct{}

// Fault says whether the class's file of drawings is being written
// ("fault", presenter only): Message says why not (the folder not
// writable, the disk full), and is "" once writes succeed again. The
// drawings stay in memory meanwhile. {"message":"…"}
type Fault struct{ Message string }

// Event names.
const (
	EventHello    = "hello"
	EventState    = "state"
	EventTeacher  = "teacher"
	EventTheta    = "theta"
	EventQuestion = "question"
	EventCounts   = "counts"
	EventJoined   = "joined"
	EventDrawing  = "drawing"
	EventRemoved  = "removed"
	EventLine     = "line"
	EventCleared  = "cleared"
	EventFault    = "fault"
)

// Name returns "hello".
func (Hello) Name() string { return EventHello }

// Name returns "state".
func (State) Name() string { return EventState }

// Name returns "teacher".
func (Teacher) Name() string { return EventTeacher }

// Name returns "theta".
func (ThetaVersion) Name() string { return EventTheta }

// Name returns "question".
func (Poll) Name() string { return EventQuestion }

// Name returns "counts".
func (Tally) Name() string { return EventCounts }

// Name returns "joined".
func (Joined) Name() string { return EventJoined }

// Name returns "drawing".
func (*Digit) Name() string { return EventDrawing }

// Name returns "removed".
func (Removed) Name() string { return EventRemoved }

// Name returns "line".
func (LineOf) Name() string { return EventLine }

// Name returns "cleared".
func (Cleared) Name() string { return EventCleared }

// Name returns "fault".
func (Fault) Name() string { return EventFault }

// EncodeEvent returns e's wire form: the JSON of the SSE field "data:",
// one line. It returns an error for a type that is not one of this
// package's events.
func EncodeEvent(e Event) ([]byte, error) {
	w := writer{}
	if _, ok := e.(*Digit); ok {
		w.b = make([]byte, 0, 1100)
	}
	w.open()
	switch e := e.(type) {
	case Hello:
		e.appendTo(&w)
	case *Hello:
		e.appendTo(&w)
	case State:
		e.appendTo(&w)
	case Teacher:
		w.bool("here", e.Here)
	case ThetaVersion:
		e.appendTo(&w)
	case Poll:
		e.appendTo(&w)
	case Tally:
		w.str("question", e.Question)
		appendCounts(&w, e.Counts)
	case Joined:
		w.int("n", int64(e.N))
	case *Digit:
		w.uint("n", uint64(e.N))
		w.uint("label", uint64(e.Label))
		w.bytes("pixels", e.Pixels[:])
	case Removed:
		w.uint("n", uint64(e.N))
	case LineOf:
		e.appendTo(&w)
	case Cleared:
	case Fault:
		w.str("message", e.Message)
	default:
		return nil, fmt.Errorf("class: %T is not an event", e)
	}
	w.close()
	return w.b, nil
}

func (h *Hello) appendTo(w *writer) {
	w.int("v", int64(h.Version))
	w.str("role", h.Role)
	w.key("state")
	w.open()
	h.State.appendTo(w)
	w.close()
	w.bool("teacher", h.Teacher)
	w.key("theta")
	w.open()
	h.Theta.appendTo(w)
	w.close()
	w.key("question")
	w.open()
	h.Poll.appendTo(w)
	w.close()
	w.str("mine", h.Mine)
	w.int("sent", int64(h.Sent))
	w.int("maxSent", int64(h.MaxSent))
	w.int("joined", int64(h.Joined))
	w.int("drawings", int64(h.Drawings))
	w.uint("last", uint64(h.Last))
	w.key("lines")
	w.openArray()
	for _, l := range h.Lines {
		w.sep()
		w.open()
		l.appendTo(w)
		w.close()
	}
	w.closeArray()
	w.str("fault", h.Fault)
}

func (t ThetaVersion) appendTo(w *writer) {
	w.uint("version", t.Version)
	w.str("checksum", t.Checksum)
}

func (p Poll) appendTo(w *writer) {
	p.Question.appendTo(w)
	appendCounts(w, p.Counts)
}

// appendCounts writes counts as an object from choice to count, or null
// for nil.
func appendCounts(w *writer, counts []Count) {
	if counts == nil {
		w.key("counts")
		w.b = append(w.b, "null"...)
		w.first = false
		return
	}
	w.key("counts")
	w.open()
	for _, c := range counts {
		w.int(c.Choice, int64(c.N))
	}
	w.close()
}

func (l LineOf) appendTo(w *writer) {
	w.int("slot", int64(l.Slot))
	l.Line.appendTo(w)
}
