// Package digits is the digits room: softmax regression on MNIST,
// trained in a Web Worker, with the loss chart, the templates, the
// confusion matrix, the gallery, the draw pad, the inspector, the
// Hessian, my digits and the model's files.
//
// The room has one owner, the only code that changes its state: the
// run (package store, through its methods), the worker and its
// takeover, the model's files and my digits, the inspector, the scrub.
// It handles the actions its panels post (store's) and the page's
// (actions.go) on go-app's goroutine. The panels (package panels) are
// plain components: they get a part of the state as props and post
// actions. The page holds the room as a Room: it renders the room's View
// and talks to it by actions both ways, and the room needs of it only
// what New is given. The room imports none of the page's other rooms.
package digits

import (
	"time"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/link"
	"softmaxdemo/wasm/ui/params"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Room is the digits room as the page holds it: an object, not a
// component, since a run outlives the choice between the lesson and the
// whole instrument.
type Room interface {
	// Mount starts the room in the page whose context is ctx: its
	// handlers, its worker, its data. tasks is the page's queue of tasks
	// of their own (kit.Tasks), which the panels that draw use.
	Mount(ctx app.Context, tasks *kit.Tasks)
	// Dismount stops what Mount started.
	Dismount()
	// View returns the room as it is now, to read and to render.
	View() View
}

// Sender is the training worker as the room uses it: it takes commands
// and says how long it has been silent. *browser.Worker meets it.
type Sender interface {
	Send(m protocol.Msg) error
	Terminate()
	// Silent returns how long ago the worker last sent anything, or
	// since Heard was called.
	Silent() time.Duration
	// Heard counts now as a sign of life.
	Heard()
}

// Start starts a training worker from the script at url and returns it,
// with the pack web/boot.js already asked it for ("" for none). Its events
// go to events and its death, with a description, to died; both are
// called from JavaScript callbacks and must not block.
type Start func(url string, events func(protocol.Msg), died func(detail string)) (w Sender, preloaded string)

// Host is the browser as the room keeps things in it: its storage, which
// outlives the page, and its downloads. browser.Host meets it.
type Host interface {
	Get(key string) string
	Set(key, value string) bool
	Download(name, mime string, b []byte) bool
}

// Settings are the room's part of the page's link.
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

// owner is the room's owner. Its own fields are what it holds of the
// browser (the worker, listeners) and when it renders and does its
// background work; everything the room knows is in st.
type owner struct {
	st    *store.Store
	start Start
	host  Host
	fetch func(url string) ([]byte, error) // browser.Fetch, which blocks: called in ctx.Async
	tasks *kit.Tasks                       // the page's queue of tasks of their own

	w        Sender // the training worker; nil before the manifest is read, and after it crashed
	booted   []byte // the manifest web/boot.js fetched, until loadManifest takes it
	watching bool   // watchWorker is running
	stopHide func() // stops keeping the model on pagehide
	drop     app.Func

	pending        bool      // a render of worker events is scheduled
	lastFrame      time.Time // when the page last rendered for worker events
	lastEval       time.Time // when the confusion matrix and gallery last changed
	evalAsked      [2]int    // the run and step whose final evaluation was waited for
	collectPending bool      // collectSoon's task is scheduled, for collectDue
	collectDue     time.Time
	keepPending    bool // keeping the model is scheduled in a task of its own
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

// New returns the room with the settings set (a link's, or the
// defaults), what the page found as it started (boot), in the page's
// language, and start, which starts its training workers.
func New(boot Boot, set Settings, lang i18n.Lang, start Start) Room {
	st := store.NewStore(set.Fields, set.Workers, set.Dataset, set.From, lang, boot.files)
	return &owner{st: st, start: start, host: browser.Host{}, fetch: browser.Fetch, booted: boot.manifest}
}

func (o *owner) Mount(ctx app.Context, tasks *kit.Tasks) {
	o.tasks = tasks
	o.handle(ctx)
	if app.IsClient {
		o.stopHide = browser.OnPageHide(func() { o.keepBeforeLeaving(ctx) })
		o.listenForDrops(ctx)
		o.loadManifest(ctx)
	}
}

func (o *owner) Dismount() {
	if o.stopHide != nil {
		o.stopHide()
	}
	if o.w != nil {
		o.w.Terminate()
	}
}

func (o *owner) View() View { return View{st: o.st, tasks: o.tasks} }
