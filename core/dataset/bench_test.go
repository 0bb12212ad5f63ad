package dataset_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/dataset/datasettest"
)

// BenchmarkDecode decodes 10,000 stroke images and the committed default
// pack's 10,000 + 2,000 MNIST images, in each format version. A missing
// default pack fails the benchmark.
func BenchmarkDecode(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	packs := []struct {
		name string
		pack *dataset.Pack
	}{
		{"strokes", &dataset.Pack{Train: dataset.StrokeSet(r, 10_000), Test: dataset.NewSet(0, 0)}},
		{"default", datasettest.Default(b)},
	}
	encode := func(b *testing.B, p *dataset.Pack, v int) []byte {
		b.Helper()
		var buf bytes.Buffer
		if err := dataset.EncodeVersion(&buf, p, v); err != nil {
			b.Fatal(err)
		}
		return buf.Bytes()
	}
	for _, p := range packs {
		for _, v := range []int{1, dataset.Version} {
			b.Run(fmt.Sprintf("%s/version=%d", p.name, v), func(b *testing.B) {
				packed := encode(b, p.pack, v)
				got, err := dataset.Decode(packed)
				if err != nil {
					b.Fatal(err)
				}
				dataset.CheckPacksEqual(b, got, p.pack)
				b.SetBytes(int64(len(packed)))
				b.ReportAllocs()
				b.ReportMetric(float64(len(packed)), "bytes")
				for b.Loop() {
					if _, err := dataset.Decode(packed); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		// What stands between the training images' arrival and "ready".
		b.Run(p.name+"/version=3/train-prefix", func(b *testing.B) {
			packed := encode(b, p.pack, 3)
			n, err := dataset.TrainPrefix(packed)
			if err != nil || n == 0 {
				b.Fatal(n, err)
			}
			prefix := packed[:n]
			got, err := dataset.DecodeTrain(prefix)
			if err != nil {
				b.Fatal(err)
			}
			dataset.CheckPacksEqual(b, &dataset.Pack{Train: got, Test: p.pack.Test}, p.pack)
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := dataset.DecodeTrain(prefix); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
