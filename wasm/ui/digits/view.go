package digits

import (
	"math"

	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/digits/panels"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/params"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The instrument's panels, with the state as props, for the page to lay
// out: the whole instrument (Grid), or one panel where a lesson's chapter
// shows it (Panel), the lines under the page's title (Header, Notice) and
// in its footer (Footer).

// A Panel is one of the instrument's panels that a page may show alone.
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

// Grid is the whole instrument, every panel, with the page's own after
// them.
func (d *Instrument) Grid(l i18n.Lang, more ...app.UI) app.UI {
	s := d.st
	v := s.Views() // the live run's, or the keyframe's the slider shows
	return app.Main().Class("grid").Body(append([]app.UI{
		panels.NewTrainPanel().Lang(l).Init(d.fields).Link(d.fields, d.fieldsV).Status(s.Status).TrainN(s.TrainN).
			Packs(s.Packs).Dataset(s.Dataset).Curvature(s.Curvature),
		d.Panel(Chart, l),
		d.Panel(Draw, l),
		d.Panel(Templates, l),
		&panels.Confusion{ILang: l, IEval: v.Eval, IExamples: s.CellExamples, ICells: d.cellsReady},
		&panels.Gallery{ILang: l, ITasks: d.tasks, ISamples: s.Samples, IModel: v.EvalModel, IDeskew: v.Deskew},
		d.Panel(Inspector, l),
		app.Div().Class("files").Body(
			d.Panel(MyDigits, l),
			&panels.ModelFiles{ILang: l, IHasModel: s.Model != nil, IStatus: d.files.modelStatus, IKind: d.files.modelKind, IRestored: d.files.restored},
		),
		d.Panel(Hessian, l),
	}, more...)...)
}

// Panel is the panel k, or an empty element for a panel it does not have.
func (d *Instrument) Panel(k Panel, l i18n.Lang) app.UI {
	s := d.st
	switch k {
	case Templates:
		v := s.Views()
		return &panels.WeightGrid{ILang: l, ITasks: d.tasks, IModel: v.Model, IVersion: v.Version}
	case Draw:
		v := s.Views()
		return &panels.DrawPad{ILang: l, IModel: v.Model, IDeskew: v.Deskew, IVersion: v.Version}
	case Chart:
		r, _ := s.BranchPoint()
		return &panels.LossPlot{ILang: l, ITasks: d.tasks, ILosses: s.Losses, IAcc: s.Acc, IRuns: s.ChartRuns(), IRecords: s.Runs, ICurrent: s.Run,
			ISelected: s.Selected, IScrub: s.ScrubView(), IBranch: r != nil, IAxes: d.axes(), IVersion: s.ChartVersion}
	case Scrub:
		r, _ := s.BranchPoint()
		return app.Section().Class("panel scrub-panel").Aria("label", l.T("scrub.label")).Body(
			panels.NewScrub().View(l, s.ScrubView(), r != nil))
	case Inspector:
		c, _ := params.Check(d.fields, s.TrainN).Result()
		pin := c.PinFirst
		if r := s.Current(); r != nil {
			pin = r.Cfg.PinFirst
		}
		return &panels.Inspector{ILang: l, IModel: s.Model, IExample: s.Inspect, IRate: d.inspectRate, IL2: c.L2, IPin: pin, IApplied: s.Applied}
	case Hessian:
		return &panels.HessianView{ILang: l, IView: s.Hessian, IBusy: s.HessianBusy || s.Status == store.StatusTraining || s.TrainN == 0}
	case MyDigits:
		f := &d.files
		rate := f.myDigitsRate
		if rate == "" {
			rate = panels.DefaultMyDigitsRate // natively, in index.html
		}
		return &panels.MyDigits{ILang: l, IDigits: f.digits, IModel: s.Model, IDeskew: s.ModelDeskew(), IVersion: f.myDigitsVersion,
			IRate: rate, IStatus: f.digitsStatus, IKind: f.digitsKind}
	}
	return app.Div()
}

// Header is the run's status, a Newton run's progress and the error
// banner, for the top of the page.
func (d *Instrument) Header(l i18n.Lang) []app.UI {
	s := d.st
	fraction := 0.0
	if pr := s.Progress; pr.Epochs > 0 && pr.PerEpoch > 0 {
		fraction = float64(pr.Seen) / float64(pr.Epochs*pr.PerEpoch)
	}
	return []app.UI{
		panels.NewStatusBar().With(l, s.Status, s.StatusText(), s.Progress.Epoch, s.Progress.Epochs, fraction, s.Progress.PerSecond, s.ViewAccuracy()).
			Run(s.Progress.Run, s.Progress.Step).Likelihood(s.ViewLikelihood()),
		&panels.NewtonProgress{ILang: l, IProgress: s.Progress},
		panels.NewErrorBanner().Err(l, s.Err),
	}
}

// Notice says what happened to the last worker that died.
func (d *Instrument) Notice(l i18n.Lang) app.UI {
	s := d.st
	snap := 0
	if s.Snapshot != nil {
		snap = s.Snapshot.Step
	}
	return &panels.WorkerNotice{ILang: l, INotice: s.WorkerNotice, IReplaced: s.Replaced, IFrom: s.ResumedFrom, ISnapshot: snap}
}

// Footer is what the instrument says of the machine it trains on.
func (d *Instrument) Footer(l i18n.Lang) []app.UI { return panels.Machine(l, d.st) }

// axes is what the chart's axes show, with J* filled in for J − J*; before
// any run has a loss, J − J* falls back to a logarithmic loss axis.
func (d *Instrument) axes() chart.Axes {
	a := d.st.Axes
	if a.Y == chart.AxisGap {
		a.Floor = d.st.BestLoss()
		if math.IsNaN(a.Floor) {
			a.Y = chart.AxisLog
		}
	}
	return a
}
