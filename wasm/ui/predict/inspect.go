package predict

import (
	"softmaxdemo/core/dataset"
	"softmaxdemo/core/digit"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// Example is the image the inspector looks at: 784 grey levels as
// the model reads them (deskewed if the model was trained so), its label,
// and where it came from.
type Example struct {
	Source string // "gallery", "cell", "train" or "drawing"
	Index  int    // its position in its set, -1 for a drawing
	Label  uint8
	Pixels []byte
}

// Where an inspected image came from.
const (
	SourceGallery = "gallery"
	SourceCell    = "cell"
	SourceTrain   = "train"
	SourceDrawing = "drawing"
)

// Input returns raw test pixels as a model trained with deskew reads
// them, straightened as the worker straightens its test set.
func Input(raw []byte, label uint8, deskew bool) []byte {
	if !deskew {
		return append([]byte(nil), raw...)
	}
	set := dataset.NewSet(1, 200)
	set.Append(label, raw)
	return digit.DeskewSet(set).Dense(make([]byte, dataset.Pixels), 0)
}

// Inspect computes one SGD step with B = 1 on e from m with rate α and the
// objective obj: core's train.Inspect, the trainer's own arithmetic.
func Inspect(m *softmax.Model[float32], e *Example, rate float64, obj softmax.Objective) (*train.Inspection, error) {
	set := dataset.NewSet(1, 200)
	set.Append(e.Label, e.Pixels)
	x := softmax.FromSet[float32](set)
	index, value := x.Example(0)
	return train.Inspect(m, index, value, e.Label, rate, obj)
}
