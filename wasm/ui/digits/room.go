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
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/link"
	"softmaxdemo/wasm/ui/params"
	"time"

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

// owner is the room's owner: the only code that changes the room's
// state, st, in the handlers of the room's actions and of its worker's
// events. Two parts of it keep to themselves what they hold of the
// browser: c, the worker, and files, the model's files and my digits in
// the browser's storage; pace says when the page renders worker events
// and does its own work around a run.
type owner struct {
	st    *store.Store
	c     *conn
	files *keeper
	pace  *pacer
	tasks *kit.Tasks // the page's queue of tasks of their own

	stopHide func() // stops keeping the model on pagehide
}

// New returns the room with the settings set (a link's, or the
// defaults), what the page found as it started (boot), in the page's
// language, and start, which starts its training workers.
func New(boot Boot, set Settings, lang i18n.Lang, start Start) Room {
	st := store.NewStore(set.Fields, set.Workers, set.Dataset, set.From, lang, boot.files)
	o := &owner{st: st}
	o.c = &conn{st: st, start: start, fetch: browser.Fetch, booted: boot.manifest, events: o.onEvent}
	o.files = &keeper{st: st, c: o.c, host: browser.Host{}}
	o.pace = &pacer{st: st, c: o.c}
	return o
}

func (o *owner) Mount(ctx app.Context, tasks *kit.Tasks) {
	o.tasks = tasks
	o.handle(ctx)
	if app.IsClient {
		o.stopHide = browser.OnPageHide(func() { o.files.keepBeforeLeaving(ctx) })
		o.files.listenForDrops(ctx)
		o.c.loadManifest(ctx)
	}
}

func (o *owner) Dismount() {
	if o.stopHide != nil {
		o.stopHide()
	}
	o.c.stop()
}

func (o *owner) View() View { return View{st: o.st, tasks: o.tasks, booted: o.c.booted} }
