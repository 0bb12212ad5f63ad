package softmax

import "unsafe"

// Pair is two neighbouring pixels of one example, j and j+1, with their
// values: the unit of work of the batch gradient's SIMD kernels (doc.go,
// "Pairs"). Its layout (12 bytes: Pixel at 0, V1 at 4, V2 at 8) is part of
// the contract with web/kernels.wat.
type Pair struct {
	Pixel  uint16 // j, the first pixel; the second is j+1
	_      uint16
	V1, V2 float32 // the values of pixels j and j+1
}

// Single is a pixel of one example that is not in a pair, with its
// value. Its layout (8 bytes: Pixel at 0, V at 4) is part of the contract
// with web/kernels.wat.
type Single struct {
	Pixel uint16
	_     uint16
	V     float32
}

// Blocks is a set of float32 examples cut into pairs and singles as the
// batch gradient takes them (doc.go, "Pairs"), laid out for the SIMD
// kernels: example i has the pairs Pairs[PairStart[i]:PairStart[i+1]]
// and the singles Singles[SingleStart[i]:SingleStart[i+1]], each in the
// order of its pixels. The Go code does not need them: it finds the pairs
// as it goes, with the same result.
type Blocks struct {
	PairStart   []int32
	Pairs       []Pair
	SingleStart []int32
	Singles     []Single
}

// Block returns x's Blocks, computing them first if x has none and
// keeping them in x.Blocks, so that x's views (View) share them: about 6
// bytes for each non-zero pixel, as many as x itself holds. Block writes
// x.Blocks, so call it before x is shared between goroutines, and the
// blocks are a copy: x must not change afterwards. The batch gradient
// calls it on the float32 data it runs in SIMD.
func Block(x *Examples[float32]) *Blocks {
	if x.Blocks != nil {
		return x.Blocks
	}
	m := x.Len()
	b := &Blocks{PairStart: make([]int32, m+1), SingleStart: make([]int32, m+1)}
	pairs, singles := 0, 0
	for i := range m {
		index, _ := x.Example(i)
		p, s := countPairs(index)
		pairs, singles = pairs+p, singles+s
	}
	b.Pairs, b.Singles = make([]Pair, pairs), make([]Single, singles)
	np, ns := 0, 0
	for i := range m {
		b.PairStart[i], b.SingleStart[i] = int32(np), int32(ns)
		index, value := x.Example(i)
		value = value[:len(index)]
		for t := 0; t < len(index); {
			if t+1 < len(index) && int(index[t+1]) == int(index[t])+1 {
				b.Pairs[np] = Pair{Pixel: index[t], V1: value[t], V2: value[t+1]}
				np++
				t += 2
			} else {
				b.Singles[ns] = Single{Pixel: index[t], V: value[t]}
				ns++
				t++
			}
		}
	}
	b.PairStart[m], b.SingleStart[m] = int32(np), int32(ns)
	x.Blocks = b
	return b
}

// paired reports whether the pixel at position t of an example's list
// starts a pair: the next pixel in the list is the next pixel of the
// image. The list is read from its start in steps of a pair or a single,
// so a pixel that is the second of a pair never starts one.
func paired(index []uint16, t int) bool {
	return t+1 < len(index) && int(index[t+1]) == int(index[t])+1
}

// countPairs returns the pairs and singles of one example's pixels.
func countPairs(index []uint16) (pairs, singles int) {
	for t := 0; t < len(index); {
		if paired(index, t) {
			pairs++
			t += 2
		} else {
			singles++
			t++
		}
	}
	return pairs, singles
}

// view returns the Blocks of x.View(lo, hi), sharing b's memory, or nil.
func (b *Blocks) view(lo, hi int) *Blocks {
	if b == nil {
		return nil
	}
	return &Blocks{PairStart: b.PairStart[lo : hi+1], Pairs: b.Pairs, SingleStart: b.SingleStart[lo : hi+1], Singles: b.Singles}
}

// The kernels read Pair and Single by their byte layout.
var (
	_ [12]byte = [unsafe.Sizeof(Pair{})]byte{}
	_ [8]byte  = [unsafe.Sizeof(Single{})]byte{}
	_ [4]byte  = [unsafe.Offsetof(Pair{}.V1)]byte{}
	_ [4]byte  = [unsafe.Offsetof(Single{}.V)]byte{}
)
