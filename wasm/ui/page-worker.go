package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"softmaxdemo/core/dataset"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/params"
	"softmaxdemo/wasm/ui/store"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The page's side of the training worker: the manifest and the packs,
// the worker's events and when they render, and the commands the Train
// panel and the error banner post.

// loadManifest reads the list of packs (web/boot.js has usually fetched it
// already), starts the worker and loads the default pack. The page offers
// exactly the manifest's packs: the manifest lists only those on the
// server (tools/mnistpack writes it so, and make dist prunes it), so the
// page never asks for a file to learn whether it is there.
func (p *page) loadManifest(ctx app.Context) {
	b := p.booted
	p.booted = nil // a Retry fetches
	if b == nil {
		b = browser.BootManifest()
	}
	if b != nil {
		p.onManifest(ctx, b, nil)
		return
	}
	url := ctx.ResolveStaticResource("/web/data/manifest.json")
	ctx.Async(func() {
		b, err := browser.Fetch(url)
		ctx.Dispatch(func(ctx app.Context) { p.onManifest(ctx, b, err) })
	})
}

// onManifest starts the worker on the manifest b, or shows err.
func (p *page) onManifest(ctx app.Context, b []byte, err error) {
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
		p.st.Apply(protocol.Failed{
			Message: "the list of datasets did not arrive within " + secs + " s",
			Hint:    "hint.fetch",
			Key:     "err.manifestStall",
			Args:    []string{secs},
		})
		return
	}
	if err != nil {
		p.st.Apply(protocol.Failed{
			Message: "could not read the list of datasets: " + err.Error(),
			Hint:    "hint.manifest",
			Key:     "err.manifest",
			Args:    []string{err.Error()},
		})
		return
	}
	p.manifest = man
	def, _ := man.Find("default")
	p.st.Packs = man.Packs
	if p.st.Dataset == "" {
		p.st.Dataset = def.Name
	}
	p.ensureWorker(ctx)
	if p.worker.Preloaded == p.st.Dataset {
		p.worker.Preloaded = "" // web/boot.js asked already
	} else {
		p.load(ctx, p.st.Dataset)
	}
	want := p.wantData
	p.wantData = ""
	switch _, ok := man.Find(want); {
	case want == "" || want == p.st.Dataset:
	case !ok:
		p.st.Notice = append(p.st.Notice, i18n.Text("link.bad", "data", params.Quote(want), i18n.Text("link.noSuchData")))
	default:
		// The link asked for another pack: the worker loads it after the
		// default one (it handles one load at a time).
		p.send(protocol.Pause{})
		p.load(ctx, want)
	}
}

func (p *page) ensureWorker(ctx app.Context) {
	if p.worker != nil {
		return
	}
	var w *browser.Worker
	w = browser.StartWorker(ctx.ResolveStaticResource("/web/worker.js"),
		func(m protocol.Msg) {
			if _, ok := m.(protocol.Heartbeat); ok {
				return // StartWorker noted it: nothing to show
			}
			ctx.Dispatch(func(ctx app.Context) {
				if p.worker == w { // not a late event of a worker replaced
					p.onEvent(ctx, m)
				}
			})
		},
		func(detail string) {
			ctx.Dispatch(func(ctx app.Context) {
				if p.worker == w {
					p.workerDied(ctx, i18n.Text("raw", detail))
				}
			})
		},
	)
	p.worker = w
	if !p.watching {
		p.watching = true
		p.watchWorker(ctx)
	}
}

// onEvent applies a worker event and decides when to render it.
func (p *page) onEvent(ctx app.Context, m protocol.Msg) {
	if _, ok := m.(protocol.Snapshot); ok {
		p.st.Apply(m)
		p.takeoverEvent(m)
		ctx.PreventUpdate() // kept for a new worker, not shown
		return
	}
	status, err := p.st.Status, p.st.Err
	p.st.Apply(m)
	if pr, ok := m.(protocol.Progress); ok && pr.Heap != 0 {
		// The worker measured its heap as a run came to rest: measure
		// the page's beside it, once per run.
		p.st.PageHeap = protocol.HeapLive()
	}
	p.filesEvent(ctx, m)
	p.takeoverEvent(m)
	p.askCurvature() // at rest, once per model and settings
	switch m.(type) {
	case protocol.Loaded:
		ctx.Defer(func(ctx app.Context) {
			// What the page's start allocated, once ready is on screen: in
			// a task of its own, even if a run was started at once.
			afterNextPaint(ctx, func() { collectAtRest() })
			p.afterReady()
			if !p.warmed {
				p.warmed = true
				p.warmPage(ctx)
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
	if held, run, step := p.st.AwaitingEval(); held && p.asked != [2]int{run, step} {
		// The worker sends the final Evaluated right after the Progress
		// that says done; should it not come, ask for it.
		p.asked = [2]int{run, step}
		ctx.After(evalWait, func(app.Context) {
			if held, r, s := p.st.AwaitingEval(); held && r == run && s == step {
				p.send(protocol.Evaluate{})
			}
		})
	}
	if p.st.Status != store.StatusTraining && p.st.Status != store.StatusLoading {
		p.collectSoon(ctx)
	}
	now := time.Now()
	if p.st.Status != status || p.st.Err != err || p.st.Status != store.StatusTraining {
		p.st.ShowEval()
		p.lastFrame, p.lastEval = now, now
		return // render now
	}
	ctx.PreventUpdate()
	if p.pending {
		return
	}
	p.pending = true
	ctx.After(max(0, frameEvery-now.Sub(p.lastFrame)), func(app.Context) {
		now := time.Now()
		p.pending, p.lastFrame = false, now
		if now.Sub(p.lastEval) >= evalEvery && p.st.ShowEval() {
			p.lastEval = now
		}
	})
}

// afterReady runs once a loaded pack is on screen: the work kept out of the
// page's start-up may begin. The worker warms up its kernels; the service
// worker fills its cache for offline use (web/boot.js) once the whole pack
// is in (onEvent, on Samples).
func (p *page) afterReady() {
	if p.worker != nil && !p.worker.Warmed {
		p.worker.Warmed = true
		p.send(protocol.Warm{})
	}
	p.sendPace()
	p.sendWorkers()
	p.askCurvature()
}

// askCurvature asks the worker for λ_max of the Hessian at the current
// model and the Train panel's λ, pinning and images, for #alpha-max: at
// rest only (the worker measures it with full passes over the data), and
// once per model and settings.
func (p *page) askCurvature() {
	if p.st.Status == store.StatusTraining || p.worker == nil {
		return
	}
	c, e := params.Parse(p.link.Fields, max(p.st.TrainN, 1))
	if !e.OK() {
		return
	}
	key := fmt.Sprintf("%d/%d/%v/%v/%v", p.st.Run, p.st.Progress.Step, c.L2, c.PinFirst, c.Deskew)
	if key == p.curvatureAsked {
		return
	}
	p.curvatureAsked = key
	p.send(protocol.Curvature{Config: c})
}

// sendWorkers tells the worker how many workers should compute full
// passes: the link's number, or one fewer than the browser says it has
// cores, at least 1 and at most protocol.MaxWorkers. The core left over is
// the page's and the browser's: while a full-batch run goes at full pace
// the page's main thread takes up to a third of a core, and on a 2-core
// machine two workers beside it were no faster than one, though each
// worker's kernel alone scales to both cores (docs/BENCHMARKS.md, "Every
// core").
func (p *page) sendWorkers() {
	n := p.link.Workers
	if n == 0 {
		n = max(1, min(browser.Cores()-1, protocol.MaxWorkers))
	}
	p.send(protocol.Workers{N: n})
}

// load asks the worker for the named pack.
func (p *page) load(ctx app.Context, name string) {
	pk, ok := p.manifest.Find(name)
	if !ok || p.worker == nil {
		return
	}
	p.st.Status = store.StatusLoading
	p.st.Dataset = name
	p.st.Loading = protocol.Loading{Name: name, Total: pk.Bytes}
	url := ctx.ResolveStaticResource("/web/data/" + pk.File)
	if p.retries > 0 {
		// A distinct URL goes past the service worker's cache, which may
		// hold the very copy that failed its checksum.
		url += "?retry=" + strconv.Itoa(p.retries)
	}
	p.send(protocol.Load{Name: pk.Name, URL: url, SHA256: pk.SHA256, Bytes: pk.Bytes, TrainBytes: pk.TrainBytes, TrainSHA256: pk.TrainSHA256})
}

func (p *page) send(m protocol.Msg) {
	if p.worker == nil {
		return
	}
	if err := p.worker.Send(m); err != nil {
		p.st.Err = &store.Error{Message: i18n.Text("err.send", err.Error())}
	}
}

// pendingRun takes a run's settings from an action that starts or resets one,
// adds my digits' share, and makes them the pending run's; ok is false for
// an action that carries no settings.
func (p *page) pendingRun(a app.Action) (c protocol.Config, ok bool) {
	if c, ok = a.Value.(protocol.Config); ok {
		c.MyDigitsRate = p.myDigitsShare()
		p.st.Err = nil
		p.st.Pending = c
	}
	return c, ok
}

func (p *page) onTrain(ctx app.Context, a app.Action) {
	if c, ok := p.pendingRun(a); ok {
		p.send(protocol.Train{Config: c})
	}
}

func (p *page) onStep(ctx app.Context, a app.Action) {
	if c, ok := p.pendingRun(a); ok {
		p.send(protocol.Step{Config: c})
	}
}

func (p *page) onReset(ctx app.Context, a app.Action) {
	if c, ok := p.pendingRun(a); ok {
		// Reset clears the current run only: the runs before it stay on
		// the chart for comparison.
		p.st.DropCurrent()
		p.send(protocol.Reset{Config: c})
	}
}

func (p *page) onPause(ctx app.Context, a app.Action) { p.send(protocol.Pause{}) }

func (p *page) onDataset(ctx app.Context, a app.Action) {
	if name, ok := a.Value.(string); ok && name != p.st.Dataset {
		p.send(protocol.Pause{})
		p.load(ctx, name)
		p.link.Dataset = name
		p.writeLink()
	}
}

func (p *page) onRetry(ctx app.Context, a app.Action) {
	p.st.Err = nil
	p.retries++
	if len(p.manifest.Packs) == 0 {
		p.st.Status = store.StatusLoading
		p.loadManifest(ctx)
		return
	}
	p.load(ctx, p.st.Dataset)
}

func (p *page) onRestart(ctx app.Context, a app.Action) {
	if p.worker != nil {
		p.worker.Terminate()
		p.worker = nil
	}
	p.st.Restarting()
	p.takeover, p.takeovers = nil, 0
	if len(p.manifest.Packs) == 0 {
		p.loadManifest(ctx)
		return
	}
	p.ensureWorker(ctx)
	p.load(ctx, p.st.Dataset)
}

// sendPace tells the worker the pace the panel shows.
func (p *page) sendPace() {
	if rate, ok := params.PaceRate(p.link.Fields.Pace); ok {
		p.send(protocol.Pace{StepsPerSecond: rate})
	}
}
