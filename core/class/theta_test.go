package class

import (
	"encoding/binary"
	"errors"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"softmaxdemo/core/internal/numpytest"
	"softmaxdemo/core/softmax"
)

// randomTheta returns a d×k model with random bits, NaNs with payloads,
// infinities, zeros of both signs and denormals among them.
func randomTheta(r *rand.Rand, d, k int) *softmax.Model[float32] {
	m := softmax.NewClasses[float32](d, k)
	special := []uint32{0x7fc00001, 0xffbfffff, 0x7f800000, 0xff800000, 0x80000000, 0, 1, 0x807fffff}
	for _, part := range [][]float32{m.W, m.B} {
		for i := range part {
			bits := r.Uint32()
			if r.IntN(8) == 0 {
				bits = special[r.IntN(len(special))]
			}
			part[i] = math.Float32frombits(bits)
		}
	}
	return m
}

// fnvChecksum is the checksum by hash/fnv, byte by byte: the page's
// data-checksum and data-theta as they were first written.
func fnvChecksum(m *softmax.Model[float32]) string {
	h := fnv.New64a()
	var b [4]byte
	for _, part := range [][]float32{m.W, m.B} {
		for _, v := range part {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
			h.Write(b[:])
		}
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

// TestThetaRoundTrip: θ crosses the wire bit for bit, NaN payloads too,
// and the checksums of the model, of the wire and hash/fnv's agree.
func TestThetaRoundTrip(t *testing.T) {
	r := newRand()
	for _, shape := range [][2]int{{784, 10}, {1, 2}, {2, 5}, {784, 2}} {
		m := randomTheta(r, shape[0], shape[1])
		b, err := EncodeTheta(m)
		if err != nil {
			t.Fatal(err)
		}
		if want := 12 + 4*(shape[0]+1)*shape[1]; len(b) != want {
			t.Errorf("%v: %d bytes, want %d", shape, len(b), want)
		}
		got, err := DecodeTheta(b)
		if err != nil {
			t.Fatal(err)
		}
		if got.D != m.D || len(got.W) != len(m.W) || len(got.B) != len(m.B) {
			t.Fatalf("%v: decoded D %d, %d weights, %d biases", shape, got.D, len(got.W), len(got.B))
		}
		for i := range m.W {
			if math.Float32bits(got.W[i]) != math.Float32bits(m.W[i]) {
				t.Fatalf("%v: W[%d] %#x, want %#x", shape, i, math.Float32bits(got.W[i]), math.Float32bits(m.W[i]))
			}
		}
		for i := range m.B {
			if math.Float32bits(got.B[i]) != math.Float32bits(m.B[i]) {
				t.Fatalf("%v: B[%d] differs", shape, i)
			}
		}
		sum := Checksum(m)
		if k := fnvChecksum(m); sum != k || ChecksumWire(b) != k || Checksum(got) != k {
			t.Errorf("%v: Checksum %s, of the wire %s, of the decoded %s; hash/fnv's %s", shape, sum, ChecksumWire(b), Checksum(got), k)
		}
	}
	if Checksum(nil) != "" {
		t.Error("Checksum(nil) is not empty")
	}
	// FNV-1a of no bytes is its offset basis.
	if got := ChecksumWire([]byte("CL\xce\xb8\x02\x00\x00\x00\x00\x00\x00\x00")); got != "cbf29ce484222325" {
		t.Errorf("FNV-1a of nothing is %s", got)
	}
}

// TestChecksumAsPythonComputesIt: FNV-1a computed by Python over the
// bytes of NumPy's float32 array of the same model, a reference outside
// Go.
func TestChecksumAsPythonComputesIt(t *testing.T) {
	numpytest.Need(t)
	m := randomTheta(newRand(), 784, 10)
	for i := range m.W { // finite numbers, as NumPy reads them from text
		if v := m.W[i]; v != v || math.IsInf(float64(v), 0) {
			m.W[i] = float32(i) / 7
		}
	}
	for i := range m.B {
		m.B[i] = -float32(i) * 0.1
	}
	var text strings.Builder
	for _, part := range [][]float32{m.W, m.B} {
		for _, v := range part {
			text.WriteString(strconv.FormatFloat(float64(v), 'g', -1, 32))
			text.WriteByte('\n')
		}
	}
	path := filepath.Join(t.TempDir(), "theta.txt")
	if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	const py = `
import sys, numpy as np
b = np.loadtxt(sys.argv[1], dtype=np.float32).astype('<f4').tobytes()
h = 0xcbf29ce484222325
for c in b:
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
print('%x' % h)
`
	out, err := exec.Command(numpytest.Python, "-c", py, path).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	if got, want := strings.TrimSpace(string(out)), Checksum(m); got != want {
		t.Errorf("Python's FNV-1a %s, Checksum %s", got, want)
	}
}

func TestDecodeThetaErrors(t *testing.T) {
	good, err := EncodeTheta(randomTheta(newRand(), 3, 2))
	if err != nil {
		t.Fatal(err)
	}
	with := func(at int, v ...byte) []byte {
		b := append([]byte(nil), good...)
		copy(b[at:], v)
		return b
	}
	for _, tt := range []struct {
		name string
		b    []byte
		is   error
		says string
	}{
		{"empty", nil, ErrMalformed, "shorter than its 12-byte header"},
		{"another magic", with(0, 'M', 'N', 'P', 'K'), ErrMalformed, "magic"},
		{"one class", with(4, 1), ErrInvalid, "2…10"},
		{"eleven classes", with(4, 11), ErrInvalid, "2…10"},
		{"no features", with(8, 0, 0, 0, 0), ErrInvalid, "0 features"},
		{"785 features", with(8, 0x11, 3), ErrInvalid, "785 features"},
		{"four billion features", with(8, 0xff, 0xff, 0xff, 0xff), ErrInvalid, "want 1…784"},
		{"reserved bytes", with(6, 1), ErrMalformed, "want zero"},
		{"a byte more", append(append([]byte(nil), good...), 0), ErrMalformed, "its header (D = 3, K = 2) says 44"},
		{"more features than bytes", with(8, 4), ErrMalformed, "says 52"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeTheta(tt.b)
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("error %v, want %v saying %q", err, tt.is, tt.says)
			}
		})
	}
	for n := range len(good) {
		if _, err := DecodeTheta(good[:n]); !errors.Is(err, ErrMalformed) {
			t.Fatalf("cut to %d bytes: %v", n, err)
		}
	}
	for _, m := range []*softmax.Model[float32]{
		{D: 785, W: make([]float32, 7850), B: make([]float32, 10)},
		{D: 2, W: make([]float32, 3), B: make([]float32, 2)},
		{D: 2, W: make([]float32, 2), B: make([]float32, 1)},
	} {
		if _, err := EncodeTheta(m); !errors.Is(err, ErrInvalid) {
			t.Errorf("EncodeTheta(D %d, %d weights, %d classes): %v", m.D, len(m.W), len(m.B), err)
		}
	}
}

func TestDigitList(t *testing.T) {
	r := newRand()
	var ds []*Digit
	for i := range 5 {
		ds = append(ds, &Digit{N: uint32(3*i + 1), Label: uint8(i), Pixels: pixels(r)})
	}
	for _, list := range [][]*Digit{nil, ds} {
		b, err := EncodeDigitList(list)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != 8+789*len(list) {
			t.Errorf("%d drawings in %d bytes", len(list), len(b))
		}
		got, err := DecodeDigitList(b)
		if err != nil || len(got) != len(list) {
			t.Fatalf("decoded %d drawings (%v), want %d", len(got), err, len(list))
		}
		for i := range got {
			if *got[i] != *list[i] {
				t.Errorf("drawing %d differs", i)
			}
		}
		for n := range len(b) {
			if _, err := DecodeDigitList(b[:n]); !errors.Is(err, ErrMalformed) {
				t.Fatalf("cut to %d bytes: %v", n, err)
			}
		}
	}
	b, _ := EncodeDigitList(ds)
	bad := append([]byte(nil), b...)
	bad[8+4] = 10
	if _, err := DecodeDigitList(bad); !errors.Is(err, ErrInvalid) {
		t.Errorf("label 10: %v", err)
	}
	bad = append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(bad[4:], 1<<20+1)
	if _, err := DecodeDigitList(bad); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "more than") {
		t.Errorf("a count above the limit: %v", err)
	}
	if _, err := EncodeDigitList([]*Digit{{Label: 10}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("encoding label 10: %v", err)
	}
}

// TestChecksumOfEmptyParts: a model without weights, or without biases,
// hashes as hash/fnv does; no model has no checksum.
func TestChecksumOfEmptyParts(t *testing.T) {
	for _, m := range []*softmax.Model[float32]{{}, {B: []float32{1, 2}}, {D: 1, W: []float32{3, 4}}} {
		if got, want := Checksum(m), fnvChecksum(m); got != want {
			t.Errorf("Checksum of %d weights and %d biases = %s, hash/fnv's %s", len(m.W), len(m.B), got, want)
		}
	}
	if Checksum(nil) != "" {
		t.Error("no model has a checksum")
	}
}
