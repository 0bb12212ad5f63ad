package modelfile

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/internal/numpytest"
)

func encodeDigitsNPZ(t testing.TB, s *dataset.Set) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := EncodeDigitsNPZ(&buf, s); err != nil {
		t.Fatalf("EncodeDigitsNPZ: %v", err)
	}
	return buf.Bytes()
}

func sameDigits(a, b *dataset.Set) bool {
	la, pa := DigitsPixels(a)
	lb, pb := DigitsPixels(b)
	return bytes.Equal(la, lb) && bytes.Equal(pa, pb)
}

func TestDigitsNPZRoundTrip(t *testing.T) {
	for _, s := range []*dataset.Set{threeDigits(), dataset.NewSet(0, 0)} {
		b := encodeDigitsNPZ(t, s)
		got, err := DecodeDigitsNPZ(b, 10)
		if err != nil {
			t.Fatal(err)
		}
		if !sameDigits(got, s) {
			t.Errorf("%d digits changed through EncodeDigitsNPZ and DecodeDigitsNPZ", s.Len())
		}
	}
	// The images as NumPy writes a (n, 784) array, the labels as int64.
	_, px := DigitsPixels(threeDigits())
	b := archive(t, zip.Deflate,
		"images.npy", npy(1, dict("|u1", "(3, 784)"), px),
		"labels.npy", npy(1, dict("<i8", "(3,)"), []byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0}),
		"extra.npy", npy(1, dict("<f4", "(1,)"), make([]byte, 4)))
	if got, err := DecodeDigitsNPZ(b, 3); err != nil || !sameDigits(got, threeDigits()) {
		t.Errorf("(n, 784) images and int64 labels: %v", err)
	}
}

func TestDecodeDigitsNPZErrors(t *testing.T) {
	_, px := DigitsPixels(threeDigits())
	labels := npy(1, dict("|u1", "(3,)"), []byte{1, 0, 7})
	images := npy(1, dict("|u1", "(3, 28, 28)"), px)
	zipped := func(entries ...any) func() []byte { return func() []byte { return archive(t, zip.Store, entries...) } }
	good := encodeDigitsNPZ(t, threeDigits())
	for _, tt := range []struct {
		name string
		b    func() []byte
		max  int
		is   error
		says string
	}{
		{"not a zip", func() []byte { return []byte("MNPK\x01\x00") }, 10, ErrFormat, "not a .npz"},
		{"no labels", zipped("images.npy", images), 10, ErrFormat, "no labels.npy"},
		{"images twice", zipped("images.npy", images, "images.npy", images, "labels.npy", labels), 10, ErrFormat, "twice"},
		{"float images", zipped("images.npy", npy(1, dict("<f4", "(3, 784)"), make([]byte, 3*784*4)), "labels.npy", labels), 10, ErrDType, "astype(np.uint8)"},
		{"float labels", zipped("images.npy", images, "labels.npy", npy(1, dict("<f8", "(3,)"), make([]byte, 24))), 10, ErrDType, "integers"},
		{"images 27 wide", zipped("images.npy", npy(1, dict("|u1", "(3, 28, 27)"), make([]byte, 3*28*27)), "labels.npy", labels), 10, ErrShape, "(3, 28, 27)"},
		{"two labels for three images", zipped("images.npy", images, "labels.npy", npy(1, dict("|u1", "(2,)"), []byte{1, 2})), 10, ErrShape, "a label for each of the 3"},
		{"a label of 10", zipped("images.npy", images, "labels.npy", npy(1, dict("|u1", "(3,)"), []byte{1, 10, 2})), 10, ErrFormat, "labels[1] is 10"},
		{"a label of -1", zipped("images.npy", images, "labels.npy", npy(1, dict("<i8", "(3,)"), append(make([]byte, 16), 255, 255, 255, 255, 255, 255, 255, 255))), 10, ErrFormat, "labels[2] is -1"},
		{"more digits than allowed", func() []byte { return good }, 2, ErrTooLarge, "more than 1568 values"},
		{"Fortran order", zipped("images.npy", npy(1, "{'descr': '|u1', 'fortran_order': True, 'shape': (3, 784), }", px), "labels.npy", labels), 10, ErrLayout, "Fortran"},
		{"a file over the limit", func() []byte { return make([]byte, MaxBytes+1) }, 10, ErrTooLarge, "more than the limit"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeDigitsNPZ(tt.b(), tt.max)
			if !errors.Is(err, tt.is) || !strings.Contains(fmtErr(err), tt.says) {
				t.Errorf("error %v, want %v saying %q", err, tt.is, tt.says)
			}
		})
	}
	for n := range len(good) {
		if _, err := DecodeDigitsNPZ(good[:n], 10); err == nil || !named(err) {
			t.Fatalf("the first %d of %d bytes: %v", n, len(good), err)
		}
	}
	big := dataset.NewSet(0, 0)
	for range maxNPZDigits + 1 {
		big.Labels = append(big.Labels, 0)
		big.Start = append(big.Start, 0)
	}
	if err := EncodeDigitsNPZ(io.Discard, big); !errors.Is(err, ErrTooLarge) {
		t.Errorf("EncodeDigitsNPZ of %d digits: %v", big.Len(), err)
	}
}

// TestNumPyReadsDigits: NumPy loads the .npz that EncodeDigitsNPZ
// writes as uint8 arrays of shapes (n, 28, 28) and (n,) holding the same
// bytes, and DecodeDigitsNPZ reads what np.savez writes.
func TestNumPyReadsDigits(t *testing.T) {
	numpytest.Need(t)
	s := threeDigits()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "class-digits.npz"), filepath.Join(dir, "numpy.npz")
	if err := os.WriteFile(in, encodeDigitsNPZ(t, s), 0o644); err != nil {
		t.Fatal(err)
	}
	const py = `
import sys, numpy as np
f = np.load(sys.argv[1])
x, y = f["images"], f["labels"]
print(x.dtype, x.shape, y.dtype, y.shape, x.tobytes().hex(), y.tobytes().hex())
np.savez(sys.argv[2], images=x.reshape(-1, 784), labels=y.astype(np.int64))
`
	got, err := exec.Command(numpytest.Python, "-c", py, in, out).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, got)
	}
	labels, px := DigitsPixels(s)
	want := "uint8 (3, 28, 28) uint8 (3,) " + hexOf(px) + " " + hexOf(labels)
	if strings.TrimSpace(string(got)) != want {
		t.Errorf("NumPy reads\n%.200s\nwant\n%.200s", got, want)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeDigitsNPZ(b, 10)
	if err != nil || !sameDigits(back, s) {
		t.Errorf("np.savez's file: %v", err)
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
