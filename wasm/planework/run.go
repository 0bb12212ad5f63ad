package planework

import (
	"context"
	"runtime"
	"slices"
	"time"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/planeimage"
	"softmaxdemo/wasm/protocol"
)

// Clock is what Run needs of the world around it: the time, timers, and a
// way to let the JavaScript event loop run (in a Web Worker, commands
// arrive only while every goroutine waits).
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
	Yield()
}

// Native is the Clock of a plane worker run natively, beside its page in
// the same program (a test, a tool): real time, and a Yield that lets
// the other goroutines run.
type Native struct{}

func (Native) Now() time.Time                         { return time.Now() }
func (Native) After(d time.Duration) <-chan time.Time { return time.After(d) }
func (Native) Yield()                                 { runtime.Gosched() }

// The worker's slices of work: training at full pace takes at most
// trainSlice of each, the scene the rest of slice, so that a command (a
// point added) waits a few milliseconds at most. Frames go to the page at
// most every frameEvery: the page draws at most one a display frame.
const (
	slice      = 8 * time.Millisecond
	trainSlice = 4 * time.Millisecond
	frameEvery = 16 * time.Millisecond
)

// Go runs the plane's worker natively in a goroutine, on the wall clock,
// as the browser runs it in a Web Worker: commands on in, events on out.
// stop ends it, taking events off out meanwhile so that a send the worker
// is blocked on goes through, and returns once it has ended.
func Go(in <-chan protocol.Msg, out chan protocol.Msg) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ctx, in, out, Native{})
	}()
	return func() {
		cancel()
		for {
			select {
			case <-done:
				return
			case <-out:
			}
		}
	}
}

// Run is the plane's worker: it reads the page's commands from in and
// sends its events on out until ctx ends.
func Run(ctx context.Context, in <-chan protocol.Msg, out chan<- protocol.Msg, clock Clock) {
	w := &worker{e: newEngine(), out: out, clock: clock}
	for {
		if !w.busy() {
			select {
			case m := <-in:
				w.take(m)
			case <-ctx.Done():
				return
			}
		}
		for more := true; more; {
			select {
			case m := <-in:
				w.take(m)
			case <-ctx.Done():
				return
			default:
				more = false
			}
		}
		w.work()
		if !w.busy() {
			continue
		}
		if wait := w.e.untilStep(); wait > 0 && w.e.build == nil {
			select {
			case m := <-in:
				w.take(m)
			case <-clock.After(wait):
			case <-ctx.Done():
				return
			}
			continue
		}
		clock.Yield()
	}
}

// worker runs an engine and says what changed.
type worker struct {
	e     *engine
	out   chan<- protocol.Msg
	clock Clock

	sent      shown     // what the page was last told
	lastFrame time.Time // when the last frame went
	frameDue  bool      // the model changed since the last frame
	buf       frameBuf
}

// shown is what a PlaneState says, to tell when it changed.
type shown struct {
	setup, seq, psis, scenes int
	state, refused           string
	building                 bool
	edited                   bool
}

// busy reports whether the plane has work between commands.
func (w *worker) busy() bool { return w.e.state == stateTraining || w.e.build != nil }

// take carries out a command and tells the page what it changed.
func (w *worker) take(m protocol.Msg) {
	grid := w.e.grid
	w.e.handle(m, w.clock.Now())
	w.frameDue = true // the model, the data or the image's size may have changed
	_, hand := m.(protocol.PlaneTheta)
	w.tell(w.e.grid != grid || hand) // θ set by hand is drawn at once, even between frames
}

// work does one slice: the steps due, then the scene; and tells the page.
func (w *worker) work() {
	now := w.clock.Now()
	e := w.e
	if e.state == stateTraining && e.lab != nil {
		if e.steps(now, now.Add(trainSlice)) {
			w.frameDue = true
		}
		if e.state != stateTraining {
			e.takeWants(now) // a ψ asked for while the model trained
		}
	}
	if e.build != nil && e.advance(now.Add(slice)) {
		w.send(protocol.PlaneScene{Setup: e.setup, Seq: e.sceneSeq, MS: float64(w.clock.Now().Sub(e.begun).Microseconds()) / 1000, Scene: e.scene})
		e.takeWants(w.clock.Now())
	}
	w.tell(false)
}

// tell sends a PlaneState if anything it says changed, and a PlaneFrame
// if the model changed and the last frame is frameEvery old (or the state
// changed, or force).
func (w *worker) tell(force bool) {
	e := w.e
	now := shown{e.setup, e.seq, e.psis, e.scenes, e.state, errText(e.refused), e.build != nil, e.edited}
	changed := now != w.sent || e.chosen
	if now.seq != w.sent.seq {
		w.frameDue = true // the frame carries the version it is drawn for
	}
	// The frame goes first: the page takes a state with the frame that
	// came before it, so that a status that says done says the last step.
	t := w.clock.Now()
	if e.lab != nil && w.frameDue && (changed || force || t.Sub(w.lastFrame) >= frameEvery) {
		w.frameDue, w.lastFrame = false, t
		w.send(w.frame())
	}
	if changed {
		w.sent = now
		w.send(protocol.PlaneState{Setup: e.setup, Seq: e.seq, State: e.state, Name: e.name, Edited: e.edited, Data: e.data, Settings: e.set,
			Refused: refusal(e.refused), Psis: e.psis, Building: e.build != nil, Scenes: e.scenes, Chosen: e.chosen, Psi: e.psi})
		e.chosen = false
	}
}

// frame is the live model as the page draws it.
func (w *worker) frame() protocol.PlaneFrame {
	e := w.e
	m := e.lab.Model()
	n := e.grid
	b := &w.buf
	if len(b.class) != n*n {
		b.class, b.prob = make([]uint8, n*n), make([]float32, n*n)
	}
	plane.Regions(b.class, b.prob, m, n, n)
	img := make([]byte, 4*n*n) // transferred to the page: a new one each frame
	planeimage.RegionImage(img, b.class, b.prob, m.Classes())
	segs := plane.Boundaries(m)
	bounds := make([]float64, 0, 4*len(segs))
	for _, s := range segs {
		bounds = append(bounds, s.A[0], s.A[1], s.B[0], s.B[1])
	}
	return protocol.PlaneFrame{Setup: e.setup, Seq: e.seq, State: e.state, N: n, Hand: e.hand, Status: e.lab.Status(),
		W: slices.Clone(m.W), B: slices.Clone(m.B), Image: img, Boundaries: bounds}
}

// frameBuf holds the regions' buffers from frame to frame.
type frameBuf struct {
	class []uint8
	prob  []float32
}

func (w *worker) send(m protocol.Msg) { w.out <- m }

// errText is err's message, "" for none.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
