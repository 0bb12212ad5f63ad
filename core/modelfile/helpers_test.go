package modelfile

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"softmaxdemo/core/softmax"
)

// edges are float32 values whose text form is easy to get wrong.
var edges = []float32{
	0, float32(math.Copysign(0, -1)), 1, -1, 0.1, -0.3, 1e-30, 3e38,
	math.Float32frombits(1),          // the smallest subnormal
	math.Float32frombits(0x007fffff), // the largest subnormal
	math.Float32frombits(0x00800000), // the smallest normal
	-math.Float32frombits(0x00000003),
	math.MaxFloat32, -math.MaxFloat32,
	math.Nextafter32(1, 2), 16777217, 123456.789,
}

// randomModel returns a model with d features whose parameters are the
// edge values followed by random finite float32 bits.
func randomModel(r *rand.Rand, d int) *softmax.Model[float32] {
	m := softmax.New[float32](d)
	all := append(m.W[:len(m.W):len(m.W)], m.B...)
	for i := range all {
		if i < len(edges) {
			all[i] = edges[i]
			continue
		}
		for {
			v := math.Float32frombits(r.Uint32())
			if !notFinite(v) {
				all[i] = v
				break
			}
		}
	}
	copy(m.W, all[:len(m.W)])
	copy(m.B, all[len(m.W):])
	return m
}

// trainedLike returns a model with small random weights, as training
// leaves them.
func trainedLike(r *rand.Rand, d int) *softmax.Model[float32] {
	m := softmax.New[float32](d)
	m.InitNormal(r, 0.01)
	for c := range m.B {
		m.B[c] = float32(r.NormFloat64() * 0.1)
	}
	return m
}

// sameBits reports whether a and b hold the same parameters, bit for bit.
func sameBits(a, b *softmax.Model[float32]) bool {
	if a.D != b.D || len(a.W) != len(b.W) || len(a.B) != len(b.B) {
		return false
	}
	for i := range a.W {
		if math.Float32bits(a.W[i]) != math.Float32bits(b.W[i]) {
			return false
		}
	}
	for i := range a.B {
		if math.Float32bits(a.B[i]) != math.Float32bits(b.B[i]) {
			return false
		}
	}
	return true
}

func encodeJSON(t testing.TB, m *softmax.Model[float32], info Info) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := EncodeJSON(&buf, m, info); err != nil {
		t.Fatalf("EncodeJSON: %v", err)
	}
	return buf.Bytes()
}

func encodeNPZ(t testing.TB, m *softmax.Model[float32]) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := EncodeNPZ(&buf, m); err != nil {
		t.Fatalf("EncodeNPZ: %v", err)
	}
	return buf.Bytes()
}

// sentinels are the errors every refusal wraps one of.
var sentinels = []error{ErrFormat, ErrVersion, ErrShape, ErrDType, ErrLayout, ErrNotFinite, ErrTooLarge, ErrTruncated}

// named reports whether err wraps one of the sentinels.
func named(err error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

func nanValue() float64 { return math.NaN() }
