package kit

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"softmaxdemo/core/softmax"
)

// checksumByFNV is Checksum by hash/fnv, byte by byte.
func checksumByFNV(m *softmax.Model[float32]) string {
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

// TestChecksumIsFNV1a: the checksum is hash/fnv's FNV-1a of the
// parameters' little-endian bytes, for random models (NaN and infinities
// among the bits), models without weights or biases, and none.
func TestChecksumIsFNV1a(t *testing.T) {
	if Checksum(nil) != "" {
		t.Error("no model has a checksum")
	}
	r := rand.New(rand.NewPCG(9, 10))
	ms := []*softmax.Model[float32]{{}, {D: 0, B: make([]float32, softmax.K)}, {D: 1, W: make([]float32, softmax.K)}}
	for range 50 {
		d := 1 + r.IntN(784)
		m := &softmax.Model[float32]{D: d, W: make([]float32, d*softmax.K), B: make([]float32, softmax.K)}
		for _, p := range [][]float32{m.W, m.B} {
			for i := range p {
				p[i] = math.Float32frombits(r.Uint32())
			}
		}
		ms = append(ms, m)
	}
	for _, m := range ms {
		if got, want := Checksum(m), checksumByFNV(m); got != want {
			t.Fatalf("Checksum of a model of %d weights and %d biases = %s, hash/fnv gives %s", len(m.W), len(m.B), got, want)
		}
	}
}

func BenchmarkChecksum(b *testing.B) {
	m := &softmax.Model[float32]{D: 784, W: make([]float32, 7840), B: make([]float32, softmax.K)}
	for i := range m.W {
		m.W[i] = float32(i) / 7
	}
	b.Run("fnv", func(b *testing.B) {
		for b.Loop() {
			checksumByFNV(m)
		}
	})
	b.Run("Checksum", func(b *testing.B) {
		for b.Loop() {
			Checksum(m)
		}
	})
}
