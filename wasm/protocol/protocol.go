// Package protocol defines the messages between the page and the training
// worker, and their wire form. It is plain Go (no syscall/js), so both sides
// and the tests share one definition.
//
// The set of messages is closed: every message implements Msg. Commands
// (page → worker) are verbs: Load, Train, Pause, Step, Reset, Evaluate,
// Warm, and for the inspector (inspect.go) Apply, FindExamples, PickTrain.
// Events (worker → page) are nouns: Loading, Loaded, Progress, Weights,
// Evaluated, Samples, Failed, and Examples, Picked.
//
// The wire form of a message is a JSON envelope
//
//	{"v":1,"type":"progress","body":{...}}
//
// plus, for the messages that carry bulk numbers (Weights, Samples, and
// the inspector's Apply, Examples, Picked), a
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
	Method       string  `json:"method,omitempty"` // "sgd" (also B = m), or "newton"; "" is sgd
	Deskew       bool    `json:"deskew,omitempty"`
}

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
	// Warm asks the worker to run its training code once on the loaded
	// data, so that the browser optimises it before the person trains. The
	// page sends it once it is ready, which keeps that work out of the
	// page's start-up. It changes no model and sends no event.
	Warm struct{}
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
		Losses    []Point `json:"losses,omitempty"`
		EpochLoss float64 `json:"epochLoss,omitempty"`
		Rate      float64 `json:"rate"`
		PerSecond float64 `json:"perSecond"` // examples per second, recent
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
	}
)

// Point is one batch loss on the chart: at step Step the loss was Loss,
// after T seconds of training in the run (time spent training, not
// waiting: a slowed or paused run does not add to it).
type Point struct {
	Step int     `json:"s"`
	Loss float64 `json:"l"`
	T    float64 `json:"t,omitempty"`
}

func (Load) isMsg()      {}
func (Train) isMsg()     {}
func (Pause) isMsg()     {}
func (Step) isMsg()      {}
func (Reset) isMsg()     {}
func (Evaluate) isMsg()  {}
func (Warm) isMsg()      {}
func (Loading) isMsg()   {}
func (Loaded) isMsg()    {}
func (Progress) isMsg()  {}
func (Weights) isMsg()   {}
func (Evaluated) isMsg() {}
func (Samples) isMsg()   {}
func (Failed) isMsg()    {}

// names maps each message type to its wire name and back.
var names = map[string]func() Msg{
	"load":      func() Msg { return &Load{} },
	"train":     func() Msg { return &Train{} },
	"pause":     func() Msg { return &Pause{} },
	"step":      func() Msg { return &Step{} },
	"reset":     func() Msg { return &Reset{} },
	"evaluate":  func() Msg { return &Evaluate{} },
	"warm":      func() Msg { return &Warm{} },
	"loading":   func() Msg { return &Loading{} },
	"loaded":    func() Msg { return &Loaded{} },
	"progress":  func() Msg { return &Progress{} },
	"weights":   func() Msg { return &Weights{} },
	"evaluated": func() Msg { return &Evaluated{} },
	"samples":   func() Msg { return &Samples{} },
	"failed":    func() Msg { return &Failed{} },

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

// Encode returns the wire form of m: the JSON envelope and, for Weights
// and Samples, the bulk bytes (nil otherwise).
func Encode(m Msg) (env, bulk []byte, err error) {
	name := Name(m)
	if name == "" {
		return nil, nil, fmt.Errorf("protocol: cannot encode %T", m)
	}
	switch v := m.(type) {
	case Weights:
		bulk = packFloats(v.W, v.B)
	case *Weights:
		bulk = packFloats(v.W, v.B)
	case Samples:
		bulk = v.Pixels
	case *Samples:
		bulk = v.Pixels
	case Apply:
		bulk = v.Pixels
	case *Apply:
		bulk = v.Pixels
	case Examples:
		bulk = v.Pixels
	case *Examples:
		bulk = v.Pixels
	case Picked:
		bulk = v.Pixels
	case *Picked:
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
	switch v := m.(type) {
	case *Weights:
		if v.D < 1 || v.D > 1<<16 {
			return nil, fmt.Errorf("protocol: weights with %d features", v.D)
		}
		if len(bulk) != 4*(v.D*10+10) {
			return nil, fmt.Errorf("protocol: weights for %d features need %d bytes, got %d", v.D, 4*(v.D*10+10), len(bulk))
		}
		f := unpackFloats(bulk)
		v.W, v.B = f[:v.D*10], f[v.D*10:]
	case *Samples:
		if len(bulk) != 784*len(v.Labels) {
			return nil, fmt.Errorf("protocol: %d samples need %d bytes, got %d", len(v.Labels), 784*len(v.Labels), len(bulk))
		}
		for i, y := range v.Labels {
			if y > 9 {
				return nil, fmt.Errorf("protocol: sample %d has label %d", i, y)
			}
		}
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
	return deref(m), nil
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
