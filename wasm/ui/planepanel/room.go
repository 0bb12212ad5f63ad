// Package planepanel is softmax regression on points in the plane, as the
// page shows it: the plane cut into regions by the live model, its
// points, its controls and status, θ by hand, and the loss surface with
// the paths of gradient descent, SGD and Newton's method.
//
// The plane's data, model and scene live in a worker of their own
// (wasm/planework), off the page's main thread; Worker is the page's side
// of it. The room has one owner (owner.go), the only code that changes
// its state, kept in wasm/ui/planepanel/store: it handles the actions its
// views post (actions.go), sends the worker what they ask, and takes what
// the worker says. The views are plain components that read a snapshot of
// the state and post actions; what changes at every frame reaches them
// without the room rendering (live.go). The page talks to the room by
// actions too: AddPsi, AlphaAbove and StartRun ask, Ended tells. It
// imports none of the page's other rooms.
//
// In a class (core/class), the page tells the room its part (ClassPart:
// None, the zero value, shows nothing of a class) and gives the
// presenter's room the class's lines (ClassLines) and a student's the
// news that its line was taken (LineDelivered); a room mounted asks for
// both again (AskClass). In the Hand view a student's #plane-send tells
// the page the line shown (SendLine), and the presenter's #plane-class
// draws every line with its J on the plane's data (core/plane's Judge,
// the code of the plane's own J) and descends from the best and the
// worst; the loss surface of K = 2 shows the lines as dots (class.go).
package planepanel

import (
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Panel is the plane's room as a page mounts it: the regions of the live
// model (#plane, points on #plane-points), its controls, its status
// (#plane-status), θ by hand (#plane-theta), and the loss surface with
// the three paths (#plane-surface, #plane-paths), given the language, the
// pace and the page's plane Worker. A lesson's chapter mounts one of its
// pictures instead of the whole (View).
type Panel interface {
	app.Composer
	// Lang sets the language.
	Lang(l i18n.Lang) Panel
	// Pace sets the page's pace: "full" or steps per second (params.Paces).
	Pace(v string) Panel
	// View sets the part shown: the whole room, or one picture of it.
	View(v View) Panel
	// Worker sets the page's plane worker; without one the room draws
	// nothing live (natively).
	Worker(w *Worker) Panel
}

// New returns the plane's room showing the whole of it.
func New() Panel {
	r := &room{}
	r.o.reset(Whole)
	return r
}

// room is the Panel: it mounts the owner, and lays out the views of its
// IView (layout.go).
type room struct {
	app.Compo

	ILang   i18n.Lang
	IPace   string
	IView   View
	IWorker *Worker

	o    owner
	seen watcher // whether the room is near the viewport (visible.go)
}

func (r *room) Lang(l i18n.Lang) Panel { r.ILang = l; return r }
func (r *room) Pace(v string) Panel    { r.IPace = v; return r }
func (r *room) View(v View) Panel      { r.IView = v; return r }
func (r *room) Worker(w *Worker) Panel { r.IWorker = w; return r }

// OnInit shows the view's start until the worker says more.
func (r *room) OnInit() { r.o.reset(r.IView) }

// OnMount registers the owner's handlers, hands it the worker's events,
// and sets the worker up for the view once the room is near the viewport
// (visible.go).
func (r *room) OnMount(ctx app.Context) {
	claimKeys()
	r.o.handle(ctx)
	AskClass.Post(ctx) // the class's part and lines, posted before the room was mounted
	if w := r.IWorker; w != nil {
		r.o.w = w
		w.attach(&r.o, ctx)
	}
	ctx.Defer(r.watch)
}

// OnUpdate shows the start of another of the room's views, if the page
// now shows it in its place, and tells the worker a new pace.
func (r *room) OnUpdate(ctx app.Context) {
	if r.IView != r.o.view {
		r.o.reset(r.IView)
		ctx.Defer(r.watch) // the view's element replaced the last one
	}
	if r.o.st.IsSetUp() {
		r.o.st.Pace(r.IPace)
		r.o.commit(ctx)
	}
}

// watch watches whether the room's element is near the viewport, and
// sets the worker up for the view once it is.
func (r *room) watch(ctx app.Context) {
	r.seen.watch(ctx, r.JSValue(), r.setUpIfNear)
	r.setUpIfNear(ctx)
}

// setUpIfNear sets the worker up for the view, if the room is near the
// viewport and it has not been.
func (r *room) setUpIfNear(ctx app.Context) {
	if r.seen.near && !r.o.st.IsSetUp() {
		r.o.setUp(ctx, r.IPace)
	}
}

// OnDismount pauses the plane: nobody sees it train.
func (r *room) OnDismount() {
	r.seen.unwatch()
	if w := r.IWorker; w != nil {
		w.send(protocol.PlaneTrain{On: false})
		w.detach(&r.o)
	}
}

// Render lays out the view shown.
func (r *room) Render() app.UI {
	s := r.o.st.Snapshot()
	l := layout{lang: r.ILang, view: r.IView, s: s, live: liveOf(s, r.o.st.Base())}
	switch r.IView {
	case Regions:
		return l.regionsView()
	case Surface:
		return l.surfaceView()
	case Psi:
		return l.psiView()
	case Hand:
		return l.handView()
	}
	return l.whole()
}
