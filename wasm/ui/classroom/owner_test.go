package classroom

import (
	"strconv"
	"strings"
	"testing"

	"softmaxdemo/core/class"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/kit/kittest"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// fakeNet is the server as a test plays it: the stream's callbacks, and
// each request, answered by the test.
type fakeNet struct {
	url      string
	onEvent  func(name, id, data string)
	onState  func(int)
	requests []*fakeRequest
}

type fakeRequest struct {
	method, url, ctype string
	body               []byte
	done               func(browser.Response)
}

func (f *fakeNet) open(u string, _ []string, onEvent func(name, id, data string), onState func(int)) func() {
	f.url, f.onEvent, f.onState = u, onEvent, onState
	return func() { f.onEvent = nil }
}

func (f *fakeNet) request(method, u, ctype string, body []byte, done func(browser.Response)) {
	f.requests = append(f.requests, &fakeRequest{method, u, ctype, body, done})
}

// take returns and forgets the requests made so far to path.
func (f *fakeNet) take(path string) []*fakeRequest {
	var out, rest []*fakeRequest
	for _, r := range f.requests {
		if strings.HasPrefix(r.url, path) {
			out = append(out, r)
		} else {
			rest = append(rest, r)
		}
	}
	f.requests = rest
	return out
}

// rig is a room mounted on go-app's test engine with a fake server.
type rig struct {
	t   *testing.T
	e   app.TestEngine
	ctx app.Context
	net *fakeNet
	r   *Room

	followed []class.State
	thetas   []*softmax.Model[float32]
	shown    Shown
}

func newRig(t *testing.T, query string) *rig {
	e, ctx := kittest.Context(t)
	g := &rig{t: t, e: e, ctx: ctx, net: &fakeNet{}}
	st := &memStorage{kept: map[string]string{phoneStorage: "00112233445566778899aabbccddeeff"}}
	g.r = open(query, func() Shown { return g.shown }, g.net, st)
	Follow.Handle(ctx, func(_ app.Context, s class.State) { g.followed = append(g.followed, s) })
	Theta.Handle(ctx, func(_ app.Context, m *softmax.Model[float32]) { g.thetas = append(g.thetas, m) })
	g.r.Mount(ctx)
	t.Cleanup(g.r.Dismount)
	g.consume()
	return g
}

func (g *rig) consume() { g.e.ConsumeAll() }

// event delivers one event of the stream, as the server encodes it.
func (g *rig) event(id string, e class.Event) {
	g.t.Helper()
	b, err := class.EncodeEvent(e)
	if err != nil {
		g.t.Fatal(err)
	}
	g.net.onEvent(e.Name(), id, string(b))
	g.consume()
}

func (g *rig) answer(r *fakeRequest, status int, body []byte) {
	r.done(browser.Response{Status: status, Body: body})
	g.consume()
}

func model(v float32) *softmax.Model[float32] {
	m := &softmax.Model[float32]{D: 784, W: make([]float32, 7840), B: make([]float32, 10)}
	for i := range m.W {
		m.W[i] = v * float32(i%7)
	}
	return m
}

func TestPhoneFollowsAndAnswersOnce(t *testing.T) {
	g := newRig(t, "class")
	if !strings.HasPrefix(g.net.url, "/class/events?id=00112233445566778899aabbccddeeff") || strings.Contains(g.net.url, "key=") {
		t.Fatalf("a phone's stream %q", g.net.url)
	}
	q := class.Question{ID: "task", Choices: []string{"0", "1", "2"}}
	g.event("r-1", class.Hello{Version: class.Version, Role: class.RoleStudent, Teacher: true,
		State: class.State{Chapter: 3, Lang: "zh", Scrub: -1}, Theta: class.ThetaVersion{Version: 4, Checksum: class.Checksum(model(1))}, Poll: class.Poll{Question: q}})
	if len(g.followed) != 1 || g.followed[0].Chapter != 3 || g.followed[0].Lang != "zh" {
		t.Fatalf("after the Hello the page followed %+v", g.followed)
	}
	// θ: fetched once, checked against its checksum, shown.
	fetches := g.net.take("/class/theta")
	if len(fetches) != 1 || fetches[0].method != "GET" {
		t.Fatalf("θ fetches %+v", fetches)
	}
	wire, _ := class.EncodeTheta(model(1))
	fetches[0].done(browser.Response{Status: 200, Body: wire, Version: "4", Checksum: class.Checksum(model(1))})
	g.consume()
	if len(g.thetas) != 1 || class.Checksum(g.thetas[0]) != class.Checksum(model(1)) {
		t.Fatalf("θ shown: %d models", len(g.thetas))
	}
	// A θ whose checksum is not the server's is not shown.
	g.event("r-2", class.ThetaVersion{Version: 5, Checksum: "bad"})
	wire2, _ := class.EncodeTheta(model(2))
	g.net.take("/class/theta")[0].done(browser.Response{Status: 200, Body: wire2, Version: "5", Checksum: "bad"})
	g.consume()
	if len(g.thetas) != 1 {
		t.Error("a θ that did not match its checksum was shown")
	}

	// Two answers before the first is taken: the first on its way, the
	// second waits, and replaces nothing but an unsent one.
	Answer.Post(g.ctx, Choice{Question: "task", Choice: 1})
	g.consume()
	Answer.Post(g.ctx, Choice{Question: "task", Choice: 2})
	g.consume()
	sent := g.net.take("/class/answer")
	if len(sent) != 1 {
		t.Fatalf("%d answers on their way at once, want 1", len(sent))
	}
	a1, err := class.DecodeAnswer(sent[0].body)
	if err != nil || a1.Choice != "1" || a1.Seq == 0 {
		t.Fatalf("first answer %+v, %v", a1, err)
	}
	// Lost on the way (a Wi-Fi drop): the same bytes again.
	sent[0].done(browser.Response{Err: "offline"})
	g.consume()
	if len(g.net.take("/class/answer")) != 0 {
		t.Fatal("sent again at once, without waiting")
	}
	g.r.o.pump(g.ctx) // the wait is over
	g.consume()
	again := g.net.take("/class/answer")
	if len(again) != 1 || string(again[0].body) != string(sent[0].body) {
		t.Fatalf("sent again: %d, the same bytes: %v", len(again), len(again) == 1 && string(again[0].body) == string(sent[0].body))
	}
	g.answer(again[0], 200, class.Ack{}.Encode())
	next := g.net.take("/class/answer")
	if len(next) != 1 {
		t.Fatalf("the newer answer was not sent after the first was taken")
	}
	a2, _ := class.DecodeAnswer(next[0].body)
	if a2.Choice != "2" || a2.Seq <= a1.Seq {
		t.Errorf("second answer %+v after %+v", a2, a1)
	}
	g.answer(next[0], 200, class.Ack{}.Encode())

	// The reveal: no more answers.
	g.event("r-3", class.Poll{Question: class.Question{ID: "task", Choices: q.Choices, Revealed: true}})
	Answer.Post(g.ctx, Choice{Question: "task", Choice: 0})
	g.consume()
	if n := len(g.net.take("/class/answer")); n != 0 {
		t.Errorf("%d answers sent after the reveal", n)
	}

	// Alone: the projector's moves are not followed until rejoin.
	Leave.Post(g.ctx)
	g.consume()
	g.event("r-4", class.State{Chapter: 5, Lang: "zh", Scrub: -1})
	if len(g.followed) != 1 || g.r.State().Phase() != PhaseAlone {
		t.Fatalf("alone, the page followed %+v (phase %s)", g.followed, g.r.State().Phase())
	}
	rejoin.Post(g.ctx)
	g.consume()
	if len(g.followed) != 2 || g.followed[1].Chapter != 5 {
		t.Errorf("rejoined, the page followed %+v", g.followed)
	}
}

func TestProjectorPresents(t *testing.T) {
	g := newRig(t, "class&key=00112233445566778899aabbccddeeff")
	if !strings.Contains(g.net.url, "key=00112233445566778899aabbccddeeff") {
		t.Fatalf("the projector's stream %q has no key", g.net.url)
	}
	g.shown = Shown{State: class.State{Chapter: 2, Lang: "en", Scrub: -1},
		Question: class.Question{ID: "task", Choices: []string{"0", "1", "2"}}, Model: model(3)}
	g.event("r-1", class.Hello{Version: class.Version, Role: class.RolePresenter, Teacher: true})
	byPath := map[string]*fakeRequest{}
	for _, r := range g.net.requests {
		byPath[strings.SplitN(r.url, "?", 2)[0]] = r
	}
	st, q, th := byPath["/class/state"], byPath["/class/question"], byPath["/class/theta"]
	if st == nil || q == nil || th == nil {
		t.Fatalf("after the Hello the projector sent %v, want its state, question and θ", keys(byPath))
	}
	if s, err := class.DecodeState(st.body); err != nil || s != g.shown.State {
		t.Errorf("state sent %+v, %v", s, err)
	}
	if m, err := class.DecodeTheta(th.body); err != nil || class.Checksum(m) != class.Checksum(g.shown.Model) {
		t.Errorf("θ sent: %v", err)
	}
	for _, r := range []*fakeRequest{st, q, th} {
		if !strings.Contains(r.url, "key=") {
			t.Errorf("%s without the key", r.url)
		}
		g.answer(r, 200, class.Ack{}.Encode())
	}
	g.net.requests = nil
	// Nothing changed: nothing sent again.
	g.r.o.look(g.ctx)
	if n := len(g.net.take("/class/state")) + len(g.net.take("/class/question")); n != 0 {
		t.Errorf("%d requests with nothing changed", n)
	}
	// The server restarted: a Hello without them, and the projector
	// sends them again.
	g.event("r2-1", class.Hello{Version: class.Version, Role: class.RolePresenter})
	if len(g.net.take("/class/state")) != 1 || len(g.net.take("/class/question")) != 1 || len(g.net.take("/class/theta")) != 1 {
		t.Error("after a restart's Hello the projector did not present again")
	}
	// Counts shown by choice.
	g.r.o.st.Poll.Question = g.shown.Question
	g.event("r2-2", class.Tally{Question: "task", Counts: []class.Count{{Choice: "0", N: 2}, {Choice: "2", N: 5}}})
	if c := g.r.State().Counts(); c[0] != 2 || c[2] != 5 {
		t.Errorf("counts %v", c)
	}
	g.event("r2-3", class.Joined{N: 27})
	if html := app.HTMLString(g.r.Bar("en", g.shown.Model)); !strings.Contains(html, `data-students="27"`) ||
		!strings.Contains(html, `data-theta="`+class.Checksum(g.shown.Model)+`"`) || !strings.Contains(html, `data-role="presenter"`) {
		t.Errorf("#class: %s", html)
	}
}

func keys(m map[string]*fakeRequest) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestFullClassIsSaidAndAskedAgain(t *testing.T) {
	g := newRig(t, "class")
	g.net.onState(browser.StreamClosed)
	g.consume()
	joins := g.net.take("/class/join")
	if len(joins) != 1 {
		t.Fatalf("%d joins after the stream was refused", len(joins))
	}
	ref := &class.Refusal{Status: 503, Code: class.CodeFull, Message: "the class is full (100 phones)", RetryAfter: 5}
	joins[0].done(browser.Response{Status: 503, RetryAfter: strconv.Itoa(ref.RetryAfter), Body: ref.Encode()})
	g.consume()
	if st := g.r.State(); st.Refused == nil || st.Refused.Code != class.CodeFull || st.Phase() != PhaseReconnecting {
		t.Fatalf("a full class: %+v", st.Refused)
	}
	if html := app.HTMLString(g.r.Bar("en", nil)); !strings.Contains(html, "full") {
		t.Errorf("#class does not say the class is full: %s", html)
	}
	// A server that is no class's: the page shows nothing of classes.
	h := newRig(t, "class")
	h.net.onState(browser.StreamClosed)
	h.consume()
	h.answer(h.net.take("/class/join")[0], 404, nil)
	if h.r.Bar("en", nil) != nil {
		t.Error("a page served without -class shows #class")
	}
}

func TestDrawingsReadOnceASecondWhileTheModelChanges(t *testing.T) {
	g := newRig(t, "class&key=00112233445566778899aabbccddeeff")
	g.event("r-1", class.Hello{Version: class.Version, Role: class.RolePresenter, Teacher: true})
	g.event("r-2", &class.Digit{N: 1, Label: 3})
	m1, m2 := model(1), model(2)
	if r := g.r.o.read(m1, false); r.model != m1 || len(r.predicted) != 1 {
		t.Fatalf("first reading: model %p, %d drawings", r.model, len(r.predicted))
	}
	if r := g.r.o.read(m2, false); r.model != m1 {
		t.Error("a new model within a second read the drawings again")
	}
	if !g.r.o.rereading {
		t.Error("no render is due for the late reading")
	}
	g.event("r-3", &class.Digit{N: 2, Label: 5})
	if r := g.r.o.read(m2, false); r.model != m2 || len(r.predicted) != 2 {
		t.Errorf("a drawing more was not read at once: model %p, %d drawings", r.model, len(r.predicted))
	}
}
