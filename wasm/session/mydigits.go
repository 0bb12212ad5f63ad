package session

import (
	"fmt"
	"strconv"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/digit"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// Hints for the commands of this file: keys of the page's catalogs.
const (
	hintModel    = "hint.model"    // load a model saved by this page or tools/train for these images
	hintMyDigits = "hint.myDigits" // draw your digits again, or clear them
)

// useModel handles UseModel: it starts a new run with u.Config from the
// page's model, without training, and sends its Progress, Weights and
// Evaluated. Training then continues from that model. A model of another
// shape, or with a parameter that is not finite, or a Config for Newton's
// method (which starts from θ = 0), is refused with Failed and changes
// nothing.
func (s *session) useModel(u protocol.UseModel) {
	if !s.needData() {
		return
	}
	m := &softmax.Model[float32]{D: u.D, W: u.W, B: u.B}
	switch {
	case u.D != s.data.d || len(u.W) != u.D*softmax.K || len(u.B) != softmax.K:
		s.failKey("err.modelShape", hintModel, strconv.Itoa(u.D), strconv.Itoa(s.data.d))
		return
	case !m.Finite():
		s.failKey("err.modelNaN", hintModel)
		return
	}
	meth, err := methodFor(u.Config, s.data.train.Len())
	if err != nil {
		s.failKey("err.config", hintConfig, err.Error())
		return
	}
	if !s.newRun(u.Config, meth, m) {
		return
	}
	s.training = false
	now := s.env.Now()
	s.sendProgress(now)
	s.sendWeights(now)
	s.send(s.evaluated())
}

// useMyDigits handles MyDigits: the digits replace those kept before, for
// the current run (at its Config.MyDigitsRate) and later ones. No digits
// forget them. Bad digits are refused with Failed and change nothing:
// the message must hold 784 grey levels for each label, at most
// protocol.MaxMyDigits digits, each labelled 0 to 9. These are the
// checks a my-digits file gets from core/modelfile, made on the message,
// which carries no file.
func (s *session) useMyDigits(d protocol.MyDigits) {
	if len(d.Pixels) != len(d.Labels)*dataset.Pixels || len(d.Labels) > protocol.MaxMyDigits {
		s.failKey("err.myDigits", hintMyDigits, fmt.Sprintf("%d bytes of pixels for %d digits, want %d (784 per digit, at most %d digits)",
			len(d.Pixels), len(d.Labels), len(d.Labels)*dataset.Pixels, protocol.MaxMyDigits))
		return
	}
	set := dataset.NewSet(len(d.Labels), 150)
	for i, y := range d.Labels {
		if y >= dataset.Classes {
			s.failKey("err.myDigits", hintMyDigits, fmt.Sprintf("digit %d has label %d, want 0..9", i, y))
			return
		}
		set.Append(y, d.Pixels[i*dataset.Pixels:(i+1)*dataset.Pixels])
	}
	// The page sends them as its drawing pipeline makes them, upright or
	// slanted; a run that trains on straightened images trains on them
	// straightened too.
	var x, xd *softmax.Examples[float32]
	if set.Len() > 0 {
		x = softmax.FromSet[float32](set)
		xd = softmax.FromSet[float32](digit.DeskewSet(set))
	}
	if r := s.run; r != nil {
		given := x
		if r.cfg.Deskew {
			given = xd
		}
		if err := r.meth.setMyDigits(given); err != nil {
			s.failKey("err.myDigits", hintMyDigits, err.Error())
			return
		}
	}
	s.myDigits, s.myDigitsDeskewed = x, xd
}

// myDigitsFor returns my digits as a run with c trains on them.
func (s *session) myDigitsFor(c protocol.Config) *softmax.Examples[float32] {
	if c.Deskew {
		return s.myDigitsDeskewed
	}
	return s.myDigits
}
