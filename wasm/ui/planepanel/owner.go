package planepanel

import (
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/planepanel/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// owner is the plane's owner, the only code that changes the room's
// state: it holds the state (store.Plane), handles the room's actions
// and the page's (actions.go), takes the worker's events, sends the
// worker what the store queues, and tells the page of a run ended. Its
// views read a snapshot and post actions.
type owner struct {
	st   store.Plane
	w    sender // the plane's worker; nil draws nothing live (natively, with no worker)
	view View   // the view whose start the store shows
	live liveViews
}

// sender is what the owner needs of the plane's worker: it sends
// commands, numbers set-ups (each room's is the next, so that a room set
// up since drops what the worker still says of an earlier one), and hands
// over the frame that waits for the next animation frame, decoded.
type sender interface {
	send(m protocol.Msg)
	nextSetup() int
	pending() (protocol.PlaneFrame, bool)
}

// reset shows view v's start until the worker says more.
func (o *owner) reset(v View) {
	o.view = v
	o.st.Reset(start(v))
}

// setUp asks the worker for the view's start, at the page's pace.
func (o *owner) setUp(ctx app.Context, pace string) {
	id := -1
	if o.w != nil {
		id = o.w.nextSetup()
	}
	o.st.SetUp(id, pace, now())
	o.commit(ctx)
}

// event takes an event of the worker, and reports whether the room must
// render: whether it changed more than the live numbers.
func (o *owner) event(ctx app.Context, m protocol.Msg) bool {
	if s, ok := m.(protocol.PlaneState); ok && o.st.Takes(s) && o.w != nil {
		// The frame sent just before the state, still waiting for an
		// animation frame: taken with it, so that a status that says done
		// says the last step.
		if f, ok := o.w.pending(); ok && f.Setup == s.Setup && f.Seq <= s.Seq {
			o.st.Frame(f)
		}
	}
	render := o.st.Apply(m, now())
	if s, ok := m.(protocol.PlaneState); ok && render {
		putBack("plane-k", s.Data.K) // a K refused shows the K in force
	}
	o.commit(ctx)
	return render
}

// frame takes a frame of the live model in this animation frame: the
// live views show it. It reports whether the room must render: whether
// more than the frame's numbers changed.
func (o *owner) frame(ctx app.Context, f protocol.PlaneFrame) bool {
	render := o.st.Frame(f)
	o.commit(ctx)
	return render
}

// replaced is what a new worker needs to go on from the plane the room
// shows, which keeps its last picture meanwhile: nil before the worker
// has said anything.
func (o *owner) replaced() *protocol.PlaneResume { return o.st.Resume() }

// after follows any change, in a dispatch or a handler on the room's
// context: it commits the change, and renders the room only if render.
func (o *owner) after(ctx app.Context, render bool) {
	o.commit(ctx)
	if !render {
		ctx.PreventUpdate()
	}
}

// commit sends what the store queued, tells the page of a run that
// ended, and hands the live views what they show.
func (o *owner) commit(ctx app.Context) {
	for _, m := range o.st.Outbox() {
		if o.w != nil {
			o.w.send(m)
		}
	}
	if r, ok := o.st.Ended(); ok {
		Ended.Post(ctx, RunEnded{View: o.view, From: r.From, To: r.To, Steps: r.Steps})
	}
	o.live.publish(ctx, o.liveNow())
}

// liveNow is the live value the views show now.
func (o *owner) liveNow() live { return liveOf(o.st.Snapshot(), o.st.Base()) }
