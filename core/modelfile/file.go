package modelfile

import (
	"bytes"
	"fmt"
	"io"
	"math"

	"softmaxdemo/core/softmax"
)

// Info says how a model was trained. It is saved in the JSON form only
// (the .npz holds the arrays alone). Every field is optional.
type Info struct {
	Method       string  `json:"method,omitempty"` // "sgd", "gd" or "newton"
	LearningRate float64 `json:"lr"`               // α
	BatchSize    int     `json:"batch"`            // B
	L2           float64 `json:"l2"`               // λ
	Epochs       int     `json:"epochs"`           // epochs trained
	Steps        int     `json:"steps,omitempty"`  // steps trained
	Seed         uint64  `json:"seed"`
	Dataset      string  `json:"dataset,omitempty"` // the pack's name
	Deskew       bool    `json:"deskew"`            // images were deskewed
	MyDigits     int     `json:"myDigits,omitempty"`
	MyDigitsRate float64 `json:"myDigitsRate,omitempty"` // my digits per batch, as a fraction of B
	TestAccuracy float64 `json:"testAccuracy,omitempty"` // fraction 0..1
	// Saved is when the model was saved, as the caller formats it
	// (RFC 3339 in UTC is best); core never reads the clock.
	Saved string `json:"saved,omitempty"`
}

// File is a decoded model file: the model, and how it was trained (zero
// for a .npz or a version 1 JSON file).
type File struct {
	Model   *softmax.Model[float32]
	Info    Info
	Format  string // "json" or "npz"
	Version int    // the JSON format version read (1 or 2); 0 for npz
}

// Decode decodes a model file held in b, JSON or .npz (told apart by the
// first bytes: a zip starts with "PK"). If features is above 0 the model
// must have that many features (784 for the page); 0 accepts any count up
// to MaxFeatures. The model does not share memory with b.
//
// Decode refuses input longer than MaxBytes with ErrTooLarge before
// reading it; all errors wrap one of the package's sentinels. It never
// panics.
func Decode(b []byte, features int) (*File, error) {
	if err := CheckSize(int64(len(b))); err != nil {
		return nil, err
	}
	if isZip(b) {
		m, err := DecodeNPZ(b, features)
		if err != nil {
			return nil, err
		}
		return &File{Model: m, Format: "npz"}, nil
	}
	return DecodeJSON(b, features)
}

// isZip reports whether b starts like a zip archive, or is a non-empty
// prefix of such a start.
func isZip(b []byte) bool {
	sig := []byte("PK\x03\x04")
	n := min(len(b), len(sig))
	return n > 0 && bytes.Equal(b[:n], sig[:n])
}

// Read reads a whole model file from r and decodes it as Decode does. It
// reads at most limit+1 bytes (limit is capped at MaxBytes) and returns an
// error wrapping ErrTooLarge if there are more, so a huge file costs at
// most the limit. r is not closed; a read error is returned wrapped.
func Read(r io.Reader, limit int64, features int) (*File, error) {
	b, err := readAll(r, limit)
	if err != nil {
		return nil, err
	}
	return Decode(b, features)
}

// readAll reads r to its end, refusing more than limit bytes.
func readAll(r io.Reader, limit int64) ([]byte, error) {
	limit = min(limit, MaxBytes)
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("modelfile: read: %w", err)
	}
	if int64(len(b)) > limit {
		return nil, errorf(ErrTooLarge, "the file is more than %d bytes: a model of 784×10 weights is about 100 kB; pick the model file itself", limit)
	}
	return b, nil
}

// check returns an error unless m is a model of K classes whose
// parameters are all finite. Encoders call it.
func check(m *softmax.Model[float32]) error {
	switch {
	case m == nil:
		return errorf(ErrShape, "no model")
	case m.D < 1 || m.D > MaxFeatures || len(m.W) != m.D*softmax.K || len(m.B) != softmax.K:
		return errorf(ErrShape, "model has %d features, %d weights and %d biases, want 1..%d features, features×%d weights and %d biases",
			m.D, len(m.W), len(m.B), MaxFeatures, softmax.K, softmax.K)
	}
	for i, w := range m.W {
		if notFinite(w) {
			return errorf(ErrNotFinite, "θ[%d][%d] is %v: a model that diverged cannot be saved; train with a smaller learning rate", i%softmax.K, i/softmax.K, w)
		}
	}
	for c, w := range m.B {
		if notFinite(w) {
			return errorf(ErrNotFinite, "b[%d] is %v: a model that diverged cannot be saved; train with a smaller learning rate", c, w)
		}
	}
	return nil
}

// notFinite reports NaN and ±Inf: an exponent of all ones.
func notFinite(f float32) bool {
	return math.Float32bits(f)&0x7f800000 == 0x7f800000
}

// wantShape checks a declared feature count against MaxFeatures and the
// count the caller needs (0: any).
func wantShape(d int64, features int, what string) error {
	switch {
	case d > MaxFeatures:
		return errorf(ErrTooLarge, "%s declares %d features, more than the limit of %d", what, d, MaxFeatures)
	case d < 1:
		return errorf(ErrShape, "%s declares %d features, want at least 1", what, d)
	case features > 0 && d != int64(features):
		return errorf(ErrShape, "%s has %d features, want %d (%s): load a model trained on these images", what, d, features, pixelsName(features))
	}
	return nil
}

func pixelsName(d int) string {
	for _, s := range []int{28, 14, 7} {
		if d == s*s {
			return fmt.Sprintf("%d×%d pixels", s, s)
		}
	}
	return "features"
}
