package kit

import (
	"testing"

	"softmaxdemo/core/softmax"
)

// BenchmarkChecksum: as the page builds it, GOOS=js GOARCH=wasm go test
// -gcflags=all=-l -gcflags=softmaxdemo/core/...= -bench Checksum.
func BenchmarkChecksum(b *testing.B) {
	m := &softmax.Model[float32]{D: 784, W: make([]float32, 7840), B: make([]float32, softmax.K)}
	for i := range m.W {
		m.W[i] = float32(i) / 7
	}
	for b.Loop() {
		Checksum(m)
	}
}
