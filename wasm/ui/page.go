package ui

import (
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/link"
	"softmaxdemo/wasm/ui/store"

	"softmaxdemo/wasm/ui/i18n"

	"encoding/json"
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
	// curvatureAsked is the model and settings #alpha-max was last asked
	// for (askCurvature).
	curvatureAsked string
	copied         string         // the link as last copied, shown beside the button
	written        string         // the fragment the page last wrote (location.hash), which it does not follow
	asking         *link.Settings // a followed link that would replace the run in training, until answered
	linkVersion    int            // grows when a followed link changes the Train panel's fields
	stopHash       func()         // stops following hashchange
	stopHide       func()         // stops keeping the model on pagehide
	noticeKept     bool           // the notice is a followed link\'s: refused values kept the page\'s

	pending bool // a render is scheduled
	// collectPending: collectSoon's task is scheduled, for collectDue.
	collectPending bool
	collectDue     time.Time
	lastFrame      time.Time // when the page last rendered for worker events
	lastEval       time.Time // when the confusion matrix and gallery last changed
	asked          [2]int    // the run and step whose evaluation the page asked for
	present        bool      // larger type for the back of a classroom
	warmed         bool      // the page ran its warm-up (warm.go)
	cellsReady     bool      // the confusion matrix may make its 100 cells (warm.go)

	files fileState // the model and my digits as files, and kept (files.go)

	lesson      lessonState // the lesson's chapters (page-lesson.go)
	pushNext    bool        // writeLink adds a history entry (a change of chapter)
	inspectRate float64     // the inspector's own α

	takeover  *takeover // the run a new worker takes over, until it has loaded (page-takeover.go)
	takeovers int       // workers replaced since the run last went on
	watching  bool      // watchWorker is running
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
	p := &page{st: store.New(), link: link.Default(), inspectRate: defaultInspectRate}
	p.link.Lesson = 1 // what a bare link opens (bareView), and what index.html shows
	return p
}

// defaultInspectRate is the inspector's α: one step on one image shows
// plainly in p without undoing much of what was learnt, as the Train
// panel's 0.5 for minibatches of 100 would.
const defaultInspectRate = 0.01

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
	hash := browser.Fragment()
	p.written = hash
	set, notes := link.Parse(hash, packs)
	p.initFiles()
	bare := hash == ""
	if kept, ok := p.keptSettings(packs); ok && bare {
		set = kept // the settings kept with the model, for a page opened without a link
		hash = "#" + link.Encode(kept)
	}
	if bare {
		set.Lesson = bareView()
	}
	p.st.Notice = notes
	p.st.Lang = i18n.Pick(string(set.Lang), browser.StorageGet(browser.LangStorageKey), browser.Languages())
	set.Lang = p.st.Lang
	p.link = set
	if set.Dataset != "default" {
		p.wantData = set.Dataset
	}
	p.showLang()
	if hash != "" || set.Lesson > 0 {
		// A chapter's link is written at once, so that Back from the
		// next chapter returns to it.
		p.writeLink()
	}
	// web/boot.js left the prerendered page out of the layout if it is in
	// the other language (web/app.css). It may come back now: the page
	// renders in the person's language and replaces it within this same
	// task, before the browser draws a frame.
	app.Window().Get("document").Get("documentElement").Call("removeAttribute", "data-lang-pending")
}

func (p *page) OnMount(ctx app.Context) {
	laterOn(ctx)
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
	ctx.Handle(store.ActionWorkerNoticeOK, func(ctx app.Context, a app.Action) { p.st.WorkerNotice = i18n.Msg{} })
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
	ctx.Handle(actionAnswer, func(ctx app.Context, a app.Action) {
		if v, ok := a.Value.(answer); ok {
			p.onAnswer(ctx, v.Chapter, v.Choice)
		}
	})
	if app.IsClient {
		p.stopHash = browser.OnFragmentChange(func() { ctx.Dispatch(p.followLink) })
		p.stopHide = browser.OnPageHide(func() { p.keepBeforeLeaving(ctx) })
		p.startLesson(ctx)
		// For tools/browsertest's BenchmarkPageReady: when the page started.
		app.Window().Get("performance").Call("mark", "softmax:mounted")
		p.loadManifest(ctx)
	}
}

// OnNav follows a link to the page itself, with a new fragment, that
// go-app navigated to (a click on one, the back button).
func (p *page) OnNav(ctx app.Context) { p.followLink(ctx) }

func (p *page) OnDismount() {
	if p.stopHash != nil {
		p.stopHash()
	}
	if p.stopHide != nil {
		p.stopHide()
	}
	if p.lesson.stopKeys != nil {
		p.lesson.stopKeys()
	}
	if p.worker != nil {
		p.worker.Terminate()
	}
}

func (p *page) Render() app.UI {
	s, l := p.st, p.st.Lang
	fraction := 0.0
	if pr := s.Progress; pr.Epochs > 0 && pr.PerEpoch > 0 {
		fraction = float64(pr.Seen) / float64(pr.Epochs*pr.PerEpoch)
	}
	inLesson := p.link.Lesson > 0
	return app.Div().Class("page").Class(map[bool]string{true: "present"}[p.present]).Class(map[bool]string{true: "lesson-on"}[inLesson]).Attr("lang", htmlLang(l)).Body(
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
					app.Button().ID("lesson-toggle").Aria("pressed", strconv.FormatBool(inLesson)).Title(l.T("lesson.toggleWhy")).Text(l.T("lesson.toggle")).
						OnClick(p.onLessonToggle),
					app.Button().ID("present").Aria("pressed", strconv.FormatBool(p.present)).Title(l.T("button.presentWhy")).Text(l.T("button.present")).
						OnClick(func(ctx app.Context, e app.Event) { p.present = !p.present }),
					app.Button().ID("copy-link").Text(l.T("button.copyLink")).Title(l.T("button.copyLinkWhy")).
						OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(store.ActionCopyLink) }),
				),
			),
			app.P().Class("lede").Body(rich(l.T("app.lede"))...),
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
			p.askLink(),
			p.workerNotice(),
		),
		app.If(inLesson, func() app.UI { return p.lessonView() }).Else(func() app.UI { return p.instrument() }),
		app.Footer().Class("foot").Body(
			app.P().Text(l.T("app.foot")),
			app.P().ID("kernel").Attr("data-kernel", s.Kernel).Attr("data-refused", s.KernelRefused).Text(kernelText(l, s.Kernel, s.KernelRefused)),
			app.P().ID("workers").Attr("data-value", s.Workers).Attr("data-asked", s.WorkersAsked).Attr("data-replaced", s.WorkersReplaced).Text(workersText(l, s.Workers, s.WorkersAsked, s.WorkersRefused)),
			app.P().ID("memory").Attr("data-page-heap", s.PageHeap).Attr("data-worker-heap", s.WorkerHeap).Attr("data-helpers-heap", s.HelpersHeap).
				Text(memoryText(l, s.PageHeap, s.WorkerHeap, s.HelpersHeap)),
		),
	)
}

// instrument is the full page: every panel at once.
func (p *page) instrument() app.UI {
	s, l := p.st, p.st.Lang
	return app.Main().Class("grid").Body(
		newTrainPanel().Lang(l).Init(p.link.Fields).Link(p.link.Fields, p.linkVersion).Status(s.Status).TrainN(s.TrainN).Packs(s.Packs).Dataset(s.Dataset).Curvature(s.Curvature),
		&lossPlot{ILang: l, ILosses: s.Losses, IAcc: s.Acc, IRuns: s.ChartRuns(), IRecords: s.Runs, ICurrent: s.Run,
			IAxes: p.axes(), IVersion: s.ChartVersion},
		&digitCanvas{ILang: l, IModel: s.Model, IDeskew: s.ModelDeskew(), IVersion: s.WeightsVersion},
		&weightGrid{ILang: l, IModel: s.Model, IVersion: s.WeightsVersion},
		&confusionTable{ILang: l, IEval: s.ShownEval, IExamples: s.CellExamples, ICells: p.cellsReady},
		&gallery{ILang: l, ISamples: s.Samples, IModel: s.ShownModel, IDeskew: s.ModelDeskew()},
		p.inspector(),
		p.filesUI(),
		&hessianView{ILang: l, IView: s.Hessian, IBusy: s.HessianBusy || s.Status == store.StatusTraining || s.TrainN == 0},
		newPlanePanel().Lang(l).Pace(p.link.Fields.Pace),
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
		app.P().Text(l.T(map[bool]string{false: "link.noticeTitle", true: "link.noticeTitleKept"}[p.noticeKept])),
		app.Ul().Body(app.Range(p.st.Notice).Slice(func(i int) app.UI {
			return app.Li().Text(l.M(p.st.Notice[i]))
		})),
		app.Button().ID("notice-ok").Text(l.T("button.ok")).OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(store.ActionNoticeOK) }),
	)
}

// workersText says how many workers compute the full passes and, when
// the browser refused some, why; nothing before the worker says.
func workersText(l i18n.Lang, running, asked int, refused string) string {
	switch {
	case running == 0:
		return ""
	case running < asked:
		return l.T("workers.refused", strconv.Itoa(running), strconv.Itoa(asked), refused)
	}
	if running == 1 {
		return l.T("workers.one")
	}
	return l.T("workers.n", strconv.Itoa(running))
}

// kernelText says which kernels the worker trains with and, when it
// refused its SIMD kernel, why.
func kernelText(l i18n.Lang, k, refused string) string {
	switch {
	case k == "wasm-simd":
		return l.T("kernel.simd")
	case k == "go" && refused != "":
		return l.T("kernel.refused", refused)
	case k == "go":
		return l.T("kernel.go")
	}
	return ""
}

// memoryText says how much memory the page and the worker hold, once both
// have been measured.
func memoryText(l i18n.Lang, page, worker, helpers uint64) string {
	if page == 0 || worker == 0 {
		return ""
	}
	if helpers != 0 {
		return l.T("memory.helpers", i18n.Megabytes(page), i18n.Megabytes(worker), i18n.Megabytes(helpers))
	}
	return l.T("memory", i18n.Megabytes(page), i18n.Megabytes(worker))
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
