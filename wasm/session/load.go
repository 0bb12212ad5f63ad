package session

import (
	"encoding/hex"
	"fmt"
	"runtime"
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
func (s *session) load(l protocol.Load) {
	start := s.env.Now()
	last := start
	s.send(protocol.Loading{Name: l.Name, Total: max(l.Bytes, 0)})
	progress := func(received, total int64) {
		if total <= 0 {
			total = max(l.Bytes, 0)
		}
		if now := s.env.Now(); now.Sub(last) >= loadingEvery {
			last = now
			s.send(protocol.Loading{Name: l.Name, Received: received, Total: total})
		}
	}
	b, err := s.env.Fetch(s.ctx, l.URL, progress)
	if err != nil {
		s.failKey("err.fetch", hintFetch, l.Name, err.Error())
		return
	}
	s.send(protocol.Loading{Name: l.Name, Received: int64(len(b)), Total: int64(len(b))})
	if err := verify(l, b, s.env.SHA256); err != nil {
		s.failKey("err.checksum", hintChecksum, err.Error())
		return
	}
	pack, err := dataset.Decode(b)
	if err != nil {
		s.failKey("err.decode", hintDecode, l.Name, err.Error())
		return
	}
	if pack.Train.Len() == 0 {
		s.failKey("err.empty", hintDecode, l.Name)
		return
	}
	// The training images first: Loaded goes out as soon as a run could
	// start, and the test images are converted and straightened after it,
	// before the next command, which is all a run needs (on a first visit
	// this is the end of the wait for "ready", and this code still runs
	// from the browser's baseline compilation).
	s.data = &data{
		name:     l.Name,
		d:        dataset.Pixels,
		train:    softmax.FromSet[float32](pack.Train),
		deskewed: &data{name: l.Name, d: dataset.Pixels, train: straightened(pack.Train)},
	}
	s.run, s.training = nil, false
	s.send(protocol.Loaded{
		Kernel: s.env.Kernel(),
		Name:   l.Name,
		Train:  pack.Train.Len(),
		Test:   pack.Test.Len(),
		Millis: float64(s.env.Now().Sub(start)) / float64(time.Millisecond),
	})
	s.env.Yield() // let it go out now
	s.data.test = softmax.FromSet[float32](pack.Test)
	s.data.deskewed.test = straightened(pack.Test)
	samples := gallery(pack.Test)
	pack.Train.Value, pack.Test.Value = nil, nil // converted to float32 above
	s.send(samples)
	// Collect the download and the decoder's buffers now, while the person
	// reads the page: otherwise that collection falls into the first
	// epoch, where marking the pack's tens of megabytes in WebAssembly
	// stalls training for tens of milliseconds.
	runtime.GC()
}

// warmExamples is how many images warmUp trains on.
const warmExamples = 3000

// warm handles Warm: once a pack is loaded, it runs warmUp, once per worker.
func (s *session) warm() {
	if s.warmed || s.data == nil {
		return
	}
	s.warmed = true
	warmUp(s.data)
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
	sub := &softmax.Examples[float32]{Labels: d.train.Labels[:n], Start: d.train.Start[:n+1], Index: d.train.Index, Value: d.train.Value}
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
	if l.SHA256 == "" {
		return nil
	}
	sum, err := digest(b)
	if err != nil {
		return fmt.Errorf("pack %s: computing its checksum: %w", l.Name, err)
	}
	if got := hex.EncodeToString(sum[:]); !strings.EqualFold(got, l.SHA256) {
		return fmt.Errorf("pack %s: checksum mismatch: SHA-256 %s, the manifest says %s", l.Name, got, l.SHA256)
	}
	return nil
}

// gallery returns the first samplesPerClass test images of each digit, in
// order of digit, as 784 grey levels each.
func gallery(test *dataset.Set) protocol.Samples {
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
