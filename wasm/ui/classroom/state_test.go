package classroom

import (
	"testing"
	"time"

	"softmaxdemo/core/class"
	"softmaxdemo/wasm/ui/browser"
)

func TestPhases(t *testing.T) {
	var s State
	if s.Phase() != PhaseReconnecting {
		t.Fatalf("before a Hello: %s", s.Phase())
	}
	s.Hello(class.Hello{Role: class.RoleStudent})
	if s.Phase() != PhaseWaiting {
		t.Errorf("a phone with no projector: %s, want waiting", s.Phase())
	}
	s.Apply(class.Teacher{Here: true})
	if s.Phase() != PhaseJoined || !s.Following() {
		t.Errorf("a phone with the projector: %s, following %v", s.Phase(), s.Following())
	}
	s.Alone = true
	if s.Phase() != PhaseAlone || s.Following() {
		t.Errorf("a phone alone: %s, following %v", s.Phase(), s.Following())
	}
	var p State
	p.Hello(class.Hello{Role: class.RolePresenter})
	p.Apply(class.Teacher{Here: false}) // the projector's own page is the teacher
	if p.Phase() != PhaseJoined || p.Following() {
		t.Errorf("the projector: %s, following %v", p.Phase(), p.Following())
	}
}

func TestChooseOnlyAnOpenQuestion(t *testing.T) {
	var s State
	s.Hello(class.Hello{Role: class.RoleStudent, Poll: class.Poll{Question: class.Question{ID: "task", Choices: []string{"0", "1", "2"}}}})
	for _, c := range []struct {
		q      string
		choice int
		ok     bool
	}{
		{"task", 1, true},
		{"task", 2, true}, // changed before the reveal
		{"task", 3, false},
		{"loss", 0, false},
	} {
		if got := s.Choose(c.q, c.choice); got != c.ok {
			t.Errorf("Choose(%q, %d) = %v, want %v", c.q, c.choice, got, c.ok)
		}
	}
	if s.MineIn("task") != 2 {
		t.Errorf("mine = %d, want 2", s.MineIn("task"))
	}
	s.Apply(class.Poll{Question: class.Question{ID: "task", Choices: []string{"0", "1", "2"}, Revealed: true},
		Counts: []class.Count{{Choice: "0", N: 4}, {Choice: "2", N: 7}}})
	if s.Choose("task", 0) {
		t.Error("a choice after the reveal was taken")
	}
	if c := s.Counts(); c[0] != 4 || c[1] != 0 || c[2] != 7 {
		t.Errorf("counts %v", c)
	}
	s.Apply(class.Tally{Question: "other", Counts: []class.Count{{Choice: "0", N: 99}}})
	if s.Counts()[0] != 4 {
		t.Error("another question's tally changed the counts")
	}
}

func TestOutbox(t *testing.T) {
	var o outbox
	o.add(message{Path: "/class/answer", Body: []byte("a1"), Question: "q"})
	m, ok := o.next()
	if !ok || string(m.Body) != "a1" {
		t.Fatalf("next = %q, %v", m.Body, ok)
	}
	if _, ok := o.next(); ok {
		t.Fatal("a second message went while the first was on its way")
	}
	// A newer answer to q: the one on its way stays, the newer queues.
	o.add(message{Path: "/class/answer", Body: []byte("a2"), Question: "q"})
	o.add(message{Path: "/class/answer", Body: []byte("a3"), Question: "q"})
	if o.pending() != 2 {
		t.Fatalf("%d pending, want 2 (the one on its way and the latest)", o.pending())
	}
	// A network error: the same message again, after a wait that doubles.
	w1, _ := o.done(browser.Response{Err: "offline"})
	if _, ok := o.next(); !ok {
		t.Fatal("nothing to send again")
	}
	w2, _ := o.done(browser.Response{Status: 502})
	if w1 != minWait || w2 != 2*minWait {
		t.Errorf("waits %v, %v; want %v, %v", w1, w2, minWait, 2*minWait)
	}
	m, _ = o.next()
	if string(m.Body) != "a1" {
		t.Fatalf("sent again %q, want the same bytes a1", m.Body)
	}
	// Too many requests: again after Retry-After.
	w, ref := o.done(browser.Response{Status: 429, RetryAfter: "3", Body: (&class.Refusal{Status: 429, Code: class.CodeRate, Message: "slow down", RetryAfter: 3}).Encode()})
	if w != 3*time.Second || ref != nil {
		t.Errorf("429: wait %v, refusal %v", w, ref)
	}
	m, _ = o.next()
	if w, ref := o.done(browser.Response{Status: 200, Body: class.Ack{}.Encode()}); w != 0 || ref != nil || string(m.Body) != "a1" {
		t.Errorf("200: wait %v, refusal %v", w, ref)
	}
	// The latest answer, refused for good: out of the box, with its reason.
	m, _ = o.next()
	if string(m.Body) != "a3" {
		t.Fatalf("next %q, want a3", m.Body)
	}
	_, ref = o.done(browser.Response{Status: 409, Body: (&class.Refusal{Status: 409, Code: "revealed", Message: "the answer is revealed"}).Encode()})
	if ref == nil || ref.Status != 409 || o.pending() != 0 {
		t.Errorf("409: refusal %v, %d pending", ref, o.pending())
	}
}

func TestOpenNeedsClass(t *testing.T) {
	for _, q := range []string{"", "lang=en", "classroom=1", "%zz"} {
		if r := open(q, nil, nil, &memStorage{}); r != nil {
			t.Errorf("open(%q) opened a class", q)
		}
	}
	st := &memStorage{}
	r := open("class&key=00112233445566778899aabbccddeeff", nil, nil, st)
	if r == nil || r.o.key != "00112233445566778899aabbccddeeff" || st.tab[keyStorage] != r.o.key {
		t.Fatalf("the key was not kept in the tab: %+v", st)
	}
	if got := encodeQuery(map[string][]string{"class": {""}, "x": {"1"}}); got != "class&x=1" {
		t.Errorf("encodeQuery = %q", got)
	}
}

type memStorage struct{ kept, tab map[string]string }

func (m *memStorage) Get(k string) string { return m.kept[k] }
func (m *memStorage) Set(k, v string) bool {
	if m.kept == nil {
		m.kept = map[string]string{}
	}
	m.kept[k] = v
	return true
}
func (m *memStorage) TabGet(k string) string { return m.tab[k] }
func (m *memStorage) TabSet(k, v string) bool {
	if m.tab == nil {
		m.tab = map[string]string{}
	}
	m.tab[k] = v
	return true
}
