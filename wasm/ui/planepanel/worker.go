package planepanel

import (
	"time"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Worker is the page's side of the plane's worker (wasm/planework): it
// starts it when a panel first needs it, keeps it while the page lives
// (the panels of the lesson's chapters come and go; the worker stays),
// hands its events to the panel mounted, and replaces it if it dies,
// handing the new one the plane as the panel last showed it. The page
// makes one and gives it to every panel (Panel.Worker).
type Worker struct {
	w       *browser.Worker
	panel   *Panel      // the panel mounted, which takes the events
	ctx     app.Context // its context
	frame   app.Value   // the latest frame, not yet decoded: only the latest is drawn
	raf     app.Func    // draws it in the next animation frame
	rafSet  bool        // an animation frame is asked for
	bulk    []byte      // the frames' bulk bytes, decoded into one buffer
	replace int         // workers replaced
	setups  int         // set-ups asked for so far: each panel's is the next
	watch   bool        // the heartbeat watch is running
	grid    protocol.PlaneGrid
	pace    protocol.PlanePace

	// post takes the commands where there is no browser (natively, in
	// tests, which run the worker's code in a goroutine of their own).
	post func(protocol.Msg)
}

// NewWorker returns the page's plane worker, started from web/worker.js
// when a panel first needs it.
func NewWorker() *Worker { return &Worker{} }

// The watch for a worker that died, as the digits instrument keeps it:
// silent for silentAfter while it should be alive, it is replaced.
const (
	watchEvery  = 500 * time.Millisecond
	silentAfter = 3 * time.Second
)

// attach makes p, mounted with ctx, the panel that takes the events, and
// starts the worker if it has not started.
func (w *Worker) attach(p *Panel, ctx app.Context) {
	w.panel, w.ctx = p, ctx
	if w.w == nil && app.IsClient {
		w.start(ctx.ResolveStaticResource("/web/worker.js"))
	}
	if !w.watch && app.IsClient {
		w.watch = true
		w.watchWorker()
	}
}

// detach lets go of p, unmounted.
func (w *Worker) detach(p *Panel) {
	if w.panel == p {
		w.panel = nil
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

// event hands an event to the panel mounted, on go-app's goroutine.
func (w *Worker) event(m protocol.Msg) {
	p, ctx := w.panel, w.ctx
	if p == nil {
		return
	}
	ctx.Dispatch(func(ctx app.Context) {
		if w.panel != p {
			ctx.PreventUpdate()
			return
		}
		if !p.took(m) {
			ctx.PreventUpdate()
		}
		p.tellEnded(ctx)
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
			p, ctx := w.panel, w.ctx
			if p == nil {
				w.rafSet, w.frame = false, nil
				return nil
			}
			ctx.Dispatch(func(ctx app.Context) {
				w.rafSet = false
				m, ok := w.pending()
				if w.panel != p || !ok {
					ctx.PreventUpdate()
					return
				}
				p.drawFrame(ctx, m)
			})
			return nil
		})
	}
	w.rafSet = true
	app.Window().Call("requestAnimationFrame", w.raf)
}

// nextSetup returns a set-up id no panel has had.
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
		if w.post != nil {
			w.post(m)
		}
		return
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

// ctxDispatch runs f on go-app's goroutine through the panel's context;
// with no panel mounted it waits for the next watch (the page shows no
// plane that could stop).
func (w *Worker) ctxDispatch(f func()) {
	if w.panel == nil {
		w.watch = false // a panel mounted starts it again
		return
	}
	w.ctx.Dispatch(func(ctx app.Context) {
		ctx.PreventUpdate()
		f()
	})
}

// died replaces the worker: the new one goes on from the plane the panel
// last showed (resume), while the panel keeps its last picture.
func (w *Worker) died() {
	if w.w == nil {
		return
	}
	w.w.Terminate()
	w.w = nil
	w.replace++
	w.start(w.ctx.ResolveStaticResource("/web/worker.js"))
	if p := w.panel; p != nil {
		p.th.sent, p.th.answered = 0, 0 // the new worker counts θs by hand afresh
		if r := p.resumeFrom(); r != nil {
			w.send(*r)
		}
	}
}
