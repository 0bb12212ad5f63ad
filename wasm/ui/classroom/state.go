package classroom

import (
	"slices"
	"strconv"

	"softmaxdemo/core/class"
)

// Phases of a page in a class, as #class's data-state says them.
const (
	PhaseReconnecting = "reconnecting" // not connected: at first, after a drop, a full class, a server gone
	PhaseJoined       = "joined"       // connected, and a phone follows the projector
	PhaseAlone        = "alone"        // a phone looking around on its own (#class-rejoin)
	PhaseWaiting      = "waiting"      // a phone connected while no projector is
)

// State is the class as the page knows it: what the server said, and
// what the page chose. Only its methods change it; the room's owner calls
// them on go-app's goroutine.
type State struct {
	Role      string // class.RolePresenter or class.RoleStudent; "" until the first Hello
	Connected bool   // the stream is open and has said Hello
	Alone     bool   // a phone left to look around on its own
	Teacher   bool   // a projector's page is connected
	Presenter class.State
	Poll      class.Poll
	Theta     class.ThetaVersion // the latest θ announced
	Joined    int                // presenter: phones joined
	Mine      map[string]string  // phone: its choice in each question, by the question's id
	Refused   *class.Refusal     // the last request the server refused for good, or a full class
	Gone      bool               // the server was reached once and is no longer (shown while reconnecting)

	// A phone's drawings: how many the class took, at most how many, and
	// the last one's way ("sending", "sent").
	Sent, MaxSent int
	Drawing       string

	// The projector's: the class's drawings in their numbers' order,
	// a version that grows when they change, the confusion cell whose
	// drawings are shown ({-1, -1}: all), and why the file of drawings
	// is not written ("" when it is).
	Digits        []*class.Digit
	DigitsVersion int
	Cell          [2]int
	Fault         string
	Address       string // the students' address, as the server printed it

	// The projector's: every phone's latest line in the plane, by slot.
	Lines []class.LineOf
}

// Phase returns #class's data-state.
func (s *State) Phase() string {
	switch {
	case !s.Connected:
		return PhaseReconnecting
	case s.Role == class.RoleStudent && s.Alone:
		return PhaseAlone
	case s.Role == class.RoleStudent && !s.Teacher:
		return PhaseWaiting
	}
	return PhaseJoined
}

// Following reports whether a phone follows the projector now.
func (s *State) Following() bool {
	return s.Role == class.RoleStudent && !s.Alone
}

// Hello replaces what the page knows by the class as the server says it.
func (s *State) Hello(h class.Hello) {
	s.Role, s.Connected, s.Gone = h.Role, true, false
	s.Teacher, s.Presenter, s.Poll, s.Theta, s.Joined = h.Teacher, h.State, h.Poll, h.Theta, h.Joined
	if s.Role == class.RolePresenter {
		s.Teacher = true
	}
	s.Sent, s.MaxSent, s.Fault, s.Lines = h.Sent, h.MaxSent, h.Fault, h.Lines
	if h.Poll.Question.ID != "" && h.Mine != "" {
		s.choose(h.Poll.Question.ID, h.Mine)
	}
	s.Refused = nil
}

// Apply takes one event of the stream after its Hello.
func (s *State) Apply(e class.Event) {
	switch e := e.(type) {
	case class.Hello:
		s.Hello(e)
	case class.State:
		s.Presenter = e
	case class.Teacher:
		s.Teacher = e.Here || s.Role == class.RolePresenter
	case class.ThetaVersion:
		s.Theta = e
	case class.Poll:
		s.Poll = e
	case class.Tally:
		if e.Question == s.Poll.Question.ID {
			s.Poll.Counts = e.Counts
		}
	case class.Joined:
		s.Joined = e.N
	case *class.Digit:
		s.addDigits(e)
	case class.Removed:
		s.removeDigit(e.N)
	case class.Fault:
		s.Fault = e.Message
	case class.LineOf:
		i := slices.IndexFunc(s.Lines, func(l class.LineOf) bool { return l.Slot == e.Slot })
		if i < 0 {
			s.Lines = append(s.Lines, e)
		} else {
			s.Lines[i] = e
		}
	case class.Cleared:
		s.Lines = nil
	}
}

// Choose notes a phone's choice in the open question, and reports
// whether it may be sent: the question is open and not revealed.
func (s *State) Choose(question string, choice int) bool {
	q := s.Poll.Question
	c := strconv.Itoa(choice)
	if q.ID == "" || q.ID != question || q.Revealed || q.Choice(c) < 0 {
		return false
	}
	s.choose(question, c)
	return true
}

func (s *State) choose(question, choice string) {
	if s.Mine == nil {
		s.Mine = map[string]string{}
	}
	s.Mine[question] = choice
}

// Counts returns the open question's counts by choice index (its choices
// are the lesson's data-choice values), nil if the server sent none.
func (s *State) Counts() map[int]int {
	if s.Poll.Counts == nil {
		return nil
	}
	out := make(map[int]int, len(s.Poll.Counts))
	for _, c := range s.Poll.Counts {
		if i, err := strconv.Atoi(c.Choice); err == nil {
			out[i] = c.N
		}
	}
	return out
}

// MineIn returns a phone's choice in question, −1 for none.
func (s *State) MineIn(question string) int {
	c, ok := s.Mine[question]
	if !ok {
		return -1
	}
	i, err := strconv.Atoi(c)
	if err != nil {
		return -1
	}
	return i
}
