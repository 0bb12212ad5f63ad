package ui

import (
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/link"
	"softmaxdemo/wasm/ui/store"

	"softmaxdemo/wasm/ui/params"

	"softmaxdemo/wasm/ui/i18n"

	"encoding/json"
	"fmt"
	"math"
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

	st       *store.State
	worker   *browser.Worker
	manifest dataset.Manifest
	booted   []byte // the manifest web/boot.js fetched, until loadManifest takes it
	retries  int    // Retry presses: each fetches past any cached copy

	link     link.Settings // what the page's link says: updated as settings change
	wantData string        // a pack the link asked for, loaded once it is found
	copied   string        // the link as last copied, shown beside the button

	pending    bool      // a render is scheduled
	lastFrame  time.Time // when the page last rendered for worker events
	lastEval   time.Time // when the confusion matrix and gallery last changed
	asked      [2]int    // the run and step whose evaluation the page asked for
	present    bool      // larger type for the back of a classroom
	warmed     bool      // the page ran its warm-up (warm.go)
	cellsReady bool      // the confusion matrix may make its 100 cells (warm.go)

	files fileState // the model and my digits as files, and kept (files.go)
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

func newPage() *page {
	return &page{st: store.New(), link: link.Default()}
}

// OnInit reads the page's link and chooses its language before the first
// render in the browser, so the first frame the person sees already has
// the link's settings and their language. Natively (writing index.html)
// the page keeps its defaults.
func (p *page) OnInit() {
	if !app.IsClient {
		return
	}
	packs := map[string]int{}
	p.booted = browser.BootManifest()
	if b := p.booted; b != nil {
		var man dataset.Manifest
		if json.Unmarshal(b, &man) == nil {
			for _, pk := range man.Packs {
				packs[pk.Name] = pk.Train
			}
		}
	}
	if len(packs) == 0 {
		packs["default"] = 0
		packs["full"] = 0
	}
	hash := app.Window().Get("location").Get("hash").String()
	set, notes := link.Parse(hash, packs)
	if kept, ok := keptSettings(packs); ok && hash == "" {
		set = kept // the settings kept with the model, for a page opened without a link
		hash = "#" + link.Encode(kept)
	}
	p.initFiles()
	p.st.Notice = notes
	p.st.Lang = i18n.Pick(string(set.Lang), browser.StorageGet(browser.LangStorageKey), browser.Languages())
	set.Lang = p.st.Lang
	p.link = set
	if set.Dataset != "default" {
		p.wantData = set.Dataset
	}
	p.showLang()
	if hash != "" {
		p.writeLink()
	}
}

func (p *page) OnMount(ctx app.Context) {
	ctx.Defer(func(app.Context) {
		// The page now shows the person's language: web/boot.js hid the
		// prerendered text if it was in the other one.
		app.Window().Get("document").Get("documentElement").Call("removeAttribute", "data-lang-pending")
	})
	ctx.Handle(store.ActionTrain, p.onTrain)
	ctx.Handle(store.ActionStep, p.onStep)
	ctx.Handle(store.ActionReset, p.onReset)
	ctx.Handle(store.ActionPause, p.onPause)
	ctx.Handle(store.ActionDataset, p.onDataset)
	ctx.Handle(store.ActionRetry, p.onRetry)
	ctx.Handle(store.ActionRestart, p.onRestart)
	ctx.Handle(store.ActionDismiss, func(ctx app.Context, a app.Action) { p.st.Err = nil })
	ctx.Handle(store.ActionSettings, p.onSettings)
	ctx.Handle(store.ActionLang, p.onLang)
	ctx.Handle(store.ActionCopyLink, p.onCopyLink)
	p.handleFiles(ctx)
	ctx.Handle(store.ActionNoticeOK, func(ctx app.Context, a app.Action) { p.st.Notice = nil })
	ctx.Handle(store.ActionPace, func(ctx app.Context, a app.Action) {
		if v, ok := a.Value.(string); ok {
			p.link.Fields.Pace = v
			p.sendPace()
		}
	})
	ctx.Handle(store.ActionHessian, func(ctx app.Context, a app.Action) {
		l2, _ := strconv.ParseFloat(p.link.Fields.L2, 64)
		if l2 <= 0 {
			l2 = 1e-4 // the notes' cure needs some λ to show
		}
		p.st.HessianBusy = true
		p.send(protocol.Hessian{L2: l2, Deskew: p.link.Fields.Deskew})
	})
	ctx.Handle(store.ActionAxes, func(ctx app.Context, a app.Action) {
		if ax, ok := a.Value.(chart.Axes); ok {
			p.st.Axes = ax
			p.st.ChartVersion++
		}
	})
	ctx.Handle(store.ActionToggleRun, func(ctx app.Context, a app.Action) {
		if id, ok := a.Value.(int); ok {
			p.st.ToggleRun(id)
		}
	})
	ctx.Handle(store.ActionRemoveRun, func(ctx app.Context, a app.Action) {
		if id, ok := a.Value.(int); ok {
			p.st.RemoveRun(id)
		}
	})
	p.handleInspector(ctx)
	if app.IsClient {
		// For tools/browsertest's BenchmarkPageReady: when the page started.
		app.Window().Get("performance").Call("mark", "softmax:mounted")
		p.loadManifest(ctx)
	}
}

func (p *page) OnDismount() {
	if p.worker != nil {
		p.worker.Terminate()
	}
}

// loadManifest reads the list of packs (web/boot.js has usually fetched it
// already), starts the worker and loads the default pack; it also checks,
// in the background, whether the full pack was built (make data-full) and
// offers it if so.
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
		b, err := browser.Fetch(url, "GET")
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
	p.st.Packs = []dataset.PackInfo{def}
	if p.st.Dataset == "" {
		p.st.Dataset = def.Name
	}
	p.ensureWorker(ctx)
	if p.worker.Preloaded == p.st.Dataset {
		p.worker.Preloaded = "" // web/boot.js asked already
	} else {
		p.load(ctx, p.st.Dataset)
	}
	for _, pk := range man.Packs {
		if pk.Name != def.Name {
			p.probe(ctx, pk)
		}
	}
	if _, ok := man.Find(p.wantData); !ok && p.wantData != "" {
		p.st.Notice = append(p.st.Notice, i18n.Text("link.bad", "data", params.Quote(p.wantData), i18n.Text("link.noSuchData")))
		p.wantData = ""
	}
}

// probe offers pk if its file is on the server.
func (p *page) probe(ctx app.Context, pk dataset.PackInfo) {
	url := ctx.ResolveStaticResource("/web/data/" + pk.File)
	ctx.Async(func() {
		if _, err := browser.Fetch(url, "HEAD"); err != nil {
			return
		}
		ctx.Dispatch(func(ctx app.Context) {
			p.st.Packs = append(p.st.Packs, pk)
			if p.wantData == pk.Name {
				// The link asked for this pack: load it once the default
				// one is in (the worker handles one load at a time).
				p.wantData = ""
				p.send(protocol.Pause{})
				p.load(ctx, pk.Name)
			}
		})
	})
}

func (p *page) ensureWorker(ctx app.Context) {
	if p.worker != nil {
		return
	}
	p.worker = browser.StartWorker(ctx.ResolveStaticResource("/web/worker.js"),
		func(m protocol.Msg) { ctx.Dispatch(func(ctx app.Context) { p.onEvent(ctx, m) }) },
		func(detail string) { ctx.Dispatch(func(app.Context) { p.st.Crashed(detail) }) },
	)
}

// onEvent applies a worker event and decides when to render it.
func (p *page) onEvent(ctx app.Context, m protocol.Msg) {
	status, err := p.st.Status, p.st.Err
	p.st.Apply(m)
	p.filesEvent(ctx, m)
	switch m.(type) {
	case protocol.Loaded:
		ctx.Defer(func(ctx app.Context) {
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

func (p *page) onTrain(ctx app.Context, a app.Action) {
	if c, ok := a.Value.(protocol.Config); ok {
		c.ExtraRate = p.extraRate()
		p.st.Err = nil
		p.st.Pending = c
		p.send(protocol.Train{Config: c})
	}
}

func (p *page) onStep(ctx app.Context, a app.Action) {
	if c, ok := a.Value.(protocol.Config); ok {
		c.ExtraRate = p.extraRate()
		p.st.Err = nil
		p.st.Pending = c
		p.send(protocol.Step{Config: c})
	}
}

func (p *page) onReset(ctx app.Context, a app.Action) {
	if c, ok := a.Value.(protocol.Config); ok {
		c.ExtraRate = p.extraRate()
		p.st.Err = nil
		p.st.Pending = c
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
	if len(p.manifest.Packs) == 0 {
		p.loadManifest(ctx)
		return
	}
	p.ensureWorker(ctx)
	p.load(ctx, p.st.Dataset)
}

func (p *page) Render() app.UI {
	s, l := p.st, p.st.Lang
	fraction := 0.0
	if pr := s.Progress; pr.Epochs > 0 && pr.PerEpoch > 0 {
		fraction = float64(pr.Seen) / float64(pr.Epochs*pr.PerEpoch)
	}
	return app.Div().Class("page").Class(map[bool]string{true: "present"}[p.present]).Attr("lang", htmlLang(l)).Body(
		app.Header().Class("top").Body(
			app.Div().Class("title-row").Body(
				app.H1().Text(l.T("app.name")),
				app.Div().Class("header-tools").Body(
					app.Label().For("lang").Class("sr-only").Text(l.T("lang.label")),
					app.Select().ID("lang").OnChange(p.onLangChange).Body(
						app.Range(i18n.Langs).Slice(func(i int) app.UI {
							return app.Option().Value(string(i18n.Langs[i])).Attr("lang", htmlLang(i18n.Langs[i])).
								Text(l.T("lang." + string(i18n.Langs[i]))).Selected(i18n.Langs[i] == l)
						}),
					),
					app.Button().ID("present").Aria("pressed", strconv.FormatBool(p.present)).Title(l.T("button.presentWhy")).Text(l.T("button.present")).
						OnClick(func(ctx app.Context, e app.Event) { p.present = !p.present }),
					app.Button().ID("copy-link").Text(l.T("button.copyLink")).Title(l.T("button.copyLinkWhy")).
						OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(store.ActionCopyLink) }),
				),
			),
			app.P().Class("lede").Text(l.T("app.lede")),
			app.If(p.copied != "", func() app.UI {
				return app.P().Class("copied").Body(
					app.Span().ID("copy-link-status").Text(l.T("link.copied")),
					app.Input().ID("link").Type("text").ReadOnly(true).Value(p.copied).Aria("label", l.T("link.label")),
				)
			}),
			newStatusBar().withState(l, s.Status, s.StatusText(), s.Progress.Epoch, s.Progress.Epochs, fraction, s.Progress.PerSecond, s.TestAccuracy()).Run(s.Progress.Run, s.Progress.Step).Likelihood(s.Likelihood()),
			&newtonProgress{ILang: l, IProgress: s.Progress},
			newErrorBanner().Err(l, s.Err),
			p.notices(),
		),
		app.Main().Class("grid").Body(
			newTrainPanel().Lang(l).Init(p.link.Fields).Status(s.Status).TrainN(s.TrainN).Packs(s.Packs).Dataset(s.Dataset),
			&lossPlot{ILang: l, ILosses: s.Losses, IAcc: s.Acc, IRuns: s.ChartRuns(), IRecords: s.Runs, ICurrent: s.Run,
				IAxes: p.axes(), IVersion: s.ChartVersion},
			&digitCanvas{ILang: l, IModel: s.Model, IDeskew: s.ModelDeskew(), IVersion: s.WeightsVersion},
			&weightGrid{ILang: l, IModel: s.Model, IVersion: s.WeightsVersion},
			&confusionTable{ILang: l, IEval: s.ShownEval, IExamples: s.CellExamples, ICells: p.cellsReady},
			&gallery{ILang: l, ISamples: s.Samples, IModel: s.ShownModel, IDeskew: s.ModelDeskew()},
			p.inspector(),
			p.filesUI(),
			&hessianView{ILang: l, IView: s.Hessian, IBusy: s.HessianBusy || s.Status == store.StatusTraining || s.TrainN == 0},
		),
		app.Footer().Class("foot").Body(
			app.P().Text(l.T("app.foot")),
			app.P().ID("kernel").Attr("data-kernel", s.Kernel).Text(kernelText(l, s.Kernel)),
		),
	)
}

// notices shows what a link asked for that the page could not do, and
// what it did instead. #notice is always in the page, empty when there is
// nothing to say.
func (p *page) notices() app.UI {
	l := p.st.Lang
	if len(p.st.Notice) == 0 {
		return app.Div().ID("notice").Class("notice empty").Attr("role", "status")
	}
	return app.Div().ID("notice").Class("notice").Attr("role", "status").Body(
		app.P().Text(l.T("link.noticeTitle")),
		app.Ul().Body(app.Range(p.st.Notice).Slice(func(i int) app.UI {
			return app.Li().Text(l.M(p.st.Notice[i]))
		})),
		app.Button().ID("notice-ok").Text(l.T("button.ok")).OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(store.ActionNoticeOK) }),
	)
}

// kernelText says which kernels the worker trains with.
func kernelText(l i18n.Lang, k string) string {
	switch k {
	case "wasm-simd":
		return l.T("kernel.simd")
	case "go":
		return l.T("kernel.go")
	}
	return ""
}

// onSettings follows the Train panel's accepted fields in the link.
func (p *page) onSettings(ctx app.Context, a app.Action) {
	if f, ok := a.Value.(params.Fields); ok {
		p.link.Fields = f
		p.writeLink()
	}
}

func (p *page) onLangChange(ctx app.Context, e app.Event) {
	if l, ok := i18n.Parse(ctx.JSSrc().Get("value").String()); ok {
		ctx.NewActionWithValue(store.ActionLang, l)
	}
}

// onLang switches the page's language at once: the run, the model and
// every setting stay as they are; only text changes. The choice is kept
// in the browser's storage and in the link.
func (p *page) onLang(ctx app.Context, a app.Action) {
	l, ok := a.Value.(i18n.Lang)
	if !ok || l == p.st.Lang {
		return
	}
	p.st.Lang = l
	p.st.ChartVersion++ // the chart's canvas text is drawn, not rendered
	browser.StorageSet(browser.LangStorageKey, string(l))
	p.link.Lang = l
	p.writeLink()
	p.showLang()
}

// onCopyLink copies the page's link to the clipboard and shows it, so it
// can also be copied by hand where the clipboard is not available.
func (p *page) onCopyLink(ctx app.Context, a app.Action) {
	p.writeLink()
	href := app.Window().Get("location").Get("href").String()
	p.copied = href
	browser.CopyText(href)
}

// writeLink puts the settings into the page's link without adding a
// history entry.
func (p *page) writeLink() {
	p.link.Dataset = p.st.Dataset
	if p.link.Dataset == "" {
		p.link.Dataset = "default"
	}
	if p.wantData != "" {
		p.link.Dataset = p.wantData
	}
	p.link.Lang = p.st.Lang
	browser.ReplaceFragment(link.Encode(p.link))
}

// showLang sets the document's language and title, which live outside
// the page's body.
func (p *page) showLang() {
	l := p.st.Lang
	doc := app.Window().Get("document")
	doc.Set("title", l.T("app.title"))
	root := doc.Get("documentElement")
	root.Call("setAttribute", "lang", htmlLang(l))
}

// htmlLang is the BCP 47 tag of l for lang attributes.
func htmlLang(l i18n.Lang) string {
	if l == i18n.ZH {
		return "zh-CN"
	}
	return "en"
}

// axes is what the chart's axes show, with J* filled in for J − J*; before
// any run has a loss, J − J* falls back to a logarithmic loss axis.
func (p *page) axes() chart.Axes {
	a := p.st.Axes
	if a.Y == chart.AxisGap {
		a.Floor = p.st.BestLoss()
		if math.IsNaN(a.Floor) {
			a.Y = chart.AxisLog
		}
	}
	return a
}

// sendPace tells the worker the pace the panel shows.
func (p *page) sendPace() {
	if rate, ok := params.PaceRate(p.link.Fields.Pace); ok {
		p.send(protocol.Pace{StepsPerSecond: rate})
	}
}
