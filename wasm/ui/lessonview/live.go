package lessonview

import (
	"math"
	"math/rand/v2"
	"slices"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/params"
	"softmaxdemo/wasm/ui/predict"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Instrument is what the lesson reads of the digits instrument, as the
// page makes it at each render: a value, so that the lesson renders again
// when it changes.
type Instrument struct {
	Training bool     // a run is training
	NoData   bool     // the data are loading, or failed to load
	Status   i18n.Msg // the status line, as the instrument says it
	TrainN   int
	TestN    int
	Settings params.Settings         // the Train panel's, as the instrument trains with them
	Model    *softmax.Model[float32] // nil before the first snapshot
	Deskew   bool                    // the model reads straightened digits
	Samples  protocol.Samples        // the gallery's test digits
	Eval     *protocol.Evaluated     // the latest evaluation, nil before the first
	Loss     float64                 // the current run's latest J, NaN before its first
	Pinned   bool                    // the current run keeps θ_0 at zero
	// ContinueL2 is the λ of the run a model handed to the instrument
	// (UseModel) trains on with.
	ContinueL2  float64
	Inspect     *predict.Example // the inspector's image, nil before one is chosen
	InspectRate float64          // the inspector's own α
	Hessian     *protocol.HessianView
}

// PlaneRun is a run of the plane's gradient descent from the line set by
// hand, as the page saw it end: J at its start and at its end, and its
// steps. The zero value is a run not yet ended.
type PlaneRun struct {
	Ended    bool
	From, To float64
	Steps    int
}

// live gathers the numbers the chapter's formulas and question use.
func (v *Lesson) live() lesson.Live {
	s := v.IInstrument
	lv := lesson.NoLive()
	lv.TrainN, lv.TestN = s.TrainN, s.TestN
	if c := s.Settings.Config; s.Settings.OK() {
		lv.Rate, lv.Lambda, lv.Batch = c.LearningRate, c.L2, c.BatchSize
	}
	if s.Eval != nil {
		lv.TestLoss, lv.Likelihood, lv.Accuracy = s.Eval.Loss, s.Eval.Likelihood, s.Eval.Accuracy
	}
	if !math.IsNaN(s.Loss) {
		lv.Loss = s.Loss
	}
	lv.Example = v.example()
	if v.chapter().Inspected {
		lv.Example = nil
		if e := s.Inspect; e != nil && s.Model != nil {
			lv.Example = &lesson.Shown{Label: int(e.Label), Pixels: e.Pixels}
			lv.InspectRate = s.InspectRate
			obj := softmax.Objective{Lambda: lv.Lambda, PinFirst: s.Pinned}
			if in, err := predict.Inspect(s.Model, e, s.InspectRate, obj); err == nil {
				lv.PBefore, lv.PAfter = float64(in.P[e.Label]), float64(in.PAfter[e.Label])
			}
		}
	}
	lv.Stepped = v.stepped
	if ps := v.psi; ps != nil {
		lv.MaxDP, lv.DNorm = ps.effect.MaxDP, ps.effect.DNorm
	}
	if s.Model != nil {
		lv.SumNorm = lesson.SumNorm(s.Model)
	}
	if r := v.IPlane; r.Ended {
		lv.PlaneFrom, lv.PlaneTo, lv.PlaneSteps = r.From, r.To, r.Steps
	}
	if h := s.Hessian; h != nil && len(h.Cases) == 3 {
		lv.HessianZero, lv.HessianPinned, lv.HessianL2, lv.HessianN = h.Cases[0].Zero, h.Cases[1].Zero, h.Cases[2].Zero, h.N
	}
	return lv
}

// example is the gallery digit the chapters show, with the current
// model's scores and probabilities; nil before the data are in.
func (v *Lesson) example() *lesson.Shown {
	s := v.IInstrument.Samples
	n := len(s.Labels)
	if n == 0 || len(s.Pixels) != 784*n {
		return nil
	}
	i := (((v.sample + firstSample(s, lesson.StillLabel)) % n) + n) % n
	ex := &lesson.Shown{Label: int(s.Labels[i]), Pixels: s.Pixels[784*i : 784*(i+1)]}
	if m := v.IInstrument.Model; m != nil && m.D == 784 {
		index, value := exampleInput(ex, v.IInstrument.Deskew)
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

// psiShift is a ψ added to every θ_c of the model: the model before (for
// Undo) and after, the λ of the run it went on in, and what it changed.
type psiShift struct {
	before, after *softmax.Model[float32]
	lambda        float64
	effect        lesson.Effect
	undone        bool
}

// addPsi adds a random ψ to every θ_c of the current model, measures
// what it changed on the digit shown, and returns the new model, for the
// instrument to go on from (useModel); nil when there is no model to add
// it to, or θ_0 is pinned.
func (v *Lesson) addPsi() *softmax.Model[float32] {
	s := v.IInstrument
	m := s.Model
	ex := v.example()
	if m == nil || ex == nil || s.Pinned || s.TrainN == 0 {
		return nil
	}
	size := lesson.Largest(m)
	if size == 0 {
		size = 1
	}
	after := lesson.AddPsi(m, lesson.Psi(rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())), size))
	index, value := exampleInput(ex, s.Deskew)
	v.psi = &psiShift{before: m.Clone(), after: after, lambda: s.ContinueL2,
		effect: lesson.Measure(m, after, index, value, ex.Label, s.ContinueL2)}
	return after
}

// undoPsi returns the model from before ψ, to put back bit for bit;
// nil if there is nothing to undo.
func (v *Lesson) undoPsi() *softmax.Model[float32] {
	ps := v.psi
	if ps == nil || ps.undone {
		return nil
	}
	ps.undone = true
	return ps.before
}

// useModel asks the page to make m the instrument's model, if there is
// one.
func useModel(ctx app.Context, m *softmax.Model[float32]) {
	if m != nil {
		UseModel.Post(ctx, m)
	}
}
