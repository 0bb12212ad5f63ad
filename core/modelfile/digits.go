package modelfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"softmaxdemo/core/dataset"
)

// My digits are kept as a core/dataset pack: the pack's format is already
// versioned, checksummed, fuzzed and small (a drawn digit is mostly
// zeros), so a second image format would only add a decoder to keep
// correct. The digits are the pack's training set; its test set is empty.
const (
	// DigitsExt ends the name of a my-digits file, so that it is not
	// mistaken for a dataset to train on.
	DigitsExt = ".digits.mnpk"
	// MaxDigits is the most images a my-digits file may hold.
	MaxDigits = 1000
	// MaxDigitsBytes is the largest my-digits file DecodeDigits reads:
	// MaxDigits images with every pixel set.
	MaxDigitsBytes = 64 + MaxDigits*(2+2*dataset.Pixels)
)

// NewDigits returns the set of n labelled images given as labels (n, each
// 0..9) and pixels (n×784 grey levels, row-major, 0 is the background), as
// the page holds them. It returns an error wrapping ErrShape if the lengths
// disagree, ErrFormat for a label above 9 and ErrTooLarge for more than
// MaxDigits images. The set does not share memory with its inputs.
func NewDigits(labels []uint8, pixels []byte) (*dataset.Set, error) {
	switch {
	case len(labels) > MaxDigits:
		return nil, errorf(ErrTooLarge, "%d digits, more than the limit of %d: delete some", len(labels), MaxDigits)
	case len(pixels) != len(labels)*dataset.Pixels:
		return nil, errorf(ErrShape, "%d bytes of pixels for %d digits, want %d (784 per digit)", len(pixels), len(labels), len(labels)*dataset.Pixels)
	}
	s := dataset.NewSet(len(labels), 150)
	for i, y := range labels {
		if y >= dataset.Classes {
			return nil, errorf(ErrFormat, "digit %d has label %d, want 0..9", i, y)
		}
		s.Append(y, pixels[i*dataset.Pixels:(i+1)*dataset.Pixels])
	}
	return s, nil
}

// DigitsPixels returns s as the page holds it: the labels and the images
// as 784 grey levels each, concatenated. It panics if s is not a valid
// Set, a bug in the caller.
func DigitsPixels(s *dataset.Set) (labels []uint8, pixels []byte) {
	labels = append([]uint8(nil), s.Labels...)
	pixels = make([]byte, s.Len()*dataset.Pixels)
	for i := range s.Len() {
		s.Dense(pixels[i*dataset.Pixels:(i+1)*dataset.Pixels], i)
	}
	return labels, pixels
}

// EncodeDigits writes s to w as a my-digits file. It returns an error,
// having written nothing, if s is invalid or holds more than MaxDigits
// images, and otherwise the first error from w.
func EncodeDigits(w io.Writer, s *dataset.Set) error {
	if s == nil {
		return errorf(ErrShape, "no digits")
	}
	if s.Len() > MaxDigits {
		return errorf(ErrTooLarge, "%d digits, more than the limit of %d", s.Len(), MaxDigits)
	}
	var buf bytes.Buffer
	// Version 1 of the pack: a few hundred digits decode at once in it, and
	// every my-digits file is written in the same version.
	if err := dataset.EncodeVersion(&buf, &dataset.Pack{Train: s, Test: dataset.NewSet(0, 0)}, 1); err != nil {
		return fmt.Errorf("modelfile: my digits: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// DecodeDigits decodes a my-digits file held in b. It refuses input longer
// than MaxDigitsBytes, or holding more than MaxDigits images, with
// ErrTooLarge (a whole dataset pack is refused this way), and a pack with
// test images with ErrFormat. The dataset decoder's errors are wrapped:
// a pack that ends early matches ErrTruncated (and io.ErrUnexpectedEOF),
// another pack version ErrVersion, any other refusal ErrFormat.
func DecodeDigits(b []byte) (*dataset.Set, error) {
	if len(b) > MaxDigitsBytes {
		return nil, errorf(ErrTooLarge, "the file is %d bytes, more than the limit of %d for %d digits: is it a dataset pack rather than my digits (%s)?", len(b), MaxDigitsBytes, MaxDigits, DigitsExt)
	}
	p, err := dataset.Decode(b)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, fmt.Errorf("%w: my digits: %w", ErrTruncated, err)
	case errors.Is(err, dataset.ErrVersion):
		return nil, fmt.Errorf("%w: my digits: %w", ErrVersion, err)
	case err != nil:
		return nil, fmt.Errorf("%w: my digits: %w", ErrFormat, err)
	case p.Train.Len() > MaxDigits:
		return nil, errorf(ErrTooLarge, "%d digits, more than the limit of %d", p.Train.Len(), MaxDigits)
	case p.Test.Len() != 0:
		return nil, errorf(ErrFormat, "the pack has %d test images: it is a dataset, not my digits (%s)", p.Test.Len(), DigitsExt)
	}
	return p.Train, nil
}
