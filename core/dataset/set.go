package dataset

import "fmt"

// Image geometry and label range of MNIST.
const (
	Rows    = 28
	Cols    = 28
	Pixels  = Rows * Cols // 784
	Classes = 10
)

// Set is a labelled set of 28×28 grey images, stored sparsely in
// compressed-sparse-row form: only the non-zero pixels are kept, which is
// about 19% of MNIST's pixels.
//
// The non-zero pixels of image i are Index[Start[i]:Start[i+1]] (positions
// r*Cols+c, strictly increasing) with grey levels Value[Start[i]:Start[i+1]]
// (1..255; 0 is never stored). Start has Len()+1 entries and Start[0] is 0.
// A Set built with NewSet, Append or Decode satisfies these invariants;
// Validate checks them for a Set built by hand.
type Set struct {
	Labels []uint8
	Start  []int32
	Index  []uint16
	Value  []uint8
}

// NewSet returns an empty set with room for n images of about nnz non-zero
// pixels each.
func NewSet(n, nnz int) *Set {
	s := &Set{
		Labels: make([]uint8, 0, n),
		Start:  make([]int32, 1, n+1),
		Index:  make([]uint16, 0, n*nnz),
		Value:  make([]uint8, 0, n*nnz),
	}
	return s
}

// Len returns the number of images in s.
func (s *Set) Len() int { return len(s.Labels) }

// NNZ returns the total number of non-zero pixels in s.
func (s *Set) NNZ() int { return len(s.Index) }

// Append adds one image given as Pixels dense grey levels, row-major.
// It panics if len(pixels) != Pixels or label >= Classes, which is a bug in
// the caller: decoders check their input before calling it.
func (s *Set) Append(label uint8, pixels []uint8) {
	if len(pixels) != Pixels {
		panic(fmt.Sprintf("dataset: Append got %d pixels, want %d", len(pixels), Pixels))
	}
	if label >= Classes {
		panic(fmt.Sprintf("dataset: Append got label %d, want 0..9", label))
	}
	if len(s.Start) == 0 {
		s.Start = append(s.Start, 0)
	}
	for j, v := range pixels {
		if v != 0 {
			s.Index = append(s.Index, uint16(j))
			s.Value = append(s.Value, v)
		}
	}
	s.Labels = append(s.Labels, label)
	s.Start = append(s.Start, int32(len(s.Index)))
}

// Image returns the sparse pixels of image i, sharing s's memory.
func (s *Set) Image(i int) (index []uint16, value []uint8) {
	a, b := s.Start[i], s.Start[i+1]
	return s.Index[a:b], s.Value[a:b]
}

// Dense writes image i as Pixels grey levels into dst and returns dst.
// It panics if len(dst) != Pixels.
func (s *Set) Dense(dst []uint8, i int) []uint8 {
	if len(dst) != Pixels {
		panic(fmt.Sprintf("dataset: Dense got %d bytes, want %d", len(dst), Pixels))
	}
	clear(dst)
	idx, val := s.Image(i)
	for t, j := range idx {
		dst[j] = val[t]
	}
	return dst
}

// Subset returns a new Set holding the images of s at the given positions,
// in that order. It panics if a position is out of range.
func (s *Set) Subset(pos []int) *Set {
	nnz := 0
	for _, i := range pos {
		nnz += int(s.Start[i+1] - s.Start[i])
	}
	out := &Set{
		Labels: make([]uint8, 0, len(pos)),
		Start:  make([]int32, 1, len(pos)+1),
		Index:  make([]uint16, 0, nnz),
		Value:  make([]uint8, 0, nnz),
	}
	for _, i := range pos {
		idx, val := s.Image(i)
		out.Index = append(out.Index, idx...)
		out.Value = append(out.Value, val...)
		out.Labels = append(out.Labels, s.Labels[i])
		out.Start = append(out.Start, int32(len(out.Index)))
	}
	return out
}

// Validate reports whether s satisfies the invariants documented on Set.
func (s *Set) Validate() error {
	n := len(s.Labels)
	if len(s.Start) != n+1 {
		return fmt.Errorf("dataset: %d labels but %d row starts, want %d", n, len(s.Start), n+1)
	}
	if s.Start[0] != 0 {
		return fmt.Errorf("dataset: first row start is %d, want 0", s.Start[0])
	}
	if len(s.Index) != len(s.Value) {
		return fmt.Errorf("dataset: %d indices but %d values", len(s.Index), len(s.Value))
	}
	if int(s.Start[n]) != len(s.Index) {
		return fmt.Errorf("dataset: last row ends at %d, want %d", s.Start[n], len(s.Index))
	}
	for i := range n {
		if s.Labels[i] >= Classes {
			return fmt.Errorf("dataset: image %d has label %d, want 0..9", i, s.Labels[i])
		}
		a, b := s.Start[i], s.Start[i+1]
		if b < a || b-a > Pixels {
			return fmt.Errorf("dataset: image %d has %d non-zero pixels, want 0..%d", i, b-a, Pixels)
		}
		prev := -1
		for t := a; t < b; t++ {
			j := int(s.Index[t])
			if j <= prev || j >= Pixels {
				return fmt.Errorf("dataset: image %d has pixel index %d out of order or range", i, j)
			}
			if s.Value[t] == 0 {
				return fmt.Errorf("dataset: image %d stores a zero pixel at %d", i, j)
			}
			prev = j
		}
	}
	return nil
}
