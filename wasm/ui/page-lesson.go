package ui

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/link"
	"softmaxdemo/wasm/ui/mathml"
	"softmaxdemo/wasm/ui/params"
	"softmaxdemo/wasm/ui/predict"
	"softmaxdemo/wasm/ui/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The lesson (package lesson holds its chapters; lesson-view.go draws
// them): the page shows one chapter at a time, p.link.Lesson (from 1; 0
// is the full page). Every change of chapter is a history entry, so Back
// returns to the chapter before, and the link in the address bar (and its
// QR code) opens the same chapter with the same settings.

// lessonState is the lesson's part of the page's state.
type lessonState struct {
	answers  map[string]int // the choice made in each chapter's question
	step     [2]float64     // p_y before and after the update question's step
	sample   int            // the gallery's digit the chapters show, after its first 7
	psi      *psiShift      // the ψ last added to the model
	above    planeAsk       // α above 2/λ_max asked of the plane's surface
	planePsi int            // the ψ asked of the plane's regions so far
	qrBig    bool           // the QR code fills the screen
	qrFor    string         // the link qrSVG encodes
	qrSVG    string
	stopKeys func()
}

// psiShift is a ψ added to every θ_c of the model: the model before (for
// Undo) and after, the run's settings, and what it changed.
type psiShift struct {
	before, after *softmax.Model[float32]
	cfg           protocol.Config
	effect        lesson.Effect
	undone        bool
}

// viewStorageKey keeps the view a bare link opens: "full" once the person
// left the lesson for the full page, else the lesson.
const viewStorageKey = "softmax:view"

// bareView is the chapter a link without settings opens: the lesson's
// first, unless this browser last left the lesson for the full page. The
// lesson is the default because a bare link is what a student opens
// first: the page then tells its story from the beginning, and the static
// page already shows that chapter while the program loads. The full page
// is one press away and, once chosen, remembered.
func bareView() int {
	if browser.StorageGet(viewStorageKey) == "full" {
		return 0
	}
	return 1
}

// startLesson registers the keys that move between chapters.
func (p *page) startLesson(ctx app.Context) {
	p.lesson.stopKeys = browser.OnKey(func(key string) bool {
		if p.link.Lesson < 1 {
			return false
		}
		n := p.link.Lesson
		switch key {
		case "ArrowRight", "PageDown":
			n++
		case "ArrowLeft", "PageUp":
			n--
		case "Home":
			n = 1
		case "End":
			n = len(lesson.Chapters)
		default:
			return false
		}
		n = min(max(n, 1), len(lesson.Chapters))
		if n != p.link.Lesson {
			markKey()
			ctx.Dispatch(func(ctx app.Context) { p.goChapter(ctx, n) })
		}
		return true
	})
}

// markKey notes, for tools/browsertest's benchmark, when a key asked for
// another chapter.
func markKey() {
	app.Window().Get("performance").Call("mark", "softmax:lesson-key")
}

// goChapter shows chapter n (0: the full page) as a new history entry,
// with the settings the chapter needs.
func (p *page) goChapter(ctx app.Context, n int) {
	if n == p.link.Lesson || n < 0 || n > len(lesson.Chapters) {
		return
	}
	set := p.link
	set.Lesson = n
	set.Fields = lesson.Apply(n, set.Fields)
	p.pushNext = true
	p.moveTo(ctx, set)
}

// moveTo makes set the page's settings and chapter, as a change of
// chapter does: it never asks, as a followed link may; a run in
// training that cannot go on with the chapter's settings pauses.
func (p *page) moveTo(ctx app.Context, set link.Settings) {
	from := p.link.Lesson
	if p.st.Status == store.StatusTraining && !p.sameRun(set) {
		p.send(protocol.Pause{})
	}
	p.asking = nil
	p.link.Lesson = set.Lesson
	if set.Fields != p.link.Fields || set.Dataset != p.linkData() {
		p.applyLink(ctx, set)
	} else {
		p.writeLink()
	}
	p.pushNext = false
	if (from == 0) != (set.Lesson == 0) {
		browser.StorageSet(viewStorageKey, map[bool]string{true: "full", false: "lesson"}[set.Lesson == 0])
	}
	p.enteredChapter(ctx)
}

// enteredChapter does what showing a chapter needs: its chart axes, an
// image for the inspector, the title, and the focus on its title.
func (p *page) enteredChapter(ctx app.Context) {
	p.showLang()
	n := p.link.Lesson
	if n < 1 {
		ctx.Defer(func(app.Context) { focus("lesson-toggle") })
		return
	}
	c := lesson.Chapters[n-1]
	if c.Axes != nil && *c.Axes != p.st.Axes {
		p.st.Axes = *c.Axes
		p.st.ChartVersion++
	}
	if slices.Contains(c.Panels, lesson.Inspector) && p.st.Inspect == nil && p.st.TrainN > 0 {
		p.send(protocol.PickTrain{Index: rand.IntN(1 << 30)})
	}
	ctx.Defer(func(app.Context) {
		focus("chapter-title")
		markShown()
	})
}

// markShown notes, for tools/browsertest's benchmark, the first frame
// after a chapter was rendered.
func markShown() {
	var frame app.Func
	frame = app.FuncOf(func(app.Value, []app.Value) any {
		app.Window().Get("performance").Call("mark", "softmax:lesson-shown")
		frame.Release()
		return nil
	})
	app.Window().Call("requestAnimationFrame", frame)
}

// onLessonToggle enters the lesson at its first chapter, or leaves it
// for the full page with the current model and runs.
func (p *page) onLessonToggle(ctx app.Context, e app.Event) {
	if p.link.Lesson > 0 {
		p.goChapter(ctx, 0)
	} else {
		p.goChapter(ctx, 1)
	}
}

// chapter returns the chapter shown, or nil on the full page.
func (p *page) chapter() *lesson.Chapter {
	if n := p.link.Lesson; n >= 1 && n <= len(lesson.Chapters) {
		return &lesson.Chapters[n-1]
	}
	return nil
}

// onAnswer records the class's choice in the chapter's question and runs
// the chapter's demonstration.
func (p *page) onAnswer(ctx app.Context, id string, choice int) {
	if p.lesson.answers == nil {
		p.lesson.answers = map[string]int{}
	}
	if _, ok := p.lesson.answers[id]; ok {
		return
	}
	p.lesson.answers[id] = choice
	switch id {
	case "update":
		if e := p.st.Inspect; e != nil {
			v := p.lessonLive()
			p.lesson.step = [2]float64{v.PBefore, v.PAfter}
			ctx.NewActionWithValue(store.ActionApply, *e)
		}
	case "descent":
		// Full-batch descent with the α that overshoots, slowly enough
		// to watch the loss jump.
		f := params.Presets[slices.IndexFunc(params.Presets, func(pr params.Preset) bool { return pr.Name == "full" })].Fields(p.st.TrainN)
		f.LR, f.Epochs, f.Pace = "5", "20", "10"
		p.startFresh(ctx, f)
		// And on the plane's surface, gradient descent with an α above
		// 2/λ_max, which overshoots at every step.
		p.lesson.above = planeAsk{Version: p.lesson.above.Version + 1, Times: aboveCeiling}
	case "redundancy":
		p.addPsi()
		p.lesson.planePsi++ // and in the plane, beside it
	case "newton":
		if p.st.Status == store.StatusTraining {
			p.send(protocol.Pause{})
		}
		ctx.NewAction(store.ActionHessian)
	}
}

// startFresh makes f the Train panel's fields and starts a new run with
// them from its start, keeping the runs before it on the chart.
func (p *page) startFresh(ctx app.Context, f params.Fields) {
	set := p.link
	set.Fields = f
	if p.st.Status == store.StatusTraining {
		p.send(protocol.Pause{})
	}
	p.applyLink(ctx, set)
	c, errs := params.Parse(f, p.st.TrainN)
	if !errs.OK() {
		return
	}
	c.MyDigitsRate = p.myDigitsShare()
	p.st.Pending = c
	p.send(protocol.Reset{Config: c})
	p.send(protocol.Train{Config: c})
}

// trainWith makes f the Train panel's fields and trains on, from the
// current model where the run can go on with them (a change of α or λ).
func (p *page) trainWith(ctx app.Context, f params.Fields) {
	set := p.link
	set.Fields = f
	p.applyLink(ctx, set)
	if c, errs := params.Parse(f, p.st.TrainN); errs.OK() {
		ctx.NewActionWithValue(store.ActionTrain, c)
	}
}

// psiConfig is the settings of the run ψ's model goes on in: the current
// run's, or a descent's where it was Newton's (which starts from θ = 0).
func (p *page) psiConfig() protocol.Config {
	if r := p.st.Current(); r != nil && r.Cfg.Method != "newton" {
		c := r.Cfg
		c.MyDigitsRate = p.myDigitsShare()
		return c
	}
	f := p.link.Fields
	f.Method = "sgd"
	c, _ := params.Parse(f, p.st.TrainN)
	c.Deskew = p.st.ModelDeskew()
	c.MyDigitsRate = p.myDigitsShare()
	return c
}

// psiPinned reports whether the model's θ_0 is pinned at zero.
func (p *page) psiPinned() bool {
	r := p.st.Current()
	return r != nil && r.Cfg.PinFirst
}

// addPsi adds a random ψ to every θ_c of the current model: the worker
// takes the new model as a new run (UseModel), and the page measures
// what it changed on the digit shown.
func (p *page) addPsi() {
	m := p.st.Model
	ex := p.lessonExample()
	if m == nil || ex == nil || p.psiPinned() || p.st.TrainN == 0 {
		return
	}
	size := lesson.Largest(m)
	if size == 0 {
		size = 1
	}
	after := lesson.AddPsi(m, lesson.Psi(rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())), size))
	cfg := p.psiConfig()
	index, value := exampleInput(ex, p.st.ModelDeskew())
	p.lesson.psi = &psiShift{before: m.Clone(), after: after, cfg: cfg,
		effect: lesson.Measure(m, after, index, value, ex.Label, cfg.L2)}
	p.useWeights(after, cfg)
}

// undoPsi puts the model from before ψ back, bit for bit.
func (p *page) undoPsi() {
	s := p.lesson.psi
	if s == nil || s.undone {
		return
	}
	s.undone = true
	p.useWeights(s.before, s.cfg)
}

// useWeights makes m the model of a new run with cfg (UseModel).
func (p *page) useWeights(m *softmax.Model[float32], cfg protocol.Config) {
	p.st.Err = nil
	p.st.Pending = cfg
	p.send(protocol.UseModel{Config: cfg, D: m.D, W: slices.Clone(m.W), B: slices.Clone(m.B)})
}

// lessonExample is the gallery digit the chapters show, with the current
// model's scores and probabilities; nil before the data are in.
func (p *page) lessonExample() *lesson.Shown {
	s := p.st.Samples
	n := len(s.Labels)
	if n == 0 || len(s.Pixels) != 784*n {
		return nil
	}
	i := (((p.lesson.sample + firstSample(s, lesson.StillLabel)) % n) + n) % n
	ex := &lesson.Shown{Label: int(s.Labels[i]), Pixels: s.Pixels[784*i : 784*(i+1)]}
	if m := p.st.Model; m != nil && m.D == 784 {
		index, value := exampleInput(ex, p.st.ModelDeskew())
		ex.Model = true
		softmax.Logits(&ex.Z, m.W, m.B, index, value)
		ex.P = ex.Z
		softmax.Softmax(&ex.P)
	}
	return ex
}

// exampleInput returns ex as the model reads it: straightened (deskew)
// if the model was trained on straightened digits, as the worker reads
// its test set.
func exampleInput(ex *lesson.Shown, deskew bool) ([]uint16, []float32) {
	px := predict.Input(ex.Pixels, uint8(ex.Label), deskew)
	var index []uint16
	var value []float32
	for j, v := range px {
		if v != 0 {
			index = append(index, uint16(j))
			value = append(value, float32(v)/255)
		}
	}
	return index, value
}

// firstSample returns the gallery's first digit of class label, or 0.
func firstSample(s protocol.Samples, label int) int {
	if i := slices.Index(s.Labels, uint8(label)); i >= 0 {
		return i
	}
	return 0
}

// lessonLive gathers the numbers the chapter's formulas and question use.
func (p *page) lessonLive() lesson.Live {
	s := p.st
	v := lesson.NoLive()
	v.TrainN, v.TestN = s.TrainN, s.TestN
	c, errs := params.Parse(p.link.Fields, s.TrainN)
	if errs.OK() {
		v.Rate, v.Lambda, v.Batch = c.LearningRate, c.L2, c.BatchSize
	}
	if s.Eval != nil {
		v.TestLoss, v.Likelihood, v.Accuracy = s.Eval.Loss, s.Eval.Likelihood, s.Eval.Accuracy
	}
	if r := s.Current(); r != nil && !math.IsNaN(r.Loss) {
		v.Loss = r.Loss
	}
	v.Example = p.lessonExample()
	if ch := p.chapter(); ch != nil && ch.ID == "update" {
		v.Example = nil
		if e := s.Inspect; e != nil && s.Model != nil {
			v.Example = &lesson.Shown{Label: int(e.Label), Pixels: e.Pixels}
			v.InspectRate = p.inspectRate
			obj := softmax.Objective{Lambda: v.Lambda, PinFirst: p.psiPinned()}
			if in, err := predict.Inspect(s.Model, e, p.inspectRate, obj); err == nil {
				v.PBefore, v.PAfter = float64(in.P[e.Label]), float64(in.PAfter[e.Label])
			}
		}
	}
	if ps := p.lesson.psi; ps != nil {
		v.MaxDP, v.DNorm = ps.effect.MaxDP, ps.effect.DNorm
	}
	if s.Model != nil {
		v.SumNorm = lesson.SumNorm(s.Model)
	}
	if h := s.Hessian; h != nil && len(h.Cases) == 3 {
		v.HessianZero, v.HessianPinned, v.HessianL2, v.HessianN = h.Cases[0].Zero, h.Cases[1].Zero, h.Cases[2].Zero, h.N
	}
	return v
}

// lessonQR returns the QR code of the page's link, made again only when
// the link changes.
func (p *page) lessonQR() string {
	href := browser.Href()
	if href == "" || href == p.lesson.qrFor {
		return p.lesson.qrSVG
	}
	svg, err := lesson.QR(href)
	if err != nil {
		svg = ""
	}
	p.lesson.qrFor, p.lesson.qrSVG = href, svg
	return svg
}

// chapterTitle is the document's title in a chapter: the chapter's,
// then the page's.
func (p *page) chapterTitle() string {
	l := p.st.Lang
	c := p.chapter()
	if c == nil {
		return l.T("app.title")
	}
	return mathml.PlainText(l.T("lesson."+c.ID+".title")) + " · " + strconv.Itoa(p.link.Lesson) + "/" + strconv.Itoa(len(lesson.Chapters)) + " · " + l.T("app.name")
}
