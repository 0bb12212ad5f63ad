package digits

import (
	"encoding/json"
	"math/rand/v2"
	"slices"

	"softmaxdemo/core/dataset"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/link"
	"softmaxdemo/wasm/ui/params"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// What the page asks of the instrument, and what it reads of it. The
// page calls these on go-app's goroutine, as it handles its own events.

// State returns a copy of the instrument's state, to read.
func (d *Instrument) State() store.State { return *d.st }

// Settings returns the instrument's part of the page's link.
func (d *Instrument) Settings() Settings {
	return Settings{Fields: d.fields, Dataset: d.linkData(), Workers: d.workers, From: d.chain()}
}

// InspectRate is the inspector's own α.
func (d *Instrument) InspectRate() float64 { return d.inspectRate }

// Apply makes set the instrument's settings, as a link or a chapter
// gives them: the Train panel shows its fields, a run in training takes
// their α and λ at once, the worker its pace and its workers, and its data
// load if they differ. The page's link follows.
func (d *Instrument) Apply(ctx app.Context, set Settings) {
	old := d.fields
	d.fields = set.Fields
	d.fieldsV++
	if set.Fields.Pace != old.Pace {
		d.sendPace()
	}
	if set.Workers != d.workers {
		d.workers = set.Workers
		d.sendWorkers() // the run goes on: the number of workers changes no result
	}
	if set.From != (link.Chain{}) && set.From != d.chain() {
		d.stopReplay()
		d.wantChain = set.From // trained again once the data are in, as a fresh page does
	}
	if set.Dataset != d.linkData() {
		d.switchData(ctx, set.Dataset)
	} else if d.wantChain != (link.Chain{}) {
		d.replayWhenReady()
	} else if d.st.Status == store.StatusTraining {
		if c, e := params.Check(set.Fields, d.st.TrainN).Result(); e.OK() && (c.LearningRate != d.st.Pending.LearningRate || c.L2 != d.st.Pending.L2) {
			c.MyDigitsRate = d.myDigitsShare()
			d.st.Asked(c, false)
			d.send(protocol.Train{Config: c}) // the worker keeps the run, with the new α and λ
		}
	}
	d.page.Changed()
}

// SameRun reports whether the run in training could go on with set.
func (d *Instrument) SameRun(set Settings) bool {
	return set.Dataset == d.linkData() && set.From == d.chain() && params.Check(set.Fields, d.st.TrainN).SameRun(d.st.Pending)
}

// linkData is the data the page's link names: the loaded pack, or the
// one a link asked for and the instrument has yet to find.
func (d *Instrument) linkData() string {
	switch {
	case d.wantData != "":
		return d.wantData
	case d.st.Dataset != "":
		return d.st.Dataset
	}
	return "default"
}

// LinkPacks maps each pack a link may name to its training images: the
// manifest's, or, before it is read, the two the site can have.
func (d *Instrument) LinkPacks() map[string]int {
	packs := map[string]int{}
	man := d.manifest
	if len(man.Packs) == 0 && d.booted != nil {
		_ = json.Unmarshal(d.booted, &man) // unreadable: the two the site can have
	}
	for _, pk := range man.Packs {
		packs[pk.Name] = pk.Train
	}
	if len(packs) == 0 {
		packs["default"], packs["full"] = 0, 0
	}
	return packs
}

// switchData loads the pack name if it is on the server, or waits for it
// to be found in the manifest, as a first load does.
func (d *Instrument) switchData(ctx app.Context, name string) {
	if d.worker != nil && slices.ContainsFunc(d.st.Packs, func(pk dataset.PackInfo) bool { return pk.Name == name }) {
		d.wantData = ""
		d.send(protocol.Pause{})
		d.load(ctx, name)
		return
	}
	d.wantData = name
}

// KeptSettings returns the settings kept with the model, for a page
// opened without a link of its own.
func (d *Instrument) KeptSettings(packs map[string]int) (link.Settings, bool) {
	k := d.files.restoring
	if k == nil || k.Settings == "" {
		return link.Settings{}, false
	}
	set, notes := link.Parse(k.Settings, packs)
	return set, len(notes) == 0
}

// Show makes the chart's axes a, and gives the inspector an image if inspect
// asks for one and it has none: what a chapter needs on entering it.
func (d *Instrument) Show(a *chart.Axes, inspect bool) {
	if a != nil {
		d.st.SetAxes(*a)
	}
	if inspect && d.st.Inspect == nil && d.st.TrainN > 0 {
		d.send(protocol.PickTrain{Index: rand.IntN(1 << 30)})
	}
}
