package digit

import (
	"math"

	"softmaxdemo/core/dataset"
)

// Skew is what Deskew measured and removed. Coordinates are continuous, as
// in Info: pixel (r, c) covers [c, c+1) × [r, r+1).
type Skew struct {
	// OK reports whether the image held ink. When it is false the other
	// fields are zero and the output is all zeros.
	OK bool
	// CX and CY are the input's centre of mass, which the output keeps up
	// to interpolation and rounding.
	CX, CY float64
	// Alpha is the shear removed, cov(x, y)/var(y) of the input's ink: a
	// digit leaning right (its top further right than its bottom) has a
	// negative Alpha, since y grows downwards. It is 0 when all the ink is
	// on one row, where var(y) is 0.
	Alpha float64
}

// shiftOne is the fixed-point unit of the interpolation weights: a
// fraction f of a pixel is round(f·shiftOne)/shiftOne.
const shiftOne = 1 << 16

// Deskew writes into dst the image src sheared horizontally so that its ink
// has no x–y covariance, and returns what it measured. src and dst are Pixels
// grey levels, row-major; they may be the same array. It does not allocate.
//
// With the ink's centre of mass (x̄, ȳ), covariance cov(x, y) and variance
// var(y), each weighted by grey level, the shear
//
//	α = cov(x, y) / var(y)
//	out(x, y) = in(x + α·(y − ȳ), y)
//
// moves the ink at (x, y) to (x − α·(y − ȳ), y): every row slides
// sideways by an amount proportional to its height above or below ȳ, so
// cov(x, y) becomes cov(x, y) − α·var(y) = 0, and x̄ and ȳ stay where
// MNIST's preprocessing put them (rows do not move, and the shifts weighted
// by ink sum to zero). This is the moment-based deskewing that LeCun et
// al. (1998) and others use on MNIST, without the usual recentring to the
// middle of the frame.
//
// The moments are sums of grey level × pixel index, all integers, so
//
//	α = (S·Sxy − Sx·Sy) / (S·Syy − Sy²)
//
// (S = Σv, Sx = Σv·c, Sy = Σv·r, Sxy = Σv·c·r, Syy = Σv·r²) is one
// correctly rounded float64 division, and row r slides by
// t = α·(r·S − Sy)/S, one product and one division: the same bits natively
// and in WebAssembly, with no sum that a compiler could fuse into an FMA.
//
// Interpolation is bilinear, the classic choice; since a horizontal shear
// keeps rows on rows, it reduces to linear interpolation along each row:
// with k = ⌊t⌋ and f = t − k,
//
//	out[r][c] = (1−f)·in[r][c+k] + f·in[r][c+k+1]
//
// where pixels outside the frame are 0. This is also the exact area
// average of the row shifted by t, so each row keeps its total ink unless
// the shift pushes ink past the frame's edge. f is rounded to a multiple
// of 1/65536 and the sum is computed in integers, rounding halves up, so
// levels stay 0..255 and every platform gives the same bytes.
//
// An image without ink gives all zeros; one whose ink is all on one row
// (var(y) = 0, such as a single pixel) is copied unchanged.
func Deskew(dst, src *[Pixels]uint8) Skew {
	var m moments
	for r := range Side {
		var rs, rsx int64
		for c, v := range src[r*Side : r*Side+Side] {
			rs += int64(v)
			rsx += int64(v) * int64(c)
		}
		m.addRow(r, rs, rsx)
	}
	sk := m.skew()
	switch {
	case !sk.OK:
		clear(dst[:])
		return sk
	case sk.Alpha == 0:
		*dst = *src
		return sk
	}
	for r := range Side {
		var row [Side]uint8
		copy(row[:], src[r*Side:r*Side+Side])
		out := dst[r*Side : r*Side+Side]
		clear(out)
		k, w1 := m.shift(sk.Alpha, r)
		w0 := shiftOne - w1
		// Output pixel c reads in[c+k] and in[c+k+1]: c from lo to hi−1
		// has at least one of them inside the row.
		lo, hi := max(-k-1, 0), min(Side-k, Side)
		for c := lo; c < hi; c++ {
			var a, b int32
			if i := c + k; i >= 0 {
				a = int32(row[i])
			}
			if i := c + k + 1; i < Side {
				b = int32(row[i])
			}
			out[c] = uint8((w0*a + w1*b + shiftOne/2) >> 16)
		}
	}
	return sk
}

// moments are the integer sums of grey level v times pixel indices that
// give the shear: S = Σv, Sx = Σv·c, Sy = Σv·r, Sxy = Σv·c·r, Syy = Σv·r².
type moments struct{ s, sx, sy, sxy, syy int64 }

// addRow adds row r, whose levels sum to rs and levels times column to rsx.
func (m *moments) addRow(r int, rs, rsx int64) {
	ri := int64(r)
	m.s += rs
	m.sx += rsx
	m.sy += rs * ri
	m.sxy += rsx * ri
	m.syy += rs * ri * ri
}

// skew returns the centre of mass and α = cov(x, y)/var(y).
func (m *moments) skew() Skew {
	if m.s == 0 {
		return Skew{}
	}
	// Both fit in 53 bits (S ≤ 784·255, moments ≤ S·27²), so the
	// conversions are exact.
	num, den := m.s*m.sxy-m.sx*m.sy, m.s*m.syy-m.sy*m.sy
	sk := Skew{OK: true,
		CX: float64(m.sx)/float64(m.s) + 0.5,
		CY: float64(m.sy)/float64(m.s) + 0.5,
	}
	if den != 0 && num != 0 {
		sk.Alpha = float64(num) / float64(den)
	}
	return sk
}

// shift returns how row r slides for the shear alpha, t = α·(r·S − Sy)/S,
// split as t = k + w1/shiftOne with w1 in 0..shiftOne−1, rounded to the
// nearest 1/shiftOne. A row that would slide more than twice the frame's
// width (or a NaN) gets k = 2·Side: it leaves the frame.
func (m *moments) shift(alpha float64, r int) (k int, w1 int32) {
	t := alpha * float64(int64(r)*m.s-m.sy) / float64(m.s)
	if !(t > -2*Side && t < 2*Side) {
		return 2 * Side, 0
	}
	fk := math.Floor(t)
	k = int(fk)
	w1 = int32(math.Round((t - fk) * shiftOne)) // t − fk and the product are exact
	if w1 == shiftOne {
		k, w1 = k+1, 0
	}
	return k, w1
}

// DeskewSet returns a new set holding the images of s deskewed by Deskew,
// with the same labels in the same order; s is only read. It allocates the
// new set's slices (with room for 4/3 of s's non-zero pixels, since the
// interpolation spreads ink) and nothing per image. It works on the sparse
// pixels directly, touching only the rows and columns that hold ink, and
// gives the same bytes as Deskew.
func DeskewSet(s *dataset.Set) *dataset.Set {
	n := s.Len()
	out := &dataset.Set{
		Labels: append([]uint8(nil), s.Labels...),
		Start:  make([]int32, 1, n+1),
		Index:  make([]uint16, 0, s.NNZ()+s.NNZ()/3),
		Value:  make([]uint8, 0, s.NNZ()+s.NNZ()/3),
	}
	for i := range n {
		idx, val := s.Image(i)
		out.Index, out.Value = appendDeskewed(out.Index, out.Value, idx, val)
		out.Start = append(out.Start, int32(len(out.Index)))
	}
	return out
}

// appendDeskewed appends to index and value the sparse form of Deskew's
// output for the sparse image idx, val (positions r*Side+c, increasing,
// and non-zero levels), in increasing order of position.
func appendDeskewed(index []uint16, value []uint8, idx []uint16, val []uint8) ([]uint16, []uint8) {
	var m moments
	for t := 0; t < len(idx); {
		r := int(idx[t]) / Side
		var rs, rsx int64
		for ; t < len(idx) && int(idx[t])/Side == r; t++ {
			rs += int64(val[t])
			rsx += int64(val[t]) * int64(int(idx[t])-r*Side)
		}
		m.addRow(r, rs, rsx)
	}
	sk := m.skew()
	if sk.Alpha == 0 { // no ink, or nothing to straighten
		return append(index, idx...), append(value, val...)
	}
	for t := 0; t < len(idx); {
		r := int(idx[t]) / Side
		end := t
		for end < len(idx) && int(idx[end])/Side == r {
			end++
		}
		k, w1 := m.shift(sk.Alpha, r)
		w0 := shiftOne - w1
		// Source pixel c lands on output c−k with weight w0 and on c−k−1
		// with weight w1, the scatter form of Deskew's gather.
		var acc [Side + 2]int32 // acc[c+1] is output pixel c
		lo, hi := Side, -1
		for ; t < end; t++ {
			c := int(idx[t]) - r*Side - k
			v := int32(val[t])
			if c >= 0 && c < Side {
				acc[c+1] += w0 * v
			}
			if c-1 >= 0 && c-1 < Side {
				acc[c] += w1 * v
			}
			lo, hi = min(lo, c-1), max(hi, c)
		}
		for c := max(lo, 0); c <= min(hi, Side-1); c++ {
			if v := (acc[c+1] + shiftOne/2) >> 16; v != 0 {
				index = append(index, uint16(r*Side+c))
				value = append(value, uint8(v))
			}
		}
	}
	return index, value
}
