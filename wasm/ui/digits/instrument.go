// Package digits is the digits instrument: softmax regression on MNIST,
// trained in a Web Worker, with the loss chart, the templates, the
// confusion matrix, the gallery, the draw pad, the inspector, the
// Hessian, my digits and the model's files.
//
// Instrument owns the run's state (package store), the worker and its
// takeover, the model's files and my digits, the inspector's choices, the
// page's warm-up and its garbage collection. Its panels (package panels)
// show the state and post the store's actions; the instrument's handlers
// (handlers.go) carry them out, and no other code changes the state. The
// page composes the instrument (view.go) and commands it through its
// methods (commands.go); what the instrument needs of the page it
// declares as Page. It imports none of the page's other rooms.
package digits

import (
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/link"
	"softmaxdemo/wasm/ui/params"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Page is what the instrument needs of the page it is part of.
type Page interface {
	// Link returns the page's settings as its link says them.
	Link() link.Settings
	// Changed says that the instrument's settings (Settings) changed, so
	// that the page's link follows.
	Changed()
	// Notice says what a link asked of the instrument that it could not
	// do, and so did not.
	Notice(m i18n.Msg)
}

// Settings are the instrument's part of the page's link.
type Settings struct {
	Fields  params.Fields // the Train panel's
	Dataset string        // the pack, loaded or to be loaded
	// Workers is how many workers compute full passes, or 0 to leave it
	// to the browser's cores (link.Settings.Workers).
	Workers int
	// From is the runs the run descends from, if it is a branch
	// (link.Settings.From).
	From link.Chain
}

// Instrument is the digits instrument; its zero value is not usable: New
// makes one.
type Instrument struct {
	page  Page
	tasks *kit.Tasks // the page's queue of tasks of their own
	st    *store.State

	fields  params.Fields // the Train panel's fields, as accepted
	workers int
	// fieldsV grows when the fields come from outside the Train panel (a
	// link, a chapter, the lesson's buttons): the panel shows them.
	fieldsV int

	worker   *browser.Worker
	manifest dataset.Manifest
	booted   []byte // the manifest web/boot.js fetched, until loadManifest takes it
	retries  int    // Retry presses: each fetches past any cached copy
	wantData string // a pack the link asked for, loaded once it is found
	// curvatureAsked is the model and settings #alpha-max was last asked
	// for (askCurvature).
	curvatureAsked string

	pending   bool      // a render of worker events is scheduled
	lastFrame time.Time // when the page last rendered for worker events
	lastEval  time.Time // when the confusion matrix and gallery last changed
	asked     [2]int    // the run and step whose evaluation was asked for

	collectPending bool // collectSoon's task is scheduled, for collectDue
	collectDue     time.Time
	warmed         bool // the warm-up ran (warm.go)
	cellsReady     bool // the confusion matrix may make its 100 cells

	files       fileState // the model and my digits as files, and kept (files.go)
	inspectRate float64   // the inspector's own α

	wantChain link.Chain // a link's branch, trained again once its pack is in (scrub.go)
	replay    *replay    // a link's branch being trained again, nil if none
	linked    link.Chain // the branch's runs as the page's link last said them

	takeover  *takeover // the run a new worker takes over, until it has loaded (takeover.go)
	takeovers int       // workers replaced since the run last went on
	watching  bool      // watchWorker is running
	stopHide  func()    // stops keeping the model on pagehide
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

// defaultInspectRate is the inspector's α: one step on one image shows
// plainly in p without undoing much of what was learnt, as the Train
// panel's 0.5 for minibatches of 100 would.
const defaultInspectRate = 0.01

// New returns the instrument of page, with the Train panel's defaults.
func New(page Page) *Instrument {
	return &Instrument{page: page, st: store.New(), fields: params.Defaults(), inspectRate: defaultInspectRate}
}

// Init reads, before the page's first render, the list of packs web/boot.js
// fetched (LinkPacks) and what the browser kept: my digits now, the model
// once the data are in (KeptSettings). Natively there is nothing to read.
func (d *Instrument) Init() {
	if !app.IsClient {
		return
	}
	d.booted = browser.BootManifest()
	d.initFiles()
}

// Configure takes the settings set before the instrument is mounted: the
// Train panel's fields, the workers, the pack a link names, which is
// loaded once the manifest has it, and the runs a link's branch descends
// from, trained again once the pack is in.
func (d *Instrument) Configure(set Settings) {
	d.fields, d.workers, d.wantChain = set.Fields, set.Workers, set.From
	if set.Dataset != "default" && set.Dataset != "" {
		d.wantData = set.Dataset
	}
}

// Mount starts the instrument in the page whose context is ctx: its
// handlers, the worker, the data. tasks is the page's queue of tasks.
func (d *Instrument) Mount(ctx app.Context, tasks *kit.Tasks) {
	d.tasks = tasks
	d.handle(ctx)
	if app.IsClient {
		d.stopHide = browser.OnPageHide(func() { d.keepBeforeLeaving(ctx) })
		d.loadManifest(ctx)
	}
}

// Dismount stops what Mount started.
func (d *Instrument) Dismount() {
	if d.stopHide != nil {
		d.stopHide()
	}
	if d.worker != nil {
		d.worker.Terminate()
	}
}
