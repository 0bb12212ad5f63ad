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

// The room's side of the training worker: the manifest and the packs,
// the worker's events and when they render.

// loadManifest reads the list of packs (web/boot.js has usually fetched it
// already), starts the worker and loads the default pack. The page offers
// exactly the manifest's packs: the manifest lists only those on the
// server (tools/mnistpack writes it so, and make dist prunes it), so the
// page never asks for a file to learn whether it is there.
func (o *owner) loadManifest(ctx app.Context) {
	b := o.booted
	o.booted = nil // a Retry fetches
	if b == nil {
		b = browser.BootManifest()
	}
	if b != nil {
		o.onManifest(ctx, b, nil)
		return
	}
	url := ctx.ResolveStaticResource("/web/data/manifest.json")
	ctx.Async(func() {
		b, err := o.fetch(url)
		ctx.Dispatch(func(ctx app.Context) { o.onManifest(ctx, b, err) })
	})
}

// onManifest starts the worker on the manifest b, or shows err.
func (o *owner) onManifest(ctx app.Context, b []byte, err error) {
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
		o.st.Apply(protocol.Failed{
			Message: "the list of datasets did not arrive within " + secs + " s",
			Hint:    "hint.fetch",
			Key:     "err.manifestStall",
			Args:    []string{secs},
		})
		return
	}
	if err != nil {
		o.st.Apply(protocol.Failed{
			Message: "could not read the list of datasets: " + err.Error(),
			Hint:    "hint.manifest",
			Key:     "err.manifest",
			Args:    []string{err.Error()},
		})
		return
	}
	def, _ := man.Find("default")
	o.st.Offered(man.Packs, def.Name)
	preloaded := o.ensureWorker(ctx)
	if preloaded != o.st.Dataset {
		o.load(ctx, o.st.Dataset) // unless web/boot.js asked already
	}
	want := o.st.Controls.WantData
	o.st.WantData("")
	switch _, ok := man.Find(want); {
	case want == "" || want == o.st.Dataset:
	case !ok:
		Notice.Post(ctx, i18n.Text("link.bad", "data", params.Quote(want), i18n.Text("link.noSuchData")))
	default:
		// The link asked for another pack: the worker loads it after the
		// default one (it handles one load at a time).
		o.send(protocol.Pause{})
		o.load(ctx, want)
	}
}

// ensureWorker starts a worker if there is none, and returns the pack
// web/boot.js asked the one it started for ("" for none).
func (o *owner) ensureWorker(ctx app.Context) (preloaded string) {
	if o.w != nil {
		return ""
	}
	var w Sender
	w, preloaded = o.start(ctx.ResolveStaticResource("/web/worker.js"),
		func(m protocol.Msg) {
			if _, ok := m.(protocol.Heartbeat); ok {
				return // the Sender noted it: nothing to show
			}
			ctx.Dispatch(func(ctx app.Context) {
				if o.w == w { // not a late event of a worker replaced
					o.onEvent(ctx, m)
				}
			})
		},
		func(detail string) {
			ctx.Dispatch(func(ctx app.Context) {
				if o.w == w {
					o.workerDied(ctx, i18n.Text("raw", detail))
				}
			})
		},
	)
	o.w = w
	o.st.WorkerStarted()
	if !o.watching && app.IsClient {
		o.watching = true
		o.watchWorker(ctx)
	}
	return preloaded
}

// onEvent applies a worker event and decides when to render it.
func (o *owner) onEvent(ctx app.Context, m protocol.Msg) {
	st := o.st
	if _, ok := m.(protocol.Snapshot); ok {
		st.Apply(m)
		st.TakeOver(m)
		ctx.PreventUpdate() // kept for a new worker, not shown
		return
	}
	status, err, run := st.Status, st.Err, st.Run
	st.Apply(m)
	o.replayNext(ctx)
	if st.Run != run {
		o.chainChanged(ctx) // a new run, a branch or not: the link says which
	}
	if pr, ok := m.(protocol.Progress); ok && pr.Heap != 0 {
		// The worker measured its heap as a run came to rest: measure
		// the page's beside it, once per run.
		st.PageMeasured(protocol.HeapLive())
	}
	o.filesEvent(ctx, m)
	o.takeOver(m)
	o.askCurvature() // at rest, once per model and settings
	switch m.(type) {
	case protocol.Loaded:
		ctx.Defer(func(ctx app.Context) {
			// What the page's start allocated, once ready is on screen: in
			// a task of its own, even if a run was started at once.
			o.tasks.AfterNextPaint(func() { collectAtRest() })
			o.afterReady()
			o.replayWhenReady(ctx)
			if st.PageWarmedUp() {
				o.warmPage(ctx)
			}
		})
	case protocol.Samples:
		// The test images follow Loaded (Samples comes with them): the
		// whole pack is in, and the service worker may fill its cache
		// without downloading the pack a second time beside it.
		browser.PageReady()
	}
	o.awaitEval(ctx)
	if st.Status != store.StatusTraining && st.Status != store.StatusLoading {
		o.collectSoon(ctx)
	}
	o.paceRender(ctx, status != st.Status || err != st.Err)
}

// awaitEval asks for the final evaluation of a run that is done, should
// it not come: the worker sends it right after the Progress that says
// done.
func (o *owner) awaitEval(ctx app.Context) {
	held, run, step := o.st.AwaitingEval()
	if !held || o.evalAsked == [2]int{run, step} {
		return
	}
	o.evalAsked = [2]int{run, step}
	ctx.After(evalWait, func(app.Context) {
		if held, r, s := o.st.AwaitingEval(); held && r == run && s == step {
			o.send(protocol.Evaluate{})
		}
	})
}

// paceRender renders now a change of state (changed) or an event at rest,
// and a run's events at most every frameEvery, the confusion matrix and
// gallery at most every evalEvery.
func (o *owner) paceRender(ctx app.Context, changed bool) {
	now := time.Now()
	if changed || o.st.Status != store.StatusTraining {
		o.st.ShowEval()
		o.lastFrame, o.lastEval = now, now
		return // render now
	}
	ctx.PreventUpdate()
	if o.pending {
		return
	}
	o.pending = true
	ctx.After(max(0, frameEvery-now.Sub(o.lastFrame)), func(app.Context) {
		now := time.Now()
		o.pending, o.lastFrame = false, now
		if now.Sub(o.lastEval) >= evalEvery && o.st.ShowEval() {
			o.lastEval = now
		}
	})
}

// afterReady runs once a loaded pack is on screen: the work kept out of the
// page's start-up may begin. The worker warms up its kernels; the service
// worker fills its cache for offline use (web/boot.js) once the whole pack
// is in (onEvent, on Samples).
func (o *owner) afterReady() {
	if o.w != nil && o.st.Warming() {
		o.send(protocol.Warm{})
	}
	o.sendPace()
	o.sendWorkers()
	o.askCurvature()
}

// askCurvature asks the worker for λ_max of the Hessian at the current
// model and the Train panel's λ, pinning and images, for #alpha-max: at
// rest and with the data in only (the worker measures it with full
// passes over them), and once per model and settings.
func (o *owner) askCurvature() {
	st := o.st
	set := st.Controls.Settings
	if st.Status == store.StatusTraining || o.w == nil || st.TrainN == 0 || !set.OK() || !st.AskCurvature(set.Config) {
		return
	}
	o.send(protocol.Curvature{Config: set.Config})
}

// sendWorkers tells the worker how many workers should compute full
// passes: the link's number, or one fewer than the browser says it has
// cores, at least 1 and at most protocol.MaxWorkers. The core left over is
// the page's and the browser's: while a full-batch run goes at full pace
// the page's main thread takes up to a third of a core, and on a 2-core
// machine two workers beside it are no faster than one, though each
// worker's kernel alone scales to both cores
// (docs/decisions/0001-one-worker-fewer-than-cores.md).
func (o *owner) sendWorkers() {
	n := o.st.Controls.Workers
	if n == 0 {
		n = max(1, min(browser.Cores()-1, protocol.MaxWorkers))
	}
	o.send(protocol.Workers{N: n})
}

// load asks the worker for the named pack.
func (o *owner) load(ctx app.Context, name string) {
	i := slices.IndexFunc(o.st.Packs, func(pk dataset.PackInfo) bool { return pk.Name == name })
	if i < 0 || o.w == nil {
		return
	}
	pk := o.st.Packs[i]
	o.st.LoadingPack(name, pk.Bytes)
	url := ctx.ResolveStaticResource("/web/data/" + pk.File)
	if r := o.st.Worker.Retries; r > 0 {
		// A distinct URL goes past the service worker's cache, which may
		// hold the very copy that failed its checksum.
		url += "?retry=" + strconv.Itoa(r)
	}
	o.send(protocol.Load{Name: pk.Name, URL: url, SHA256: pk.SHA256, Bytes: pk.Bytes, TrainBytes: pk.TrainBytes, TrainSHA256: pk.TrainSHA256})
}

// send sends m to the worker, if there is one; a command the page could
// not send is an error it shows.
func (o *owner) send(m protocol.Msg) {
	if o.w == nil {
		return
	}
	if err := o.w.Send(m); err != nil {
		o.st.Failed(i18n.Text("err.send", err.Error()))
	}
}

// sendPace tells the worker the pace the Train panel shows.
func (o *owner) sendPace() {
	if rate, ok := params.PaceRate(o.st.Controls.Settings.Fields.Pace); ok {
		o.send(protocol.Pace{StepsPerSecond: rate})
	}
}
