package digits

import (
	"slices"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/params"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Runs: what the Train panel's buttons, the error banner's recovery and
// the page's own commands ask of the worker.

// pendingRun takes a run's settings from an action that starts or resets one,
// adds my digits' share, and makes them the pending run's; ok is false for
// an action that carries no settings.
func (d *Instrument) pendingRun(a app.Action) (c protocol.Config, ok bool) {
	if c, ok = a.Value.(protocol.Config); ok {
		c.MyDigitsRate = d.myDigitsShare()
		d.stopReplay() // the person takes over from a link's replay
		d.st.Asked(c, true)
	}
	return c, ok
}

// onTrain trains c: a branch from the keyframe the slider stands on, or
// the run (going on, or a new one, as the worker decides).
func (d *Instrument) onTrain(ctx app.Context, a app.Action) {
	if c, ok := d.pendingRun(a); ok && !d.branch(c, false) {
		d.send(protocol.Train{Config: c})
	}
}

func (d *Instrument) onStep(ctx app.Context, a app.Action) {
	if c, ok := d.pendingRun(a); ok && !d.branch(c, true) {
		d.send(protocol.Step{Config: c})
	}
}

func (d *Instrument) onReset(ctx app.Context, a app.Action) {
	if c, ok := d.pendingRun(a); ok {
		// Reset clears the current run only: the runs before it stay on
		// the chart for comparison.
		d.st.DropCurrent()
		d.send(protocol.Reset{Config: c})
	}
}

func (d *Instrument) onPause(ctx app.Context, a app.Action) {
	d.stopReplay()
	d.send(protocol.Pause{})
}

func (d *Instrument) onDataset(ctx app.Context, a app.Action) {
	if name, ok := a.Value.(string); ok && name != d.st.Dataset {
		d.send(protocol.Pause{})
		d.load(ctx, name)
		d.page.Changed()
	}
}

func (d *Instrument) onRetry(ctx app.Context, a app.Action) {
	d.st.Retrying(len(d.manifest.Packs) > 0)
	d.retries++
	if len(d.manifest.Packs) == 0 {
		d.loadManifest(ctx)
		return
	}
	d.load(ctx, d.st.Dataset)
}

func (d *Instrument) onRestart(ctx app.Context, a app.Action) {
	if d.worker != nil {
		d.worker.Terminate()
		d.worker = nil
	}
	d.st.Restarting()
	d.takeover, d.takeovers = nil, 0
	if len(d.manifest.Packs) == 0 {
		d.loadManifest(ctx)
		return
	}
	d.ensureWorker(ctx)
	d.load(ctx, d.st.Dataset)
}

// Fresh makes f the Train panel's fields and starts a new run with them
// from its start, keeping the runs before it on the chart; a run in
// training pauses first.
func (d *Instrument) Fresh(ctx app.Context, f params.Fields) {
	if d.st.Status == store.StatusTraining {
		d.send(protocol.Pause{})
	}
	d.Apply(ctx, Settings{Fields: f, Dataset: d.linkData(), Workers: d.workers})
	c, errs := params.Check(f, d.st.TrainN).Result()
	if !errs.OK() {
		return
	}
	c.MyDigitsRate = d.myDigitsShare()
	d.st.Asked(c, false)
	d.send(protocol.Reset{Config: c})
	d.send(protocol.Train{Config: c})
}

// TrainWith makes f the Train panel's fields and trains on, from the
// current model where the run can go on with them (a change of α or λ).
func (d *Instrument) TrainWith(ctx app.Context, f params.Fields) {
	d.Apply(ctx, Settings{Fields: f, Dataset: d.linkData(), Workers: d.workers})
	if c, errs := params.Check(f, d.st.TrainN).Result(); errs.OK() {
		d.onTrain(ctx, app.Action{Value: c})
	}
}

// Pause pauses the run in training, if any.
func (d *Instrument) Pause() { d.send(protocol.Pause{}) }

// UseModel makes m the model of a new run, which goes on as the current
// run would (ContinueConfig).
func (d *Instrument) UseModel(m *softmax.Model[float32]) {
	if m == nil || d.st.TrainN == 0 {
		return
	}
	c := d.ContinueConfig()
	d.st.Asked(c, true)
	d.send(protocol.UseModel{Config: c, D: m.D, W: slices.Clone(m.W), B: slices.Clone(m.B)})
}

// ContinueConfig is the settings a model handed to the instrument trains
// on with: the current run's, or a descent's where it was Newton's (which
// starts from θ = 0), on the images the model reads.
func (d *Instrument) ContinueConfig() protocol.Config {
	if r := d.st.Current(); r != nil && r.Cfg.Method != "newton" {
		c := r.Cfg
		c.MyDigitsRate = d.myDigitsShare()
		return c
	}
	f := d.fields
	f.Method = "sgd"
	c, _ := params.Check(f, d.st.TrainN).Result()
	c.Deskew = d.st.ModelDeskew()
	c.MyDigitsRate = d.myDigitsShare()
	return c
}
