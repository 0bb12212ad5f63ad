package dataset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
)

// idxFiles returns the IDX image and label files holding the given dense
// images and labels.
func idxFiles(labels []uint8, images ...[]uint8) (img, lab []byte) {
	lab = binary.BigEndian.AppendUint32(nil, idxLabelsMagic)
	lab = binary.BigEndian.AppendUint32(lab, uint32(len(labels)))
	lab = append(lab, labels...)
	img = binary.BigEndian.AppendUint32(nil, idxImagesMagic)
	for _, v := range []uint32{uint32(len(images)), Rows, Cols} {
		img = binary.BigEndian.AppendUint32(img, v)
	}
	for _, px := range images {
		img = append(img, px...)
	}
	return img, lab
}

func TestReadIDX(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	noise := noiseSet(r, 5)
	tests := []struct {
		name   string
		labels []uint8
		images [][]uint8
	}{
		{"no images", nil, nil},
		{"an all-zero and an all-255 image", []uint8{0, 9}, [][]uint8{filled(0), filled(255)}},
		{"random images", noise.Labels, func() [][]uint8 {
			var out [][]uint8
			for i := range noise.Len() {
				out = append(out, noise.Dense(make([]uint8, Pixels), i))
			}
			return out
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name+" are read back", func(t *testing.T) {
			img, lab := idxFiles(tt.labels, tt.images...)
			s, err := ReadIDX(iotest.HalfReader(bytes.NewReader(img)), bytes.NewReader(lab))
			if err != nil {
				t.Fatal(err)
			}
			want := NewSet(0, 0)
			for i, px := range tt.images {
				want.Append(tt.labels[i], px)
			}
			if !equalSets(s, want) {
				t.Errorf("ReadIDX returned %d images with %d pixels, want %d with %d", s.Len(), s.NNZ(), want.Len(), want.NNZ())
			}
			if err := s.Validate(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestWriteIDX: WriteIDX writes the bytes idxFiles builds by hand, which
// ReadIDX reads back, and returns a writer's error.
func TestWriteIDX(t *testing.T) {
	noise := noiseSet(rand.New(rand.NewPCG(1, 2)), 5)
	for _, s := range []*Set{NewSet(0, 0), noise} {
		var img, lab bytes.Buffer
		if err := WriteIDX(&img, &lab, s); err != nil {
			t.Fatal(err)
		}
		var dense [][]uint8
		for i := range s.Len() {
			dense = append(dense, s.Dense(make([]uint8, Pixels), i))
		}
		wantImg, wantLab := idxFiles(s.Labels, dense...)
		if !bytes.Equal(img.Bytes(), wantImg) || !bytes.Equal(lab.Bytes(), wantLab) {
			t.Errorf("%d images: WriteIDX wrote %d and %d bytes, not the IDX files of %d and %d", s.Len(), img.Len(), lab.Len(), len(wantImg), len(wantLab))
		}
		back, err := ReadIDX(&img, &lab)
		if err != nil || !equalSets(back, s) {
			t.Errorf("%d images do not read back (%v)", s.Len(), err)
		}
	}
	broken := errors.New("disk full")
	for _, w := range []struct{ img, lab io.Writer }{{iotest.TruncateWriter(io.Discard, 0), errWriter{broken}}, {errWriter{broken}, io.Discard}} {
		if err := WriteIDX(w.img, w.lab, noise); !errors.Is(err, broken) {
			t.Errorf("WriteIDX returned %v, want the writer's error", err)
		}
	}
}

// errWriter fails every write with err.
type errWriter struct{ err error }

func (w errWriter) Write([]byte) (int, error) { return 0, w.err }

func TestReadIDXErrors(t *testing.T) {
	img, lab := idxFiles([]uint8{3, 4}, filled(7), filled(0))
	edit := func(b []byte, f func(b []byte) []byte) []byte { return f(bytes.Clone(b)) }
	put := func(off int, v uint32) func(b []byte) []byte {
		return func(b []byte) []byte { binary.BigEndian.PutUint32(b[off:], v); return b }
	}
	tests := []struct {
		name     string
		img, lab []byte
		is       error
		text     string
	}{
		{"swapped files are rejected", lab, img, nil, "labels file magic 0x00000803, want 0x00000801"},
		{"a wrong image magic is rejected", edit(img, put(0, 0x0802)), lab, nil, "images file magic 0x00000802, want 0x00000803"},
		{"27 rows are rejected", edit(img, put(8, 27)), lab, nil, "images are 27×28"},
		{"different counts are rejected", edit(img, put(4, 1)), lab, nil, "2 labels but 1 images"},
		{"too many images are rejected", edit(img, put(4, MaxImages+1)), edit(lab, put(4, MaxImages+1)), nil, "more than the maximum"},
		{"label 10 is rejected", img, edit(lab, func(b []byte) []byte { b[9] = 10; return b }), nil, "label 1 is 10"},
		{"a short labels header returns ErrUnexpectedEOF", img, lab[:7], io.ErrUnexpectedEOF, "labels header"},
		{"an empty images file returns ErrUnexpectedEOF", nil, lab, io.ErrUnexpectedEOF, "images header"},
		{"missing labels return ErrUnexpectedEOF", img, lab[:9], io.ErrUnexpectedEOF, "after 1 of 2 labels"},
		{"a short image returns ErrUnexpectedEOF", img[:len(img)-1], lab, io.ErrUnexpectedEOF, "in image 1 of 2"},
		{"a trailing label is rejected", img, append(bytes.Clone(lab), 1), nil, "labels file has bytes after"},
		{"a trailing image byte is rejected", append(bytes.Clone(img), 0), lab, nil, "images file has bytes after"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadIDX(bytes.NewReader(tt.img), bytes.NewReader(tt.lab))
			if err == nil {
				t.Fatal("ReadIDX succeeded, want an error")
			}
			var fe FormatError
			if tt.is != nil && !errors.Is(err, tt.is) || tt.is == nil && !errors.As(err, &fe) {
				t.Errorf("ReadIDX error %v, want %v or a FormatError", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.text) {
				t.Errorf("ReadIDX error %q, want it to contain %q", err, tt.text)
			}
		})
	}
}

func TestReadIDXPrefixesReturnErrUnexpectedEOF(t *testing.T) {
	img, lab := idxFiles([]uint8{1, 2}, filled(0), filled(9))
	for n := range len(lab) {
		if _, err := ReadIDX(bytes.NewReader(img), bytes.NewReader(lab[:n])); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("labels cut to %d bytes: %v, want io.ErrUnexpectedEOF", n, err)
		}
	}
	for n := range len(img) {
		if _, err := ReadIDX(bytes.NewReader(img[:n]), bytes.NewReader(lab)); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("images cut to %d bytes: %v, want io.ErrUnexpectedEOF", n, err)
		}
	}
}

// FuzzReadIDX checks that ReadIDX never panics and returns valid sets.
func FuzzReadIDX(f *testing.F) {
	img, lab := idxFiles([]uint8{5}, filled(0))
	f.Add(img, lab)
	img, lab = idxFiles([]uint8{0, 9}, filled(255), filled(0))
	f.Add(img, lab)
	f.Add(img[:20], lab[:8])
	f.Fuzz(func(t *testing.T, img, lab []byte) {
		s, err := ReadIDX(bytes.NewReader(img), bytes.NewReader(lab))
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("ReadIDX returned an invalid set: %v", err)
		}
		if want := (len(img) - 16) / Pixels; s.Len() != want || len(lab) != 8+want {
			t.Fatalf("ReadIDX returned %d images from %d image and %d label bytes", s.Len(), len(img), len(lab))
		}
	})
}
