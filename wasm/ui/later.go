package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Drawing in tasks of their own. go-app renders every component that
// changed in one task and runs their deferred functions in it, so the
// canvases a run redraws (the loss, the templates, the gallery) were drawn
// in the task that updated the DOM; a frame that changes all of them (the
// first of a run, the one that says done) made one task of 50-60 ms on a
// 2-core AMD EPYC guest. A component's redraw is therefore a task of its
// own, started by a message to a MessageChannel (setTimeout would clamp
// it to 4 ms once nested): the browser may handle input and paint between
// them, and no task holds every draw. A redraw asked for again before it
// ran runs once.

// later is the page's queue of redraws.
var later struct {
	port  app.Value // a MessageChannel's port2: a message to it starts a task
	ready app.Func  // port1's onmessage: runs the next redraw
	todo  []laterDraw
}

type laterDraw struct {
	ctx    app.Context
	c      app.Composer
	queued *bool
	draw   func()
}

// drawLater runs draw for c in a task of its own, once, unless a redraw
// of c is queued already (*queued); outside a browser, after the render
// as before.
func drawLater(ctx app.Context, c app.Composer, queued *bool, draw func()) {
	if !app.IsClient {
		ctx.Defer(func(app.Context) { draw() })
		return
	}
	if *queued {
		return
	}
	*queued = true
	if later.port == nil {
		ch := app.Window().Get("MessageChannel").New()
		later.ready = app.FuncOf(func(app.Value, []app.Value) any {
			runLater()
			return nil
		})
		ch.Get("port1").Set("onmessage", later.ready)
		later.port = ch.Get("port2")
	}
	later.todo = append(later.todo, laterDraw{ctx, c, queued, draw})
	if len(later.todo) == 1 {
		later.port.Call("postMessage", nil)
	}
}

// runLater runs the first redraw queued on go-app's goroutine, and asks
// for a task for the next.
func runLater() {
	if len(later.todo) == 0 {
		return
	}
	d := later.todo[0]
	d.ctx.Dispatch(func(ctx app.Context) {
		ctx.PreventUpdate() // a redraw changes no component
		later.todo[0] = laterDraw{}
		later.todo = later.todo[1:]
		*d.queued = false
		if d.c.Mounted() {
			d.draw()
		}
		if len(later.todo) > 0 {
			later.port.Call("postMessage", nil)
		}
	})
}
