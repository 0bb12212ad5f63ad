package digits

import (
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Rewinding a run and branching from it: the slider #scrub moves every
// view to one of the run's keyframes (store/scrub.go keeps them), and
// Train with the slider on a keyframe starts a new run from its θ
// (UseModel), a branch, which the page's link reproduces: the run it
// descends from trained again to that step, then the branch.

// scrubbed sends what a move of the slider asks of the worker: a pause of
// the run in training, and the keyframe's evaluation the first time it
// is shown.
func (o *owner) scrubbed(ask *protocol.EvaluateModel, pause bool) {
	if pause {
		o.stopReplay()
		o.c.send(protocol.Pause{})
	}
	if ask != nil {
		o.c.send(*ask)
	}
}

// branch starts a run of c from the keyframe the slider stands on, with
// Train (or Step, if step), and reports whether the slider stands on one.
// Newton's method starts from θ = 0 only: it is refused with its reason.
func (o *owner) branch(ctx app.Context, c protocol.Config, step bool) bool {
	r, k := o.st.BranchPoint()
	if r == nil {
		return false
	}
	if c.Method == "newton" {
		o.st.Failed(i18n.Text("err.newtonModel"))
		return true
	}
	o.st.Branching(r, k.Step)
	o.c.send(protocol.UseModel{Config: c, D: k.Model.D, W: k.Model.W, B: k.Model.B})
	if step {
		o.c.send(protocol.Step{Config: c})
	} else {
		o.c.send(protocol.Train{Config: c})
	}
	o.chainChanged(ctx)
	return true
}

// chainChanged has the page write its link if the runs it says its run
// descends from changed.
func (o *owner) chainChanged(ctx app.Context) {
	if o.st.ChainChanged() {
		LinkChanged.Post(ctx)
	}
}

// replayWhenReady trains the link's branch again once its pack is in
// (store.StartReplay): the runs of its chain at full pace.
func (o *owner) replayWhenReady(ctx app.Context) {
	c, start, missed := o.st.StartReplay()
	if !missed.IsZero() {
		Notice.Post(ctx, missed)
		LinkChanged.Post(ctx)
		return
	}
	if !start {
		return
	}
	o.c.send(protocol.Pace{StepsPerSecond: 0})
	o.c.send(protocol.Reset{Config: c})
	o.c.send(protocol.Train{Config: c})
}

// replayNext starts, once the run of the chain training now holds its
// keyframe at the chain's step, the next run from it (store.ReplayNext).
func (o *owner) replayNext(ctx app.Context) {
	next, from, last, missed := o.st.ReplayNext()
	if !missed.IsZero() {
		o.c.sendPace() // the replay is over: the pace is the person's again
		Notice.Post(ctx, missed)
		return
	}
	if from == nil {
		return
	}
	o.c.send(protocol.Pause{})
	o.c.send(protocol.UseModel{Config: next, D: from.Model.D, W: from.Model.W, B: from.Model.B})
	if last {
		o.c.sendPace()
	}
	o.c.send(protocol.Train{Config: next})
}

// stopReplay ends a replay the person interrupted: the pace is theirs
// again.
func (o *owner) stopReplay() {
	if o.st.StopReplay() {
		o.c.sendPace()
	}
}
