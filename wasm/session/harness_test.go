package session

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/wasm/protocol"
)

// wait bounds every wait for an event, so that a hang fails the test.
const wait = 20 * time.Second

// fakeEnv serves files from memory and has a clock that moves by tick on
// every reading, so slicing and pacing are deterministic.
type fakeEnv struct {
	mu    sync.Mutex
	files map[string][]byte
	stops map[string]stop
	now   time.Time
	tick  time.Duration

	refused string // Kernel's reason for not using the SIMD kernel

	helpers       []*fakeHelper
	refuseHelpers bool // StartHelper refuses all but the first
	holdHelpers   bool // StartHelper starts helpers that take in nothing until released

	dropped    []protocol.Msg // what Drop took
	dropPanics bool           // Drop panics, as a rehearsal that fails

	yields atomic.Int64 // calls of Yield
}

// Drop keeps m, in its wire form and back, as the browser encodes it.
func (e *fakeEnv) Drop(m protocol.Msg) {
	if e.dropPanics {
		panic("Drop fails")
	}
	env, bulk, err := protocol.Encode(m)
	if err == nil {
		m, err = protocol.Decode(env, bulk)
	}
	if err != nil {
		panic(err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.dropped = append(e.dropped, m)
}

// A stop interrupts a download after at bytes: it waits until release is
// closed (if not nil), then fails with err (if not nil) or goes on.
type stop struct {
	at      int
	release chan struct{}
	err     error
}

func newEnv(tick time.Duration) *fakeEnv {
	return &fakeEnv{files: map[string][]byte{}, stops: map[string]stop{}, now: time.Unix(0, 0), tick: tick}
}

// stopAt makes the next download of url stop as st says.
func (e *fakeEnv) stopAt(url string, st stop) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stops[url] = st
}

func (e *fakeEnv) Fetch(ctx context.Context, url string, progress func(body []byte, total int64)) ([]byte, error) {
	if url == "panic" {
		panic("fetch exploded")
	}
	e.mu.Lock()
	b, ok := e.files[url]
	st, stopped := e.stops[url]
	delete(e.stops, url)
	e.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("fetching %s: HTTP 404 Not Found", url)
	}
	b = bytes.Clone(b)
	for i := 0; i < len(b); {
		next := min(i+1000, len(b))
		if stopped && i < st.at && st.at <= next {
			next = st.at
		}
		progress(b[:next], 0) // as if Content-Length were missing
		i = next
		if stopped && i == st.at {
			if st.release != nil {
				select {
				case <-st.release:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			if st.err != nil {
				return nil, fmt.Errorf("fetching %s: %w", url, st.err)
			}
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return b, nil
}

func (e *fakeEnv) Now() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.now = e.now.Add(e.tick)
	return e.now
}

func (e *fakeEnv) Yield() {
	e.yields.Add(1)
	runtime.Gosched()
}

// After moves the fake clock on by d and fires at once.
func (e *fakeEnv) After(d time.Duration) <-chan time.Time {
	e.mu.Lock()
	e.now = e.now.Add(d)
	now := e.now
	e.mu.Unlock()
	ch := make(chan time.Time, 1)
	ch <- now
	return ch
}

func (e *fakeEnv) SHA256(b []byte) ([32]byte, error) { return sha256.Sum256(b), nil }

// Kernel says Go's kernel runs, refusing the SIMD kernel for the reason
// in refused, if any.
func (e *fakeEnv) Kernel() (name, refused string) { return "go", e.refused }

// serve makes b available at url and returns the Load command for it.
func (e *fakeEnv) serve(name, url string, b []byte) protocol.Load {
	e.mu.Lock()
	e.files[url] = b
	e.mu.Unlock()
	sum := sha256.Sum256(b)
	l := protocol.Load{Name: name, URL: url, SHA256: hex.EncodeToString(sum[:]), Bytes: int64(len(b))}
	if n, err := dataset.TrainPrefix(b); err == nil && n > 0 {
		sum := sha256.Sum256(b[:n])
		l.TrainBytes, l.TrainSHA256 = int64(n), hex.EncodeToString(sum[:])
	}
	return l
}

// harness runs a session for one test.
type harness struct {
	t   *testing.T
	in  chan protocol.Msg
	out chan protocol.Msg
}

func start(t *testing.T, env Env) *harness {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	h := &harness{t: t, in: make(chan protocol.Msg, 64), out: make(chan protocol.Msg, 16)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ctx, h.in, h.out, env)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(wait):
			t.Error("the session did not stop when its context was cancelled")
		}
	})
	return h
}

func (h *harness) send(m protocol.Msg) { h.in <- m }

// next returns the next event. Every event must survive the wire: it is
// encoded and decoded and must come back equal.
func (h *harness) next() protocol.Msg {
	h.t.Helper()
	select {
	case m := <-h.out:
		env, bulk, err := protocol.Encode(m)
		if err != nil {
			h.t.Fatalf("event %#v cannot be encoded: %v", m, err)
		}
		back, err := protocol.Decode(env, bulk)
		if err != nil {
			h.t.Fatalf("event %s cannot be decoded: %v", env, err)
		}
		if !reflect.DeepEqual(normal(back), normal(m)) {
			h.t.Fatalf("event changed on the wire:\n got %#v\nwant %#v", back, m)
		}
		return m
	case <-time.After(wait):
		h.t.Fatalf("no event within %v", wait)
	}
	return nil
}

// normal maps empty slices to nil, which JSON does not tell apart.
func normal(m protocol.Msg) protocol.Msg {
	if s, ok := m.(protocol.Samples); ok && len(s.Labels) == 0 {
		return protocol.Samples{}
	}
	return m
}

// until returns the events up to and including the first for which
// match is true.
func (h *harness) until(match func(protocol.Msg) bool) []protocol.Msg {
	h.t.Helper()
	var all []protocol.Msg
	for {
		m := h.next()
		all = append(all, m)
		if match(m) {
			return all
		}
		if len(all) > 1e6 {
			h.t.Fatal("the awaited event never came")
		}
	}
}

// untilType returns the events up to the first of type T, and that event.
func untilType[T protocol.Msg](h *harness) ([]protocol.Msg, T) {
	h.t.Helper()
	all := h.until(func(m protocol.Msg) bool { _, ok := m.(T); return ok })
	return all, all[len(all)-1].(T)
}

// done reports whether m is the Progress that ends a run.
func done(m protocol.Msg) bool {
	p, ok := m.(protocol.Progress)
	return ok && p.State == "done"
}

// only returns the events of type T in all.
func only[T protocol.Msg](all []protocol.Msg) []T {
	var out []T
	for _, m := range all {
		if v, ok := m.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// synthPack returns an encoded pack of images in which digit c is a bright
// bar on rows 2c+3..2c+4 plus scattered noise: easy to learn, with every
// class present in both sets (labels cycle 0..9).
func synthPack(t *testing.T, train, test int) []byte {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	set := func(n int) *dataset.Set {
		s := dataset.NewSet(n, 80)
		px := make([]uint8, dataset.Pixels)
		for i := range n {
			clear(px)
			y := i % dataset.Classes
			for _, row := range []int{2*y + 3, 2*y + 4} {
				for col := 4 + r.IntN(3); col < 24-r.IntN(3); col++ {
					px[row*dataset.Cols+col] = uint8(150 + r.IntN(106))
				}
			}
			for range 20 {
				px[r.IntN(dataset.Pixels)] = uint8(1 + r.IntN(255))
			}
			s.Append(uint8(y), px)
		}
		return s
	}
	var buf bytes.Buffer
	if err := dataset.Encode(&buf, &dataset.Pack{Train: set(train), Test: set(test)}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// loaded starts a session with a synthetic pack of m training images
// already loaded.
func loaded(t *testing.T, m int) (*harness, *fakeEnv) {
	t.Helper()
	return loadedSliced(t, m, time.Millisecond)
}

// loadedSliced is loaded with slices of the given length.
func loadedSliced(t *testing.T, m int, slice time.Duration) (*harness, *fakeEnv) {
	t.Helper()
	env := newEnv(slice)
	h := start(t, env)
	h.send(env.serve("synth", "synth.mnpk", synthPack(t, m, 200)))
	untilType[protocol.Samples](h)
	return h, env
}

// StartHelper runs Help in a goroutine, every message in its wire form,
// unless refuseHelpers says the browser refuses more.
func (e *fakeEnv) StartHelper() (Helper, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.refuseHelpers && len(e.helpers) > 0 {
		return nil, errRefused
	}
	h := newFakeHelper()
	h.holding = e.holdHelpers
	e.helpers = append(e.helpers, h)
	return h, nil
}

var errRefused = errors.New("the browser refused a worker")

// helperList returns the helpers started so far.
func (e *fakeEnv) helperList() []*fakeHelper {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]*fakeHelper(nil), e.helpers...)
}

// fakeHelper is a helper of the pool in a goroutine.
type fakeHelper struct {
	in, out chan protocol.Msg
	replies chan protocol.Msg
	cancel  context.CancelFunc
	mu      sync.Mutex
	passes  int // Pass messages it received
	dieAt   int // with die, the Pass at which it dies (an error event)
	muteAt  int // with mute, the Pass from which it says nothing
	die     bool
	mute    bool
	stopped bool
	// holding keeps every message sent to the helper from it, in queue,
	// until release: a helper still taking in its data.
	holding bool
	queue   []protocol.Msg
	data    int // ShardData messages it was sent
	held    int // ShardHeld answers it gave
}

// holdsAll reports whether the helper has answered every ShardData it was
// sent with a ShardHeld, and the pool has taken the answers from it.
func (h *fakeHelper) holdsAll() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.held == h.data && len(h.replies) == 0
}

// release gives the helper what it was sent while held, in order.
func (h *fakeHelper) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.holding = false
	for _, m := range h.queue {
		h.in <- m
	}
	h.queue = nil
}

func newFakeHelper() *fakeHelper {
	ctx, cancel := context.WithCancel(context.Background())
	h := &fakeHelper{in: make(chan protocol.Msg, 64), out: make(chan protocol.Msg, 64), replies: make(chan protocol.Msg, 64), cancel: cancel}
	go Help(ctx, h.in, h.out)
	go func() {
		for {
			select {
			case m := <-h.out:
				h.mu.Lock()
				mute := h.mute && h.passes >= h.muteAt
				if _, ok := m.(protocol.ShardHeld); ok && !mute {
					h.held++
				}
				h.mu.Unlock()
				if !mute {
					h.replies <- wire(m)
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return h
}

// wire returns m after its trip through the wire form.
func wire(m protocol.Msg) protocol.Msg {
	env, bulk, err := protocol.Encode(m)
	if err != nil {
		panic(err)
	}
	back, err := protocol.Decode(env, bulk)
	if err != nil {
		panic(err)
	}
	return back
}

func (h *fakeHelper) Post(m protocol.Msg) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return
	}
	if _, ok := m.(protocol.Pass); ok {
		h.passes++
		if h.die && h.passes == h.dieAt {
			h.stopped = true
			h.cancel()
			h.replies <- protocol.Failed{Message: "the helper's worker failed"}
			return
		}
	}
	if _, ok := m.(protocol.ShardData); ok {
		h.data++
	}
	if h.holding {
		h.queue = append(h.queue, wire(m))
		return
	}
	h.in <- wire(m)
}

func (h *fakeHelper) Replies() <-chan protocol.Msg { return h.replies }

func (h *fakeHelper) Stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.stopped {
		h.stopped = true
		h.cancel()
	}
}
