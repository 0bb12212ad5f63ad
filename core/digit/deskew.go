package digit

import (
	"math"
	"slices"

	"softmaxdemo/core/dataset"
)

// Skew is what Deskew measured and removed. Coordinates are continuous, as
// in Info: pixel (r, c) covers [c, c+1) × [r, r+1).
type Skew struct {
	// OK reports whether the image held ink. When it is false the other
	// fields are zero and the output is all zeros.
	OK bool
	// CX and CY are the input's centre of mass; Deskew moves it to
	// (14, 14).
	CX, CY float64
	// Alpha is the shear removed, cov(x, y)/var(y) of the input's ink: a
	// digit leaning right (its top further right than its bottom) has a
	// negative Alpha, since y grows downwards. It is 0 when all the ink is
	// on one row, where var(y) is 0.
	Alpha float64
}

// Fixed-point interpolation weights: a fraction f of a pixel along one
// axis is round(f·one)/one, and a pixel's weight is the product of its two
// axes' weights, in units of one².
const (
	oneBits = 16
	one     = 1 << oneBits
)

// Deskew writes into dst the image src straightened by its moments, and
// returns what it measured. src and dst are Pixels grey levels, row-major;
// they may be the same array. It does not allocate.
//
// With the ink's centre of mass (x̄, ȳ), covariance cov(x, y) and variance
// var(y), each weighted by grey level, and the frame's centre (14, 14),
//
//	α = cov(x, y) / var(y)
//	out(x, y) = in(x + (x̄ − 14) + α·(y − 14), y + (ȳ − 14))
//
// The ink at (x, y) lands at (x − α·(y − ȳ) − (x̄ − 14), y − (ȳ − 14)):
// each row slides sideways in proportion to its height above or below ȳ,
// which makes cov(x, y) − α·var(y) = 0, and the whole digit moves by less
// than a pixel (MNIST's centring rounded to whole pixels) so that its
// centre of mass is exactly (14, 14), the centre MNIST's preprocessing
// aimed for. This is the moment-based deskewing used on MNIST since LeCun
// et al. (1998), as in the common SciPy version (affine_transform with
// matrix [[1, 0], [α, 1]], order 1), but centred on the frame's
// continuous centre (14, 14) rather than on pixel (14, 14).
//
// The moments are sums of grey level × pixel index, all integers, so in
// pixel indices (centre of pixel (r, c) at (c, r); the frame's centre at
// 13.5)
//
//	α  = (S·Sxy − Sx·Sy) / (S·Syy − Sy²)
//	dy = Sy/S − 13.5                     every row reads rows r+dy
//	tr = (Sx/S − 13.5) + α·(r − 13.5)    and row r reads columns c+tr
//
// (S = Σv, Sx = Σv·c, Sy = Σv·r, Sxy = Σv·c·r, Syy = Σv·r²) are a few
// correctly rounded float64 operations, with the product rounded before
// the sum so that no compiler fuses them into an FMA: the same bits
// natively and in WebAssembly.
//
// Interpolation is bilinear, the classic choice: with ky = ⌊dy⌋,
// fy = dy − ky, kx = ⌊tr⌋, fx = tr − kx,
//
//	out[r][c] = (1−fy)·((1−fx)·in[r+ky][c+kx]   + fx·in[r+ky][c+kx+1])
//	          +    fy·((1−fx)·in[r+ky+1][c+kx] + fx·in[r+ky+1][c+kx+1])
//
// where pixels outside the frame are 0. fx and fy are rounded to
// multiples of 1/65536 and the sum is computed in integers, rounding
// halves up, so levels stay 0..255 and every platform gives the same
// bytes. Bilinear weights move ink without creating or losing any, except
// past the frame's edge, but spread it: MNIST's ~150 non-zero pixels per
// image become ~200.
//
// An image without ink gives all zeros. One whose ink is all on one row
// (var(y) = 0, such as a single pixel) is only moved to the centre.
func Deskew(dst, src *[Pixels]uint8) Skew {
	var m moments
	var pad padded
	for r := range Side {
		row := src[r*Side : r*Side+Side]
		var rs, rsx int64
		for c, v := range row {
			rs += int64(v)
			rsx += int64(v) * int64(c)
		}
		if rs != 0 {
			m.addRow(r, rs, rsx)
			m.inkCols(row)
			copy(pad[r+1][1:], row)
		}
	}
	var w warp
	sk := m.warp(&w)
	clear(dst[:])
	if sk.OK {
		w.apply(dst, &pad)
	}
	return sk
}

// padded is a source image with a frame of zeros one pixel wide: pixel
// (r, c) is at [r+1][c+1].
type padded [Side + 2][Side + 2]uint8

// moments are the integer sums of grey level v times pixel indices that
// give the shear (S = Σv, Sx = Σv·c, Sy = Σv·r, Sxy = Σv·c·r, Syy = Σv·r²),
// and the bounding box of the ink: rows r0..r1−1, columns c0..c1−1.
type moments struct {
	s, sx, sy, sxy, syy int64
	r0, r1, c0, c1      int
}

// addRow adds row r, whose levels sum to rs (not 0) and levels times
// column to rsx. Rows must come in increasing order.
func (m *moments) addRow(r int, rs, rsx int64) {
	if m.s == 0 {
		m.r0, m.c0 = r, Side
	}
	m.r1 = r + 1
	ri := int64(r)
	m.s += rs
	m.sx += rsx
	m.sy += rs * ri
	m.sxy += rsx * ri
	m.syy += rs * ri * ri
}

// inkCols widens the box's columns to the ink of row.
func (m *moments) inkCols(row []uint8) {
	for c := 0; c < m.c0; c++ {
		if row[c] != 0 {
			m.c0 = c
			break
		}
	}
	for c := Side - 1; c >= m.c1; c-- {
		if row[c] != 0 {
			m.c1 = c + 1
			break
		}
	}
}

// warp is the resampling Deskew computes from the moments: every output
// row r reads source rows r+ky and r+ky+1 with weights one−wy and wy, and
// columns c+kx[r] and c+kx[r]+1 with weights one−wx[r] and wx[r].
type warp struct {
	ky, wy int
	kx, wx [Side]int
	// Output rows r0..r1−1 are those that read a row holding ink.
	r0, r1 int
	// Output columns c0[r]..c1[r]−1 of row r read a column holding ink.
	c0, c1 [Side]int
}

// warp returns the centre of mass and α = cov(x, y)/var(y) and, if the
// image has ink, sets w to the resampling that straightens and centres it.
func (m *moments) warp(w *warp) Skew {
	if m.s == 0 {
		return Skew{}
	}
	// Both fit in 53 bits (S ≤ 784·255, moments ≤ S·27²), so the
	// conversions are exact.
	num, den := m.s*m.sxy-m.sx*m.sy, m.s*m.syy-m.sy*m.sy
	mx, my := float64(m.sx)/float64(m.s), float64(m.sy)/float64(m.s)
	sk := Skew{OK: true, CX: mx + 0.5, CY: my + 0.5}
	if den != 0 && num != 0 {
		sk.Alpha = float64(num) / float64(den)
	}
	w.ky, w.wy = split(my - (Side-1)/2.0)
	dx := mx - (Side-1)/2.0
	w.r0, w.r1 = max(m.r0-w.ky-1, 0), min(m.r1-w.ky, Side)
	for r := w.r0; r < w.r1; r++ {
		// The explicit float64 rounds the product, so it is not fused
		// with the sum.
		t := dx + float64(sk.Alpha*(float64(r)-(Side-1)/2.0))
		k, f := split(t)
		w.kx[r], w.wx[r] = k, f
		w.c0[r], w.c1[r] = max(m.c0-k-1, 0), min(m.c1-k, Side)
	}
	return sk
}

// split returns t as k + f/one with k = ⌊t⌋ and f in 0..one−1, rounded to
// the nearest 1/one. A t further than 2·Side from 0 (or a NaN) gives
// k = 2·Side: out of every frame.
func split(t float64) (k, f int) {
	if !(t > -2*Side && t < 2*Side) {
		return 2 * Side, 0
	}
	fk := math.Floor(t)
	k = int(fk)
	f = int(math.Round((t - fk) * one)) // t − fk and the product are exact
	if f == one {
		k, f = k+1, 0
	}
	return k, f
}

// apply writes the output rows and columns that read ink into dst, which
// must be all zeros; pad holds the source.
func (w *warp) apply(dst *[Pixels]uint8, pad *padded) {
	for r := w.r0; r < w.r1; r++ {
		a, b, k, w00, w01, w10, w11 := w.row(r, pad)
		out := dst[r*Side : r*Side+Side]
		for c := w.c0[r]; c < w.c1[r]; c++ {
			i := c + k + 1 // pad column of source column c+k, in 0..Side
			v := w00*int64(a[i]) + w01*int64(a[i+1]) + w10*int64(b[i]) + w11*int64(b[i+1])
			out[c] = uint8((v + half) >> (2 * oneBits))
		}
	}
}

// half is one half of an output grey level, in units of one².
const half = 1 << (2*oneBits - 1)

// row returns what output row r reads: the pad rows a and b of source
// rows r+ky and r+ky+1 (both in the pad since r reads a row holding ink),
// the column offset k and the four weights, which sum to one².
func (w *warp) row(r int, pad *padded) (a, b *[Side + 2]uint8, k int, w00, w01, w10, w11 int64) {
	wy1, wx1 := int64(w.wy), int64(w.wx[r])
	wy0, wx0 := one-wy1, one-wx1
	return &pad[r+w.ky+1], &pad[r+w.ky+2], w.kx[r], wy0 * wx0, wy0 * wx1, wy1 * wx0, wy1 * wx1
}

// appendTo appends the non-zero output pixels, as apply computes them, to
// index and value in increasing order of position.
func (w *warp) appendTo(index []uint16, value []uint8, pad *padded) ([]uint16, []uint8) {
	// Write every computed pixel at n and keep it by advancing n only if
	// it is not zero: no branch to mispredict on sparse rows.
	n := len(index)
	index, value = slices.Grow(index, Pixels), slices.Grow(value, Pixels)
	idx, val := index[:n+Pixels], value[:n+Pixels]
	for r := w.r0; r < w.r1; r++ {
		a, b, k, w00, w01, w10, w11 := w.row(r, pad)
		for c := w.c0[r]; c < w.c1[r]; c++ {
			i := c + k + 1
			v := w00*int64(a[i]) + w01*int64(a[i+1]) + w10*int64(b[i]) + w11*int64(b[i+1])
			g := uint8((v + half) >> (2 * oneBits))
			idx[n], val[n] = uint16(r*Side+c), g
			if g != 0 {
				n++
			}
		}
	}
	return index[:n], value[:n]
}

// DeskewSet returns a new set holding the images of s deskewed by Deskew,
// with the same labels in the same order; s is only read. It allocates the
// new set's slices (with room for 3/2 of s's non-zero pixels, since the
// interpolation spreads ink) and nothing per image. It reads the sparse
// pixels directly and computes only the output pixels near the ink, giving
// the same bytes as Deskew.
func DeskewSet(s *dataset.Set) *dataset.Set {
	n := s.Len()
	out := &dataset.Set{
		Labels: append([]uint8(nil), s.Labels...),
		Start:  make([]int32, 1, n+1),
		Index:  make([]uint16, 0, s.NNZ()+s.NNZ()/2+Pixels),
		Value:  make([]uint8, 0, s.NNZ()+s.NNZ()/2+Pixels),
	}
	var pad padded
	var w warp
	for i := range n {
		idx, val := s.Image(i)
		out.Index, out.Value = appendDeskewed(out.Index, out.Value, idx, val, &pad, &w)
		out.Start = append(out.Start, int32(len(out.Index)))
	}
	return out
}

// appendDeskewed appends to index and value the sparse form of Deskew's
// output for the sparse image idx, val (positions r*Side+c, increasing,
// and non-zero levels), in increasing order of position. pad is scratch,
// all zeros on entry and on return; w is scratch.
func appendDeskewed(index []uint16, value []uint8, idx []uint16, val []uint8, pad *padded, w *warp) ([]uint16, []uint8) {
	var m moments
	for t := 0; t < len(idx); {
		r := int(uint(idx[t]) / Side)
		first := int(idx[t]) - r*Side
		var rs, rsx int64
		c := 0
		for ; t < len(idx) && int(idx[t]) < (r+1)*Side; t++ {
			c = int(idx[t]) - r*Side
			v := val[t]
			rs += int64(v)
			rsx += int64(v) * int64(c)
			pad[r+1][c+1] = v
		}
		m.addRow(r, rs, rsx)
		m.c0, m.c1 = min(m.c0, first), max(m.c1, c+1)
	}
	if sk := m.warp(w); sk.OK {
		index, value = w.appendTo(index, value, pad)
		for r := m.r0; r < m.r1; r++ {
			clear(pad[r+1][:])
		}
	}
	return index, value
}
