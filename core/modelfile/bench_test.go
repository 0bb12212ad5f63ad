package modelfile

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// BenchmarkDecode decodes a 784×10 model with weights as training leaves
// them, in each form; "bytes" is the file's size.
func BenchmarkDecode(b *testing.B) {
	m := trainedLike(rand.New(rand.NewPCG(1, 2)), 784)
	v1, err := json.Marshal(m)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		file []byte
	}{
		{"json", encodeJSON(b, m, info)},
		{"json-v1", v1},
		{"npz", encodeNPZ(b, m)},
	} {
		b.Run(c.name, func(b *testing.B) {
			f, err := Decode(c.file, 784)
			if err != nil || !sameBits(f.Model, m) {
				b.Fatalf("Decode: %v (or the model differs)", err)
			}
			b.SetBytes(int64(len(c.file)))
			b.ReportAllocs()
			for b.Loop() {
				Decode(c.file, 784)
			}
			b.ReportMetric(float64(len(c.file)), "bytes")
		})
	}
}

// BenchmarkEncode writes a 784×10 model in each form.
func BenchmarkEncode(b *testing.B) {
	m := trainedLike(rand.New(rand.NewPCG(1, 2)), 784)
	var buf bytes.Buffer
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			EncodeJSON(&buf, m, info)
		}
	})
	b.Run("npz", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			EncodeNPZ(&buf, m)
		}
	})
}
