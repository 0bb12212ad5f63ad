package session

import (
	"math"

	"softmaxdemo/core/metrics"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// evaluate sends Evaluated for the current run, or for a model with all
// weights zero (Run 0) if there is no run yet.
func (s *session) evaluate() {
	if s.needData() {
		s.send(s.evaluated())
	}
}

// evaluated measures the current model on the test set. A class with no
// test images gets a PerClass of 0 (its confusion row sums to 0); losses
// that are not finite are mapped by finite, since JSON cannot carry them.
func (s *session) evaluated() protocol.Evaluated {
	var e protocol.Evaluated
	var model *softmax.Model[float32]
	if r := s.run; r != nil {
		model = r.meth.model() // the weights as snapshots carry them
		e.Run = r.id
		e.Step, e.Epoch = r.meth.at()
		e.T = (r.totalBusy + r.busy).Seconds()
	} else {
		model = softmax.New[float32](s.data.d)
	}
	res := metrics.Evaluate(model, s.testSet())
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
