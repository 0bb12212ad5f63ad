package classhub

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/class"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/kit"
)

// TestReconnectGetsWhatItMissed: a phone that loses its stream and comes
// back with its Last-Event-ID gets exactly the events it missed, in
// order, without a Hello; one whose id is of another run of the server,
// or too old for the log, gets a Hello of the class as it is.
func TestReconnectGetsWhatItMissed(t *testing.T) {
	tc := newClass(t, "", func(h *Hub) { h.LogSize = 8 })
	ctx := tc.ctx()
	pres := tc.presenter()
	c := tc.phone()
	f := follow(t, c)
	f.hello(t)
	pres.SetState(ctx, class.State{Chapter: 1, Lang: "en", Scrub: -1})
	f.next(t, "chapter 1", is(class.State{Chapter: 1, Lang: "en", Scrub: -1}))
	f.stop() // the screen locks
	last := c.LastEventID()

	missed := []class.Event{
		class.State{Chapter: 2, Lang: "en", Scrub: -1},
		class.State{Chapter: 2, Lang: "zh", Scrub: -1},
		class.Poll{Question: class.Question{ID: "q", Choices: []string{"a", "b"}}},
	}
	pres.SetState(ctx, missed[0].(class.State))
	pres.SetState(ctx, missed[1].(class.State))
	pres.Ask(ctx, class.Question{ID: "q", Choices: []string{"a", "b"}})
	g := follow(t, c) // the screen unlocks: Last-Event-ID is last
	g.until(t, "the missed events", func() bool { return len(g.events) >= len(missed) })
	time.Sleep(50 * time.Millisecond) // nothing else is on its way
	got := g.all()
	if len(got) != len(missed) {
		t.Fatalf("after %s the stream gave %s, want the 3 events missed", last, describe(got))
	}
	for i := range missed {
		if fmt.Sprint(got[i]) != fmt.Sprint(missed[i]) {
			t.Errorf("event %d is %+v, want %+v", i, got[i], missed[i])
		}
	}
	g.stop()

	for _, tt := range []struct{ name, id string }{
		{"another run's id", "00000000-3"},
		{"an id of the future", c.LastEventID() + "9"},
		{"nonsense", "x"},
	} {
		c.SetLastEventID(tt.id)
		h := follow(t, c)
		if hl := h.hello(t); hl.State.Lang != "zh" || hl.Poll.Question.ID != "q" {
			t.Errorf("%s: a hello of %+v", tt.name, hl)
		}
		h.stop()
	}
	// Ten events later, the log of eight no longer holds what followed.
	c.SetLastEventID(last)
	for i := range 10 {
		pres.SetState(ctx, class.State{Chapter: 10 + i, Lang: "zh", Scrub: -1})
	}
	h := follow(t, c)
	if hl := h.hello(t); hl.State.Chapter != 19 {
		t.Errorf("too old an id: a hello of chapter %d, want 19", hl.State.Chapter)
	}
	if e := h.all(); len(e) != 1 {
		t.Errorf("too old an id: the stream gave %s, want a hello alone", describe(e))
	}
}

// TestWiFiDrop: every connection is cut (the server's side, as a Wi-Fi
// drop looks from it); the phones reconnect by themselves, get what
// they missed, and what they send is counted once.
func TestWiFiDrop(t *testing.T) {
	tc := newClass(t, "", func(h *Hub) { h.Retry = 20 * time.Millisecond })
	ctx := tc.ctx()
	pres := tc.presenter()
	pr := follow(t, pres)
	pres.Ask(ctx, class.Question{ID: "q", Choices: []string{"a", "b"}})
	var phones []*follower
	for range 3 {
		f := follow(t, tc.phone())
		f.hello(t)
		phones = append(phones, f)
	}
	tc.srv.CloseClientConnections()
	pres.SetState(ctx, class.State{Chapter: 4, Lang: "en", Scrub: -1})
	for i, f := range phones {
		f.next(t, "phone "+itoa(i)+" back at chapter 4", is(class.State{Chapter: 4, Lang: "en", Scrub: -1}))
		f.until(t, "reconnected", func() bool { return f.connects == 2 })
		if _, err := f.c.Answer(ctx, "q", "b"); err != nil {
			t.Fatal(err)
		}
	}
	pr.next(t, "three answers", func(e class.Event) bool {
		tl, ok := e.(class.Tally)
		return ok && tl.Counts[1].N == 3
	})
	for _, f := range phones {
		hellos := 0
		for _, e := range f.all() {
			if _, ok := e.(class.Hello); ok {
				hellos++
			}
		}
		if hellos != 1 {
			t.Errorf("a phone got %d hellos: it should have gone on from its Last-Event-ID", hellos)
		}
	}
}

// TestPhonesGetNothingOfOthers: drawings, lines and the live counts go
// to the presenter alone; a phone's stream never carries them, and its
// Hello has none of the presenter's fields.
func TestPhonesGetNothingOfOthers(t *testing.T) {
	tc := newClass(t, "", nil)
	ctx := tc.ctx()
	pres := tc.presenter()
	pr := follow(t, pres)
	pres.Ask(ctx, class.Question{ID: "q", Choices: []string{"a", "b"}})
	a, b := tc.phone(), tc.phone()
	fa := follow(t, a)
	if _, err := b.Draw(ctx, 3, digit(newRand())); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SendLine(ctx, class.PlaneLine{K: 2, W: []float32{0, 1, 0, 2}, B: []float32{0, 0}}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Answer(ctx, "q", "a"); err != nil {
		t.Fatal(err)
	}
	pr.next(t, "the drawing", named(class.EventDrawing))
	pr.next(t, "the line", named(class.EventLine))
	pr.next(t, "the counts", named(class.EventCounts))
	pres.SetState(ctx, class.State{Chapter: 1, Lang: "en", Scrub: -1}) // an event after them all
	fa.next(t, "the state", named(class.EventState))
	for _, e := range fa.all() {
		switch e := e.(type) {
		case *class.Digit, class.LineOf, class.Tally, class.Removed, class.Joined, class.Fault, class.Cleared:
			t.Errorf("a phone got %s: %+v", e.Name(), e)
		case class.Hello:
			if e.Joined != 0 || e.Drawings != 0 || e.Last != 0 || len(e.Lines) != 0 || e.Poll.Counts != nil {
				t.Errorf("a phone's hello has the presenter's fields: %+v", e)
			}
		}
	}
	follow(t, b) // b's own hello says what it sent
	tc.until("b's stream", func(h *Hub) bool { return len(h.phones[b.Phone].open) == 1 })
}

// TestSlowStreamIsDropped: a presenter's page that stops reading its
// stream is dropped once a write waits longer than WriteTimeout, without
// holding up the phones or the requests.
func TestSlowStreamIsDropped(t *testing.T) {
	tc := newClass(t, "", func(h *Hub) {
		h.WriteTimeout = 200 * time.Millisecond
		h.LogSize = 1 << 16
	})
	ctx := tc.ctx()
	// A presenter's stream that reads its headers and then nothing, with
	// a small receive buffer.
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", tc.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(conn, "GET %s?key=%s HTTP/1.1\r\nHost: x\r\n\r\n", class.PathEvents, tc.key)
	if line, err := bufio.NewReader(conn).ReadString('\n'); err != nil || !strings.Contains(line, "200") {
		t.Fatalf("the slow stream: %q %v", line, err)
	}
	phone := follow(t, tc.phone())
	r := newRand()
	start, sent := time.Now(), 0
	for dropped := false; !dropped; {
		// Drawings as the presenter gets them, 1.1 kB each, a hundred at
		// a time.
		tc.locked(func(h *Hub) {
			for range 100 {
				h.publish(toPresenter, &class.Digit{N: uint32(sent + 1), Label: 1, Pixels: digit(r)})
				sent++
			}
			dropped = h.drops > 0
		})
		if time.Since(start) > wait {
			t.Fatal("the stream that reads nothing was never dropped")
		}
		time.Sleep(time.Millisecond)
	}
	t.Logf("dropped after %d drawings on their way", sent)
	if !strings.Contains(tc.log.String(), "was closed") {
		t.Errorf("the terminal was not told: %q", tc.log.String())
	}
	tc.presenter().SetState(ctx, class.State{Chapter: 7, Lang: "en", Scrub: -1})
	phone.next(t, "the phone follows on", is(class.State{Chapter: 7, Lang: "en", Scrub: -1}))
}

// TestTheta: the presenter's θ is announced with kit.Checksum's value
// (the page's data-theta), served bit for bit, with its version as ETag
// (304 when the page has it) and gzipped when that saves; a θ needs the
// key.
func TestTheta(t *testing.T) {
	tc := newClass(t, "", nil)
	ctx := tc.ctx()
	pres := tc.presenter()
	phone := tc.phone()
	f := follow(t, phone)
	if _, _, err := phone.Theta(ctx); refusal(t, err, http.StatusNotFound).Code != class.CodeNotFound {
		t.Error("a θ before any")
	}
	m := softmax.New[float32](784)
	for i := range m.W {
		if i%7 != 0 { // weights of the pixels always white stay zero
			m.W[i] = float32(i%113)/50 - 1
		}
	}
	m.B[3] = -0.5
	for v := range uint64(3) {
		m.B[0] = float32(v)
		if err := pres.PutTheta(ctx, m); err != nil {
			t.Fatal(err)
		}
		tv := f.next(t, "θ announced", named(class.EventTheta)).(class.ThetaVersion)
		if tv.Version != v+1 || tv.Checksum != kit.Checksum(m) {
			t.Errorf("announced %+v, want version %d and kit's checksum %s", tv, v+1, kit.Checksum(m))
		}
		got, version, err := phone.Theta(ctx)
		if err != nil || version != v+1 || class.Checksum(got) != kit.Checksum(m) {
			t.Errorf("fetched version %d with checksum %s (%v)", version, class.Checksum(got), err)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, tc.srv.URL+class.PathTheta, nil)
	req.Header.Set("If-None-Match", `"3"`)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusNotModified {
		t.Errorf("a page that has θ 3: %v %v", resp.Status, err)
	}
	req.Header.Set("If-None-Match", `"2"`)
	resp, err = (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || resp.ContentLength >= 31412*9/10 {
		t.Errorf("a page that has θ 2, gzip accepted: %v, %q, %d bytes (%v)", resp.Status, resp.Header.Get("Content-Encoding"), resp.ContentLength, err)
	} else {
		t.Logf("θ gzipped: %d of 31412 bytes", resp.ContentLength)
	}
	wrong := tc.presenter()
	wrong.Key = strings.Repeat("0", 32)
	if err := wrong.PutTheta(ctx, m); refusal(t, err, http.StatusForbidden).Code != class.CodeKey {
		t.Error("a θ without the key")
	}
}

// TestTeacherComesAndGoes: phones are told when the presenter's page has
// been gone for TeacherGrace, and when it is back; a reload within the
// grace says nothing.
func TestTeacherComesAndGoes(t *testing.T) {
	tc := newClass(t, "", func(h *Hub) { h.TeacherGrace = time.Second })
	f := follow(t, tc.phone())
	if h := f.hello(t); h.Teacher {
		t.Error("a class without a presenter says the teacher is here")
	}
	p := follow(t, tc.presenter())
	f.next(t, "the teacher here", is(class.Teacher{Here: true}))
	p.stop()
	p = follow(t, tc.presenter()) // a reload
	p.stop()
	f.next(t, "the teacher gone", is(class.Teacher{Here: false}))
	here := 0
	for _, e := range f.all() {
		if tt, ok := e.(class.Teacher); ok && tt.Here {
			here++
		}
	}
	if here != 1 {
		t.Errorf("a reload within the grace was announced: %s", describe(f.all()))
	}
	follow(t, tc.presenter())
	f.next(t, "the teacher back", is(class.Teacher{Here: true}))
}

// TestServerShutdown: Close ends every stream, so that http.Server's
// Shutdown does not wait for them.
func TestServerShutdown(t *testing.T) {
	tc := newClass(t, "", func(h *Hub) { h.Retry = 10 * time.Millisecond })
	done := make(chan error, 1)
	c := tc.phone()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opened := make(chan struct{}, 1)
	go func() {
		done <- c.Follow(ctx, func(class.Event) {}, func() { opened <- struct{}{} })
	}()
	<-opened
	tc.hub.Close()
	select {
	case <-opened:
		// The client reconnected: the stream had ended. Its new stream
		// ends at once too.
	case <-time.After(wait):
		t.Fatal("the stream did not end")
	}
}
