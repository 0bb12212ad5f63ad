package kit

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Tasks runs work in JavaScript tasks of its own. go-app renders every
// component that changed in one task and runs their deferred functions in
// it: drawn there, the canvases one frame of a run redraws (the loss, the
// templates, the gallery) make one task of 50–60 ms on a 2-core AMD EPYC
// guest, the first frame of a run and the one that says done. Through
// Tasks, each redraw is a task of its own, started by a message to a
// MessageChannel (setTimeout would clamp it to 4 ms once nested): the
// browser may handle input and paint between them, and no task holds
// every draw. A redraw asked for again before it ran runs once.
//
// The page makes one Tasks as it mounts and hands it to the components
// that draw; a nil *Tasks (natively, in tests) runs a redraw after the
// render, as go-app's Defer does.
type Tasks struct {
	page  app.Context // the page's context, mounted while the page runs
	port  app.Value   // a MessageChannel's port2: a message to it starts a task
	ready app.Func    // port1's onmessage: runs the next task
	todo  []func()
}

// NewTasks returns the queue of the page whose context is page. Each
// task runs through a dispatch of that context: go-app drops a dispatch
// whose component has been dismounted, and a task dropped so would stop
// the queue.
func NewTasks(page app.Context) *Tasks { return &Tasks{page: page} }

// Do runs f on go-app's goroutine in a JavaScript task of its own, after
// the tasks queued before it, one per task; f changes no component (the
// page is not rendered after it). Outside a browser, or on a nil Tasks,
// it does nothing.
func (t *Tasks) Do(f func()) {
	if t == nil || !app.IsClient {
		return
	}
	if t.port == nil {
		ch := app.Window().Get("MessageChannel").New()
		t.ready = app.FuncOf(func(app.Value, []app.Value) any {
			t.next()
			return nil
		})
		ch.Get("port1").Set("onmessage", t.ready)
		t.port = ch.Get("port2")
	}
	t.todo = append(t.todo, f)
	if len(t.todo) == 1 {
		t.port.Call("postMessage", nil)
	}
}

// next runs the first task queued and asks for a task for the one after.
func (t *Tasks) next() {
	if len(t.todo) == 0 {
		return
	}
	t.page.Dispatch(func(ctx app.Context) {
		ctx.PreventUpdate()
		f := t.todo[0]
		t.todo[0] = nil
		t.todo = t.todo[1:]
		f()
		if len(t.todo) > 0 {
			t.port.Call("postMessage", nil)
		}
	})
}

// DrawLater runs draw for c in a task of its own, once, unless a redraw
// of c is queued already (*queued), and only if c is still mounted then;
// on a nil Tasks or outside a browser, after the render (ctx.Defer).
func (t *Tasks) DrawLater(ctx app.Context, c app.Composer, queued *bool, draw func()) {
	if t == nil || !app.IsClient {
		ctx.Defer(func(app.Context) { draw() })
		return
	}
	if *queued {
		return
	}
	*queued = true
	t.Do(func() {
		*queued = false
		if c.Mounted() {
			draw()
		}
	})
}

// AfterNextPaint runs f in a task of its own once the browser has painted
// what the page rendered: a task queued from an animation frame's
// callback runs after that frame. Outside a browser it does nothing.
func (t *Tasks) AfterNextPaint(f func()) {
	if t == nil || !app.IsClient {
		return
	}
	var raf app.Func
	raf = app.FuncOf(func(app.Value, []app.Value) any {
		raf.Release()
		t.Do(f)
		return nil
	})
	app.Window().Call("requestAnimationFrame", raf)
}
