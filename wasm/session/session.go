// Package session is the training worker's logic: it reads commands
// (protocol.Load, Train, Pause, Step, Reset, Evaluate, EvaluateModel,
// Warm, Pace, Hessian, UseModel, MyDigits, and the inspector's Apply,
// FindExamples, PickTrain: apply.go) from a channel,
// loads a dataset pack, trains a softmax model in short slices, and writes
// events (Loading, Loaded, Samples, Progress, Weights, Evaluated, Failed)
// to another channel. Every run sends its θ at its keyframes
// (protocol.Keyframes) as Weights with Key set, and EvaluateModel measures
// one of them without touching the run.
//
// It is plain Go with no syscall/js: what differs between the browser and
// the tests (fetching, the clock, yielding to the JS event loop) comes in
// through Env, so the whole loop is tested natively.
//
// The loop never blocks on training: while a run is training it takes
// steps for about 8 ms (a slice), reports, calls Env.Yield, handles every
// command already waiting, and goes on. While paused or idle it blocks on
// the command channel. Slicing never changes the arithmetic: the same
// Config gives the same weights, bit for bit, however the steps are cut.
package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// Env supplies what differs between the browser and the tests.
type Env interface {
	// Fetch returns the body of url. It calls progress, on the calling
	// goroutine, with the body received so far (valid during the call)
	// and the expected total (0 if unknown) as the body arrives. It
	// returns an error naming the URL for a network failure or an HTTP
	// status other than 2xx, and should give up when ctx is done. If no
	// byte arrives for StallAfter (the response's headers included), it
	// gives up with an error wrapping ErrStalled: a download that keeps
	// receiving bytes, however slowly, goes on.
	Fetch(ctx context.Context, url string, progress func(body []byte, total int64)) ([]byte, error)
	// Now returns the current time; only differences between its results
	// are used, to cut slices and pace reports.
	Now() time.Time
	// Yield lets other work run between slices. In the browser it must
	// return to the JS event loop so that queued commands are delivered.
	Yield()
	// SHA256 returns the SHA-256 digest of b. In the browser it uses the
	// platform's own (crypto.subtle), several times faster than Go's
	// compiled to WebAssembly: 2.4 MB take 24 ms in Go there.
	SHA256(b []byte) ([32]byte, error)
	// Kernel names the training kernel in use, for the page to show:
	// "wasm-simd" or "go". If the SIMD kernel loaded but was refused
	// (it failed its bitwise check against the Go code), refused says
	// why, in English; it is empty otherwise.
	Kernel() (name, refused string)
	// After returns a channel that delivers once d has passed (time.After
	// in the browser; at once, with the clock moved on, in tests). A slowed
	// run waits on it between steps, and on the commands at the same time.
	After(d time.Duration) <-chan time.Time
	// Drop takes an event of a rehearsal (rehearse), which the page must
	// not see: in the browser it is encoded and posted as every event is,
	// but to a port whose messages nobody reads, so that the rehearsal runs
	// the code a run's events run.
	Drop(m protocol.Msg)
	// StartHelper starts a helper of the pool (pool.go): in the browser a
	// further Web Worker running Help on the same program. It returns an
	// error, in English, if the browser refuses one.
	StartHelper() (Helper, error)
}

// StallAfter is how long a download may receive nothing before Fetch gives
// up with ErrStalled: long enough for a slow school network, whose every
// chunk still comes within seconds, short enough that a held or dropped
// connection ends in an error with Retry instead of "loading" for ever.
const StallAfter = 15 * time.Second

// ErrStalled is the error Env.Fetch wraps when no byte arrived for
// StallAfter.
var ErrStalled = errors.New("no data arrived for " + strconv.Itoa(int(StallAfter/time.Second)) + " s")

// Pacing of the sliced loop and of the reports.
const (
	sliceTime       = 8 * time.Millisecond   // training per slice
	checkExamples   = 256                    // examples between looks at the clock
	progressEvery   = 80 * time.Millisecond  // Progress at most this often, but see report
	weightsEvery    = 250 * time.Millisecond // Weights at most this often while training
	epochWeightsGap = 50 * time.Millisecond  // Weights on an epoch end, unless this recent
	evaluateEvery   = 250 * time.Millisecond // full-batch runs' evaluations at most this often
	loadingEvery    = 100 * time.Millisecond // Loading at most this often
	pointsPerEpoch  = 250                    // loss points per epoch at most
	samplesPerClass = 6                      // gallery images of each digit
)

// Hints shown with Failed events: keys of the page's catalogs (wasm/ui),
// which say in each language how to recover.
const (
	hintNoData   = "hint.noData"   // wait for the data to load, or press Retry
	hintConfig   = "hint.config"   // correct the value and press Train again
	hintFetch    = "hint.fetch"    // check the connection and press Retry
	hintChecksum = "hint.checksum" // Retry; run make data if the file changed
	hintDecode   = "hint.decode"   // rebuild the data with make data, then Retry
	hintDiverged = "hint.diverged" // lower the learning rate, or Reset
	hintInternal = "hint.internal" // Reset; if it happens again, reload

	// Failures that are not a refused value, each under its own key.
	hintHessian = "hint.hessian"     // try another λ, or reload; training is not affected
	hintNewton  = "hint.newtonStart" // Reset to start from θ = 0, or choose SGD or gradient descent
	hintResume  = "hint.resume"      // the run starts again
)

// logf logs internal failures to stderr, which is the console in the
// browser.
var logf = func(format string, args ...any) { fmt.Fprintf(os.Stderr, format, args...) }

// session is the state of one worker.
type session struct {
	ctx              context.Context
	out              chan<- protocol.Msg
	env              Env
	data             *data                      // nil until a pack is loaded
	myDigits         *softmax.Examples[float32] // my digits (MyDigits), nil if none
	myDigitsDeskewed *softmax.Examples[float32] // the same, straightened (core/digit.Deskew)
	run              *run                       // nil until a run is created
	runs             int                        // the last run id handed out
	training         bool                       // the loop is taking steps
	warmed           bool                       // warmUp has run
	pace             pacer                      // how fast the loop takes steps
	pool             *pool                      // the workers of full passes (pool.go)
	curv             *curvatureJob              // a pending λ_max (curvature.go), nil if none
	quiet            bool                       // events go to Env.Drop (rehearse)
}

// Run reads commands from in and writes events to out until ctx is done or
// in is closed. It handles one command at a time and never panics: a bad
// command or an internal failure becomes a protocol.Failed event and the
// session goes on. Sends on out block (until ctx is done), so the reader of
// out paces the session.
func Run(ctx context.Context, in <-chan protocol.Msg, out chan<- protocol.Msg, env Env) {
	s := &session{ctx: ctx, out: out, env: env}
	s.pool = newPool(s)
	defer func() {
		for _, m := range s.pool.live() {
			m.h.Stop()
		}
	}()
	for ctx.Err() == nil {
		var next <-chan time.Time // nil, which never delivers, unless a step waits
		if s.training {
			wait := s.pace.wait(env.Now())
			if wait <= 0 {
				s.safely("training", s.slice)
				env.Yield()
				if !s.drain(in) {
					return
				}
				continue
			}
			// A slowed run: wait for the next step, or for a command.
			next = env.After(wait)
		} else if s.curv != nil {
			s.safely("curvature", s.curvatureStep)
			env.Yield()
			if !s.drain(in) {
				return
			}
			continue
		}
		select {
		case <-ctx.Done():
			return
		case m, ok := <-in:
			if !ok {
				return
			}
			// The helpers' answers already here first: a run then starts
			// with the pool as it is (which shards each helper holds).
			s.safely("pool", s.pool.takeReplies)
			s.safely(protocol.Name(m), func() { s.handle(m) })
		case r := <-s.pool.replies:
			s.safely("pool", func() { s.pool.handle(r) })
		case <-s.pool.nextDeadline():
			s.safely("pool", s.pool.overdue)
		case <-next:
		}
	}
}

// drain handles every command, and every reply of the pool's helpers,
// waiting without blocking. It returns false if in is closed.
func (s *session) drain(in <-chan protocol.Msg) bool {
	s.safely("pool", s.pool.overdue)
	for {
		select {
		case m, ok := <-in:
			if !ok {
				return false
			}
			s.safely(protocol.Name(m), func() { s.handle(m) })
		case r := <-s.pool.replies:
			s.safely("pool", func() { s.pool.handle(r) })
		default:
			return true
		}
	}
}

// safely runs f, turning a panic into a logged, non-fatal Failed event.
// Training stops; the data and the run are kept.
func (s *session) safely(what string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			stack := make([]byte, 8<<10)
			stack = stack[:runtime.Stack(stack, false)]
			logf("session: panic in %s: %v\n%s\n", what, r, stack)
			s.training = false
			s.failKey("err.internal", hintInternal, what, fmt.Sprint(r))
		}
	}()
	f()
}

// handle carries out one command.
func (s *session) handle(m protocol.Msg) {
	switch m.(type) {
	case protocol.Train, protocol.Step, protocol.Reset, protocol.Load, protocol.UseModel, protocol.Apply, protocol.Resume:
		s.curv = nil // it was for a model or data about to change
	}
	switch m := m.(type) {
	case protocol.Load:
		s.load(m)
	case protocol.Train:
		s.train(m.Config)
	case protocol.Pause:
		s.pause()
	case protocol.Step:
		s.step(m.Config)
	case protocol.Reset:
		s.reset(m.Config)
	case protocol.Evaluate:
		s.evaluate()
	case protocol.EvaluateModel:
		s.evaluateModel(m)
	case protocol.Warm:
		s.warm()
	case protocol.Pace:
		s.setPace(m.StepsPerSecond)
	case protocol.Hessian:
		s.hessian(m)
	case protocol.UseModel:
		s.useModel(m)
	case protocol.MyDigits:
		s.useMyDigits(m)
	case protocol.Apply:
		s.apply(m)
	case protocol.FindExamples:
		s.findExamples(m)
	case protocol.PickTrain:
		s.pickTrain(m)
	case protocol.Resume:
		s.resume(m)
	case protocol.Workers:
		s.pool.setWorkers(m.N)
	case protocol.Curvature:
		s.curvature(m.Config)
	default:
		name := protocol.Name(m)
		if name == "" {
			name = fmt.Sprintf("%T", m)
		}
		s.failKey("err.command", "", name)
	}
}

// send writes m to out unless ctx is done first.
func (s *session) send(m protocol.Msg) {
	if s.quiet {
		s.env.Drop(m)
		return
	}
	select {
	case s.out <- m:
	case <-s.ctx.Done():
	}
}

// failKey sends a non-fatal Failed event with the page's text for it: the
// catalog key and its arguments. Message is the English text, for logs.
func (s *session) failKey(key, hint string, args ...string) {
	s.send(protocol.Failed{Message: englishFailure(key, args), Hint: hint, Key: key, Args: args})
}

// refusal is an error that names its own catalog key and hint, for a
// failure that is not a refused setting: failErr reports it under its
// key, and any other error as err.config.
type refusal struct {
	key, hint string
	err       error // the detail, the key's argument; nil for a key without one
}

func (r *refusal) Error() string {
	if r.err == nil {
		return englishFailure(r.key, nil)
	}
	return englishFailure(r.key, []string{r.err.Error()})
}

func (r *refusal) Unwrap() error { return r.err }

// failErr sends Failed for err: under its refusal's key and hint if it
// has one, otherwise as settings the worker refused (err.config).
func (s *session) failErr(err error) {
	if r, ok := errors.AsType[*refusal](err); ok {
		if r.err == nil {
			s.failKey(r.key, r.hint)
		} else {
			s.failKey(r.key, r.hint, r.err.Error())
		}
		return
	}
	s.failKey("err.config", hintConfig, err.Error())
}

// failures are the English forms of failKey's keys, for Message; the page
// shows its own catalogs' text.
var failures = map[string]string{
	"err.internal":   "internal error in %s: %s",
	"err.command":    "the worker does not accept %s messages",
	"err.noData":     "no data loaded yet",
	"err.fetch":      "loading pack %s: %s",
	"err.stall":      "loading pack %s stalled: no data arrived for %s s",
	"err.checksum":   "%s",
	"err.decode":     "pack %s: %s",
	"err.empty":      "pack %s has no training images",
	"err.config":     "%s",
	"err.pace":       "pace %s steps per second: want 0 (full speed) to 10000",
	"err.modelShape": "the model has %s features, the data %s",
	"err.modelNaN":   "the model has a weight that is NaN or infinite",
	"err.myDigits":   "my digits: %s",
	"err.newton":     "Newton's method: %s",
	"err.update":     "the update made a weight or the loss non-finite; the weights were left as they were",
	"err.resume":     "the run could not be resumed: %s",
	"err.diverged":   "the loss diverged (became NaN or infinite) at step %s; the weights were restored to the start of epoch %s",

	"err.hessian":     "the Hessian could not be formed: %s",
	"err.newtonStart": "Newton's method could not start: %s",
	"err.newtonModel": "Newton's method starts from θ = 0 and cannot continue a loaded model",
}

func englishFailure(key string, args []string) string {
	a := make([]any, len(args))
	for i, v := range args {
		a[i] = v
	}
	if f, ok := failures[key]; ok {
		return fmt.Sprintf(f, a...)
	}
	return key + ": " + strings.Join(args, ", ")
}

// needData reports whether a pack is loaded, sending Failed if not.
func (s *session) needData() bool {
	if s.data == nil {
		s.failKey("err.noData", hintNoData)
		return false
	}
	return true
}
