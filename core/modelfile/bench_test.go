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

// BenchmarkEncode writes a 784×10 model in each form, after checking once
// that what it writes decodes to the same model.
func BenchmarkEncode(b *testing.B) {
	m := trainedLike(rand.New(rand.NewPCG(1, 2)), 784)
	for _, c := range []struct {
		name   string
		encode func(*bytes.Buffer) error
	}{
		{"json", func(buf *bytes.Buffer) error { return EncodeJSON(buf, m, info) }},
		{"npz", func(buf *bytes.Buffer) error { return EncodeNPZ(buf, m) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var buf bytes.Buffer
			if err := c.encode(&buf); err != nil {
				b.Fatal(err)
			}
			if f, err := Decode(buf.Bytes(), 784); err != nil || !sameBits(f.Model, m) {
				b.Fatalf("Decode of what Encode wrote: %v (or the model differs)", err)
			}
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				if err := c.encode(&buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
