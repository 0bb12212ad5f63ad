package class

import (
	"math"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/plane"
)

// Limits of the messages' values, checked by their decoders.
const (
	MaxChapter   = 64 // State.Chapter at most
	MaxNameLen   = 64 // a question's id or a choice, in bytes
	MinChoices   = 2  // a question's choices, at least
	MaxChoices   = 16 // a question's choices, at most
	MaxSeq       = 1<<32 - 1
	Pixels       = dataset.Pixels // a drawing's grey levels
	MaxLineClass = plane.MaxClasses
	MinLineClass = plane.MinClasses
)

// Languages are the values of State.Lang: the page's two languages.
var Languages = []string{"en", "zh"}

// Join is a phone's first request (POST /class/join): the protocol
// version of its page and its id. Its wire form is
//
//	{"v":1,"phone":"3f0c…(32 hex digits)"}
type Join struct {
	Version int
	Phone   PhoneID
}

// An Answer is a phone's choice in the open question (POST
// /class/answer). Seq numbers the phone's messages (see the package
// comment): an answer with a Seq at or below the last one the server took
// from this phone is a duplicate. Its wire form is
//
//	{"phone":"3f0c…","seq":7,"question":"q-newton","choice":"2"}
type Answer struct {
	Phone    PhoneID
	Seq      uint32
	Question string
	Choice   string
}

// A Drawing is a digit drawn on a phone (POST /class/drawing): its label
// 0…9 and its 784 grey levels, 28×28 row-major, 0 the background, after
// the page's preprocessing (as the draw pad's). Its wire form carries the
// pixels in standard base64 (1,048 characters):
//
//	{"phone":"3f0c…","seq":8,"label":3,"pixels":"AAAA…"}
type Drawing struct {
	Phone  PhoneID
	Seq    uint32
	Label  uint8
	Pixels [Pixels]byte
}

// A PlaneLine is a model of the plane set by hand, as core/plane's Lab
// takes it (SetTheta): K classes, 2…5, W the 2·K weights as
// softmax.Model stores them (W[j·K + c], the weight of x_{j+1} for class
// c) and B the K biases, each finite and within ±plane.MaxTheta.
type PlaneLine struct {
	K int
	W []float32
	B []float32
}

// A Line is a phone's line in the plane's hand chapter (POST
// /class/line); the latest, by Seq, is the phone's. Its wire form is
//
//	{"phone":"3f0c…","seq":9,"k":2,"w":[0,-1.5,0,2],"b":[0,0.25]}
type Line struct {
	Phone PhoneID
	Seq   uint32
	Line  PlaneLine
}

// State is where the presenter is (POST /class/state, and the event
// "state"): the lesson's chapter (1-based; 0 when the lesson is closed),
// the language, and the scrub position (the step of the keyframe shown,
// or −1 for the live end). Its wire form is
//
//	{"chapter":3,"lang":"zh","scrub":-1}
type State struct {
	Chapter int
	Lang    string
	Scrub   int
}

// A Question is the presenter's predict-then-reveal question (POST
// /class/question): its id, its choices (the page's data-choice values)
// and whether the answer is revealed. Posting a question with another id
// or other choices opens it with no answers; the same id and choices
// with Revealed set reveals it (answers are then refused) and unset opens
// it again. The empty id, with no choices, closes it. Its wire form is
//
//	{"id":"q-newton","choices":["0","1","2"],"revealed":false}
type Question struct {
	ID       string
	Choices  []string
	Revealed bool
}

// Validate returns an error wrapping ErrInvalid if j is not of this
// protocol version (ErrVersion) or names no phone.
func (j Join) Validate() error {
	if j.Version != Version {
		return versionError(j.Version)
	}
	if j.Phone == (PhoneID{}) {
		return invalidf("no phone id")
	}
	return nil
}

// Validate returns an error wrapping ErrInvalid for an answer without a
// phone or Seq, or whose question or choice is not a name.
func (a Answer) Validate() error {
	if err := checkSender(a.Phone, a.Seq); err != nil {
		return err
	}
	if err := checkName(a.Question, "question"); err != nil {
		return err
	}
	return checkName(a.Choice, "choice")
}

// Validate returns an error wrapping ErrInvalid for a drawing without a
// phone or Seq, or with a label above 9.
func (d *Drawing) Validate() error {
	if err := checkSender(d.Phone, d.Seq); err != nil {
		return err
	}
	if d.Label > 9 {
		return invalidf("label %d, want 0…9", d.Label)
	}
	return nil
}

// Validate returns an error wrapping ErrInvalid for a line without a
// phone or Seq, or whose model is not valid (PlaneLine.Validate).
func (l Line) Validate() error {
	if err := checkSender(l.Phone, l.Seq); err != nil {
		return err
	}
	return l.Line.Validate()
}

// Validate returns an error wrapping ErrInvalid unless K is 2…5, W has
// 2·K numbers and B K, and every number is finite and within
// ±plane.MaxTheta.
func (l PlaneLine) Validate() error {
	if l.K < MinLineClass || l.K > MaxLineClass {
		return invalidf("K = %d, want %d…%d", l.K, MinLineClass, MaxLineClass)
	}
	if len(l.W) != 2*l.K || len(l.B) != l.K {
		return invalidf("%d weights and %d biases for K = %d, want %d and %d", len(l.W), len(l.B), l.K, 2*l.K, l.K)
	}
	for i, v := range l.W {
		if !(math.Abs(float64(v)) <= plane.MaxTheta) {
			return invalidf("weight %d is %v, want a number within ±%v", i, v, plane.MaxTheta)
		}
	}
	for c, v := range l.B {
		if !(math.Abs(float64(v)) <= plane.MaxTheta) {
			return invalidf("bias %d is %v, want a number within ±%v", c, v, plane.MaxTheta)
		}
	}
	return nil
}

// Validate returns an error wrapping ErrInvalid for a chapter outside
// 0…MaxChapter, a language not in Languages, or a scrub position below −1.
func (s State) Validate() error {
	switch {
	case s.Chapter < 0 || s.Chapter > MaxChapter:
		return invalidf("chapter %d, want 0…%d", s.Chapter, MaxChapter)
	case s.Lang != "en" && s.Lang != "zh":
		return invalidf("language %q, want one of %q", s.Lang, Languages)
	case s.Scrub < -1:
		return invalidf("scrub position %d, want −1 (the live end) or a step", s.Scrub)
	}
	return nil
}

// Validate returns an error wrapping ErrInvalid unless q closes the
// question (no id, no choices, not revealed) or has a name as its id and
// MinChoices…MaxChoices different names as its choices.
func (q Question) Validate() error {
	if q.ID == "" {
		if len(q.Choices) != 0 || q.Revealed {
			return invalidf("a question without an id has choices or is revealed: the empty id closes the question")
		}
		return nil
	}
	if err := checkName(q.ID, "question id"); err != nil {
		return err
	}
	if len(q.Choices) < MinChoices || len(q.Choices) > MaxChoices {
		return invalidf("question %q has %d choices, want %d…%d", q.ID, len(q.Choices), MinChoices, MaxChoices)
	}
	for i, c := range q.Choices {
		if err := checkName(c, "choice"); err != nil {
			return err
		}
		for _, d := range q.Choices[:i] {
			if c == d {
				return invalidf("question %q has the choice %q twice", q.ID, c)
			}
		}
	}
	return nil
}

// Choice returns the index of choice c in q, or −1.
func (q Question) Choice(c string) int {
	for i, d := range q.Choices {
		if d == c {
			return i
		}
	}
	return -1
}

// Same reports whether q and o are the same question: the same id and
// choices (whether revealed or not).
func (q Question) Same(o Question) bool {
	if q.ID != o.ID || len(q.Choices) != len(o.Choices) {
		return false
	}
	for i := range q.Choices {
		if q.Choices[i] != o.Choices[i] {
			return false
		}
	}
	return true
}

func checkSender(p PhoneID, seq uint32) error {
	if p == (PhoneID{}) {
		return invalidf("no phone id")
	}
	if seq == 0 {
		return invalidf("seq 0: a phone numbers its messages from 1")
	}
	return nil
}

// checkName accepts 1…MaxNameLen bytes of letters, digits and . _ : -.
func checkName(s, what string) error {
	if len(s) == 0 || len(s) > MaxNameLen {
		return invalidf("a %s of %d bytes, want 1…%d", what, len(s), MaxNameLen)
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == ':', c == '-':
		default:
			return invalidf("a %s %q with %q in it: want letters, digits and . _ : -", what, s, c)
		}
	}
	return nil
}
