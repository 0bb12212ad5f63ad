package session

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// data is a loaded pack, converted once for training and evaluation.
type data struct {
	name  string
	d     int
	train *softmax.Examples[float32]
	test  *softmax.Examples[float32]
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
		s.fail(fmt.Sprintf("loading pack %s: %v", l.Name, err), hintFetch)
		return
	}
	s.send(protocol.Loading{Name: l.Name, Received: int64(len(b)), Total: int64(len(b))})
	if err := verify(l, b); err != nil {
		s.fail(err.Error(), hintChecksum)
		return
	}
	pack, err := dataset.Decode(b)
	if err != nil {
		s.fail(fmt.Sprintf("pack %s: %v", l.Name, err), hintDecode)
		return
	}
	if pack.Train.Len() == 0 {
		s.fail(fmt.Sprintf("pack %s has no training images", l.Name), hintDecode)
		return
	}
	s.data = &data{
		name:  l.Name,
		d:     dataset.Pixels,
		train: softmax.FromSet[float32](pack.Train),
		test:  softmax.FromSet[float32](pack.Test),
	}
	s.run, s.training = nil, false
	s.send(protocol.Loaded{
		Name:   l.Name,
		Train:  pack.Train.Len(),
		Test:   pack.Test.Len(),
		Millis: float64(s.env.Now().Sub(start)) / float64(time.Millisecond),
	})
	s.send(gallery(pack.Test))
}

// verify checks b against the size and SHA-256 the manifest gave in l; an
// empty SHA256 or a zero size is not checked.
func verify(l protocol.Load, b []byte) error {
	if l.Bytes > 0 && int64(len(b)) != l.Bytes {
		return fmt.Errorf("pack %s: checksum mismatch: got %d bytes, the manifest says %d", l.Name, len(b), l.Bytes)
	}
	if l.SHA256 == "" {
		return nil
	}
	sum := sha256.Sum256(b)
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
