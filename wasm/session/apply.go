package session

import (
	"math"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/metrics"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// The page's inspector looks inside one update. The worker does its part:
// it applies one update on an image the page chose (Apply), lists the test
// images of a cell of the confusion matrix (FindExamples), and hands out a
// training image (PickTrain). Images go both ways as 784 grey levels, as
// the model reads them: for a run on deskewed images, deskewed.

// maxExamples caps the images of one cell that FindExamples sends.
const maxExamples = 60

// apply takes one SGD step with B = 1 on a's image, with a's α and λ, on
// the current run's model (starting a run for a.Config if there is none),
// as the run's trainer would step on that image alone (train.StepOn; a
// Newton run refuses it with Failed). It
// then sends the weights and, unless training goes on anyway, their
// evaluation, so the confusion matrix shows the changed model.
func (s *session) apply(a protocol.Apply) {
	if !s.needData() {
		return
	}
	if s.run == nil && !s.prepare(a.Config) {
		return
	}
	r := s.run
	x := sparse(a.Label, a.Pixels)
	index, value := x.Example(0)
	obj := softmax.Objective{Lambda: a.Config.L2, PinFirst: r.cfg.PinFirst}
	st, err := r.meth.stepOn(index, value, a.Label, a.Config.LearningRate, obj)
	if err != nil {
		s.failKey("err.config", hintConfig, err.Error())
		return
	}
	if st.Stop == train.Diverged {
		s.failKey("err.update", hintDiverged)
		return
	}
	s.sendWeights(s.env.Now())
	if !s.training {
		s.send(s.evaluated())
	}
}

// findExamples sends the test images of the cell (f.True, f.Predicted) of
// the current model's confusion matrix, at most f.Max (and maxExamples),
// with their probabilities. The count is that of the cell, as Evaluated
// reports it.
func (s *session) findExamples(f protocol.FindExamples) {
	if !s.needData() {
		return
	}
	model := softmax.New[float32](s.data.d)
	out := protocol.Examples{True: f.True, Predicted: f.Predicted}
	if r := s.run; r != nil {
		model = r.meth.model()
		out.Run = r.id
		out.Step, _ = r.meth.at()
	}
	if f.True < 0 || f.True >= softmax.K || f.Predicted < 0 || f.Predicted >= softmax.K {
		s.send(out)
		return
	}
	x := s.testSet()
	at, count := metrics.Cell(model, x, f.True, f.Predicted, min(max(f.Max, 0), maxExamples))
	out.Count = count
	for _, i := range at {
		index, value := x.Example(i)
		_, p := model.Predict(index, value)
		out.Index = append(out.Index, i)
		out.Probs = append(out.Probs, p[:]...)
		out.Pixels = appendGrey(out.Pixels, index, value)
	}
	s.send(out)
}

// pickTrain sends training image p.Index (modulo their number) of the
// images the current run trains on, or of the raw ones with no run.
func (s *session) pickTrain(p protocol.PickTrain) {
	if !s.needData() {
		return
	}
	x := s.data.train
	if s.run != nil {
		x = s.data.of(s.run.cfg).train
	}
	i := p.Index % x.Len()
	if i < 0 {
		i += x.Len()
	}
	index, value := x.Example(i)
	s.send(protocol.Picked{Index: i, Label: x.Labels[i], Pixels: appendGrey(nil, index, value)})
}

// sparse converts 784 grey levels to model input exactly as the packs are
// converted (softmax.FromSet): the non-zero pixels, each grey level / 255.
func sparse(label uint8, pixels []byte) *softmax.Examples[float32] {
	set := dataset.NewSet(1, 200)
	set.Append(label, pixels)
	return softmax.FromSet[float32](set)
}

// appendGrey appends the 784 grey levels of one example to dst: the inverse
// of sparse, exact since every value is a grey level / 255.
func appendGrey(dst []byte, index []uint16, value []float32) []byte {
	n := len(dst)
	dst = append(dst, make([]byte, dataset.Pixels)...)
	for t, j := range index {
		dst[n+int(j)] = byte(math.Round(float64(value[t]) * 255))
	}
	return dst
}
