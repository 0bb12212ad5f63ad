package protocol

// Messages for looking inside one update (the page's inspector) and at the
// test images behind a cell of the confusion matrix. Images travel as bulk
// bytes, 784 grey levels each, as the model reads them: deskewed if the
// run trains on deskewed images.

// Commands, page → worker.
type (
	// Apply takes one SGD step with B = 1 on one image (Pixels, 784 grey
	// levels as the model reads them) with label Label, on the current
	// run's model, with Config's α and λ and the run's own other options,
	// exactly as the trainer steps; then the worker sends Weights. With no
	// run yet, it starts one for Config first. The run's step count and
	// epoch do not change.
	Apply struct {
		Config Config `json:"config"`
		Label  uint8  `json:"label"`
		Pixels []byte `json:"-"`
	}
	// FindExamples asks for the test images of true digit True that the
	// current model predicts as Predicted, at most Max of them.
	FindExamples struct {
		True      int `json:"true"`
		Predicted int `json:"predicted"`
		Max       int `json:"max"`
	}
	// PickTrain asks for training image Index (modulo the training set's
	// size) of the images the current run trains on.
	PickTrain struct {
		Index int `json:"index"`
	}
)

// Events, worker → page.
type (
	// Examples answers FindExamples: Count images of the test set have
	// true digit True and prediction Predicted under the model of Run at
	// Step; the first len(Index) of them are listed, with their positions
	// in the test set (Index), their ten probabilities each (Probs, 10 per
	// image) and their pixels (bulk).
	Examples struct {
		Run       int       `json:"run"`
		Step      int       `json:"step"`
		True      int       `json:"true"`
		Predicted int       `json:"predicted"`
		Count     int       `json:"count"`
		Index     []int     `json:"index"`
		Probs     []float32 `json:"probs"`
		Pixels    []byte    `json:"-"`
	}
	// Picked answers PickTrain: training image Index, with its label and
	// pixels (bulk).
	Picked struct {
		Index  int    `json:"index"`
		Label  uint8  `json:"label"`
		Pixels []byte `json:"-"`
	}
)

func (Apply) isMsg()        {}
func (FindExamples) isMsg() {}
func (PickTrain) isMsg()    {}
func (Examples) isMsg()     {}
func (Picked) isMsg()       {}
