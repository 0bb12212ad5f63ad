package modelfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"softmaxdemo/core/dataset"
)

// threeDigits returns three hand-made digits: a bar, a dot, a blank.
func threeDigits() *dataset.Set {
	px := make([]byte, 3*dataset.Pixels)
	for c := 5; c < 23; c++ {
		px[14*dataset.Cols+c] = 255
	}
	px[dataset.Pixels+400] = 17
	s, err := NewDigits([]uint8{1, 0, 7}, px)
	if err != nil {
		panic(err)
	}
	return s
}

func encodeDigits(t testing.TB, s *dataset.Set) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := EncodeDigits(&buf, s); err != nil {
		t.Fatalf("EncodeDigits: %v", err)
	}
	return buf.Bytes()
}

func TestDigitsRoundTrip(t *testing.T) {
	s := threeDigits()
	got, err := DecodeDigits(encodeDigits(t, s))
	if err != nil {
		t.Fatal(err)
	}
	l1, p1 := DigitsPixels(s)
	l2, p2 := DigitsPixels(got)
	if !bytes.Equal(l1, l2) || !bytes.Equal(p1, p2) {
		t.Error("my digits changed through EncodeDigits and DecodeDigits")
	}
	if again, err := NewDigits(l2, p2); err != nil || again.NNZ() != s.NNZ() {
		t.Errorf("NewDigits(DigitsPixels): %v", err)
	}
}

// TestSavedDigitsStillLoad reads a my-digits file saved by this version:
// people keep these files (and the page its storage), so a change of the
// dataset pack's format must go on reading them. It compares contents,
// not bytes, so a new encoder may write them differently.
func TestSavedDigitsStillLoad(t *testing.T) {
	path := filepath.Join("testdata", "three"+DigitsExt)
	if *update {
		if err := os.WriteFile(path, encodeDigits(t, threeDigits()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeDigits(b)
	if err != nil {
		t.Fatalf("%s does not load: %v", path, err)
	}
	l1, p1 := DigitsPixels(got)
	l2, p2 := DigitsPixels(threeDigits())
	if !bytes.Equal(l1, l2) || !bytes.Equal(p1, p2) {
		t.Errorf("%s loads with other digits", path)
	}
}

func TestDigitsErrors(t *testing.T) {
	good := encodeDigits(t, threeDigits())
	var pack bytes.Buffer
	if err := dataset.Encode(&pack, &dataset.Pack{Train: threeDigits(), Test: threeDigits()}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		run  func() error
		is   error
		text string
	}{
		{"a truncated file is ErrTruncated", func() error { _, err := DecodeDigits(good[:len(good)-1]); return err }, ErrTruncated, "my digits"},
		{"another pack version is ErrVersion", func() error {
			b := bytes.Clone(good)
			b[4] = 9
			_, err := DecodeDigits(b)
			return err
		}, ErrVersion, "version 9"},
		{"a corrupt file is ErrFormat", func() error { _, err := DecodeDigits([]byte("not a pack at all, not at all")); return err }, ErrFormat, "magic"},
		{"a dataset with test images is ErrFormat", func() error { _, err := DecodeDigits(pack.Bytes()); return err }, ErrFormat, "3 test images"},
		{"a file over the limit is ErrTooLarge", func() error { _, err := DecodeDigits(make([]byte, MaxDigitsBytes+1)); return err }, ErrTooLarge, "dataset pack rather than my digits"},
		{"pixels of the wrong length are ErrShape", func() error { _, err := NewDigits([]uint8{1}, make([]byte, 783)); return err }, ErrShape, "783 bytes of pixels for 1 digits"},
		{"a label of 10 is ErrFormat", func() error { _, err := NewDigits([]uint8{10}, make([]byte, 784)); return err }, ErrFormat, "label 10"},
		{"too many digits are ErrTooLarge", func() error {
			_, err := NewDigits(make([]uint8, MaxDigits+1), make([]byte, (MaxDigits+1)*784))
			return err
		}, ErrTooLarge, "1001 digits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			if !errors.Is(err, tt.is) || !strings.Contains(fmtErr(err), tt.text) {
				t.Errorf("error %v, want %v containing %q", err, tt.is, tt.text)
			}
		})
	}
	for n := 1; n < len(good); n++ {
		if _, err := DecodeDigits(good[:n]); !errors.Is(err, ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("the first %d of %d bytes: %v, want ErrTruncated", n, len(good), err)
		}
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
