package ui

import (
	"math"
	"slices"

	"softmaxdemo/wasm/ui/digits"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/lessonview"
	"softmaxdemo/wasm/ui/planepanel"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// What crosses between the rooms: the lesson's actions, carried out on
// the digits room and the plane, what the digits room tells the page, and
// what the lesson shows of the other rooms.

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

// handleRooms registers the handlers of what crosses between the rooms:
// the lesson's actions, carried out on the digits room and the plane, and
// what the digits room tells the page.
func (p *page) handleRooms(ctx app.Context) {
	lessonview.Chapter.Handle(ctx, func(ctx app.Context, n int) {
		if n != p.chapter {
			p.leaveClass(ctx)
		}
		p.goChapter(ctx, n)
	})
	lessonview.Train.Handle(ctx, digits.TrainWith.Post)
	lessonview.Fresh.Handle(ctx, digits.Fresh.Post)
	lessonview.Fields.Handle(ctx, digits.SetFields.Post)
	lessonview.Pause.Handle(ctx, digits.Pause.Post)
	lessonview.UseModel.Handle(ctx, digits.UseModel.Post)
	lessonview.Demo.Handle(ctx, p.demonstrate)
	planepanel.Ended.Handle(ctx, func(ctx app.Context, e planepanel.RunEnded) {
		// Only a run from the line set by hand, which the question
		// waits for; the plane's other runs concern no chapter.
		if e.View == planepanel.Hand && p.chapter > 0 {
			p.planeRun = lessonview.PlaneRun{Ended: true, From: e.From, To: e.To, Steps: e.Steps}
			return
		}
		ctx.PreventUpdate()
	})
	digits.LinkChanged.Handle(ctx, func(app.Context) { p.writeLink() })
	digits.Notice.Handle(ctx, func(_ app.Context, m i18n.Msg) { p.notice = append(p.notice, m) })
}

// demonstrate carries out the parts of a question's demonstration that
// are the digits room's and the plane's.
func (p *page) demonstrate(ctx app.Context, demo lesson.Demo) {
	if demo.Step {
		digits.ApplyInspected.Post(ctx)
	}
	if demo.Run != nil {
		digits.Fresh.Post(ctx, demo.Run(p.digits.View().State().TrainN))
	}
	if demo.Hessian {
		digits.ComputeHessian.Post(ctx) // a run in training pauses first
	}
	if do := planeDemos[demo.Plane]; do != nil {
		p.planeRun = lessonview.PlaneRun{} // the answer waits for this run's end
		do(ctx)
	}
}

// slots are the other rooms' panels the chapter shown needs.
func (p *page) slots(v digits.View) map[lesson.Panel]app.UI {
	c := lesson.Chapters[p.chapter-1]
	out := map[lesson.Panel]app.UI{}
	for _, k := range slices.Concat(c.Panels, c.Under) {
		if dk, ok := instrumentPanels[k]; ok {
			out[k] = v.Panel(dk, p.lang)
		}
		if pv, ok := planeViews[k]; ok {
			out[k] = planepanel.New().Lang(p.lang).Pace(v.Settings().Fields.Pace).View(pv).Worker(p.plane)
		}
	}
	return out
}

// lessonInstrument is what the lesson reads of the digits room now.
func (p *page) lessonInstrument(v digits.View) lessonview.Instrument {
	s := v.State()
	in := lessonview.Instrument{
		Training: v.Training(), NoData: s.Status == store.StatusLoading || s.TrainN == 0,
		Status: s.StatusText(), TrainN: s.TrainN, TestN: s.TestN, Settings: v.Train(),
		Model: s.Model, Deskew: s.ModelDeskew(), Samples: s.Samples, Eval: s.Eval, Loss: math.NaN(),
		ContinueL2: v.ContinueConfig().L2, Inspect: s.Inspect, InspectRate: v.InspectRate(), Hessian: s.Hessian,
	}
	if r := s.Current(); r != nil {
		in.Loss, in.Pinned = r.Loss, r.Cfg.PinFirst
	}
	return in
}
