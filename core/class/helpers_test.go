package class

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// phone returns a phone id made from r.
func phone(r *rand.Rand) PhoneID {
	var p PhoneID
	for i := range p {
		p[i] = byte(r.Uint32())
	}
	p[0] |= 1 // never zero
	return p
}

// pixels returns a drawing's grey levels made from r: a bar of ink on
// the background, as a drawn digit is mostly zeros.
func pixels(r *rand.Rand) (px [Pixels]byte) {
	row := 4 + r.IntN(20)
	for c := 6; c < 22; c++ {
		px[row*28+c] = byte(1 + r.IntN(255))
	}
	return px
}

// requests returns one of each request with every field set, made from
// r, as a name and its encoding, and a decoder that returns the decoded
// value for comparison.
type request struct {
	name   string
	value  any
	encode func() []byte
	decode func([]byte) (any, error)
}

func requests(r *rand.Rand) []request {
	d := &Drawing{Phone: phone(r), Seq: 8, Label: 3, Pixels: pixels(r)}
	l := Line{Phone: phone(r), Seq: 9, Line: PlaneLine{K: 3, W: []float32{0, -1.5, 100, 0.1, -100, 3e-7}, B: []float32{0, 0.25, -2}}}
	a := Answer{Phone: phone(r), Seq: 7, Question: "q-newton", Choice: "2"}
	j := Join{Version: Version, Phone: phone(r)}
	s := State{Chapter: 3, Lang: "zh", Scrub: -1}
	q := Question{ID: "q.1", Choices: []string{"0", "1", "2"}, Revealed: true}
	return []request{
		{"join", j, j.Encode, func(b []byte) (any, error) { return DecodeJoin(b) }},
		{"answer", a, a.Encode, func(b []byte) (any, error) { return DecodeAnswer(b) }},
		{"drawing", d, d.Encode, func(b []byte) (any, error) { return DecodeDrawing(b) }},
		{"line", l, l.Encode, func(b []byte) (any, error) { return DecodeLine(b) }},
		{"state", s, s.Encode, func(b []byte) (any, error) { return DecodeState(b) }},
		{"question", q, q.Encode, func(b []byte) (any, error) { return DecodeQuestion(b) }},
	}
}

// events returns one of each event with every field set, made from r.
func events(r *rand.Rand) []Event {
	q := Question{ID: "q1", Choices: []string{"0", "1", "2"}, Revealed: true}
	counts := []Count{{"0", 4}, {"1", 20}, {"2", 3}}
	line := PlaneLine{K: 2, W: []float32{0, -1.5, 0, 2}, B: []float32{0, 0.25}}
	return []Event{
		Hello{Version: Version, Role: RolePresenter, State: State{Chapter: 2, Lang: "en", Scrub: 64}, Teacher: true,
			Theta: ThetaVersion{12, "9d2f00aa11"}, Poll: Poll{q, counts}, Mine: "1", Sent: 3, MaxSent: 50,
			Joined: 27, Drawings: 600, Last: 612, Lines: []LineOf{{1, line}, {4, line}}, Fault: "disk full"},
		Hello{Version: Version, Role: RoleStudent, State: State{Lang: "zh", Scrub: -1},
			Poll: Poll{Question: Question{ID: "q2", Choices: []string{"a", "b"}}}, Lines: []LineOf{}},
		State{Chapter: 9, Lang: "zh", Scrub: 0},
		Teacher{Here: true},
		ThetaVersion{Version: 1 << 40, Checksum: "cbf29ce484222325"},
		Poll{Question: q, Counts: counts},
		Poll{Question: Question{ID: "q3", Choices: []string{"x", "y"}}},
		Poll{Question: Question{Choices: []string{}}},
		Tally{Question: "q1", Counts: counts},
		Joined{N: 60},
		&Digit{N: 4000000000, Label: 9, Pixels: pixels(r)},
		Removed{N: 7},
		LineOf{Slot: 3, Line: line},
		Cleared{},
		Fault{Message: "writing /class/drawings: no space left on device\n\"twice\""},
	}
}

// same reports whether two decoded values are equal, nil and empty
// slices apart.
func same(a, b any) bool { return reflect.DeepEqual(a, b) }

func newRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

func mustEncode(t testing.TB, e Event) []byte {
	t.Helper()
	b, err := EncodeEvent(e)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
