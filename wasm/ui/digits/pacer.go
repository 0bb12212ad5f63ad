package digits

import (
	"time"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/digits/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// pacer is when the page does its work around a run: it renders the
// worker's events at a pace the main thread keeps up with, waits for a
// run's final evaluation, collects the heap at rest (collect.go) and warms
// the page up once (warm.go).
type pacer struct {
	st *store.Store
	c  *conn

	pending        bool      // a render of worker events is scheduled
	lastFrame      time.Time // when the page last rendered for worker events
	lastEval       time.Time // when the confusion matrix and gallery last changed
	evalAsked      [2]int    // the run and step whose final evaluation was waited for
	collectPending bool      // collectSoon's task is scheduled, for collectDue
	collectDue     time.Time
}

// Worker events arrive up to a hundred times a second (an epoch on the
// default pack takes 20 ms). The page renders them at most every
// frameEvery, and the confusion matrix and gallery at most every evalEvery,
// so that no task on the main thread grows long; a change of state (done,
// paused, an error) renders at once.
const (
	frameEvery = 100 * time.Millisecond
	evalEvery  = 500 * time.Millisecond
	evalWait   = time.Second // for the final Evaluated before asking again
)

// awaitEval asks for the final evaluation of a run that is done, should
// it not come: the worker sends it right after the Progress that says
// done.
func (p *pacer) awaitEval(ctx app.Context) {
	held, run, step := p.st.AwaitingEval()
	if !held || p.evalAsked == [2]int{run, step} {
		return
	}
	p.evalAsked = [2]int{run, step}
	ctx.After(evalWait, func(app.Context) {
		if held, r, s := p.st.AwaitingEval(); held && r == run && s == step {
			p.c.send(protocol.Evaluate{})
		}
	})
}

// render renders now a change of state (changed) or an event at rest,
// and a run's events at most every frameEvery, the confusion matrix and
// gallery at most every evalEvery.
func (p *pacer) render(ctx app.Context, changed bool) {
	now := time.Now()
	if changed || p.st.Status != store.StatusTraining {
		p.st.ShowEval()
		p.lastFrame, p.lastEval = now, now
		return // render now
	}
	ctx.PreventUpdate()
	if p.pending {
		return
	}
	p.pending = true
	ctx.After(max(0, frameEvery-now.Sub(p.lastFrame)), func(app.Context) {
		now := time.Now()
		p.pending, p.lastFrame = false, now
		if now.Sub(p.lastEval) >= evalEvery && p.st.ShowEval() {
			p.lastEval = now
		}
	})
}

// collectSoon schedules collectAtRest once, in a task of its own,
// collectWait after the last call, if no run is training then.
func (p *pacer) collectSoon(ctx app.Context) {
	p.collectDue = time.Now().Add(collectWait)
	if p.collectPending {
		return
	}
	p.collectPending = true
	var wait func(app.Context)
	wait = func(ctx app.Context) {
		ctx.PreventUpdate()
		if left := time.Until(p.collectDue); left > 0 {
			ctx.After(left, wait)
			return
		}
		p.collectPending = false
		if p.st.Status != store.StatusTraining && p.st.Status != store.StatusLoading {
			collectAtRest()
		}
	}
	ctx.After(collectWait, wait)
}
