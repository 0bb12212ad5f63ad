//go:build !amd64 || purego

package softmax

// haveSIMD is false: every platform but amd64 runs the Go kernels.
var haveSIMD = false

func logitsSSE(z *[K]float32, w *float32, rows int, b *[K]float32, index *uint16, value *float32, n int) int {
	panic("unreachable")
}

func scatterSSE(grad *float32, rows int, index *uint16, value *float32, n int, d *[K]float32) int {
	panic("unreachable")
}

func pairLogitsSSE(z *[K]float32, w *float32, rows int, b *[K]float32, pairs *Pair, np int, singles *Single, ns int) int {
	panic("unreachable")
}
