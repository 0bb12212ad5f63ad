package digits

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/params"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// conn is the owner's side of the training worker: it reads the list of
// packs, starts a worker and loads a pack into it, sends it commands,
// watches it, and replaces it when it dies (takeover.go); it hands the
// worker's events to the owner (events).
type conn struct {
	st       *store.Store
	start    Start
	fetch    func(url string) ([]byte, error) // browser.Fetch, which blocks: called in ctx.Async
	w        Sender                           // the training worker; nil before the manifest is read, and after it crashed
	booted   []byte                           // the manifest web/boot.js fetched, until loadManifest takes it
	watching bool                             // watchWorker is running
	events   func(app.Context, protocol.Msg)  // the owner's handler of the worker's events
}

// loadManifest reads the list of packs (web/boot.js has usually fetched it
// already), starts the worker and loads the default pack. The page offers
// exactly the manifest's packs: the manifest lists only those on the
// server (tools/mnistpack writes it so, and make dist prunes it), so the
// page never asks for a file to learn whether it is there.
func (c *conn) loadManifest(ctx app.Context) {
	b := c.booted
	c.booted = nil // a Retry fetches
	if b == nil {
		b = browser.BootManifest()
	}
	if b != nil {
		c.onManifest(ctx, b, nil)
		return
	}
	url := ctx.ResolveStaticResource("/web/data/manifest.json")
	ctx.Async(func() {
		b, err := c.fetch(url)
		ctx.Dispatch(func(ctx app.Context) { c.onManifest(ctx, b, err) })
	})
}

// onManifest starts the worker on the manifest b, or shows err.
func (c *conn) onManifest(ctx app.Context, b []byte, err error) {
	var man dataset.Manifest
	if err == nil {
		err = json.Unmarshal(b, &man)
	}
	if err == nil {
		if _, ok := man.Find("default"); !ok {
			err = fmt.Errorf("no default pack in it")
		}
	}
	if errors.Is(err, browser.ErrTimedOut) {
		secs := strconv.Itoa(int(browser.FetchDeadline / time.Second))
		c.st.Apply(protocol.Failed{
			Message: "the list of datasets did not arrive within " + secs + " s",
			Hint:    "hint.fetch",
			Key:     "err.manifestStall",
			Args:    []string{secs},
		})
		return
	}
	if err != nil {
		c.st.Apply(protocol.Failed{
			Message: "could not read the list of datasets: " + err.Error(),
			Hint:    "hint.manifest",
			Key:     "err.manifest",
			Args:    []string{err.Error()},
		})
		return
	}
	def, _ := man.Find("default")
	c.st.Offered(man.Packs, def.Name)
	preloaded := c.ensureWorker(ctx)
	if preloaded != c.st.Dataset {
		c.load(ctx, c.st.Dataset) // unless web/boot.js asked already
	}
	want := c.st.Controls.WantData
	c.st.WantData("")
	switch _, ok := man.Find(want); {
	case want == "" || want == c.st.Dataset:
	case !ok:
		Notice.Post(ctx, i18n.Text("link.bad", "data", params.Quote(want), i18n.Text("link.noSuchData")))
	default:
		// The link asked for another pack: the worker loads it after the
		// default one (it handles one load at a time).
		c.send(protocol.Pause{})
		c.load(ctx, want)
	}
}

// ensureWorker starts a worker if there is none, and returns the pack
// web/boot.js asked the one it started for ("" for none).
func (c *conn) ensureWorker(ctx app.Context) (preloaded string) {
	if c.w != nil {
		return ""
	}
	var w Sender
	w, preloaded = c.start(ctx.ResolveStaticResource("/web/worker.js"),
		func(m protocol.Msg) {
			if _, ok := m.(protocol.Heartbeat); ok {
				return // the Sender noted it: nothing to show
			}
			ctx.Dispatch(func(ctx app.Context) {
				if c.w == w { // not a late event of a worker replaced
					c.events(ctx, m)
				}
			})
		},
		func(detail string) {
			ctx.Dispatch(func(ctx app.Context) {
				if c.w == w {
					c.died(ctx, i18n.Text("raw", detail))
				}
			})
		},
	)
	c.w = w
	c.st.WorkerStarted()
	if !c.watching && app.IsClient {
		c.watching = true
		c.watchWorker(ctx)
	}
	return preloaded
}

// afterReady runs once a loaded pack is on screen: the work kept out of the
// page's start-up may begin. The worker warms up its kernels; the service
// worker fills its cache for offline use (web/boot.js) once the whole pack
// is in (onEvent, on Samples).
func (c *conn) afterReady() {
	if c.w != nil && c.st.Warming() {
		c.send(protocol.Warm{})
	}
	c.sendPace()
	c.sendWorkers()
	c.askCurvature()
}

// askCurvature asks the worker for λ_max of the Hessian at the current
// model and the Train panel's λ, pinning and images, for #alpha-max: at
// rest and with the data in only (the worker measures it with full
// passes over them), and once per model and settings.
func (c *conn) askCurvature() {
	st := c.st
	set := st.Controls.Settings
	if st.Status == store.StatusTraining || c.w == nil || st.TrainN == 0 || !set.OK() || !st.AskCurvature(set.Config) {
		return
	}
	c.send(protocol.Curvature{Config: set.Config})
}

// sendWorkers tells the worker how many workers should compute full
// passes: the link's number, or one fewer than the browser says it has
// cores, at least 1 and at most protocol.MaxWorkers. The core left over is
// the page's and the browser's: while a full-batch run goes at full pace
// the page's main thread takes up to a third of a core, and on a 2-core
// machine two workers beside it are no faster than one, though each
// worker's kernel alone scales to both cores
// (docs/decisions/0001-one-worker-fewer-than-cores.md).
func (c *conn) sendWorkers() {
	n := c.st.Controls.Workers
	if n == 0 {
		n = max(1, min(browser.Cores()-1, protocol.MaxWorkers))
	}
	c.send(protocol.Workers{N: n})
}

// load asks the worker for the named pack.
func (c *conn) load(ctx app.Context, name string) {
	i := slices.IndexFunc(c.st.Packs, func(pk dataset.PackInfo) bool { return pk.Name == name })
	if i < 0 || c.w == nil {
		return
	}
	pk := c.st.Packs[i]
	c.st.LoadingPack(name, pk.Bytes)
	url := ctx.ResolveStaticResource("/web/data/" + pk.File)
	if r := c.st.Worker.Retries; r > 0 {
		// A distinct URL goes past the service worker's cache, which may
		// hold the very copy that failed its checksum.
		url += "?retry=" + strconv.Itoa(r)
	}
	c.send(protocol.Load{Name: pk.Name, URL: url, SHA256: pk.SHA256, Bytes: pk.Bytes, TrainBytes: pk.TrainBytes, TrainSHA256: pk.TrainSHA256})
}

// send sends m to the worker, if there is one; a command the page could
// not send is an error it shows.
func (c *conn) send(m protocol.Msg) {
	if c.w == nil {
		return
	}
	if err := c.w.Send(m); err != nil {
		c.st.Failed(i18n.Text("err.send", err.Error()))
	}
}

// sendPace tells the worker the pace the Train panel shows.
func (c *conn) sendPace() {
	if rate, ok := params.PaceRate(c.st.Controls.Settings.Fields.Pace); ok {
		c.send(protocol.Pace{StepsPerSecond: rate})
	}
}

// stop terminates the worker, if there is one.
func (c *conn) stop() {
	if c.w != nil {
		c.w.Terminate()
	}
}

// retry loads the data again, after an error: the manifest, if it was
// never read, or the pack, past any copy cached.
func (c *conn) retry(ctx app.Context) {
	c.st.Retried()
	if len(c.st.Packs) == 0 {
		c.loadManifest(ctx)
		return
	}
	c.load(ctx, c.st.Dataset)
}

// restart starts a new worker after one crashed, and loads the pack.
func (c *conn) restart(ctx app.Context) {
	c.stop()
	c.w = nil
	c.st.Restarted()
	if len(c.st.Packs) == 0 {
		c.loadManifest(ctx)
		return
	}
	c.ensureWorker(ctx)
	c.load(ctx, c.st.Dataset)
}

// switchData loads the pack name if it is on the server, or waits for it
// to be found in the manifest, as a first load does.
func (c *conn) switchData(ctx app.Context, name string) {
	if c.w != nil && slices.ContainsFunc(c.st.Packs, func(pk dataset.PackInfo) bool { return pk.Name == name }) {
		c.st.WantData("")
		c.send(protocol.Pause{})
		c.load(ctx, name)
		return
	}
	c.st.WantData(name)
}
