//go:build !purego

package softmax

// haveSIMD says the float32 kernels use the SSE versions in
// kernels_amd64.s. Tests turn it off to compare them with the Go code.
var haveSIMD = true

// logitsSSE is Logits for float32 over n features; w holds rows×K weights.
// It returns -1, or the position of the first index that is not below rows
// (then z is unchanged).
//
//go:noescape
func logitsSSE(z *[K]float32, w *float32, rows int, b *[K]float32, index *uint16, value *float32, n int) (bad int)

// scatterSSE adds value[t]·d into row index[t] of grad for t < n. It returns -1,
// or the position of the first index that is not below rows (then rows
// before it were already updated).
//
//go:noescape
func scatterSSE(grad *float32, rows int, index *uint16, value *float32, n int, d *[K]float32) (bad int)

// pairLogitsSSE is pairLogits for float32 from one example's np pairs and
// ns singles; w holds rows×K weights. It returns -1, or the first pixel
// out of range (then z is unchanged).
//
//go:noescape
func pairLogitsSSE(z *[K]float32, w *float32, rows int, b *[K]float32, pairs *Pair, np int, singles *Single, ns int) (bad int)
