package planepanel

import (
	"testing"
	"time"

	"softmaxdemo/wasm/planework"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/kit/kittest"
	"softmaxdemo/wasm/ui/planepanel/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// fakeWorker is the owner's worker in a test: it records the commands,
// numbers set-ups, and holds a frame that waits for an animation frame;
// with in set, it passes the commands on to the plane's worker run in a
// goroutine.
type fakeWorker struct {
	sent    []protocol.Msg
	in      chan<- protocol.Msg
	setups  int
	waiting *protocol.PlaneFrame
}

func (f *fakeWorker) send(m protocol.Msg) {
	f.sent = append(f.sent, m)
	if f.in != nil {
		f.in <- m
	}
}

func (f *fakeWorker) nextSetup() int { f.setups++; return f.setups }

func (f *fakeWorker) pending() (protocol.PlaneFrame, bool) {
	if f.waiting == nil {
		return protocol.PlaneFrame{}, false
	}
	m := *f.waiting
	f.waiting = nil
	return m, true
}

// rig is a room whose owner handles the room's actions on a context of
// go-app's test engine, with a fake worker; the runs it tells the page of
// are in ended.
type rig struct {
	t     *testing.T
	e     app.TestEngine
	ctx   app.Context
	r     *room
	o     *owner
	w     *fakeWorker
	out   chan protocol.Msg // the real worker's events, if it runs
	ended []RunEnded
}

// newRig returns a rig of the room r, not yet set up; lang and view as r
// says.
func newRig(t *testing.T, r Panel) *rig {
	t.Helper()
	e, ctx := kittest.Context(t)
	g := &rig{t: t, e: e, ctx: ctx, r: r.(*room), w: &fakeWorker{}}
	g.o = &g.r.o
	g.o.w = g.w
	g.o.reset(g.r.IView)
	g.o.handle(ctx)
	Ended.Handle(ctx, func(_ app.Context, e RunEnded) { g.ended = append(g.ended, e) })
	return g
}

// withWorker runs the plane's worker in a goroutine, as the browser runs
// it in a Web Worker: the owner's commands go to it, and pump hands its
// events to the owner.
func (g *rig) withWorker() *rig {
	in, out := make(chan protocol.Msg, 256), make(chan protocol.Msg, 4096)
	g.w.in, g.out = in, out
	g.t.Cleanup(planework.Go(in, out))
	return g
}

// setUp sets the worker up for the room's view, as the room does once it
// is near the viewport.
func (g *rig) setUp() *rig {
	g.ctx.Dispatch(func(ctx app.Context) { g.o.setUp(ctx, g.r.IPace) })
	g.e.ConsumeAll()
	return g
}

// sent returns the commands sent since it was last called.
func (g *rig) sent() []protocol.Msg {
	s := g.w.sent
	g.w.sent = nil
	return s
}

// give hands the owner an event of the worker, as the Worker does, and
// reports whether the room renders for it.
func (g *rig) give(m protocol.Msg) (render bool) {
	g.ctx.Dispatch(func(ctx app.Context) {
		if f, ok := m.(protocol.PlaneFrame); ok {
			render = g.o.frame(ctx, f)
		} else {
			render = g.o.event(ctx, m)
		}
	})
	g.e.ConsumeAll()
	return render
}

// do posts an action's value, as a view does, and runs its handler.
func do[T any](g *rig, a interface {
	Post(app.Context, T)
}, v T) {
	a.Post(g.ctx, v)
	g.e.ConsumeAll()
}

// signal posts a signal, as a view or the page does, and runs its
// handler.
func signal(g *rig, s interface{ Post(app.Context) }) {
	s.Post(g.ctx)
	g.e.ConsumeAll()
}

// snap is the plane as the views show it now.
func (g *rig) snap() store.Snapshot { return g.o.st.Snapshot() }

// html is the room's HTML now.
func (g *rig) html() string { return app.HTMLString(g.r.Render()) }

// pump hands the worker's events to the owner until ok says so.
func (g *rig) pump(ok func(s store.Snapshot) bool) {
	g.t.Helper()
	deadline := time.After(60 * time.Second)
	for !ok(g.snap()) {
		select {
		case m := <-g.out:
			g.give(m)
		case <-deadline:
			s := g.snap()
			g.t.Fatalf("the room never got there: %q at step %d, %d points, seq %d", s.State, s.Status.Steps, len(s.Data.Points), s.Seq)
		}
	}
}

// settled: the worker has no work left, and the room shows its last
// scene and frame.
func settled(s store.Snapshot) bool {
	return s.Seq > 0 && !s.Building && s.State != store.Training && s.Scene != nil && s.Scenes > 0 && s.Model != nil
}
