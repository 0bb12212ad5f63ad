package ui

import (
	"softmaxdemo/core/dataset"
	"softmaxdemo/core/digit"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// prediction is what the page shows for the drawing.
type prediction struct {
	Ink   bool // something was drawn
	Ready bool // a model exists to classify it
	Digit int
	Probs [softmax.K]float32
}

// classifier turns canvas pixels into a prediction. It keeps its buffers,
// so classifying while a stroke is drawn allocates nothing.
type classifier struct {
	pre   digit.Preprocessor
	Image [digit.Pixels]uint8 // the 28×28 input as the model sees it
	index []uint16
	value []float32
}

func newClassifier() *classifier {
	return &classifier{pre: digit.Preprocessor{Ink: digit.InkAlpha}}
}

// setDeskew makes the classifier straighten the digits it reads, as the
// model it reads them for was trained (core/digit.Preprocessor.Deskew).
func (c *classifier) setDeskew(on bool) { c.pre.Deskew = on }

// classify preprocesses w×h RGBA pixels (ink in the alpha channel) the way
// MNIST was made and predicts the digit with m, which may be nil before
// training. The error is about the pixels (wrong size), never the model.
func (c *classifier) classify(rgba []byte, w, h int, m *softmax.Model[float32]) (prediction, error) {
	info, err := c.pre.FromRGBA(&c.Image, rgba, w, h)
	if err != nil {
		return prediction{}, err
	}
	return c.predict(info.OK, m), nil
}

// predict classifies c.Image as it stands.
func (c *classifier) predict(ink bool, m *softmax.Model[float32]) prediction {
	p := prediction{Ink: ink, Ready: m != nil && m.D == dataset.Pixels}
	if !p.Ink || !p.Ready {
		return p
	}
	c.index, c.value = digit.AppendSparse(c.index[:0], c.value[:0], &c.Image)
	p.Digit, p.Probs = m.Predict(c.index, c.value)
	return p
}

// samplesAsExamples converts gallery samples (784 grey bytes each) to
// sparse model input, once, so predicting them is only the dot products.
// With deskew, the images are straightened first, as the worker
// straightens the test set for a model trained on deskewed images.
func samplesAsExamples(s protocol.Samples, deskew bool) *softmax.Examples[float32] {
	set := dataset.NewSet(len(s.Labels), 150)
	for i, y := range s.Labels {
		set.Append(y, s.Pixels[dataset.Pixels*i:dataset.Pixels*(i+1)])
	}
	if deskew {
		set = digit.DeskewSet(set)
	}
	return softmax.FromSet[float32](set)
}
