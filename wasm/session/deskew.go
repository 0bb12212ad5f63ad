package session

import (
	"softmaxdemo/core/dataset"
	"softmaxdemo/core/digit"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// A run with Config.Deskew trains and evaluates on the pack's images
// straightened by digit.DeskewSet. They are computed once, when the pack
// loads, and kept beside the raw images, so switching between the two only
// starts a new run. Deskewing and converting the default pack (12,000
// images) adds about 50 ms to a load as WebAssembly under Node (23 ms
// natively), and its ~200 non-zero pixels per image (raw: ~150) take about
// 1.3 times the raw images' memory. The gallery stays raw.

// straightened returns the images of set straightened, converted for
// training and evaluation. It needs the set's grey levels, so it runs
// before load drops them.
func straightened(set *dataset.Set) *softmax.Examples[float32] {
	return softmax.FromSet[float32](digit.DeskewSet(set))
}

// of returns the images a run with c trains and evaluates on.
func (d *data) of(c protocol.Config) *data {
	if c.Deskew && d.deskewed != nil {
		return d.deskewed
	}
	return d
}

// testSet returns the test images of the current run, or the raw ones if
// there is no run.
func (s *session) testSet() *softmax.Examples[float32] {
	if s.run == nil {
		return s.data.test
	}
	return s.data.of(s.run.cfg).test
}
