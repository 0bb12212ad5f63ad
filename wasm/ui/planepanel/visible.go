package planepanel

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// The worker computes a view's scene only once the panel comes within a
// screen's height of the viewport: a picture nobody can see would take a
// core from the digits' worker and the page on a 2-core machine, and a
// phone's battery. A page opened at its top and trained at once shows the
// panels there; the plane, the last panel of the whole instrument, waits.

// watcher tells the panel when it comes near the viewport.
type watcher struct {
	observer app.Value // the IntersectionObserver
	seen     app.Func  // its callback
	near     bool      // the panel is within a screen's height of the viewport
}

// watch observes the panel's element, root, in place of any other.
func (p *Panel) watch(ctx app.Context) {
	w := &p.seen
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
				w.near = near
				if near && !p.setDone {
					p.setUp()
				} else {
					ctx.PreventUpdate()
				}
			})
			return nil
		})
		w.observer = io.New(w.seen, map[string]any{"rootMargin": "100% 0px"})
	}
	if root := p.JSValue(); root.Truthy() {
		w.observer.Call("disconnect")
		w.observer.Call("observe", root)
	}
}

// unwatch stops observing.
func (p *Panel) unwatch() {
	w := &p.seen
	if w.observer != nil {
		w.observer.Call("disconnect")
		w.seen.Release()
		w.observer, w.seen = nil, nil
	}
}
