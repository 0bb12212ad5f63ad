package ui

import (
	"math"
	"slices"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/digits"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/lessonview"
	"softmaxdemo/wasm/ui/params"
	"softmaxdemo/wasm/ui/planepanel"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// What crosses between the rooms: the lesson's actions, carried out on
// the instrument and the plane, and what the lesson shows of them.

// instrumentPanels are the lesson's panels that are the instrument's.
var instrumentPanels = map[lesson.Panel]digits.Panel{
	lesson.Templates: digits.Templates,
	lesson.Draw:      digits.Draw,
	lesson.Chart:     digits.Chart,
	lesson.Inspector: digits.Inspector,
	lesson.Hessian:   digits.Hessian,
	lesson.MyDigits:  digits.MyDigits,
	lesson.Scrub:     digits.Scrub,
}

// planeViews are the lesson's panels that are the plane's pictures.
var planeViews = map[lesson.Panel]planepanel.View{
	lesson.PlaneRegions: planepanel.Regions,
	lesson.PlaneSurface: planepanel.Surface,
	lesson.PlanePsi:     planepanel.Psi,
	lesson.PlaneHand:    planepanel.Hand,
}

// planeDemos are what the plane does for a lesson's demonstration.
var planeDemos = map[lesson.PlaneDemo]func(ctx app.Context){
	lesson.PlaneAlphaAbove: func(ctx app.Context) { planepanel.AlphaAbove.Post(ctx, planepanel.AboveCeiling) },
	lesson.PlaneAddPsi:     planepanel.AddPsi.Post,
	lesson.PlaneFromHand:   planepanel.StartRun.Post,
}

// handleRooms registers the handlers of the lesson's actions.
func (p *page) handleRooms(ctx app.Context) {
	d := p.digits
	fields := func(a app.Action, do func(params.Fields)) {
		if f, ok := a.Value.(params.Fields); ok {
			do(f)
		}
	}
	ctx.Handle(lessonview.ActionChapter, func(ctx app.Context, a app.Action) {
		if n, ok := a.Value.(int); ok {
			p.goChapter(ctx, n)
		}
	})
	ctx.Handle(lessonview.ActionTrain, func(ctx app.Context, a app.Action) {
		fields(a, func(f params.Fields) { d.TrainWith(ctx, f) })
	})
	ctx.Handle(lessonview.ActionFresh, func(ctx app.Context, a app.Action) {
		fields(a, func(f params.Fields) { d.Fresh(ctx, f) })
	})
	ctx.Handle(lessonview.ActionFields, func(ctx app.Context, a app.Action) {
		fields(a, func(f params.Fields) {
			set := d.Settings()
			set.Fields = f
			d.Apply(ctx, set)
		})
	})
	ctx.Handle(lessonview.ActionPause, func(ctx app.Context, a app.Action) { d.Pause() })
	ctx.Handle(lessonview.ActionUseModel, func(ctx app.Context, a app.Action) {
		if m, ok := a.Value.(*softmax.Model[float32]); ok {
			d.UseModel(m)
		}
	})
	planepanel.Ended.Handle(ctx, func(ctx app.Context, e planepanel.RunEnded) {
		// Only a run from the line set by hand, which the question
		// waits for; the plane's other runs concern no chapter.
		if e.View == planepanel.Hand && p.chapter > 0 {
			p.planeRun = lessonview.PlaneRun{Ended: true, From: e.From, To: e.To, Steps: e.Steps}
			return
		}
		ctx.PreventUpdate()
	})
	ctx.Handle(lessonview.ActionDemo, func(ctx app.Context, a app.Action) {
		if demo, ok := a.Value.(lesson.Demo); ok {
			p.demonstrate(ctx, demo)
		}
	})
}

// demonstrate carries out the parts of a question's demonstration that
// are the instrument's and the plane's.
func (p *page) demonstrate(ctx app.Context, demo lesson.Demo) {
	d := p.digits
	if demo.Step {
		d.ApplyInspected(ctx)
	}
	if demo.Run != nil {
		d.Fresh(ctx, demo.Run(d.State().TrainN))
	}
	if demo.Hessian {
		if p.training() {
			d.Pause()
		}
		d.Hessian()
	}
	if do := planeDemos[demo.Plane]; do != nil {
		p.planeRun = lessonview.PlaneRun{} // the answer waits for this run's end
		do(ctx)
	}
}

// slots are the other rooms' panels the chapter shown needs.
func (p *page) slots() map[lesson.Panel]app.UI {
	c := lesson.Chapters[p.chapter-1]
	out := map[lesson.Panel]app.UI{}
	for _, k := range slices.Concat(c.Panels, c.Under) {
		if dk, ok := instrumentPanels[k]; ok {
			out[k] = p.digits.Panel(dk, p.lang)
		}
		if v, ok := planeViews[k]; ok {
			out[k] = planepanel.New().Lang(p.lang).Pace(p.digits.Settings().Fields.Pace).View(v).Worker(p.plane)
		}
	}
	return out
}

// lessonInstrument is what the lesson reads of the instrument now.
func (p *page) lessonInstrument() lessonview.Instrument {
	d := p.digits
	s := d.State()
	in := lessonview.Instrument{
		Training: s.Status == store.StatusTraining, NoData: s.Status == store.StatusLoading || s.TrainN == 0,
		Status: s.StatusText(), TrainN: s.TrainN, TestN: s.TestN, Fields: d.Settings().Fields,
		Model: s.Model, Deskew: s.ModelDeskew(), Samples: s.Samples, Eval: s.Eval, Loss: math.NaN(),
		ContinueL2: d.ContinueConfig().L2, Inspect: s.Inspect, InspectRate: d.InspectRate(), Hessian: s.Hessian,
	}
	if r := s.Current(); r != nil {
		in.Loss, in.Pinned = r.Loss, r.Cfg.PinFirst
	}
	return in
}
