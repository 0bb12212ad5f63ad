package modelfile

import (
	"errors"
	"fmt"
	"io"
)

// Sentinels that every decoding error wraps; test them with errors.Is.
var (
	// ErrFormat: the input is not a model file (not JSON or a zip, no
	// format name, a field of the wrong type, a bad .npy header, trailing
	// bytes, a corrupt archive).
	ErrFormat = errors.New("modelfile: not a model file")
	// ErrVersion: a model file of a format version this code does not read.
	ErrVersion = errors.New("modelfile: unsupported version")
	// ErrShape: the numbers do not form a D×10 model (or D features where
	// the caller needs another count, or ragged rows).
	ErrShape = errors.New("modelfile: wrong shape")
	// ErrDType: a .npy array of a number type other than '<f4' or '<f8'.
	ErrDType = errors.New("modelfile: unsupported number type")
	// ErrLayout: a .npy array stored in Fortran (column-major) order.
	ErrLayout = errors.New("modelfile: unsupported memory layout")
	// ErrNotFinite: a weight or bias is NaN or infinite, or beyond
	// float32's range.
	ErrNotFinite = errors.New("modelfile: number not finite")
	// ErrTooLarge: the input is larger than MaxBytes, or declares a shape
	// larger than MaxFeatures×10.
	ErrTooLarge = errors.New("modelfile: too large")
	// ErrTruncated: the input ends early. Errors wrapping it also match
	// io.ErrUnexpectedEOF.
	ErrTruncated = errors.New("modelfile: file ends early")
)

// Limits checked before anything is allocated.
const (
	// MaxBytes is the largest model file the decoders read: a JSON model
	// of MaxFeatures features fits, and a 784-pixel one is about 100 kB.
	MaxBytes = 16 << 20
	// MaxFeatures is the most features a model file may declare.
	MaxFeatures = 1 << 16
)

// errorf returns an error wrapping kind, printed as kind's text, a colon
// and the detail.
func errorf(kind error, format string, args ...any) error {
	return fmt.Errorf("%w: %s", kind, fmt.Sprintf(format, args...))
}

// truncated returns an error wrapping ErrTruncated and io.ErrUnexpectedEOF.
func truncated(format string, args ...any) error {
	return fmt.Errorf("%w: %s (%w): the file is incomplete; download or save it again",
		ErrTruncated, fmt.Sprintf(format, args...), io.ErrUnexpectedEOF)
}

// CheckSize returns an error wrapping ErrTooLarge if a file of n bytes is
// larger than MaxBytes, and nil otherwise. The page calls it with a File's
// size before reading the file.
func CheckSize(n int64) error {
	if n > MaxBytes {
		return errorf(ErrTooLarge, "the file is %d bytes, more than the limit of %d: a model of 784×10 weights is about 100 kB; pick the model file itself", n, MaxBytes)
	}
	return nil
}
