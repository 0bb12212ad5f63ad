package modelfile

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"softmaxdemo/core/softmax"
)

func TestNPZRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, d := range []int{1, 3, 784} {
		m := randomModel(r, d)
		b := encodeNPZ(t, m)
		f, err := Decode(b, 0)
		if err != nil {
			t.Fatalf("d=%d: %v", d, err)
		}
		if !sameBits(f.Model, m) || f.Format != "npz" {
			t.Errorf("d=%d: the model changed on the way through .npz (format %q)", d, f.Format)
		}
	}
}

func TestNPYHeader(t *testing.T) {
	// The header NumPy 1.24's np.save writes for a (784, 10) float32
	// array: 118 bytes of dict, spaces and a newline, after 10 bytes of
	// magic, version and length, so the data start at byte 128.
	b := appendNPY(nil, "(784, 10)", nil)
	want := "\x93NUMPY\x01\x00\x76\x00{'descr': '<f4', 'fortran_order': False, 'shape': (784, 10), }" +
		strings.Repeat(" ", 128-10-62-1) + "\n"
	if string(b) != want {
		t.Errorf("header\n%q\nwant\n%q", b, want)
	}
	for _, shape := range []string{"(10,)", "(784, 10)", "(65536, 10)"} {
		if h := appendNPY(nil, shape, nil); len(h)%64 != 0 || h[len(h)-1] != '\n' {
			t.Errorf("shape %s: header of %d bytes, not ending in a newline at a multiple of 64", shape, len(h))
		}
	}
}

// npy returns a .npy file: the magic, version major.0, the header padded
// as NumPy pads it, and data.
func npy(major byte, header string, data []byte) []byte {
	pre := 10
	if major > 1 {
		pre = 12
	}
	header += strings.Repeat(" ", (64-(pre+len(header)+1)%64)%64) + "\n"
	b := append([]byte(npyMagic), major, 0)
	if major > 1 {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(header)))
	} else {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(header)))
	}
	return append(append(b, header...), data...)
}

// f4 and f8 return n little-endian floats, the i-th being fill(i).
func f4(n int, fill func(int) float64) []byte {
	var b []byte
	for i := range n {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(fill(i))))
	}
	return b
}

func f8(n int, fill func(int) float64) []byte {
	var b []byte
	for i := range n {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(fill(i)))
	}
	return b
}

func small(i int) float64 { return float64(i%7) / 8 }

// only returns a fill that is small everywhere but at k, where it is v.
func only(k int, v float64) func(int) float64 {
	return func(i int) float64 {
		if i == k {
			return v
		}
		return small(i)
	}
}

// dict is a .npy header for dtype descr and a shape.
func dict(descr, shape string) string {
	return fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape)
}

// archive zips the entries (name, bytes) in order with method.
func archive(t testing.TB, method uint16, entries ...any) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	z.RegisterCompressor(99, func(w io.Writer) (io.WriteCloser, error) { return nopCloser{w}, nil })
	for i := 0; i < len(entries); i += 2 {
		w, err := z.CreateHeader(&zip.FileHeader{Name: entries[i].(string), Method: method})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(entries[i+1].([]byte))
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var (
	goodW = npy(1, dict("<f4", "(3, 10)"), f4(30, small))
	goodB = npy(1, dict("<f4", "(10,)"), f4(10, small))
)

// TestReadsNumPysFiles reads files that NumPy 1.24 wrote (with zip64
// extra fields in the local headers):
//
//	W = (np.arange(30, dtype=np.float32).reshape(3, 10) % 7) / 8
//	b = (np.arange(10, dtype=np.float32) % 7) / 8
//	np.savez("numpy-savez.npz", W=W, b=b)
//	np.savez_compressed("numpy-savez-compressed.npz", W=W, b=b, extra=np.ones(3))
func TestReadsNumPysFiles(t *testing.T) {
	for _, name := range []string{"numpy-savez.npz", "numpy-savez-compressed.npz"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		m, err := DecodeNPZ(b, 3)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, w := range m.W {
			if w != float32(small(i)) {
				t.Fatalf("%s: W[%d] = %v, want %v", name, i, w, small(i))
			}
		}
		if m.B[9] != float32(small(9)) {
			t.Errorf("%s: b[9] = %v", name, m.B[9])
		}
	}
}

func TestDecodeNPZVariants(t *testing.T) {
	tests := []struct {
		name  string
		input []byte
	}{
		{"np.savez_compressed's deflate", archive(t, zip.Deflate, "W.npy", goodW, "b.npy", goodB)},
		{"float64 arrays", archive(t, zip.Store, "W.npy", npy(1, dict("<f8", "(3, 10)"), f8(30, small)), "b.npy", npy(1, dict("<f8", "(10,)"), f8(10, small)))},
		{".npy version 2.0 and 3.0", archive(t, zip.Store, "W.npy", npy(2, dict("<f4", "(3, 10)"), f4(30, small)), "b.npy", npy(3, dict("<f4", "(10,)"), f4(10, small)))},
		{"keys in another order and extra arrays", archive(t, zip.Store, "x.npy", []byte("anything"),
			"b.npy", npy(1, "{'shape': (10,), 'fortran_order': False, 'descr': '<f4'}", f4(10, small)), "W.npy", goodW)},
	}
	for _, tt := range tests {
		t.Run(tt.name+" are read", func(t *testing.T) {
			m, err := DecodeNPZ(tt.input, 3)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range m.W {
				if w != float32(small(i)) {
					t.Fatalf("W[%d] = %v, want %v", i, w, small(i))
				}
			}
			if m.B[9] != float32(small(9)) {
				t.Errorf("b[9] = %v", m.B[9])
			}
		})
	}
}

func TestDecodeNPZErrors(t *testing.T) {
	good := func(w []byte) []byte { return archive(t, zip.Store, "W.npy", w, "b.npy", goodB) }
	huge := f4(1, small)
	tests := []struct {
		name     string
		input    []byte
		features int
		is       error
		text     string
	}{
		{"a zip without W is ErrFormat", archive(t, zip.Store, "b.npy", goodB), 0, ErrFormat, "no W.npy"},
		{"a zip with W twice is ErrFormat", archive(t, zip.Store, "W.npy", goodW, "W.npy", goodW, "b.npy", goodB), 0, ErrFormat, "W.npy twice"},
		{"a .npy without its magic is ErrFormat", good([]byte("hello, world")), 0, ErrFormat, "W.npy does not start with the .npy magic"},
		{"a .npy with a bad header is ErrFormat", good(npy(1, "{'descr': '<f4', 'shape': (3, 10)}", f4(30, small))), 0, ErrFormat, "W.npy has a bad header: want the keys"},
		{"a .npy header that is not a dict is ErrFormat", good(npy(1, "[1, 2]", f4(30, small))), 0, ErrFormat, "bad header: no dict"},
		{"a .npy header with an unknown key is ErrFormat", good(npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 10), 'x': 1}", f4(30, small))), 0, ErrFormat, `unknown key "x"`},
		{"a .npy of version 4 is ErrVersion", good(npy(4, dict("<f4", "(3, 10)"), f4(30, small))), 0, ErrVersion, "version 4.0"},
		{"big-endian floats are ErrDType", good(npy(1, dict(">f4", "(3, 10)"), f4(30, small))), 0, ErrDType, "dtype '>f4'"},
		{"integers are ErrDType", good(npy(1, dict("<i8", "(3, 10)"), f8(30, small))), 0, ErrDType, "dtype '<i8', want '<f4' or '<f8'"},
		{"a structured dtype is ErrFormat", good(npy(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3, 10), }", f4(30, small))), 0, ErrFormat, "'descr' is not a string"},
		{"Fortran order is ErrLayout", good(npy(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (3, 10), }", f4(30, small))), 0, ErrLayout, "Fortran order"},
		{"W of 10×3 is ErrShape", good(npy(1, dict("<f4", "(10, 3)"), f4(30, small))), 0, ErrShape, "save W.T instead"},
		{"W of 3 dimensions is ErrShape", good(npy(1, dict("<f4", "(3, 10, 1)"), f4(30, small))), 0, ErrShape, "W has shape (3, 10, 1)"},
		{"783 features where 784 are needed is ErrShape", good(npy(1, dict("<f4", "(783, 10)"), f4(7830, small))), 784, ErrShape, "W has 783 features, want 784"},
		{"b of 9 is ErrShape", archive(t, zip.Store, "W.npy", goodW, "b.npy", npy(1, dict("<f4", "(9,)"), f4(9, small))), 0, ErrShape, "b has shape (9,), want (10,)"},
		{"a huge declared shape is ErrTooLarge", good(npy(1, dict("<f4", "(1000000000, 10)"), huge)), 0, ErrTooLarge, "more than 655360 values"},
		{"a huge shape of many small dimensions is ErrTooLarge", good(npy(1, dict("<f4", "(1000, 1000, 1000)"), huge)), 0, ErrTooLarge, "shape (1000, 1000, 1000)"},
		{"W with fewer bytes than its shape is ErrTruncated", good(npy(1, dict("<f4", "(3, 10)"), f4(29, small))), 0, ErrTruncated, "holds 116 bytes of data, its shape (3, 10) needs 120"},
		{"W with bytes after its data is ErrFormat", good(npy(1, dict("<f4", "(3, 10)"), f4(31, small))), 0, ErrFormat, "4 bytes after its data"},
		{"a NaN in W is ErrNotFinite", good(npy(1, dict("<f4", "(3, 10)"), f4(30, func(i int) float64 { return math.NaN() }))), 0, ErrNotFinite, "W[0, 0] is NaN"},
		{"+Inf in b is ErrNotFinite", archive(t, zip.Store, "W.npy", goodW, "b.npy", npy(1, dict("<f4", "(10,)"), f4(10, only(9, math.Inf(1))))), 0, ErrNotFinite, "b[9] is +Inf"},
		{"-Inf in W is ErrNotFinite", good(npy(1, dict("<f4", "(3, 10)"), f4(30, only(12, math.Inf(-1))))), 0, ErrNotFinite, "W[1, 2] is -Inf"},
		{"a float64 beyond float32 is ErrNotFinite", good(npy(1, dict("<f8", "(3, 10)"), f8(30, func(i int) float64 { return 1e300 }))), 0, ErrNotFinite, "beyond ±3.4e38"},
		{"a zip with an unknown compression is ErrFormat", archive(t, 99, "W.npy", goodW, "b.npy", goodB), 0, ErrFormat, "compression other than"},
		{"a file over the size limit is ErrTooLarge", append([]byte("PK\x03\x04"), make([]byte, MaxBytes)...), 0, ErrTooLarge, "more than the limit"},
		{"a zip start without an archive is ErrTruncated", []byte("PK\x03\x04 and then nothing"), 0, ErrTruncated, "no end record"},
		{"a directory past the end is ErrFormat", func() []byte {
			b := archive(t, zip.Store, "W.npy", goodW, "b.npy", goodB)
			b[len(b)-6]++ // the directory's offset, in the end record
			return b
		}(), 0, ErrFormat, "does not fit in it"},
		{"an encrypted entry is ErrFormat", func() []byte {
			b := archive(t, zip.Store, "W.npy", goodW, "b.npy", goodB)
			cd := bytes.LastIndex(b, []byte("PK\x01\x02W.npy")) // W's directory entry
			if cd < 0 {
				cd = bytes.Index(b, []byte("PK\x01\x02"))
			}
			b[cd+8] |= 1
			return b
		}(), 0, ErrFormat, "W.npy is encrypted"},
	}
	seen := refusals{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(tt.input, tt.features)
			seen.check(t, tt.name, err, tt.is, tt.text)
		})
	}
}

func TestNPZCorruptDataFailsChecksum(t *testing.T) {
	b := encodeNPZ(t, trainedLike(rand.New(rand.NewPCG(1, 2)), 3))
	i := bytes.Index(b, []byte("W.npy")) + len("W.npy") + 128 + 3 // inside W's data
	b[i] ^= 0x40
	if _, err := Decode(b, 0); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("a flipped bit in W: %v, want ErrFormat about the checksum", err)
	}
}

func TestNPZPrefixesAreTruncated(t *testing.T) {
	b := encodeNPZ(t, trainedLike(rand.New(rand.NewPCG(1, 2)), 3))
	for n := 1; n < len(b); n++ {
		_, err := Decode(b[:n], 0)
		if !errors.Is(err, ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("the first %d of %d bytes: %v, want ErrTruncated", n, len(b), err)
		}
	}
}

func TestNPZIsStored(t *testing.T) {
	b := encodeNPZ(t, softmax.New[float32](784))
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
		if f.Method != zip.Store || f.Flags&0x8 != 0 {
			t.Errorf("%s: method %d, flags %#x, want stored without a data descriptor", f.Name, f.Method, f.Flags)
		}
	}
	if strings.Join(names, " ") != "W.npy b.npy" {
		t.Errorf("entries %v", names)
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
