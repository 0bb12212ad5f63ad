// Package protocol defines the messages between the page and the training
// worker, and their wire form. It is plain Go (no syscall/js), so both sides
// and the tests share one definition.
//
// The set of messages is closed: every message implements Msg. Commands
// (page → worker) are verbs: Load, Train, Pause, Step, Reset, Evaluate,
// Warm, Pace, Hessian, UseModel, MyDigits, and for the inspector
// (inspect.go) Apply, FindExamples, PickTrain.
// Events (worker → page) are nouns: Loading, Loaded, Progress, Weights,
// Evaluated, Samples, Failed, and Examples, Picked.
//
// The wire form of a message is a JSON envelope
//
//	{"v":1,"type":"progress","body":{...}}
//
// plus, for the messages that carry bulk numbers (Weights, Samples,
// HessianView, UseModel, MyDigits, and the inspector's Apply, Examples,
// Picked), a
// byte buffer that travels beside the envelope as a transferable
// ArrayBuffer instead of as JSON. Decode reads v and type first and then
// the body, so an unknown version or type is an error that names it.
package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
)

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
	// ExtraRate mixes my digits (MyDigits) into every batch:
	// round(ExtraRate·B) of them, at least one; 0 mixes none.
	ExtraRate float64 `json:"extraRate,omitempty"`
}

// MaxMyDigits is the most images a MyDigits command may carry.
const MaxMyDigits = 1000

// Commands, page → worker.
type (
	// Load asks the worker to fetch and decode a dataset pack. SHA256
	// (hex) and Bytes come from the manifest; the worker refuses data that
	// do not match them.
	Load struct {
		Name   string `json:"name"`
		URL    string `json:"url"`
		SHA256 string `json:"sha256"`
		Bytes  int64  `json:"bytes"`
		// For a pack that keeps its training images in a prefix
		// (format version 3), the prefix's length and SHA-256, from
		// the manifest: with nothing loaded yet, Loaded goes out as
		// soon as they are in, before the test images.
		TrainBytes  int64  `json:"trainBytes,omitempty"`
		TrainSHA256 string `json:"trainSha256,omitempty"`
	}
	// Train starts or resumes training with Config. If the run has
	// ended or the seed, batch size, epochs or Deskew (or another option
	// but α and λ) changed, a new run starts; α and λ changes apply to
	// the current run.
	Train struct {
		Config Config `json:"config"`
	}
	// Pause stops training after the current slice; the model is kept.
	Pause struct{}
	// Step takes one minibatch step (starting a run if none is active).
	Step struct {
		Config Config `json:"config"`
	}
	// Reset discards the model and starts from fresh weights.
	Reset struct {
		Config Config `json:"config"`
	}
	// Evaluate asks for an Evaluated event on the test set now.
	Evaluate struct{}
	// Pace sets how fast training runs: StepsPerSecond steps a second at
	// most, or full speed for 0. It changes no step, only when steps are
	// taken, and applies to the current run at once.
	Pace struct {
		StepsPerSecond float64 `json:"stepsPerSecond"`
	}
	// Hessian asks for the explicit Hessian of the small problem the notes'
	// warning is about: the first images of the loaded training set,
	// averaged down to 7×7 (49 pixels and the bias: 500 parameters), at
	// θ = 0, with λ = 0 and nothing pinned, with digit 0 pinned, and with
	// λ = L2. The answer is a HessianView.
	Hessian struct {
		L2     float64 `json:"l2"`
		Deskew bool    `json:"deskew,omitempty"`
	}
	// Warm asks the worker to run its training code once on the loaded
	// data, so that the browser optimises it before the person trains. The
	// page sends it once it is ready, which keeps that work out of the
	// page's start-up. It changes no model and sends no event.
	Warm struct{}
	// UseModel makes a model the page loaded (from a file or its
	// storage) the model of a new run with Config, which training then
	// continues from; the worker answers with Progress, Weights and
	// Evaluated. W is D×10 and B has 10 entries, as in Weights; they
	// travel as bulk bytes.
	UseModel struct {
		Config Config    `json:"config"`
		D      int       `json:"d"`
		W      []float32 `json:"-"`
		B      []float32 `json:"-"`
	}
	// MyDigits gives the worker the digits a person drew: Labels[i] and
	// 784 grey levels per image in Pixels (bulk bytes), at most
	// MaxMyDigits. They replace any sent before (none: forget them); the
	// current run and later ones mix them into every batch at
	// Config.ExtraRate.
	MyDigits struct {
		Labels []uint8 `json:"labels"`
		Pixels []byte  `json:"-"`
	}
)

// Events, worker → page.
type (
	// Loading reports download progress; Total is 0 if unknown.
	Loading struct {
		Name     string `json:"name"`
		Received int64  `json:"received"`
		Total    int64  `json:"total"`
	}
	// Loaded says a pack is decoded and ready.
	Loaded struct {
		Name   string  `json:"name"`
		Train  int     `json:"train"`
		Test   int     `json:"test"`
		Millis float64 `json:"ms"`
		Kernel string  `json:"kernel,omitempty"` // "wasm-simd" or "go"
	}
	// Progress reports training. Run identifies the run (it grows with
	// every Reset or new run), so the page can drop stale updates; Step
	// grows within a run.
	//
	// A Newton run reports one Step per outer iteration: Step and
	// Iteration are the iterations completed, Epoch the passes over the
	// data so far (gradients, H·v products, line-search trials), Seen the
	// examples those passes visited, Loss and EpochLoss the objective J,
	// Rate the latest step length (1 is the full Newton step), Losses one
	// point per iteration, and Reason says why it stopped, for people
	// ("‖∇J‖ ≤ 1e-05 after 9 iterations").
	Progress struct {
		Run       int     `json:"run"`
		State     string  `json:"state"` // "training", "paused", "done"
		Stop      string  `json:"stop,omitempty"`
		Epoch     int     `json:"epoch"`  // epochs completed
		Epochs    int     `json:"epochs"` // the budget, 0 if none
		Step      int     `json:"step"`
		Seen      int64   `json:"seen"`
		PerEpoch  int     `json:"perEpoch"` // examples in one epoch
		Loss      float64 `json:"loss"`     // latest batch loss
		Losses    []Point `json:"-"`        // bulk: step, loss and T as three float64 each
		EpochLoss float64 `json:"epochLoss,omitempty"`
		Rate      float64 `json:"rate"`
		PerSecond float64 `json:"perSecond"`           // examples per second, recent
		Method    string  `json:"method,omitempty"`    // the run's method: "sgd", "gd", "newton"
		Iteration int     `json:"iteration,omitempty"` // Newton: outer iterations completed
		CGSteps   int     `json:"cgSteps,omitempty"`   // Newton: CG steps of the latest iteration
		GradNorm  float64 `json:"gradNorm,omitempty"`  // Newton: ‖∇J‖ at the current weights
		Reason    string  `json:"reason,omitempty"`    // Newton: why the run stopped, for people
	}
	// Weights is a snapshot of the model: W is D×10 (see softmax.Model),
	// B has 10 entries. They travel as bulk bytes.
	Weights struct {
		Run  int       `json:"run"`
		Step int       `json:"step"`
		D    int       `json:"d"`
		W    []float32 `json:"-"`
		B    []float32 `json:"-"`
	}
	// Evaluated reports performance on the test set after Epoch epochs.
	Evaluated struct {
		Run        int         `json:"run"`
		T          float64     `json:"t,omitempty"` // seconds of training in the run
		Epoch      int         `json:"epoch"`
		Step       int         `json:"step"`
		Accuracy   float64     `json:"accuracy"`
		Likelihood float64     `json:"likelihood"`
		Loss       float64     `json:"loss"`
		Confusion  [10][10]int `json:"confusion"`
		PerClass   [10]float64 `json:"perClass"`
	}
	// HessianView is the answer to Hessian: H as an N×N image (Image[i*N+k]
	// is the signed logarithm of |H[i][k]|, from -127 to 127, 0 for 0; the
	// parameters in the order weight j*10+c, bias 490+c), and for each of
	// three objectives its smallest eigenvalues and how many are zero to
	// rounding. Image travels as bulk bytes.
	HessianView struct {
		Images   int           `json:"images"`   // examples H sums over
		Features int           `json:"features"` // 49 pixels (the bias is extra)
		N        int           `json:"n"`        // parameters: (Features+1)·10
		Cases    []HessianCase `json:"cases"`
		Image    []int8        `json:"-"`
	}
	// Samples are test images for the gallery: Labels[i] and 784 grey
	// levels per image in Pixels. Pixels travel as bulk bytes.
	Samples struct {
		Labels []uint8 `json:"labels"`
		Pixels []byte  `json:"-"`
	}
	// Failed reports an error. Message is the whole error in English, for
	// logs; Key names the page's text for it in its catalogs (wasm/ui),
	// with Args filled in (the details, such as a file name or an error
	// from a decoder, which stay as they are). Hint is the key of the text
	// that says how to recover. Fatal means the worker cannot go on and
	// must be restarted.
	Failed struct {
		Message string   `json:"message"`
		Hint    string   `json:"hint,omitempty"`
		Fatal   bool     `json:"fatal,omitempty"`
		Key     string   `json:"key,omitempty"`
		Args    []string `json:"args,omitempty"`
		// Unloaded: the pack that Loaded announced could not be
		// completed (its test images failed) and is dropped; no data
		// is loaded until the next Load.
		Unloaded bool `json:"unloaded,omitempty"`
	}
)

// HessianCase is one objective's Hessian: its λ and pinning, its
// smallest eigenvalues (increasing) and the number of them that are zero
// to rounding (below 1e-10 times the largest).
type HessianCase struct {
	Lambda   float64   `json:"lambda"`
	Pinned   bool      `json:"pinned,omitempty"`
	Smallest []float64 `json:"smallest"`
	Zero     int       `json:"zero"`
	Largest  float64   `json:"largest"`
}

// Point is one batch loss on the chart: at step Step the loss was Loss,
// after T seconds of training in the run (time spent training, not
// waiting: a slowed or paused run does not add to it).
type Point struct {
	Step int     `json:"s"`
	Loss float64 `json:"l"`
	T    float64 `json:"t,omitempty"`
}

func (Load) isMsg()        {}
func (Train) isMsg()       {}
func (Pause) isMsg()       {}
func (Step) isMsg()        {}
func (Reset) isMsg()       {}
func (Evaluate) isMsg()    {}
func (Warm) isMsg()        {}
func (Pace) isMsg()        {}
func (Hessian) isMsg()     {}
func (HessianView) isMsg() {}
func (UseModel) isMsg()    {}
func (MyDigits) isMsg()    {}
func (Loading) isMsg()     {}
func (Loaded) isMsg()      {}
func (Progress) isMsg()    {}
func (Weights) isMsg()     {}
func (Evaluated) isMsg()   {}
func (Samples) isMsg()     {}
func (Failed) isMsg()      {}

// names maps each message type to its wire name and back.
var names = map[string]func() Msg{
	"load":         func() Msg { return &Load{} },
	"train":        func() Msg { return &Train{} },
	"pause":        func() Msg { return &Pause{} },
	"step":         func() Msg { return &Step{} },
	"reset":        func() Msg { return &Reset{} },
	"evaluate":     func() Msg { return &Evaluate{} },
	"warm":         func() Msg { return &Warm{} },
	"pace":         func() Msg { return &Pace{} },
	"hessian":      func() Msg { return &Hessian{} },
	"hessianView":  func() Msg { return &HessianView{} },
	"useModel":     func() Msg { return &UseModel{} },
	"myDigits":     func() Msg { return &MyDigits{} },
	"loading":      func() Msg { return &Loading{} },
	"loaded":       func() Msg { return &Loaded{} },
	"progress":     func() Msg { return &Progress{} },
	"weights":      func() Msg { return &Weights{} },
	"evaluated":    func() Msg { return &Evaluated{} },
	"samples":      func() Msg { return &Samples{} },
	"failed":       func() Msg { return &Failed{} },
	"apply":        func() Msg { return &Apply{} },
	"findExamples": func() Msg { return &FindExamples{} },
	"pickTrain":    func() Msg { return &PickTrain{} },
	"examples":     func() Msg { return &Examples{} },
	"picked":       func() Msg { return &Picked{} },
}

// Name returns the wire name of m's type, such as "progress".
func Name(m Msg) string {
	switch m.(type) {
	case Load, *Load:
		return "load"
	case Train, *Train:
		return "train"
	case Pause, *Pause:
		return "pause"
	case Step, *Step:
		return "step"
	case Reset, *Reset:
		return "reset"
	case Evaluate, *Evaluate:
		return "evaluate"
	case Warm, *Warm:
		return "warm"
	case Pace, *Pace:
		return "pace"
	case Hessian, *Hessian:
		return "hessian"
	case HessianView, *HessianView:
		return "hessianView"
	case UseModel, *UseModel:
		return "useModel"
	case MyDigits, *MyDigits:
		return "myDigits"
	case Loading, *Loading:
		return "loading"
	case Loaded, *Loaded:
		return "loaded"
	case Progress, *Progress:
		return "progress"
	case Weights, *Weights:
		return "weights"
	case Evaluated, *Evaluated:
		return "evaluated"
	case Samples, *Samples:
		return "samples"
	case Failed, *Failed:
		return "failed"
	case Apply, *Apply:
		return "apply"
	case FindExamples, *FindExamples:
		return "findExamples"
	case PickTrain, *PickTrain:
		return "pickTrain"
	case Examples, *Examples:
		return "examples"
	case Picked, *Picked:
		return "picked"
	}
	return ""
}

type envelope struct {
	V    int             `json:"v"`
	Type string          `json:"type"`
	Body json.RawMessage `json:"body"`
}

// ErrVersion is returned (wrapped) by Decode for an envelope of another
// protocol version.
var ErrVersion = errors.New("protocol: unsupported version")

// Encode returns the wire form of m: the JSON envelope and, for the
// messages that carry numbers or pixels in bulk (Progress's loss points,
// Weights, Samples, ...), the bulk bytes (nil otherwise).
func Encode(m Msg) (env, bulk []byte, err error) {
	name := Name(m)
	if name == "" {
		return nil, nil, fmt.Errorf("protocol: cannot encode %T", m)
	}
	// A pointer to a message encodes as the message.
	switch v := deref(m).(type) {
	case Progress:
		bulk = packPoints(v.Losses)
	case Weights:
		bulk = packFloats(v.W, v.B)
	case UseModel:
		bulk = packFloats(v.W, v.B)
	case HessianView:
		bulk = int8Bytes(v.Image)
	case Samples:
		bulk = v.Pixels
	case MyDigits:
		bulk = v.Pixels
	case Apply:
		bulk = v.Pixels
	case Examples:
		bulk = v.Pixels
	case Picked:
		bulk = v.Pixels
	}
	body, err := json.Marshal(m)
	if err != nil {
		return nil, nil, fmt.Errorf("protocol: encoding %s: %w", name, err)
	}
	env, err = json.Marshal(envelope{V: Version, Type: name, Body: body})
	if err != nil {
		return nil, nil, fmt.Errorf("protocol: encoding %s: %w", name, err)
	}
	return env, bulk, nil
}

// Decode parses a message from its envelope and bulk bytes and returns it
// as a value (Progress, not *Progress). It returns an error, never panics,
// for malformed JSON, another version (wrapping ErrVersion), an unknown
// type, or bulk bytes that do not fit the message.
func Decode(env, bulk []byte) (Msg, error) {
	var e envelope
	if err := json.Unmarshal(env, &e); err != nil {
		return nil, fmt.Errorf("protocol: bad envelope: %w", err)
	}
	if e.V != Version {
		return nil, fmt.Errorf("%w: %d, want %d", ErrVersion, e.V, Version)
	}
	mk, ok := names[e.Type]
	if !ok {
		return nil, fmt.Errorf("protocol: unknown message type %q", e.Type)
	}
	m := mk()
	if len(e.Body) > 0 && string(e.Body) != "null" {
		if err := json.Unmarshal(e.Body, m); err != nil {
			return nil, fmt.Errorf("protocol: bad %s body: %w", e.Type, err)
		}
	}
	var err error
	switch v := m.(type) {
	case *Progress:
		v.Losses, err = points(bulk)
	case *Weights:
		v.W, v.B, err = weights(v.D, bulk, "weights")
	case *UseModel:
		v.W, v.B, err = weights(v.D, bulk, "useModel")
	case *Samples:
		v.Pixels, err = images(v.Labels, bulk, "samples")
	case *HessianView:
		if v.N < 1 || v.N > 1000 || len(bulk) != v.N*v.N {
			return nil, fmt.Errorf("protocol: a Hessian of %d parameters needs %d bytes, got %d", v.N, v.N*v.N, len(bulk))
		}
		v.Image = make([]int8, len(bulk))
		for i, b := range bulk {
			v.Image[i] = int8(b)
		}
	case *MyDigits:
		if len(v.Labels) > MaxMyDigits {
			return nil, fmt.Errorf("protocol: %d of my digits, more than %d", len(v.Labels), MaxMyDigits)
		}
		v.Pixels, err = images(v.Labels, bulk, "myDigits")
		v.Pixels = bulk
	case *Apply:
		if len(bulk) != 784 || v.Label > 9 {
			return nil, fmt.Errorf("protocol: apply needs 784 bytes and a label 0 to 9, got %d bytes and label %d", len(bulk), v.Label)
		}
		v.Pixels = bulk
	case *Picked:
		if len(bulk) != 784 || v.Label > 9 {
			return nil, fmt.Errorf("protocol: picked needs 784 bytes and a label 0 to 9, got %d bytes and label %d", len(bulk), v.Label)
		}
		v.Pixels = bulk
	case *Examples:
		n := len(v.Index)
		if len(bulk) != 784*n || len(v.Probs) != 10*n {
			return nil, fmt.Errorf("protocol: %d examples need %d bytes and %d probabilities, got %d and %d", n, 784*n, 10*n, len(bulk), len(v.Probs))
		}
		if n == 0 {
			bulk = nil
		}
		v.Pixels = bulk
	}
	if err != nil {
		return nil, err
	}
	return deref(m), nil
}

// weights splits the bulk bytes of a model of d features into W and B.
func weights(d int, bulk []byte, name string) (w, b []float32, err error) {
	if d < 1 || d > 1<<16 {
		return nil, nil, fmt.Errorf("protocol: %s with %d features", name, d)
	}
	if len(bulk) != 4*(d*10+10) {
		return nil, nil, fmt.Errorf("protocol: %s for %d features need %d bytes, got %d", name, d, 4*(d*10+10), len(bulk))
	}
	f := unpackFloats(bulk)
	return f[:d*10], f[d*10:], nil
}

// images checks the bulk bytes of len(labels) images of 784 pixels.
func images(labels []uint8, bulk []byte, name string) ([]byte, error) {
	if len(bulk) != 784*len(labels) {
		return nil, fmt.Errorf("protocol: %d %s need %d bytes, got %d", len(labels), name, 784*len(labels), len(bulk))
	}
	for i, y := range labels {
		if y > 9 {
			return nil, fmt.Errorf("protocol: %s %d has label %d", name, i, y)
		}
	}
	return bulk, nil
}

// deref returns the value a freshly decoded pointer points to.
func deref(m Msg) Msg {
	switch v := m.(type) {
	case *Load:
		return *v
	case *Train:
		return *v
	case *Pause:
		return *v
	case *Step:
		return *v
	case *Reset:
		return *v
	case *Evaluate:
		return *v
	case *Warm:
		return *v
	case *Pace:
		return *v
	case *Hessian:
		return *v
	case *HessianView:
		return *v
	case *UseModel:
		return *v
	case *MyDigits:
		return *v
	case *Loading:
		return *v
	case *Loaded:
		return *v
	case *Progress:
		return *v
	case *Weights:
		return *v
	case *Evaluated:
		return *v
	case *Samples:
		return *v
	case *Failed:
		return *v
	case *Apply:
		return *v
	case *FindExamples:
		return *v
	case *PickTrain:
		return *v
	case *Examples:
		return *v
	case *Picked:
		return *v
	}
	return m
}

// int8Bytes returns the bytes of v, two's complement.
func int8Bytes(v []int8) []byte {
	b := make([]byte, len(v))
	for i, x := range v {
		b[i] = byte(x)
	}
	return b
}
