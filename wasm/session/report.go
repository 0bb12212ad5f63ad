package session

import (
	"math"
	"strconv"

	"softmaxdemo/core/metrics"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// evaluate sends Evaluated for the current run, or for a model with all
// weights zero (Run 0) if there is no run yet: by the pool's helpers, if
// it has any, as during a run.
func (s *session) evaluate() {
	if !s.needData() {
		return
	}
	e, model := s.evaluation()
	set := protocol.SetTest
	if s.run != nil && s.run.cfg.Deskew {
		set = protocol.SetTestDeskewed
	}
	if !s.pool.evaluate(model, set, e) {
		s.send(evaluatedOf(e, metrics.Evaluate(model, s.testSet())))
	}
}

// evaluated measures the current model on the test set, here.
func (s *session) evaluated() protocol.Evaluated {
	e, model := s.evaluation()
	return evaluatedOf(e, metrics.Evaluate(model, s.testSet()))
}

// evaluation returns what an Evaluated of the current model says besides
// its numbers (the run, step, epoch and time it belongs to), and the
// model: the run's weights as snapshots carry them, or all zeros (Run 0)
// if there is no run yet.
func (s *session) evaluation() (protocol.Evaluated, *softmax.Model[float32]) {
	var e protocol.Evaluated
	if r := s.run; r != nil {
		e.Run = r.id
		e.Step, e.Epoch = r.meth.at()
		e.T = (r.totalBusy + r.busy).Seconds()
		return e, r.meth.model()
	}
	return e, softmax.New[float32](s.data.d)
}

// sendEvaluation sends the Evaluated of the run's current step: measured
// by the pool's helpers while the run goes on, if it has any (its numbers
// arrive for the step they belong to), otherwise here. The final one is
// measured here unless earlier ones are still with the helpers (they
// would arrive after it): the run has ended, this worker is free, and a
// helper's answer would only add its messages. Full-batch runs, where
// every step ends an epoch, are measured at most every evaluateEvery, and
// at their end.
func (s *session) sendEvaluation(final bool) {
	r := s.run
	now := s.env.Now()
	if !final && r.meth.everyStepAnEpoch() && r.evaluated && now.Sub(r.lastEval) < evaluateEvery {
		return
	}
	r.lastEval, r.evaluated = now, true
	e, model := s.evaluation()
	set := protocol.SetTest
	if r.cfg.Deskew {
		set = protocol.SetTestDeskewed
	}
	if (!final || len(s.pool.evals) > 0) && s.pool.evaluate(model, set, e) {
		return
	}
	s.send(evaluatedOf(e, metrics.Evaluate(model, s.testSet())))
}

// evaluateModel answers EvaluateModel: the numbers of a keyframe the page
// keeps, on the test set its run was measured on, by the pool's helpers if
// it has any; the run's own model is not touched. A model of another shape
// is refused with Failed.
func (s *session) evaluateModel(m protocol.EvaluateModel) {
	if !s.needData() {
		return
	}
	if m.D != s.data.d || len(m.W) != m.D*softmax.K || len(m.B) != softmax.K {
		s.failKey("err.modelShape", hintModel, strconv.Itoa(m.D), strconv.Itoa(s.data.d))
		return
	}
	model := &softmax.Model[float32]{D: m.D, W: m.W, B: m.B}
	e := protocol.Evaluated{Run: m.Run, Step: m.Step, Keyframe: true}
	set := protocol.SetTest
	if m.Deskew {
		set = protocol.SetTestDeskewed
	}
	if !s.pool.evaluate(model, set, e) {
		s.send(evaluatedOf(e, metrics.Evaluate(model, s.data.of(protocol.Config{Deskew: m.Deskew}).test)))
	}
}

// evaluatedOf fills e's numbers from res. A class with no test images
// gets a PerClass of 0 (its confusion row sums to 0); losses that are not
// finite are mapped by finite, since JSON cannot carry them.
func evaluatedOf(e protocol.Evaluated, res metrics.Result) protocol.Evaluated {
	e.Accuracy = res.Accuracy()
	e.Likelihood = finite(res.Likelihood())
	e.Loss = finite(-res.MeanLogLikelihood)
	e.Confusion = res.Confusion
	for c, a := range res.ClassAccuracy() {
		if !math.IsNaN(a) {
			e.PerClass[c] = a
		}
	}
	return e
}

// points turns step losses into chart points: the mean of each group of
// consecutive steps, at the group's last step. Non-finite means are
// dropped.
type points struct {
	group int // steps per point, at least 1
	n     int // steps in the open group
	sum   float64
	step  int
	done  []protocol.Point
}

// add adds the loss of step.
func (p *points) add(step int, loss float64) {
	p.sum += loss
	p.n++
	p.step = step
	if p.n >= p.group {
		p.flush()
	}
}

// flush closes the open group, if any, even if it is not full.
func (p *points) flush() {
	if p.n == 0 {
		return
	}
	if mean := p.sum / float64(p.n); !math.IsNaN(mean) && !math.IsInf(mean, 0) {
		p.done = append(p.done, protocol.Point{Step: p.step, Loss: mean})
	}
	p.n, p.sum = 0, 0
}

// stamp gives the closed points that have no time yet the time t, in
// seconds of training: points close within a slice, and the clock is read
// between slices, so a point's time is its slice's end (8 ms at most
// late).
func (p *points) stamp(t float64) {
	for i := len(p.done) - 1; i >= 0 && p.done[i].T == 0; i-- {
		p.done[i].T = t
	}
}

// take returns the closed points and forgets them.
func (p *points) take() []protocol.Point {
	out := p.done
	p.done = nil
	return out
}
