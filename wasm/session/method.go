package session

import (
	"fmt"

	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// A method is how a run trains, one type per optimiser, each in its own
// file: minibatch SGD (sgd.go), full-batch gradient descent (gd.go) and
// Newton's method (newton.go). The session picks the type once, from
// Config.Method (methodFor), and afterwards only calls these methods; a
// further optimiser is a further type and a line in methods.
//
// A method value is made for a validated Config, then started once; the
// session keeps its run (run.go) and reports what the method says.
type method interface {
	// name is the method's name for Progress: "sgd", "gd" or "newton".
	name() string
	// start makes the run's trainer on the session's data for c: from
	// the model from if it is not nil (UseModel), otherwise from c's
	// start. It returns an error, and changes nothing, if it cannot.
	start(s *session, c protocol.Config, from *softmax.Model[float32]) error
	// points is how many steps each loss point of the chart averages.
	points() int
	// everyStepAnEpoch reports whether every step is a pass over all the
	// data (full-batch gradient descent): its evaluations are spaced out.
	everyStepAnEpoch() bool
	// keep reports whether the run, still running with the Config old,
	// can go on with c, and if so takes c's changeable settings (α, λ);
	// it returns an error if one of c's new values is refused.
	keep(old, c protocol.Config) (bool, error)
	// slice trains for about sliceTime (and as the session's pace
	// allows), reports, and clears s.training if the run ended; step
	// takes one step (a batch, an outer iteration) with training already
	// stopped, and reports it at once.
	slice(s *session)
	step(s *session)
	// ended reports whether the run has stopped.
	ended() bool
	// at returns the steps taken and the passes over the data.
	at() (step, epoch int)
	// model returns the weights as the page sees them; the caller must
	// not change them (except through stepOn) or keep them across steps.
	model() *softmax.Model[float32]
	// progress returns the method's part of a Progress: the fields the
	// session does not fill in (Run, State, PerEpoch, Losses,
	// PerSecond, Method). Seen counts the examples visited.
	progress() protocol.Progress
	// setMyDigits gives the run my digits (nil for none), as a run with
	// its Config trains on them.
	setMyDigits(x *softmax.Examples[float32]) error
	// state returns the run's state between two steps, from which
	// restore goes on, or nil if the method keeps none (newton.go).
	state() ([]byte, error)
	// restore makes a started run go on from state, which state wrote
	// for a run of c on the same data, and returns c with the settings
	// a running run can change (α, λ) as the state has them. It returns
	// an error, and the run is unusable, if state does not fit.
	restore(c protocol.Config, state []byte) (protocol.Config, error)
	// stepOn applies the inspector's update, one step with B = 1 on one
	// example, to the run's weights, as train.StepOn does.
	stepOn(index []uint16, value []float32, label uint8, rate float64, o softmax.Objective) (train.Stats, error)
}

// methods maps Config.Method to a constructor of its method: it validates
// c for m training examples and returns the method, not yet started.
var methods = map[string]func(c protocol.Config, m int) (method, error){
	"":       newMinibatch,
	"sgd":    newMinibatch,
	"gd":     newFullBatch,
	"newton": newNewton,
}

// methodFor returns the method c names, validated for m training
// examples, or an error naming what is wrong.
func methodFor(c protocol.Config, m int) (method, error) {
	f, ok := methods[c.Method]
	if !ok {
		return nil, fmt.Errorf("train: method %q: want \"sgd\", \"gd\" or \"newton\"", c.Method)
	}
	return f(c, m)
}
