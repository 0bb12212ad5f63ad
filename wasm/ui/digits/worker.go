package digits

import (
	"encoding/json"
	"errors"
	"fmt"
	"softmaxdemo/core/dataset"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/params"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The instrument's side of the training worker: the manifest and the
// packs, the worker's events and when they render.

// loadManifest reads the list of packs (web/boot.js has usually fetched it
// already), starts the worker and loads the default pack. The page offers
// exactly the manifest's packs: the manifest lists only those on the
// server (tools/mnistpack writes it so, and make dist prunes it), so the
// page never asks for a file to learn whether it is there.
func (d *Instrument) loadManifest(ctx app.Context) {
	b := d.booted
	d.booted = nil // a Retry fetches
	if b == nil {
		b = browser.BootManifest()
	}
	if b != nil {
		d.onManifest(ctx, b, nil)
		return
	}
	url := ctx.ResolveStaticResource("/web/data/manifest.json")
	ctx.Async(func() {
		b, err := browser.Fetch(url)
		ctx.Dispatch(func(ctx app.Context) { d.onManifest(ctx, b, err) })
	})
}

// onManifest starts the worker on the manifest b, or shows err.
func (d *Instrument) onManifest(ctx app.Context, b []byte, err error) {
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
		d.st.Apply(protocol.Failed{
			Message: "the list of datasets did not arrive within " + secs + " s",
			Hint:    "hint.fetch",
			Key:     "err.manifestStall",
			Args:    []string{secs},
		})
		return
	}
	if err != nil {
		d.st.Apply(protocol.Failed{
			Message: "could not read the list of datasets: " + err.Error(),
			Hint:    "hint.manifest",
			Key:     "err.manifest",
			Args:    []string{err.Error()},
		})
		return
	}
	d.manifest = man
	def, _ := man.Find("default")
	d.st.Offered(man.Packs, def.Name)
	d.ensureWorker(ctx)
	if d.worker.Preloaded == d.st.Dataset {
		d.worker.Preloaded = "" // web/boot.js asked already
	} else {
		d.load(ctx, d.st.Dataset)
	}
	want := d.wantData
	d.wantData = ""
	switch _, ok := man.Find(want); {
	case want == "" || want == d.st.Dataset:
	case !ok:
		d.page.Notice(i18n.Text("link.bad", "data", params.Quote(want), i18n.Text("link.noSuchData")))
	default:
		// The link asked for another pack: the worker loads it after the
		// default one (it handles one load at a time).
		d.send(protocol.Pause{})
		d.load(ctx, want)
	}
}

func (d *Instrument) ensureWorker(ctx app.Context) {
	if d.worker != nil {
		return
	}
	var w *browser.Worker
	w = browser.StartWorker(ctx.ResolveStaticResource("/web/worker.js"),
		func(m protocol.Msg) {
			if _, ok := m.(protocol.Heartbeat); ok {
				return // StartWorker noted it: nothing to show
			}
			ctx.Dispatch(func(ctx app.Context) {
				if d.worker == w { // not a late event of a worker replaced
					d.onEvent(ctx, m)
				}
			})
		},
		func(detail string) {
			ctx.Dispatch(func(ctx app.Context) {
				if d.worker == w {
					d.workerDied(ctx, i18n.Text("raw", detail))
				}
			})
		},
	)
	d.worker = w
	if !d.watching {
		d.watching = true
		d.watchWorker(ctx)
	}
}

// onEvent applies a worker event and decides when to render it.
func (d *Instrument) onEvent(ctx app.Context, m protocol.Msg) {
	if _, ok := m.(protocol.Snapshot); ok {
		d.st.Apply(m)
		d.takeoverEvent(m)
		ctx.PreventUpdate() // kept for a new worker, not shown
		return
	}
	status, err, run := d.st.Status, d.st.Err, d.st.Run
	d.st.Apply(m)
	d.replayEvent()
	if d.st.Run != run {
		d.chainChanged() // a new run, a branch or not: the link says which
	}
	if pr, ok := m.(protocol.Progress); ok && pr.Heap != 0 {
		// The worker measured its heap as a run came to rest: measure
		// the page's beside it, once per run.
		d.st.PageMeasured(protocol.HeapLive())
	}
	d.filesEvent(ctx, m)
	d.takeoverEvent(m)
	d.askCurvature() // at rest, once per model and settings
	switch m.(type) {
	case protocol.Loaded:
		ctx.Defer(func(ctx app.Context) {
			// What the page's start allocated, once ready is on screen: in
			// a task of its own, even if a run was started at once.
			d.tasks.AfterNextPaint(func() { collectAtRest() })
			d.afterReady()
			d.replayWhenReady()
			if !d.warmed {
				d.warmed = true
				d.warmPage(ctx)
			}
		})
	case protocol.Samples:
		// The test images follow Loaded (Samples comes with them): the
		// whole pack is in, and the service worker may fill its cache
		// without downloading the pack a second time beside it.
		if f := app.Window().Get("softmaxPageReady"); f.Type() == app.TypeFunction {
			f.Invoke()
		}
	}
	if held, run, step := d.st.AwaitingEval(); held && d.asked != [2]int{run, step} {
		// The worker sends the final Evaluated right after the Progress
		// that says done; should it not come, ask for it.
		d.asked = [2]int{run, step}
		ctx.After(evalWait, func(app.Context) {
			if held, r, s := d.st.AwaitingEval(); held && r == run && s == step {
				d.send(protocol.Evaluate{})
			}
		})
	}
	if d.st.Status != store.StatusTraining && d.st.Status != store.StatusLoading {
		d.collectSoon(ctx)
	}
	now := time.Now()
	if d.st.Status != status || d.st.Err != err || d.st.Status != store.StatusTraining {
		d.st.ShowEval()
		d.lastFrame, d.lastEval = now, now
		return // render now
	}
	ctx.PreventUpdate()
	if d.pending {
		return
	}
	d.pending = true
	ctx.After(max(0, frameEvery-now.Sub(d.lastFrame)), func(app.Context) {
		now := time.Now()
		d.pending, d.lastFrame = false, now
		if now.Sub(d.lastEval) >= evalEvery && d.st.ShowEval() {
			d.lastEval = now
		}
	})
}

// afterReady runs once a loaded pack is on screen: the work kept out of the
// page's start-up may begin. The worker warms up its kernels; the service
// worker fills its cache for offline use (web/boot.js) once the whole pack
// is in (onEvent, on Samples).
func (d *Instrument) afterReady() {
	if d.worker != nil && !d.worker.Warmed {
		d.worker.Warmed = true
		d.send(protocol.Warm{})
	}
	d.sendPace()
	d.sendWorkers()
	d.askCurvature()
}

// askCurvature asks the worker for λ_max of the Hessian at the current
// model and the Train panel's λ, pinning and images, for #alpha-max: at
// rest only (the worker measures it with full passes over the data), and
// once per model and settings.
func (d *Instrument) askCurvature() {
	if d.st.Status == store.StatusTraining || d.worker == nil {
		return
	}
	c, e := params.Check(d.fields, max(d.st.TrainN, 1)).Result()
	if !e.OK() {
		return
	}
	key := fmt.Sprintf("%d/%d/%v/%v/%v", d.st.Run, d.st.Progress.Step, c.L2, c.PinFirst, c.Deskew)
	if key == d.curvatureAsked {
		return
	}
	d.curvatureAsked = key
	d.send(protocol.Curvature{Config: c})
}

// sendWorkers tells the worker how many workers should compute full
// passes: the link's number, or one fewer than the browser says it has
// cores, at least 1 and at most protocol.MaxWorkers. The core left over is
// the page's and the browser's: while a full-batch run goes at full pace
// the page's main thread takes up to a third of a core, and on a 2-core
// machine two workers beside it are no faster than one, though each
// worker's kernel alone scales to both cores
// (docs/decisions/0001-one-worker-fewer-than-cores.md).
func (d *Instrument) sendWorkers() {
	n := d.workers
	if n == 0 {
		n = max(1, min(browser.Cores()-1, protocol.MaxWorkers))
	}
	d.send(protocol.Workers{N: n})
}

// load asks the worker for the named pack.
func (d *Instrument) load(ctx app.Context, name string) {
	pk, ok := d.manifest.Find(name)
	if !ok || d.worker == nil {
		return
	}
	d.st.LoadingPack(name, pk.Bytes)
	url := ctx.ResolveStaticResource("/web/data/" + pk.File)
	if d.retries > 0 {
		// A distinct URL goes past the service worker's cache, which may
		// hold the very copy that failed its checksum.
		url += "?retry=" + strconv.Itoa(d.retries)
	}
	d.send(protocol.Load{Name: pk.Name, URL: url, SHA256: pk.SHA256, Bytes: pk.Bytes, TrainBytes: pk.TrainBytes, TrainSHA256: pk.TrainSHA256})
}

func (d *Instrument) send(m protocol.Msg) {
	if d.worker == nil {
		return
	}
	if err := d.worker.Send(m); err != nil {
		d.st.Failed(i18n.Text("err.send", err.Error()))
	}
}

// sendPace tells the worker the pace the panel shows.
func (d *Instrument) sendPace() {
	if rate, ok := params.PaceRate(d.fields.Pace); ok {
		d.send(protocol.Pace{StepsPerSecond: rate})
	}
}
