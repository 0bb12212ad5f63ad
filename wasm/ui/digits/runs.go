package digits

import (
	"slices"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/link"
	"softmaxdemo/wasm/ui/params"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Runs: what the Train panel's buttons and fields, the error banner's
// recovery and the page's actions ask of the worker.

// asked makes the Train panel's settings, with my digits' share, the
// pending run's, as Train, Step and Reset ask: a person's, which takes
// over from a link's replay. ok is false while a field is refused, which
// the panel shows beside it.
func (o *owner) asked() (c protocol.Config, ok bool) {
	typed := o.st.Controls.Typed
	if !typed.OK() {
		return c, false
	}
	c = typed.Config
	c.MyDigitsRate = o.st.Files.Share()
	o.stopReplay()
	o.st.Asked(c, true)
	return c, true
}

// train trains with the Train panel's settings (takes one step, if
// step): a branch from the keyframe the slider stands on, or the run
// (going on, or a new one, as the worker decides).
func (o *owner) train(ctx app.Context, step bool) {
	c, ok := o.asked()
	if !ok || o.branch(ctx, c, step) {
		return
	}
	if step {
		o.c.send(protocol.Step{Config: c})
	} else {
		o.c.send(protocol.Train{Config: c})
	}
}

// reset starts a fresh run with the Train panel's settings.
func (o *owner) reset(ctx app.Context) {
	if c, ok := o.asked(); ok {
		o.freshRun(c)
	}
}

// freshRun resets the run to the start of one of c, which Asked has made
// the pending run's. It clears the current run only: the runs before it
// stay on the chart for comparison.
func (o *owner) freshRun(c protocol.Config) {
	o.st.DropCurrent()
	o.c.send(protocol.Reset{Config: c})
}

// forgetModel forgets the kept model and starts afresh with the Train
// panel's settings.
func (o *owner) forgetModel(ctx app.Context) {
	o.files.forget()
	c := o.st.RunConfig()
	o.stopReplay()
	o.st.Asked(c, true)
	o.freshRun(c)
}

func (o *owner) pause(ctx app.Context) {
	o.stopReplay()
	o.c.send(protocol.Pause{})
}

// edit makes a person's change to the Train panel: once every field
// passes, the page's link takes them and #alpha-max is measured for them;
// a new pace applies at once.
func (o *owner) edit(ctx app.Context, e params.Edit) {
	accepted, pace := o.st.Edited(e)
	if pace {
		o.c.sendPace()
	}
	if accepted {
		o.settled(ctx)
	}
}

// preset fills the Train panel from the preset name.
func (o *owner) preset(ctx app.Context, name string) {
	if found, accepted := o.st.Preset(name); found && accepted {
		o.settled(ctx)
	}
}

// settled follows settings the runs take: the page's link says them, and
// #alpha-max is measured for their λ, pinning and images.
func (o *owner) settled(ctx app.Context) {
	LinkChanged.Post(ctx)
	o.c.askCurvature()
}

func (o *owner) dataset(ctx app.Context, name string) {
	if name != o.st.Dataset {
		o.c.send(protocol.Pause{})
		o.c.load(ctx, name)
		LinkChanged.Post(ctx)
	}
}

// apply makes set the room's settings (Apply).
func (o *owner) apply(ctx app.Context, set Settings) {
	st := o.st
	pace := st.Controls.Settings.Fields.Pace
	st.SetFields(set.Fields)
	if set.Fields.Pace != pace {
		o.c.sendPace()
	}
	if set.Workers != st.Controls.Workers {
		st.SetWorkers(set.Workers)
		o.c.sendWorkers() // the run goes on: the number of workers changes no result
	}
	if set.From != (link.Chain{}) && set.From != st.Chain() {
		o.stopReplay()
		st.WantBranch(set.From) // trained again once the data are in, as a fresh page does
	}
	switch s := st.Controls.Settings; {
	case set.Dataset != st.LinkData():
		o.c.switchData(ctx, set.Dataset)
	case st.Controls.WantChain != (link.Chain{}):
		o.replayWhenReady(ctx)
	case st.Status == store.StatusTraining && s.OK() && (s.Config.LearningRate != st.Pending.LearningRate || s.Config.L2 != st.Pending.L2):
		c := st.RunConfig()
		st.Asked(c, false)
		o.c.send(protocol.Train{Config: c}) // the worker keeps the run, with the new α and λ
	}
	LinkChanged.Post(ctx)
}

// fresh makes f the Train panel's fields and starts a new run with them
// (Fresh).
func (o *owner) fresh(ctx app.Context, f params.Fields) {
	if o.st.Status == store.StatusTraining {
		o.c.send(protocol.Pause{})
	}
	set := o.View().Settings()
	set.Fields = f
	o.apply(ctx, set)
	if !o.st.Controls.Settings.OK() || o.st.TrainN == 0 {
		return
	}
	c := o.st.RunConfig()
	o.st.Asked(c, false)
	o.c.send(protocol.Reset{Config: c})
	o.c.send(protocol.Train{Config: c})
}

// trainWith makes f the Train panel's fields and trains on (TrainWith).
func (o *owner) trainWith(ctx app.Context, f params.Fields) {
	set := o.View().Settings()
	set.Fields = f
	o.apply(ctx, set)
	if o.st.Controls.Typed.OK() && o.st.TrainN > 0 {
		o.train(ctx, false)
	}
}

// useModel makes m the model of a new run (UseModel).
func (o *owner) useModel(_ app.Context, m *softmax.Model[float32]) {
	if m == nil || o.st.TrainN == 0 {
		return
	}
	c := o.st.ContinueConfig()
	o.st.Asked(c, true)
	o.c.send(protocol.UseModel{Config: c, D: m.D, W: slices.Clone(m.W), B: slices.Clone(m.B)})
}

// follow shows m without a run (Follow): a run in training pauses
// first, and the worker measures m on the test set.
func (o *owner) follow(ctx app.Context, m *softmax.Model[float32]) {
	if m == nil || m.D != dataset.Pixels {
		return
	}
	if o.st.Status == store.StatusTraining {
		o.pause(ctx)
	}
	if ask := o.st.Follow(m); ask != nil {
		o.c.send(*ask)
	}
}

// hessian asks the worker for the Hessian of the 7×7 problem, with the
// Train panel's λ (the notes' cure needs some λ to show, so 1e-4 where it
// is 0) and images; a run in training pauses first.
func (o *owner) hessian(ctx app.Context) {
	if o.st.Status == store.StatusTraining {
		o.pause(ctx)
	}
	c := o.st.Controls.Settings.Config
	l2 := c.L2
	if l2 <= 0 {
		l2 = 1e-4
	}
	o.st.HessianAsked()
	o.c.send(protocol.Hessian{L2: l2, Deskew: c.Deskew})
}
