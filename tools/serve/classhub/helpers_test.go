package classhub

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"softmaxdemo/core/class"
	"softmaxdemo/tools/internal/classclient"
	"softmaxdemo/tools/internal/syncbuf"
)

// wait bounds how long a test waits for what it expects before it fails:
// a bound on a hang, not a measure of speed.
const wait = 20 * time.Second

// testClass is a hub served over loopback by httptest.
type testClass struct {
	t   *testing.T
	hub *Hub
	srv *httptest.Server
	key class.Key
	dir string
	log *syncbuf.Buffer
}

// newClass serves a new hub whose folder is dir ("" for none), after
// setup (nil for none) has set its limits.
func newClass(t *testing.T, dir string, setup func(*Hub)) *testClass {
	t.Helper()
	var key class.Key
	key[0], key[15] = 0x5e, 0xc7
	tc := &testClass{t: t, hub: New(key), key: key, dir: dir, log: &syncbuf.Buffer{}}
	tc.hub.Log = log.New(tc.log, "", 0)
	tc.hub.TeacherGrace = 50 * time.Millisecond
	if setup != nil {
		setup(tc.hub)
	}
	if dir != "" {
		if err := tc.hub.Open(dir); err != nil {
			t.Fatal(err)
		}
	}
	tc.srv = httptest.NewServer(tc.hub)
	t.Cleanup(func() {
		tc.hub.Close()
		tc.srv.Close()
	})
	return tc
}

// phone returns a new phone of the class.
func (tc *testClass) phone() *classclient.Client {
	c := classclient.NewPhone(tc.srv.URL)
	c.MaxWait = 100 * time.Millisecond
	return c
}

// presenter returns a client with the key.
func (tc *testClass) presenter() *classclient.Client {
	return classclient.NewPresenter(tc.srv.URL, tc.key.String())
}

// ctx is a context ended with the test.
func (tc *testClass) ctx() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	tc.t.Cleanup(cancel)
	return ctx
}

// locked runs f holding the hub's lock.
func (tc *testClass) locked(f func(h *Hub)) {
	tc.hub.mu.Lock()
	defer tc.hub.mu.Unlock()
	f(tc.hub)
}

// until waits until cond, called holding the hub's lock, holds.
func (tc *testClass) until(what string, cond func(h *Hub) bool) {
	tc.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		ok := false
		tc.locked(func(h *Hub) { ok = cond(h) })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			tc.t.Fatalf("waited %v for %s", wait, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A follower follows a client's stream and keeps every event it gets.
type follower struct {
	c      *classclient.Client
	cancel context.CancelFunc
	done   chan error

	mu       sync.Mutex
	events   []class.Event
	pos      int // events before it are taken
	connects int
	changed  chan struct{}
}

// follow follows c's stream until stop or the test's end, and waits
// until it is connected.
func follow(t *testing.T, c *classclient.Client) *follower {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	f := &follower{c: c, cancel: cancel, done: make(chan error, 1), changed: make(chan struct{}, 1)}
	go func() {
		f.done <- c.Follow(ctx, func(e class.Event) {
			f.mu.Lock()
			f.events = append(f.events, e)
			f.mu.Unlock()
			f.poke()
		}, func() {
			f.mu.Lock()
			f.connects++
			f.mu.Unlock()
			f.poke()
		})
	}()
	t.Cleanup(f.stop)
	f.until(t, "connected", func() bool { return f.connects > 0 })
	return f
}

func (f *follower) poke() {
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

// stop ends the follower and waits for it.
func (f *follower) stop() {
	if f.cancel != nil {
		f.cancel()
		<-f.done
		f.cancel = nil
	}
}

// until waits until cond (called holding f.mu) holds.
func (f *follower) until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(wait)
	for {
		f.mu.Lock()
		ok := cond()
		f.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-f.changed:
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			f.mu.Lock()
			defer f.mu.Unlock()
			t.Fatalf("waited %v for %s; the stream gave %s", wait, what, describe(f.events))
		}
	}
}

// next returns the first event not yet taken that match accepts, taking
// it and every event before it.
func (f *follower) next(t *testing.T, what string, match func(class.Event) bool) class.Event {
	t.Helper()
	var got class.Event
	f.until(t, what, func() bool {
		for i := f.pos; i < len(f.events); i++ {
			if match(f.events[i]) {
				got, f.pos = f.events[i], i+1
				return true
			}
		}
		return false
	})
	return got
}

// all returns a copy of every event so far.
func (f *follower) all() []class.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]class.Event(nil), f.events...)
}

// hello waits for the stream's next Hello.
func (f *follower) hello(t *testing.T) class.Hello {
	t.Helper()
	return f.next(t, "a hello", func(e class.Event) bool { _, ok := e.(class.Hello); return ok }).(class.Hello)
}

// is matches events of e's type equal to e.
func is(e class.Event) func(class.Event) bool {
	return func(x class.Event) bool { return fmt.Sprint(x) == fmt.Sprint(e) && x.Name() == e.Name() }
}

// named matches events called name.
func named(name string) func(class.Event) bool {
	return func(x class.Event) bool { return x.Name() == name }
}

func describe(events []class.Event) string {
	var b strings.Builder
	for _, e := range events {
		s := fmt.Sprintf("%+v", e)
		fmt.Fprintf(&b, "\n  %s %.160s", e.Name(), s)
	}
	return b.String()
}

// refusal returns err's refusal, failing the test if it is none or not
// of status.
func refusal(t *testing.T, err error, status int) *class.Refusal {
	t.Helper()
	var ref *class.Refusal
	if !errors.As(err, &ref) || ref.Status != status {
		t.Fatalf("error %v, want a refusal with status %d", err, status)
	}
	return ref
}

func newRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

// digit returns the pixels of a drawing made from r.
func digit(r *rand.Rand) (px [class.Pixels]byte) {
	row := 4 + r.IntN(20)
	for c := 4 + r.IntN(4); c < 22; c++ {
		px[row*28+c] = byte(1 + r.IntN(255))
		px[(row+1)*28+c] = 255
	}
	return px
}

// raw posts body to path with a content type, and returns the status,
// the Retry-After header and the body.
func (tc *testClass) raw(method, path, ctype string, body []byte) (int, string, []byte) {
	tc.t.Helper()
	req, err := http.NewRequest(method, tc.srv.URL+path, bytes.NewReader(body))
	if err != nil {
		tc.t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := tc.srv.Client().Do(req)
	if err != nil {
		tc.t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	return resp.StatusCode, resp.Header.Get("Retry-After"), b.Bytes()
}

// cutter is a transport whose next response, once armed, is lost after
// the server has answered: the request reached the server, the phone
// never hears back, as when its Wi-Fi drops at that moment.
type cutter struct {
	mu    sync.Mutex
	armed int
	cut   int
	base  http.RoundTripper
}

func (c *cutter) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(r)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil && c.armed > 0 && r.Method == http.MethodPost {
		c.armed--
		c.cut++
		resp.Body.Close()
		return nil, &net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}
	}
	return resp, err
}

func (c *cutter) arm(n int) {
	c.mu.Lock()
	c.armed += n
	c.mu.Unlock()
}
