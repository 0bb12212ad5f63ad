package digits

import (
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/link"
	"softmaxdemo/wasm/ui/params"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Rewinding a run and branching from it: the slider #scrub moves every
// view to one of the run's keyframes (store/scrub.go keeps them), and
// Train with the slider on a keyframe starts a new run from its θ
// (UseModel), a branch, which the page's link reproduces: the run it
// descends from trained again to that step, then the branch.

func (d *Instrument) onScrub(ctx app.Context, a app.Action) {
	if to, ok := a.Value.(store.Scrub); ok {
		d.scrubbed(d.st.ScrubTo(to))
	}
}

func (d *Instrument) onSelectRun(ctx app.Context, a app.Action) {
	if id, ok := a.Value.(int); ok {
		d.scrubbed(d.st.SelectRun(id))
	}
}

// scrubbed sends what a move of the slider asks of the worker: a pause of
// the run in training, and the keyframe's evaluation the first time it
// is shown.
func (d *Instrument) scrubbed(ask *protocol.EvaluateModel, pause bool) {
	if pause {
		d.stopReplay()
		d.send(protocol.Pause{})
	}
	if ask != nil {
		d.send(*ask)
	}
}

// branch starts a run of c from the keyframe the slider stands on, with
// Train (or Step, if step), and reports whether the slider stands on one.
// Newton's method starts from θ = 0 only: it is refused with its reason.
func (d *Instrument) branch(c protocol.Config, step bool) bool {
	r, k := d.st.BranchPoint()
	if r == nil {
		return false
	}
	if c.Method == "newton" {
		d.st.Failed(i18n.Text("err.newtonModel"))
		return true
	}
	d.st.Branching(r, k.Step)
	d.send(protocol.UseModel{Config: c, D: k.Model.D, W: k.Model.W, B: k.Model.B})
	if step {
		d.send(protocol.Step{Config: c})
	} else {
		d.send(protocol.Train{Config: c})
	}
	d.chainChanged()
	return true
}

// chainChanged writes the page's link if the runs it says its run
// descends from changed.
func (d *Instrument) chainChanged() {
	if c := d.chain(); c != d.linked {
		d.linked = c
		d.page.Changed()
	}
}

// chain is the runs the page's link says its run descends from: a link's
// that is yet to be trained again, or the current run's origin.
func (d *Instrument) chain() link.Chain {
	switch {
	case d.replay != nil:
		return d.replay.chain
	case d.wantChain != (link.Chain{}):
		return d.wantChain
	}
	var runs []link.Branch
	for _, o := range d.st.Origin() {
		f := params.FieldsOf(o.Cfg)
		f.Pace = ""
		runs = append(runs, link.Branch{Fields: f, Step: o.Step})
	}
	return link.NewChain(runs...)
}

// replay is a link's branch being trained again: each run of its chain
// from where the one before it reached its step, at full pace, then the
// link's own run, at its pace, from the last one's step.
type replay struct {
	chain link.Chain
	cfgs  []protocol.Config // each run's settings, the link's own last
	i     int               // the run of the chain training now
	after int               // its run is the first whose id is above this
}

// replayWhenReady trains the link's branch again once its pack is in.
func (d *Instrument) replayWhenReady() {
	if d.wantChain == (link.Chain{}) || d.st.TrainN == 0 || d.st.Dataset != d.linkData() || d.st.Replacing {
		return
	}
	chain := d.wantChain
	d.wantChain = link.Chain{}
	runs := chain.Runs()
	cfgs := make([]protocol.Config, len(runs)+1)
	for i, b := range runs {
		c, errs := params.Check(b.Fields, d.st.TrainN).Result()
		k := protocol.KeyframesOf(c, d.st.TrainN)
		if !errs.OK() || (!k.Has(b.Step) && b.Step != k.Last()) {
			d.page.Notice(i18n.Text("scrub.linkMissed", b.Step))
			d.page.Changed()
			return
		}
		cfgs[i] = c
	}
	final, errs := params.Check(d.fields, d.st.TrainN).Result()
	if !errs.OK() {
		return
	}
	cfgs[len(runs)] = final
	for i := range cfgs {
		cfgs[i].MyDigitsRate = d.myDigitsShare()
	}
	d.replay = &replay{chain: chain, cfgs: cfgs, after: d.st.Run}
	d.send(protocol.Pace{StepsPerSecond: 0})
	d.st.Asked(cfgs[0], true)
	d.send(protocol.Reset{Config: cfgs[0]})
	d.send(protocol.Train{Config: cfgs[0]})
}

// replayEvent starts, once the run of the chain training now holds its
// keyframe at the chain's step, the next run from it; a run that passes
// the step, or ends before it, without one ends the replay with a notice.
func (d *Instrument) replayEvent() {
	rp := d.replay
	r := d.st.Current()
	if rp == nil || r == nil || r.ID <= rp.after || len(r.Frames) == 0 {
		return
	}
	target := rp.chain.Runs()[rp.i].Step
	k := r.FrameAt(target)
	if k == nil {
		last := r.Frames[len(r.Frames)-1].Step
		if last > target || (r.State == store.StatusDone && last == d.st.Progress.Step) {
			d.stopReplay()
			d.page.Notice(i18n.Text("scrub.linkMissed", target))
		}
		return
	}
	rp.i++
	next := rp.cfgs[rp.i]
	d.send(protocol.Pause{})
	d.st.Asked(next, true)
	d.st.Branching(r, target)
	d.send(protocol.UseModel{Config: next, D: k.Model.D, W: k.Model.W, B: k.Model.B})
	rp.after = r.ID
	if rp.i == len(rp.chain.Runs()) {
		d.replay = nil
		d.sendPace()
	}
	d.send(protocol.Train{Config: next})
}

// stopReplay ends a replay the person interrupted: the pace is theirs
// again.
func (d *Instrument) stopReplay() {
	if d.replay != nil {
		d.replay = nil
		d.sendPace()
	}
}
