package session

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/metrics"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// data is a loaded pack, converted once for training and evaluation.
type data struct {
	name  string
	d     int
	train *softmax.Examples[float32]
	test  *softmax.Examples[float32]

	deskewed *data // the same images straightened, for runs with Config.Deskew
}

// load fetches, verifies and decodes the pack l names, then sends Loaded
// and the gallery's Samples. A successful load drops the current run (it
// was trained on other data); a failed one changes nothing.
//
// When nothing is loaded, so that there is nothing to lose, and the pack
// keeps its training images in a prefix whose length and digest l gives
// (version 3), Loaded goes out as soon as that prefix is in and checked:
// on a first visit the page is ready while the test images still arrive.
// Commands wait until they are in too, so a run never starts without
// them; should the rest fail, Failed says that the pack is unloaded.
func (s *session) load(l protocol.Load) {
	start := s.env.Now()
	last := start
	s.send(protocol.Loading{Name: l.Name, Total: max(l.Bytes, 0)})
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	early := s.data == nil && l.TrainBytes > 0 && l.TrainSHA256 != ""
	var (
		train  *dataset.Set
		failed *loadError // the prefix's failure
	)
	progress := func(b []byte, total int64) {
		if early && train == nil && failed == nil && int64(len(b)) >= l.TrainBytes {
			if train, failed = s.prefix(l, b[:l.TrainBytes]); failed != nil {
				cancel()
				return
			}
			s.announce(l, train, b, start)
		}
		if train != nil {
			return // the page is ready: no more Loading
		}
		if total <= 0 {
			total = max(l.Bytes, 0)
		}
		if now := s.env.Now(); now.Sub(last) >= loadingEvery {
			last = now
			s.send(protocol.Loading{Name: l.Name, Received: int64(len(b)), Total: total})
		}
	}
	b, err := s.env.Fetch(ctx, l.URL, progress)
	loaded := train != nil
	switch {
	case failed != nil:
		s.failLoad(false, *failed)
		return
	case errors.Is(err, ErrStalled):
		s.failLoad(loaded, loadError{"err.stall", hintFetch, []string{l.Name, strconv.Itoa(int(StallAfter / time.Second))}})
		return
	case err != nil:
		s.failLoad(loaded, loadError{"err.fetch", hintFetch, []string{l.Name, err.Error()}})
		return
	}
	if !loaded {
		s.send(protocol.Loading{Name: l.Name, Received: int64(len(b)), Total: int64(len(b))})
	}
	if err := verify(l, b, s.env.SHA256); err != nil {
		s.failLoad(loaded, loadError{"err.checksum", hintChecksum, []string{err.Error()}})
		return
	}
	var test *dataset.Set
	if loaded {
		test, err = dataset.DecodeTest(b)
	} else {
		var pack *dataset.Pack
		if pack, err = dataset.Decode(b); err == nil {
			train, test = pack.Train, pack.Test
		}
	}
	if err != nil {
		s.failLoad(loaded, loadError{"err.decode", hintDecode, []string{l.Name, err.Error()}})
		return
	}
	if !loaded {
		if train.Len() == 0 {
			s.failKey("err.empty", hintDecode, l.Name)
			return
		}
		s.announce(l, train, b, start)
	}
	// The straightened training images and the test images after Loaded,
	// before the next command, which is all a run needs (on a first visit
	// Loaded ends the wait for "ready", and this code still runs from the
	// browser's baseline compilation).
	s.data.deskewed.train = straightened(train)
	s.data.test = softmax.FromSet[float32](test)
	s.data.deskewed.test = straightened(test)
	samples := Gallery(test)
	s.send(samples)
	s.pool.prime() // the helpers get their shards now, while the person reads
	// Collect the download and the decoder's buffers now, while the person
	// reads the page: otherwise that collection falls into the first
	// epoch, where marking the pack's tens of megabytes in WebAssembly
	// stalls training for tens of milliseconds.
	b, train, test = nil, nil, nil
	runtime.GC()
	// The first read of runtime/metrics builds its tables (about 9 ms as
	// WebAssembly); done here, it is not the end of the first run's.
	protocol.HeapLive()
}

// loadError is a failed load's catalog key, hint and arguments.
type loadError struct {
	key, hint string
	args      []string
}

// prefix checks the training images' prefix of a version 3 pack against
// l and decodes them.
func (s *session) prefix(l protocol.Load, b []byte) (*dataset.Set, *loadError) {
	if n, err := dataset.TrainPrefix(b); err != nil {
		return nil, &loadError{"err.decode", hintDecode, []string{l.Name, err.Error()}}
	} else if int64(n) != l.TrainBytes {
		return nil, &loadError{"err.checksum", hintChecksum, []string{fmt.Sprintf("pack %s: checksum mismatch: the training images end at byte %d, the manifest says %d", l.Name, n, l.TrainBytes)}}
	}
	if err := verifyDigest(l.Name+"'s training images", b, l.TrainSHA256, s.env.SHA256); err != nil {
		return nil, &loadError{"err.checksum", hintChecksum, []string{err.Error()}}
	}
	train, err := dataset.DecodeTrain(b)
	if err != nil {
		return nil, &loadError{"err.decode", hintDecode, []string{l.Name, err.Error()}}
	}
	if train.Len() == 0 {
		return nil, &loadError{"err.empty", hintDecode, []string{l.Name}}
	}
	return train, nil
}

// announce makes train the loaded training set, drops the current run and
// sends Loaded. b is the pack so far, whose header gives the test count.
func (s *session) announce(l protocol.Load, train *dataset.Set, b []byte, start time.Time) {
	_, nTest, _ := dataset.Counts(b) // checked by the decoder already
	s.data = &data{
		name:     l.Name,
		d:        dataset.Pixels,
		train:    softmax.FromSet[float32](train),
		deskewed: &data{name: l.Name, d: dataset.Pixels}, // filled in before the next command
	}
	s.run, s.training = nil, false
	s.pool.newPack()
	kernel, refused := s.env.Kernel()
	s.send(protocol.Loaded{
		Kernel:        kernel,
		KernelRefused: refused,
		Name:          l.Name,
		Train:         train.Len(),
		Test:          nTest,
		Millis:        float64(s.env.Now().Sub(start)) / float64(time.Millisecond),
	})
	s.env.Yield() // let it go out now
}

// failLoad reports a failed load. If Loaded had gone out for it (its
// test images failed), the pack is dropped and Failed says so.
func (s *session) failLoad(loaded bool, e loadError) {
	if !loaded {
		s.failKey(e.key, e.hint, e.args...)
		return
	}
	s.data, s.run, s.training = nil, nil, false
	s.send(protocol.Failed{Message: englishFailure(e.key, e.args), Hint: e.hint, Key: e.key, Args: e.args, Unloaded: true})
}

// warmExamples is how many images warmUp trains on.
const warmExamples = 3000

// warm handles Warm: once a pack is loaded, it cuts the training images
// into the pairs and singles the batch gradient's kernel reads
// (softmax.Block), raw and straightened, and runs warmUp, once per worker.
// Cutting them here, while the person reads the page, keeps that pass
// over the data (about 2 ms a million pixels natively, 11 as WebAssembly)
// out of the first Train; a run on a pack that was not warmed cuts its
// set when it starts.
func (s *session) warm() {
	if s.warmed || s.data == nil {
		return
	}
	s.warmed = true
	softmax.Block(s.data.train)
	if s.data.deskewed != nil && s.data.deskewed.train != nil {
		softmax.Block(s.data.deskewed.train)
	}
	warmUp(s.data)
	s.rehearse()
	// The blocks grew the heap by about 6 bytes a pixel, and the warm-up
	// left its garbage: collect now, while the person reads, so that the
	// next collection does not fall into the first epoch.
	runtime.GC()
}

// rehearse trains one epoch of the page's default run (SGD, B = 100, on
// the straightened images) through the session's own code, the slices,
// the reports, the evaluation and the snapshot included, its events going
// to Env.Drop, then puts the session back as it was. warmUp runs only the
// kernels and the trainer; without the rehearsal, the rest of a run's
// code would run from the browser's baseline compilation, or be compiled
// first, when a person first presses Train, and that epoch would take
// twice as long as the next one
// (docs/decisions/0008-warm-up-rehearses-a-run.md). The run number it
// takes is given back: no event of it reached the page, and the pool was not asked
// (a one-epoch run's only evaluation is its last, computed here). While a
// run goes, or the pool has answers to give, nothing is rehearsed.
func (s *session) rehearse() {
	if s.training || len(s.pool.evals) > 0 {
		return
	}
	c := protocol.Config{LearningRate: 0.5, BatchSize: min(100, s.data.train.Len()), L2: 1e-4, Epochs: 1, Seed: 1, Deskew: true}
	meth, err := methodFor(c, s.data.train.Len())
	if err != nil {
		return
	}
	// The command as the page sends it, decoded as deliver decodes it.
	if env, bulk, err := protocol.Encode(protocol.Train{Config: c}); err == nil {
		protocol.Decode(env, bulk)
	}
	// A rehearsal is nobody's command: should it fail, that is logged, not
	// shown, and the session is put back all the same.
	defer func() {
		if r := recover(); r != nil {
			logf("session: the rehearsal of a run failed (nothing else is affected): %v\n", r)
		}
	}()
	run, runs, pace := s.run, s.runs, s.pace
	s.quiet = true
	defer func() { s.quiet, s.run, s.runs, s.pace, s.training = false, run, runs, pace, false }()
	if !s.newRun(c, meth, nil) {
		return
	}
	for !s.run.meth.ended() {
		s.run.meth.slice(s)
	}
}

// warmUp trains and evaluates a throwaway model on the first images of d.
// Browsers first run WebAssembly from a quick baseline compilation and
// optimise hot functions in the background, swapping them in on their next
// call. Doing that once the page is up (it sends Warm), while the person
// reads it, means the first epoch a person watches already runs the
// optimised kernels: without it, the first tens of milliseconds of training
// ran several times slower. Doing it earlier, while the pack loaded, put
// that work and the optimising compiler's on the two cores the page needs
// to start. It changes nothing but timing: the model is discarded.
func warmUp(d *data) {
	n := min(d.train.Len(), warmExamples)
	if n == 0 {
		return
	}
	sub := d.train.View(0, n)
	for _, cfg := range []train.Config{
		{LearningRate: 0.1, BatchSize: min(n, 100), L2: 1e-4, Epochs: 1}, // the dense update with L2
		{LearningRate: 0.1, BatchSize: min(n, 100), Epochs: 1},           // and without
		{LearningRate: 0.1, BatchSize: 1, Iterations: min(n, 300)},       // the sparse one
	} {
		tr, err := train.New(sub, d.d, cfg)
		if err != nil {
			return
		}
		var st train.Stats
		for tr.Stopped() == train.Running {
			st = tr.Step()
		}
		r := metrics.Evaluate(tr.Model(), sub)
		// The reports' encoders too: the first JSON encoding is slow.
		m := tr.Model()
		for _, msg := range []protocol.Msg{
			protocol.Progress{State: "done", Step: st.Step, Losses: []protocol.Point{{Step: st.Step, Loss: st.Loss}}},
			protocol.Weights{D: m.D, W: m.W, B: m.B},
			protocol.Evaluated{Accuracy: r.Accuracy(), Confusion: r.Confusion},
		} {
			protocol.Encode(msg)
		}
	}
}

// verify checks b against the size and SHA-256 the manifest gave in l; an
// empty SHA256 or a zero size is not checked.
func verify(l protocol.Load, b []byte, digest func([]byte) ([32]byte, error)) error {
	if l.Bytes > 0 && int64(len(b)) != l.Bytes {
		return fmt.Errorf("pack %s: checksum mismatch: got %d bytes, the manifest says %d", l.Name, len(b), l.Bytes)
	}
	return verifyDigest("pack "+l.Name, b, l.SHA256, digest)
}

// verifyDigest checks that b's SHA-256 is want (hex; empty is not checked).
func verifyDigest(what string, b []byte, want string, digest func([]byte) ([32]byte, error)) error {
	if want == "" {
		return nil
	}
	sum, err := digest(b)
	if err != nil {
		return fmt.Errorf("%s: computing its checksum: %w", what, err)
	}
	if got := hex.EncodeToString(sum[:]); !strings.EqualFold(got, want) {
		return fmt.Errorf("%s: checksum mismatch: SHA-256 %s, the manifest says %s", what, got, want)
	}
	return nil
}

// Gallery returns the gallery's images, as the worker sends them in
// Loaded: the first samplesPerClass (6) test images of each digit, in
// order of digit, as 784 grey levels each.
func Gallery(test *dataset.Set) protocol.Samples {
	var pick [dataset.Classes][]int
	for i, y := range test.Labels {
		if len(pick[y]) < samplesPerClass {
			pick[y] = append(pick[y], i)
		}
	}
	var out protocol.Samples
	for c, images := range pick {
		for _, i := range images {
			out.Labels = append(out.Labels, uint8(c))
			out.Pixels = append(out.Pixels, make([]byte, dataset.Pixels)...)
			test.Dense(out.Pixels[len(out.Pixels)-dataset.Pixels:], i)
		}
	}
	return out
}
