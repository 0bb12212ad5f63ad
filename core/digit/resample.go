package digit

import "math"

// piece says that source pixel src covers length w of output pixel dst,
// along one axis, in output pixels.
type piece struct {
	src, dst int32
	w        float32
}

// fit returns the number of output pixels m that n source pixels need at
// scale s, at most Box and at least 1, and the offset at which they start,
// which centres their n·s output pixels of length within the m.
func fit(n int, s float64) (m int, off float64) {
	l := float64(n) * s
	// The longer side gives l = 20 up to rounding; do not let that round up.
	m = min(max(int(math.Ceil(l-1e-6)), 1), Box)
	return m, max((float64(m)-l)/2, 0)
}

// pieces appends to dst the overlaps between n source pixels, source pixel
// i covering [off+i·s, off+(i+1)·s), and m output pixels, output pixel o
// covering [o, o+1). It appends at most n+m pieces. Overlaps past either
// end of the output, which only floating-point rounding can produce, are
// dropped.
func pieces(dst []piece, n, m int, s, off float64) []piece {
	for i := range n {
		a := off + float64(i)*s
		b := off + float64(i+1)*s // equal to the next a, so pieces tile exactly
		for o := max(int(a), 0); o < m && float64(o) < b; o++ {
			if w := min(b, float64(o+1)) - max(a, float64(o)); w > 0 {
				dst = append(dst, piece{src: int32(i), dst: int32(o), w: float32(w)})
			}
		}
	}
	return dst
}

// resample averages the crop of the ink image g (row stride w, starting at
// g[0], bw pixels wide and len(tmp)/ow rows tall) over the area of each
// output pixel, writing an oh×ow image into small with row stride Box,
// where ow and oh are set by px and py:
//
//	out[oy][ox] = Σ_y Σ_x g[y][x] · wx(x, ox) · wy(y, oy)
//
// with wx and wy the overlaps listed in px and py. The box filter is
// separable, so it runs as a horizontal pass into tmp (crop rows × ow,
// row stride ow) and a vertical pass from tmp. Levels are rounded and
// clamped to 0..255.
func resample(small *[Box * Box]uint8, tmp []float32, g []uint8, w, bw, ow int, px, py []piece) {
	clear(tmp)
	rows := len(tmp) / ow
	for y := range rows {
		src := g[y*w : y*w+bw]
		t := tmp[y*ow : y*ow+ow]
		for _, q := range px {
			if v := src[q.src]; v != 0 {
				t[q.dst] += float32(v) * q.w
			}
		}
	}
	var acc [Box * Box]float32
	for _, q := range py {
		t := tmp[int(q.src)*ow : int(q.src)*ow+ow]
		a := acc[int(q.dst)*Box : int(q.dst)*Box+ow]
		for x, v := range t {
			a[x] += v * q.w
		}
	}
	for i, v := range acc {
		small[i] = uint8(min(max(v+0.5, 0), 255))
	}
}
