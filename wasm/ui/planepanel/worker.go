package planepanel

import (
	"time"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Worker is the page's side of the plane's worker (wasm/planework): it
// starts it when a room first needs it, keeps it while the page lives
// (the rooms of the lesson's chapters come and go; the worker stays),
// hands its events to the owner of the room mounted, and replaces it if
// it dies, handing the new one the plane as the room last showed it. The
// page makes one and gives it to every room (Panel.Worker).
type Worker struct {
	w       *browser.Worker
	to      listener    // the owner of the room mounted, which takes the events
	ctx     app.Context // its room's context
	frame   app.Value   // the latest frame, not yet decoded: only the latest is drawn
	raf     app.Func    // draws it in the next animation frame
	rafSet  bool        // an animation frame is asked for
	bulk    []byte      // the frames' bulk bytes, decoded into one buffer
	replace int         // workers replaced
	setups  int         // set-ups asked for so far: each room's is the next
	watch   bool        // the heartbeat watch is running
	grid    protocol.PlaneGrid
	pace    protocol.PlanePace
}

// listener is what takes the worker's events, on go-app's goroutine in a
// dispatch on the room's context: the owner of the room mounted.
type listener interface {
	event(ctx app.Context, m protocol.Msg) bool        // an event other than a frame; whether the room renders
	frame(ctx app.Context, f protocol.PlaneFrame) bool // the latest frame, in an animation frame; whether the room renders
	replaced() *protocol.PlaneResume                   // what a new worker goes on from, if anything
}

// NewWorker returns the page's plane worker, started from web/worker.js
// when a room first needs it.
func NewWorker() *Worker { return &Worker{} }

// The watch for a worker that died, as the digits instrument keeps it:
// silent for silentAfter while it should be alive, it is replaced.
const (
	watchEvery  = 500 * time.Millisecond
	silentAfter = 3 * time.Second
)

// attach makes l, whose room is mounted with ctx, what takes the events,
// and starts the worker if it has not started.
func (w *Worker) attach(l listener, ctx app.Context) {
	w.to, w.ctx = l, ctx
	if w.w == nil && app.IsClient {
		w.start(ctx.ResolveStaticResource("/web/worker.js"))
	}
	if !w.watch && app.IsClient {
		w.watch = true
		w.watchWorker()
	}
}

// detach lets go of l, its room unmounted.
func (w *Worker) detach(l listener) {
	if w.to == l {
		w.to = nil
	}
}

// start starts a worker from the script at url.
func (w *Worker) start(url string) {
	var bw *browser.Worker
	bw = browser.StartPlaneWorker(url,
		func(m protocol.Msg) {
			if _, ok := m.(protocol.Heartbeat); ok || w.w != bw {
				return // StartPlaneWorker noted it; or a late word of a worker replaced
			}
			w.event(m)
		},
		func(detail string) {
			if w.w == bw {
				w.died()
			}
		})
	w.w = bw
	bw.OnRaw("planeFrame", w.latest)
	if w.grid.N > 0 {
		w.send(w.grid)
	}
	w.send(w.pace)
}

// event hands an event to the owner of the room mounted, on go-app's
// goroutine.
func (w *Worker) event(m protocol.Msg) {
	l, ctx := w.to, w.ctx
	if l == nil {
		return
	}
	ctx.Dispatch(func(ctx app.Context) {
		if w.to != l || !l.event(ctx, m) {
			ctx.PreventUpdate()
		}
	})
}

// latest keeps a frame, undecoded, for the next animation frame: frames
// that come faster than the display draws are dropped without being
// decoded.
func (w *Worker) latest(data app.Value) {
	w.frame = data
	if w.rafSet {
		return
	}
	if w.raf == nil {
		w.raf = app.FuncOf(func(app.Value, []app.Value) any {
			l, ctx := w.to, w.ctx
			if l == nil {
				w.rafSet, w.frame = false, nil
				return nil
			}
			ctx.Dispatch(func(ctx app.Context) {
				w.rafSet = false
				m, ok := w.pending()
				if w.to != l || !ok || !l.frame(ctx, m) {
					ctx.PreventUpdate()
				}
			})
			return nil
		})
	}
	w.rafSet = true
	app.Window().Call("requestAnimationFrame", w.raf)
}

// nextSetup returns a set-up id no room has had.
func (w *Worker) nextSetup() int {
	w.setups++
	return w.setups
}

// pending takes the frame waiting for the next animation frame, if any,
// decoded.
func (w *Worker) pending() (protocol.PlaneFrame, bool) {
	data := w.frame
	if data == nil || w.w == nil {
		return protocol.PlaneFrame{}, false
	}
	w.frame = nil
	m, ok := w.w.DecodeInto(data, &w.bulk).(protocol.PlaneFrame)
	return m, ok
}

// send posts a command to the worker; the grid and the pace are kept for
// a worker that replaces this one.
func (w *Worker) send(m protocol.Msg) {
	switch m := m.(type) {
	case protocol.PlaneGrid:
		if m == w.grid && w.w != nil {
			return
		}
		w.grid = m
	case protocol.PlanePace:
		w.pace = m
	}
	if w.w == nil {
		return // not started: outside a browser, or no room has needed it
	}
	if err := w.w.Send(m); err != nil {
		app.Log("plane:", err)
	}
}

// watchWorker looks every watchEvery for a worker that has gone silent,
// while the page is visible.
func (w *Worker) watchWorker() {
	time.AfterFunc(watchEvery, func() {
		w.ctxDispatch(func() {
			w.watchWorker()
			bw := w.w
			if bw == nil {
				return
			}
			if app.Window().Get("document").Get("visibilityState").String() == "hidden" {
				bw.Heard()
				return
			}
			if bw.Silent() > silentAfter {
				w.died()
			}
		})
	})
}

// ctxDispatch runs f on go-app's goroutine through the room's context;
// with no room mounted it waits for the next watch (the page shows no
// plane that could stop).
func (w *Worker) ctxDispatch(f func()) {
	if w.to == nil {
		w.watch = false // a room mounted starts it again
		return
	}
	w.ctx.Dispatch(func(ctx app.Context) {
		ctx.PreventUpdate()
		f()
	})
}

// died replaces the worker: the new one goes on from the plane the room
// last showed (listener.replaced), while the room keeps its last picture.
func (w *Worker) died() {
	if w.w == nil {
		return
	}
	w.w.Terminate()
	w.w = nil
	w.replace++
	w.start(w.ctx.ResolveStaticResource("/web/worker.js"))
	if l := w.to; l != nil {
		if r := l.replaced(); r != nil {
			w.send(*r)
		}
	}
}
