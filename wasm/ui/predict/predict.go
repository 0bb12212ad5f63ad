// Package predict is what the page computes with the model itself, on
// its own thread: the digit drawn on the pad (Classifier), the pixel
// contributions behind it (Explain), and one inspected SGD update on a
// chosen image (Inspect), all with core's own kernels.
package predict

import (
	"softmaxdemo/core/dataset"
	"softmaxdemo/core/digit"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// Prediction is what the page shows for the drawing.
type Prediction struct {
	Ink   bool // something was drawn
	Ready bool // a model exists to classify it
	Digit int
	Probs [softmax.K]float32
}

// Classifier turns canvas pixels into a prediction. It keeps its buffers,
// so classifying while a stroke is drawn allocates nothing.
type Classifier struct {
	pre   digit.Preprocessor
	Image [digit.Pixels]uint8 // the 28×28 input as the model sees it
	index []uint16
	value []float32
}

func NewClassifier() *Classifier {
	return &Classifier{pre: digit.Preprocessor{Ink: digit.InkAlpha}}
}

// SetDeskew makes the classifier straighten the digits it reads, as the
// model it reads them for was trained (core/digit.Preprocessor.Deskew).
func (c *Classifier) SetDeskew(on bool) { c.pre.Deskew = on }

// Classify preprocesses w×h RGBA pixels (ink in the alpha channel) the way
// MNIST was made and predicts the digit with m, which may be nil before
// training. The error is about the pixels (wrong size), never the model.
func (c *Classifier) Classify(rgba []byte, w, h int, m *softmax.Model[float32]) (Prediction, error) {
	info, err := c.pre.FromRGBA(&c.Image, rgba, w, h)
	if err != nil {
		return Prediction{}, err
	}
	return c.Predict(info.OK, m), nil
}

// Predict classifies c.Image as it stands.
func (c *Classifier) Predict(ink bool, m *softmax.Model[float32]) Prediction {
	p := Prediction{Ink: ink, Ready: m != nil && m.D == dataset.Pixels}
	if !p.Ink || !p.Ready {
		return p
	}
	c.index, c.value = digit.AppendSparse(c.index[:0], c.value[:0], &c.Image)
	p.Digit, p.Probs = m.Predict(c.index, c.value)
	return p
}

// Samples converts gallery samples (784 grey bytes each) to
// sparse model input, once, so predicting them is only the dot products.
// With deskew, the images are straightened first, as the worker
// straightens the test set for a model trained on deskewed images.
func Samples(s protocol.Samples, deskew bool) *softmax.Examples[float32] {
	set := dataset.NewSet(len(s.Labels), 150)
	for i, y := range s.Labels {
		set.Append(y, s.Pixels[dataset.Pixels*i:dataset.Pixels*(i+1)])
	}
	if deskew {
		set = digit.DeskewSet(set)
	}
	return softmax.FromSet[float32](set)
}

// Deskew reports whether the classifier straightens the digits it reads.
func (c *Classifier) Deskew() bool { return c.pre.Deskew }

// Explain fills e for the image last classified and the model m (see the
// package function Explain).
func (c *Classifier) Explain(e *Explanation, m *softmax.Model[float32]) {
	Explain(e, m, c.index, c.value)
}
