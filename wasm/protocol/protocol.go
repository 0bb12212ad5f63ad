// Package protocol defines the messages between the page and the training
// worker, and their wire form. It is plain Go (no syscall/js), so both sides
// and the tests share one definition.
//
// The set of messages is closed: every message implements Msg. Commands
// (page → worker) are verbs, in commands.go and, for the inspector,
// inspect.go; events (worker → page) are nouns, in events.go and
// inspect.go. The table messages (codec.go) is the one list of them: it
// gives each its wire name and, for those that carry bulk numbers, how
// they are packed; Name, Encode and Decode work from it.
//
// The wire form of a message is a JSON envelope
//
//	{"v":1,"type":"progress","body":{...}}
//
// plus, for the messages that carry bulk numbers (weights, pixels, loss
// points), a byte buffer that travels beside the envelope as a
// transferable ArrayBuffer instead of as JSON (bulk.go). Decode reads v
// and type first and then the body, so an unknown version or type is an
// error that names it.
package protocol

// Version is the protocol version in every envelope.
const Version = 1

// Msg is a message between the page and the worker.
type Msg interface{ isMsg() }

// Config is a training run's parameters as the page sends them. Zero
// Epochs means train until stopped by the tolerance or by the user.
// Deskew trains and evaluates on the images straightened by
// digit.DeskewSet instead of the raw ones; changing it starts a new run.
//
// Method names the optimiser: "sgd" (or empty) is minibatch SGD with
// BatchSize; "gd" is full-batch gradient descent (BatchSize is ignored:
// every step sees the whole set); "newton" is Newton's method (truncated,
// conjugate gradients on H·v products; see core/newton), which ignores the
// learning rate, batch size, epochs, decay and initialisation and uses the
// last three fields instead (zero means core/newton's default).
type Config struct {
	LearningRate float64 `json:"lr"`
	BatchSize    int     `json:"batch"`
	L2           float64 `json:"l2"`
	Epochs       int     `json:"epochs"`
	Seed         uint64  `json:"seed"`
	PinFirst     bool    `json:"pin,omitempty"`
	InitNormal   bool    `json:"initNormal,omitempty"`
	Decay        float64 `json:"decay,omitempty"`
	DecayEvery   int     `json:"decayEvery,omitempty"`
	Method       string  `json:"method,omitempty"`      // "sgd" (or ""), "gd", "newton"
	NewtonIters  int     `json:"newtonIters,omitempty"` // Newton: outer iterations at most; 0: 100
	GradTol      float64 `json:"gradTol,omitempty"`     // Newton: stop when ‖∇J‖ ≤ this; 0: 1e-5
	CGSteps      int     `json:"cgSteps,omitempty"`     // Newton: CG steps per iteration at most; 0: 250
	Deskew       bool    `json:"deskew,omitempty"`
	// MyDigitsRate mixes my digits (MyDigits) into every batch:
	// round(MyDigitsRate·B) of them, at least one; 0 mixes none.
	MyDigitsRate float64 `json:"myDigitsRate,omitempty"`
}

// MaxMyDigits is the most images a MyDigits command may carry.
const MaxMyDigits = 1000
