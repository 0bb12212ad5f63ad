package session

import (
	"fmt"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// Hints for the commands of this file.
const (
	hintModel    = "load a model saved by this page or tools/train for these images"
	hintMyDigits = "draw your digits again, or clear them"
)

// useModel handles UseModel: it starts a new run with u.Config from the
// page's model, without training, and sends its Progress, Weights and
// Evaluated. Training then continues from that model. A model of another
// shape, or with a parameter that is not finite, is refused with Failed
// and changes nothing.
func (s *session) useModel(u protocol.UseModel) {
	if !s.needData() {
		return
	}
	m := &softmax.Model[float32]{D: u.D, W: u.W, B: u.B}
	switch {
	case u.D != s.data.d || len(u.W) != u.D*softmax.K || len(u.B) != softmax.K:
		s.fail(fmt.Sprintf("the model has %d features, the data %d", u.D, s.data.d), hintModel)
		return
	case !m.Finite():
		s.fail("the model has a weight that is NaN or infinite", hintModel)
		return
	}
	tc, err := trainConfig(u.Config, s.data.train.Len())
	if err != nil {
		s.fail(err.Error(), hintConfig)
		return
	}
	if !s.newRun(u.Config, tc) {
		return
	}
	if err := s.run.tr.SetModel(m); err != nil {
		s.fail(err.Error(), hintModel) // checked above: not expected
		return
	}
	s.training = false
	now := s.env.Now()
	s.sendProgress(now)
	s.sendWeights(now)
	s.send(s.evaluated())
}

// myDigits handles MyDigits: the digits replace those kept before, for
// the current run (at its Config.ExtraRate) and later ones. No digits
// forget them. Bad digits are refused with Failed and change nothing.
// (It checks them itself rather than with core/modelfile, whose zip and
// JSON code the worker does not need: 64 kB more of worker.wasm gzipped.)
func (s *session) myDigits(d protocol.MyDigits) {
	if len(d.Pixels) != len(d.Labels)*dataset.Pixels || len(d.Labels) > protocol.MaxMyDigits {
		s.fail(fmt.Sprintf("%d bytes of pixels for %d digits, want %d (784 per digit, at most %d digits)",
			len(d.Pixels), len(d.Labels), len(d.Labels)*dataset.Pixels, protocol.MaxMyDigits), hintMyDigits)
		return
	}
	set := dataset.NewSet(len(d.Labels), 150)
	for i, y := range d.Labels {
		if y >= dataset.Classes {
			s.fail(fmt.Sprintf("digit %d has label %d, want 0..9", i, y), hintMyDigits)
			return
		}
		set.Append(y, d.Pixels[i*dataset.Pixels:(i+1)*dataset.Pixels])
	}
	var x *softmax.Examples[float32]
	if set.Len() > 0 {
		x = softmax.FromSet[float32](set)
	}
	if r := s.run; r != nil {
		if err := r.tr.SetExtra(x); err != nil {
			s.fail(err.Error(), hintMyDigits)
			return
		}
	}
	s.mine = x
}
