package ui

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// page is the whole demo. It owns the store and the worker; its children
// get read-only views of the store and post actions, which page handles
// here on the UI goroutine.
type page struct {
	app.Compo

	st       *store
	worker   *workerClient
	manifest dataset.Manifest
	retries  int // Retry presses: each fetches past any cached copy

	pending   bool      // a render is scheduled
	lastFrame time.Time // when the page last rendered for worker events
	lastEval  time.Time // when the confusion matrix and gallery last changed
}

// Worker events arrive up to a hundred times a second (an epoch on the
// default pack takes 20 ms). The page renders them at most every
// frameEvery, and the confusion matrix and gallery at most every evalEvery,
// so that no task on the main thread grows long; a change of state (done,
// paused, an error) renders at once.
const (
	frameEvery = 100 * time.Millisecond
	evalEvery  = 500 * time.Millisecond
)

func newPage() *page { return &page{st: newStore()} }

func (p *page) OnMount(ctx app.Context) {
	ctx.Handle(actionTrain, p.onTrain)
	ctx.Handle(actionStep, p.onStep)
	ctx.Handle(actionReset, p.onReset)
	ctx.Handle(actionPause, p.onPause)
	ctx.Handle(actionDataset, p.onDataset)
	ctx.Handle(actionRetry, p.onRetry)
	ctx.Handle(actionRestart, p.onRestart)
	ctx.Handle(actionDismiss, func(ctx app.Context, a app.Action) { p.st.Err = nil })
	if app.IsClient {
		// For tools/browsertest's BenchmarkPageReady: when the page started.
		app.Window().Get("performance").Call("mark", "softmax:mounted")
		p.loadManifest(ctx)
	}
}

func (p *page) OnDismount() {
	if p.worker != nil {
		p.worker.terminate()
	}
}

// loadManifest reads the list of packs (web/boot.js has usually fetched it
// already), starts the worker and loads the default pack; it also checks,
// in the background, whether the full pack was built (make data-full) and
// offers it if so.
func (p *page) loadManifest(ctx app.Context) {
	if b := bootManifest(); b != nil {
		p.onManifest(ctx, b, nil)
		return
	}
	url := ctx.ResolveStaticResource("/web/data/manifest.json")
	ctx.Async(func() {
		b, err := fetchBytes(url, "GET")
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
	if err != nil {
		p.st.apply(protocol.Failed{
			Message: "could not read the list of datasets: " + err.Error(),
			Hint:    "check the connection (or that the site was built with make run) and press Retry",
		})
		return
	}
	p.manifest = man
	def, _ := man.Find("default")
	p.st.Packs = []dataset.PackInfo{def}
	if p.st.Dataset == "" {
		p.st.Dataset = def.Name
	}
	p.ensureWorker(ctx)
	if p.worker.preloaded == p.st.Dataset {
		p.worker.preloaded = "" // web/boot.js asked already
	} else {
		p.load(ctx, p.st.Dataset)
	}
	for _, pk := range man.Packs {
		if pk.Name != def.Name {
			p.probe(ctx, pk)
		}
	}
}

// probe offers pk if its file is on the server.
func (p *page) probe(ctx app.Context, pk dataset.PackInfo) {
	url := ctx.ResolveStaticResource("/web/data/" + pk.File)
	ctx.Async(func() {
		if _, err := fetchBytes(url, "HEAD"); err != nil {
			return
		}
		ctx.Dispatch(func(ctx app.Context) { p.st.Packs = append(p.st.Packs, pk) })
	})
}

func (p *page) ensureWorker(ctx app.Context) {
	if p.worker != nil {
		return
	}
	p.worker = startWorker(ctx.ResolveStaticResource("/web/worker.js"),
		func(m protocol.Msg) { ctx.Dispatch(func(ctx app.Context) { p.onEvent(ctx, m) }) },
		func(detail string) { ctx.Dispatch(func(app.Context) { p.st.crashed(detail) }) },
	)
}

// onEvent applies a worker event and decides when to render it.
func (p *page) onEvent(ctx app.Context, m protocol.Msg) {
	status, err := p.st.Status, p.st.Err
	p.st.apply(m)
	if _, ok := m.(protocol.Loaded); ok {
		ctx.Defer(func(app.Context) { p.afterReady() })
	}
	now := time.Now()
	if p.st.Status != status || p.st.Err != err || p.st.Status != stateTraining {
		p.st.showEval()
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
		if now.Sub(p.lastEval) >= evalEvery && p.st.showEval() {
			p.lastEval = now
		}
	})
}

// afterReady runs once a loaded pack is on screen: the work kept out of the
// page's start-up may begin. The worker warms up its kernels, and the
// service worker fills its cache for offline use (web/boot.js).
func (p *page) afterReady() {
	if p.worker != nil && !p.worker.warmed {
		p.worker.warmed = true
		p.send(protocol.Warm{})
	}
	if f := app.Window().Get("softmaxPageReady"); f.Type() == app.TypeFunction {
		f.Invoke()
	}
}

// load asks the worker for the named pack.
func (p *page) load(ctx app.Context, name string) {
	pk, ok := p.manifest.Find(name)
	if !ok || p.worker == nil {
		return
	}
	p.st.Status = stateLoading
	p.st.Dataset = name
	p.st.Loading = protocol.Loading{Name: name, Total: pk.Bytes}
	url := ctx.ResolveStaticResource("/web/data/" + pk.File)
	if p.retries > 0 {
		// A distinct URL goes past the service worker's cache, which may
		// hold the very copy that failed its checksum.
		url += "?retry=" + strconv.Itoa(p.retries)
	}
	p.send(protocol.Load{Name: pk.Name, URL: url, SHA256: pk.SHA256, Bytes: pk.Bytes})
}

func (p *page) send(m protocol.Msg) {
	if p.worker == nil {
		return
	}
	if err := p.worker.send(m); err != nil {
		p.st.Err = &pageError{Message: err.Error()}
	}
}

func (p *page) onTrain(ctx app.Context, a app.Action) {
	if c, ok := a.Value.(protocol.Config); ok {
		p.st.Err = nil
		p.send(protocol.Train{Config: c})
	}
}

func (p *page) onStep(ctx app.Context, a app.Action) {
	if c, ok := a.Value.(protocol.Config); ok {
		p.st.Err = nil
		p.send(protocol.Step{Config: c})
	}
}

func (p *page) onReset(ctx app.Context, a app.Action) {
	if c, ok := a.Value.(protocol.Config); ok {
		p.st.Err = nil
		p.send(protocol.Reset{Config: c})
	}
}

func (p *page) onPause(ctx app.Context, a app.Action) { p.send(protocol.Pause{}) }

func (p *page) onDataset(ctx app.Context, a app.Action) {
	if name, ok := a.Value.(string); ok && name != p.st.Dataset {
		p.send(protocol.Pause{})
		p.load(ctx, name)
	}
}

func (p *page) onRetry(ctx app.Context, a app.Action) {
	p.st.Err = nil
	p.retries++
	if len(p.manifest.Packs) == 0 {
		p.st.Status = stateLoading
		p.loadManifest(ctx)
		return
	}
	p.load(ctx, p.st.Dataset)
}

func (p *page) onRestart(ctx app.Context, a app.Action) {
	if p.worker != nil {
		p.worker.terminate()
		p.worker = nil
	}
	p.st.restarting()
	if len(p.manifest.Packs) == 0 {
		p.loadManifest(ctx)
		return
	}
	p.ensureWorker(ctx)
	p.load(ctx, p.st.Dataset)
}

func (p *page) Render() app.UI {
	s := p.st
	fraction := 0.0
	if pr := s.Progress; pr.Epochs > 0 && pr.PerEpoch > 0 {
		fraction = float64(pr.Seen) / float64(pr.Epochs*pr.PerEpoch)
	}
	return app.Div().Class("page").Body(
		app.Header().Class("top").Body(
			app.H1().Text("Softmax regression, live"),
			app.P().Class("lede").Text("A linear classifier learns to read handwritten digits: h(x) = softmax(θx + b), trained by minibatch gradient descent on real MNIST images, in your browser."),
			newStatusBar().withState(s.Status, s.statusText(), s.Progress.Epoch, s.Progress.Epochs, fraction, s.Progress.PerSecond, s.testAccuracy()).Run(s.Progress.Run, s.Progress.Step),
			newErrorBanner().Err(s.Err),
		),
		app.Main().Class("grid").Body(
			newTrainPanel().Status(s.Status).TrainN(s.TrainN).Packs(s.Packs).Dataset(s.Dataset),
			&lossPlot{ILosses: s.Losses, IAcc: s.Acc, IVersion: s.ChartVersion},
			&digitCanvas{IModel: s.Model, IVersion: s.WeightsVersion},
			&weightGrid{IModel: s.Model, IVersion: s.WeightsVersion},
			newConfusionTable().Eval(s.ShownEval),
			&gallery{ISamples: s.Samples, IModel: s.ShownModel},
		),
		app.Footer().Class("foot").Body(
			app.P().Text("Written in Go, compiled to WebAssembly; training runs in a Web Worker. Works offline after the first visit."),
			app.P().ID("kernel").Attr("data-kernel", s.Kernel).Text(kernelText(s.Kernel)),
		),
	)
}

// kernelText says which kernels the worker trains with.
func kernelText(k string) string {
	switch k {
	case "wasm-simd":
		return "Training kernels: WebAssembly SIMD."
	case "go":
		return "Training kernels: Go (the WebAssembly SIMD ones are not in use here)."
	}
	return ""
}
