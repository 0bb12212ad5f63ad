package digits

import (
	"math"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/digits/panels"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/params"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// View is the room as it is now, for the page to read and to render in
// one render: the whole instrument (Grid), or one panel where a lesson's
// chapter shows it (Panel), the lines under the page's title (Header,
// Notice) and in its footer (Footer), and what the page and the lesson
// read. It only reads the room's state.
type View struct {
	st     *store.Store
	tasks  *kit.Tasks
	booted []byte
}

// A Panel is one of the room's panels that a page may show alone.
type Panel string

const (
	Templates Panel = "templates" // the ten θ_c as images
	Draw      Panel = "draw"      // the draw pad, its probabilities and x ⊙ θ_c
	Chart     Panel = "chart"     // the loss chart and its runs
	Inspector Panel = "inspector" // one update, every number of it
	Hessian   Panel = "hessian"   // H on 7×7 images and its zero eigenvalues
	MyDigits  Panel = "my-digits" // the digits a person taught the model
	Scrub     Panel = "scrub"     // the slider that rewinds the run, without the chart
)

// State returns a copy of the run's state, to read.
func (v View) State() store.State { return v.st.State }

// Views returns what the panels show: the model at the step shown
// (store.State.Views).
func (v View) Views() store.Views { return v.st.State.Views() }

// Settings returns the room's part of the page's link.
func (v View) Settings() Settings {
	c := v.st.Controls
	return Settings{Fields: c.Settings.Fields, Dataset: v.st.LinkData(), Workers: c.Workers, From: v.st.Chain()}
}

// Train returns the settings runs train with (the Train panel's last
// accepted).
func (v View) Train() params.Settings { return v.st.Controls.Settings }

// Training reports whether a run is training.
func (v View) Training() bool { return v.st.Status == store.StatusTraining }

// SameRun reports whether the run in training could go on with set.
func (v View) SameRun(set Settings) bool {
	st := v.st
	return set.Dataset == st.LinkData() && set.From == st.Chain() && st.Check(set.Fields).SameRun(st.Pending)
}

// LinkPacks maps each pack a link may name to its training images: the
// manifest's, or, before it is read, the two the site can have.
func (v View) LinkPacks() map[string]int { return linkPacks(v.st.Packs, v.booted) }

// ContinueConfig is the settings a model handed to the room (UseModel)
// trains on with.
func (v View) ContinueConfig() protocol.Config { return v.st.ContinueConfig() }

// InspectRate is the inspector's own α.
func (v View) InspectRate() float64 { return v.st.Controls.InspectRate }

// Grid is the whole instrument, every panel, with the page's own after
// them.
func (v View) Grid(l i18n.Lang, more ...app.UI) app.UI {
	s := v.st
	shown := s.Views() // the live run's, or the keyframe's the slider shows
	return app.Main().Class("grid").Body(append([]app.UI{
		v.trainPanel(l),
		v.Panel(Chart, l),
		v.Panel(Draw, l),
		v.Panel(Templates, l),
		&panels.Confusion{ILang: l, IEval: shown.Eval, IExamples: s.CellExamples, ICells: s.Worker.CellsReady},
		&panels.Gallery{ILang: l, ITasks: v.tasks, ISamples: s.Samples, IModel: shown.EvalModel, IDeskew: shown.Deskew},
		v.Panel(Inspector, l),
		app.Div().Class("files").Body(
			v.Panel(MyDigits, l),
			&panels.ModelFiles{ILang: l, IHasModel: s.Model != nil, IStatus: s.Files.ModelStatus, IKind: s.Files.ModelKind, IRestored: s.Files.Restored},
		),
		v.Panel(Hessian, l),
	}, more...)...)
}

// trainPanel is the Train panel, with the fields as typed.
func (v View) trainPanel(l i18n.Lang) app.UI {
	s := v.st
	return &panels.TrainPanel{ILang: l, ISettings: s.Controls.Typed, IVersion: s.Controls.Version, IStatus: s.Status, ITrainN: s.TrainN,
		IPacks: s.Packs, IDataset: s.Dataset, ICurvature: s.Curvature}
}

// Panel is the panel k, or an empty element for a panel it does not have.
func (v View) Panel(k Panel, l i18n.Lang) app.UI {
	s := v.st
	switch k {
	case Templates:
		shown := s.Views()
		return &panels.WeightGrid{ILang: l, ITasks: v.tasks, IModel: shown.Model, IVersion: shown.Version}
	case Draw:
		shown := s.Views()
		return &panels.DrawPad{ILang: l, IModel: shown.Model, IDeskew: shown.Deskew, IVersion: shown.Version}
	case Chart:
		r, _ := s.BranchPoint()
		return &panels.LossPlot{ILang: l, ITasks: v.tasks, ILosses: s.Losses, IAcc: s.Acc, IRuns: s.ChartRuns(), IRecords: s.Runs, ICurrent: s.Run,
			ISelected: s.Selected, IScrub: s.ScrubView(), IBranch: r != nil, IAxes: v.axes(), IVersion: s.ChartVersion}
	case Scrub:
		r, _ := s.BranchPoint()
		return app.Section().Class("panel scrub-panel").Aria("label", l.T("scrub.label")).Body(
			panels.NewScrub().View(l, s.ScrubView(), r != nil))
	case Inspector:
		pin := s.Controls.Settings.Config.PinFirst
		if r := s.Current(); r != nil {
			pin = r.Cfg.PinFirst
		}
		return &panels.Inspector{ILang: l, IModel: s.Model, IExample: s.Inspect, IRate: s.Controls.InspectRate, IL2: s.Controls.Settings.Config.L2,
			IPin: pin, IApplied: s.Applied}
	case Hessian:
		return &panels.HessianView{ILang: l, IView: s.Hessian, IBusy: s.HessianBusy || s.Status == store.StatusTraining || s.TrainN == 0}
	case MyDigits:
		f := &s.Files
		return &panels.MyDigits{ILang: l, IDigits: f.Digits, IModel: s.Model, IDeskew: s.ModelDeskew(), IVersion: f.DigitsVersion,
			IRate: f.Rate, IStatus: f.DigitsStatus, IKind: f.DigitsKind}
	}
	return app.Div()
}

// Header is the run's status, a Newton run's progress and the error
// banner, for the top of the page.
func (v View) Header(l i18n.Lang) []app.UI {
	s := v.st
	fraction := 0.0
	if pr := s.Progress; pr.Epochs > 0 && pr.PerEpoch > 0 {
		fraction = float64(pr.Seen) / float64(pr.Epochs*pr.PerEpoch)
	}
	acc, likelihood := math.NaN(), math.NaN() // before the first evaluation
	if e := s.ViewEval(); e != nil {
		acc, likelihood = e.Accuracy, e.Likelihood
	}
	return []app.UI{
		panels.NewStatusBar().With(l, s.Status, s.StatusText(), s.Progress.Epoch, s.Progress.Epochs, fraction, s.Progress.PerSecond, acc).
			Run(s.Progress.Run, s.Progress.Step).Likelihood(likelihood),
		&panels.NewtonProgress{ILang: l, IProgress: s.Progress},
		panels.NewErrorBanner().Err(l, s.Err),
	}
}

// Notice says what happened to the last worker that died.
func (v View) Notice(l i18n.Lang) app.UI {
	s := v.st
	snap := 0
	if s.Snapshot != nil {
		snap = s.Snapshot.Step
	}
	return &panels.WorkerNotice{ILang: l, INotice: s.WorkerNotice, IReplaced: s.Replaced, IFrom: s.ResumedFrom, ISnapshot: snap}
}

// Footer is what the room says of the machine it trains on.
func (v View) Footer(l i18n.Lang) []app.UI { return panels.Machine(l, v.st.Machine) }

// axes is what the chart's axes show, with J* filled in for J − J*; before
// any run has a loss, J − J* falls back to a logarithmic loss axis.
func (v View) axes() chart.Axes {
	a := v.st.Axes
	if a.Y == chart.AxisGap {
		a.Floor = v.st.Runs.BestLoss()
		if math.IsNaN(a.Floor) {
			a.Y = chart.AxisLog
		}
	}
	return a
}
