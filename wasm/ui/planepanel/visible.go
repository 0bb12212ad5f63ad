package planepanel

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// The worker computes a view's scene only once the room comes within a
// screen's height of the viewport: a picture nobody can see would take a
// core from the digits' worker and the page on a 2-core machine, and a
// phone's battery. A page opened at its top and trained at once shows the
// panels there; the plane, the last panel of the whole instrument, waits.

// watcher tells the room when it comes near the viewport.
type watcher struct {
	observer app.Value // the IntersectionObserver
	seen     app.Func  // its callback
	near     bool      // the room is within a screen's height of the viewport
}

// watch observes root, in place of any other, and calls changed in a
// dispatch of ctx, which renders nothing, each time near changes. Outside
// a browser, or in one without an IntersectionObserver, the room is near
// at once.
func (w *watcher) watch(ctx app.Context, root app.Value, changed func(app.Context)) {
	if !app.IsClient {
		w.near = true
		return
	}
	if w.observer == nil {
		io := app.Window().Get("IntersectionObserver")
		if !io.Truthy() {
			w.near = true
			return
		}
		w.seen = app.FuncOf(func(this app.Value, args []app.Value) any {
			n := args[0].Length()
			if n == 0 {
				return nil
			}
			near := args[0].Index(n - 1).Get("isIntersecting").Bool()
			ctx.Dispatch(func(ctx app.Context) {
				ctx.PreventUpdate()
				w.near = near
				changed(ctx)
			})
			return nil
		})
		w.observer = io.New(w.seen, map[string]any{"rootMargin": "100% 0px"})
	}
	if root.Truthy() {
		w.observer.Call("disconnect")
		w.observer.Call("observe", root)
	}
}

// unwatch stops observing.
func (w *watcher) unwatch() {
	if w.observer != nil {
		w.observer.Call("disconnect")
		w.seen.Release()
		w.observer, w.seen = nil, nil
	}
}
