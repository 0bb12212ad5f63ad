package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Work in tasks of its own. go-app renders every component that changed
// in one task and runs their deferred functions in it, so the canvases a
// run redraws (the loss, the templates, the gallery) were drawn in the
// task that updated the DOM; a frame that changes all of them (the first
// of a run, the one that says done) made one task of 50-60 ms on a 2-core
// AMD EPYC guest. A component's redraw is therefore a task of its own,
// started by a message to a MessageChannel (setTimeout would clamp it to
// 4 ms once nested): the browser may handle input and paint between them,
// and no task holds every draw. A redraw asked for again before it ran
// runs once.

// later is the page's queue of tasks. Each runs through a dispatch of
// the page's own context: go-app drops a dispatch whose component has
// been dismounted, and a task dropped so would have stopped the queue.
var later struct {
	page  *app.Context // the page's context (laterOn)
	port  app.Value    // a MessageChannel's port2: a message to it starts a task
	ready app.Func     // port1's onmessage: runs the next task
	todo  []laterTask
}

type laterTask struct {
	ctx app.Context // the context that asked, should the page's be unset
	run func()
}

// laterOn gives the queue the page's context, which stays mounted while
// the page runs.
func laterOn(ctx app.Context) { later.page = &ctx }

// inTaskOfItsOwn runs f on go-app's goroutine in a JavaScript task of its
// own, after the tasks queued before it, one per task; f changes no
// component (the page is not rendered after it).
func inTaskOfItsOwn(ctx app.Context, f func()) {
	if later.port == nil {
		ch := app.Window().Get("MessageChannel").New()
		later.ready = app.FuncOf(func(app.Value, []app.Value) any {
			runLater()
			return nil
		})
		ch.Get("port1").Set("onmessage", later.ready)
		later.port = ch.Get("port2")
	}
	later.todo = append(later.todo, laterTask{ctx, f})
	if len(later.todo) == 1 {
		later.port.Call("postMessage", nil)
	}
}

// runLater runs the first task queued and asks for a task for the next.
func runLater() {
	if len(later.todo) == 0 {
		return
	}
	t := later.todo[0]
	ctx := t.ctx
	if later.page != nil {
		ctx = *later.page
	}
	ctx.Dispatch(func(ctx app.Context) {
		ctx.PreventUpdate()
		later.todo[0] = laterTask{}
		later.todo = later.todo[1:]
		t.run()
		if len(later.todo) > 0 {
			later.port.Call("postMessage", nil)
		}
	})
}

// drawLater runs draw for c in a task of its own, once, unless a redraw
// of c is queued already (*queued), and only if c is still mounted then;
// outside a browser, after the render as before.
func drawLater(ctx app.Context, c app.Composer, queued *bool, draw func()) {
	if !app.IsClient {
		ctx.Defer(func(app.Context) { draw() })
		return
	}
	if *queued {
		return
	}
	*queued = true
	inTaskOfItsOwn(ctx, func() {
		*queued = false
		if c.Mounted() {
			draw()
		}
	})
}

// afterNextPaint runs f in a task of its own once the browser has painted
// what the page rendered: a task queued from an animation frame's
// callback runs after that frame. Outside a browser it does nothing.
func afterNextPaint(ctx app.Context, f func()) {
	if !app.IsClient {
		return
	}
	var raf app.Func
	raf = app.FuncOf(func(app.Value, []app.Value) any {
		raf.Release()
		inTaskOfItsOwn(ctx, f)
		return nil
	})
	app.Window().Call("requestAnimationFrame", raf)
}
