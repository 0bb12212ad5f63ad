package ui

import (
	"softmaxdemo/wasm/ui/i18n"

	"strconv"
	"strings"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/digit"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// inspectExample is the image the inspector looks at: 784 grey levels as
// the model reads them (deskewed if the model was trained so), its label,
// and where it came from.
type inspectExample struct {
	Source string // "gallery", "cell", "train" or "drawing"
	Index  int    // its position in its set, -1 for a drawing
	Label  uint8
	Pixels []byte
}

// Where an inspected image came from.
const (
	sourceGallery = "gallery"
	sourceCell    = "cell"
	sourceTrain   = "train"
	sourceDrawing = "drawing"
)

// modelInput returns raw test pixels as a model trained with deskew reads
// them, straightened as the worker straightens its test set.
func modelInput(raw []byte, label uint8, deskew bool) []byte {
	if !deskew {
		return append([]byte(nil), raw...)
	}
	set := dataset.NewSet(1, 200)
	set.Append(label, raw)
	return digit.DeskewSet(set).Dense(make([]byte, dataset.Pixels), 0)
}

// inspect computes one SGD step with B = 1 on e from m with rate α and the
// objective obj: core's train.Inspect, the trainer's own arithmetic.
func inspect(m *softmax.Model[float32], e *inspectExample, rate float64, obj softmax.Objective) (*train.Inspection, error) {
	set := dataset.NewSet(1, 200)
	set.Append(e.Label, e.Pixels)
	x := softmax.FromSet[float32](set)
	index, value := x.Example(0)
	return train.Inspect(m, index, value, e.Label, rate, obj)
}

// fmtLogit formats a logit, or a difference of logits, with three decimals.
func fmtLogit(v float32) string { return strconv.FormatFloat(float64(v), 'f', 3, 64) }

// fmtProb formats a probability, or p − y, with four significant digits.
func fmtProb(v float32) string { return strconv.FormatFloat(float64(v), 'g', 4, 64) }

// exact32 formats v so that it reads back as the same float32: for data
// attributes that tests compare.
func exact32(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) }

// exactList is exact32 of each of v, comma-separated.
func exactList(v []float32) string {
	s := make([]string, len(v))
	for i, f := range v {
		s[i] = exact32(f)
	}
	return strings.Join(s, ",")
}

// fmtNumber formats α or λ as the person typed it would read.
func fmtNumber(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// sourceText says where an inspected image came from.
func sourceText(l i18n.Lang, source string) string {
	switch source {
	case sourceGallery:
		return l.T("inspect.from.gallery")
	case sourceCell:
		return l.T("inspect.from.cell")
	case sourceTrain:
		return l.T("inspect.from.train")
	}
	return l.T("inspect.from.drawing")
}
