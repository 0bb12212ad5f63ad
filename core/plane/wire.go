package plane

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// A Scene in bytes, for the page and the plane's worker, which computes
// it (wasm/planework): every number exactly as computed, NaN and ±Inf
// included, so that the scene the page draws is the worker's bit for bit.
//
//	offset  size  field
//	0       4     magic "PLSC"
//	4       1     version (sceneVersion)
//	5       …     K (u32), the settings, the flags (Exact, HasMin,
//	              Separated, CurvatureAtStart: a byte each), Min (2 f64),
//	              MinLoss, MinGrad (f64), MinIterations (u32), LambdaMax,
//	              Lambda2, AlphaMax (f64), Window (4 f64), then the slices
//	              Centre, U, V, J and Levels, each a u32 count and its f64s,
//	              the contours (a u32 count of levels; each a u32 count of
//	              lines of 4 f64), and the three paths (each: method, stop
//	              as u32, steps, zig-zags as u32, Grad f64, a u32 count of
//	              points n, then n θ as a u32 length and its f64s, n points
//	              of 2 f64, n losses and n norms)
//
// All integers and floats are little-endian. Counts are checked against
// the bytes left before anything is allocated.

// sceneMagic and sceneVersion head a scene's bytes.
const (
	sceneMagic   = "PLSC"
	sceneVersion = 1
)

// ErrSceneFormat is wrapped by every error UnmarshalBinary returns.
var ErrSceneFormat = errors.New("plane: invalid scene bytes")

// MarshalBinary returns the scene's bytes (see the layout above).
func (s *Scene) MarshalBinary() ([]byte, error) {
	w := writer{b: make([]byte, 0, 8*(len(s.J)+1024))}
	w.b = append(w.b, sceneMagic...)
	w.b = append(w.b, sceneVersion)
	w.u32(s.K)
	w.settings(s.Settings)
	for _, f := range []bool{s.Exact, s.HasMin, s.Separated, s.CurvatureAtStart} {
		w.flag(f)
	}
	w.f64s(s.Min[:]...)
	w.f64s(s.MinLoss, s.MinGrad)
	w.u32(s.MinIterations)
	w.f64s(s.LambdaMax, s.Lambda2, s.AlphaMax)
	w.f64s(s.Window[:]...)
	for _, v := range [][]float64{s.Centre, s.U, s.V, s.J, s.Levels} {
		w.slice(v)
	}
	w.u32(len(s.Lines))
	for _, ls := range s.Lines {
		w.u32(len(ls))
		for _, l := range ls {
			w.f64s(l.A[0], l.A[1], l.B[0], l.B[1])
		}
	}
	for i := range s.Paths {
		p := &s.Paths[i]
		n := len(p.Points)
		if len(p.Theta) != n || len(p.Loss) != n || len(p.Norm) != n {
			return nil, fmt.Errorf("plane: the %s path has %d θ, %d points, %d losses and %d norms", p.Method, len(p.Theta), n, len(p.Loss), len(p.Norm))
		}
		w.u32(int(p.Method))
		w.u32(int(p.Stop))
		w.u32(p.Steps)
		w.u32(p.ZigZags)
		w.f64s(p.Grad)
		w.u32(n)
		for _, t := range p.Theta {
			w.slice(t)
		}
		for _, pt := range p.Points {
			w.f64s(pt[:]...)
		}
		w.f64s(p.Loss...)
		w.f64s(p.Norm...)
	}
	return w.b, nil
}

// UnmarshalBinary sets s to the scene b holds. It returns an error
// wrapping ErrSceneFormat, never panics, for bytes that are cut short,
// too long, of another version, or whose counts or values do not fit a
// scene (a K out of range, a method or stop that is none, counts larger
// than the bytes left).
func (s *Scene) UnmarshalBinary(b []byte) error {
	r := reader{b: b}
	if len(b) < len(sceneMagic)+1 || string(b[:len(sceneMagic)]) != sceneMagic {
		return fmt.Errorf("%w: no scene magic", ErrSceneFormat)
	}
	if v := b[len(sceneMagic)]; v != sceneVersion {
		return fmt.Errorf("%w: version %d, want %d", ErrSceneFormat, v, sceneVersion)
	}
	r.off = len(sceneMagic) + 1
	var sc Scene
	sc.K = r.u32()
	if r.err == nil && (sc.K < MinClasses || sc.K > MaxClasses) {
		r.fail("K = %d", sc.K)
	}
	sc.Settings = r.settings()
	flags := [4]*bool{&sc.Exact, &sc.HasMin, &sc.Separated, &sc.CurvatureAtStart}
	for _, f := range flags {
		*f = r.flag()
	}
	r.f64s(sc.Min[:])
	sc.MinLoss, sc.MinGrad = r.f64(), r.f64()
	sc.MinIterations = r.u32()
	sc.LambdaMax, sc.Lambda2, sc.AlphaMax = r.f64(), r.f64(), r.f64()
	r.f64s(sc.Window[:])
	for _, v := range []*[]float64{&sc.Centre, &sc.U, &sc.V, &sc.J, &sc.Levels} {
		*v = r.slice()
	}
	if n := r.count(4); n > 0 {
		sc.Lines = make([][]Line, n)
		for i := range sc.Lines {
			m := r.count(32)
			ls := make([]Line, m)
			for j := range ls {
				ls[j] = Line{A: [2]float64{r.f64(), r.f64()}, B: [2]float64{r.f64(), r.f64()}}
			}
			sc.Lines[i] = ls
		}
	}
	for i := range sc.Paths {
		p := &sc.Paths[i]
		p.Method, p.Stop = Method(r.u32()), PathStop(r.u32())
		if r.err == nil && (p.Method != Method(i) || p.Stop < Running || p.Stop > Stalled) {
			r.fail("path %d is method %d, stop %d", i, p.Method, p.Stop)
		}
		p.Steps, p.ZigZags = r.u32(), r.u32()
		p.Grad = r.f64()
		n := r.count(4 + 4*8)
		p.Theta = make([][]float64, n)
		for j := range p.Theta {
			p.Theta[j] = r.slice()
		}
		p.Points = make([][2]float64, r.countLeft(n, 16))
		for j := range p.Points {
			p.Points[j] = [2]float64{r.f64(), r.f64()}
		}
		p.Loss = make([]float64, r.countLeft(n, 8))
		r.f64s(p.Loss)
		p.Norm = make([]float64, r.countLeft(n, 8))
		r.f64s(p.Norm)
	}
	if r.err == nil && r.off != len(b) {
		r.fail("%d bytes after the scene", len(b)-r.off)
	}
	if r.err != nil {
		return r.err
	}
	*s = sc
	return nil
}

// writer appends a scene's fields.
type writer struct{ b []byte }

func (w *writer) u32(v int) { w.b = binary.LittleEndian.AppendUint32(w.b, uint32(v)) }

func (w *writer) flag(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

func (w *writer) f64s(v ...float64) {
	for _, f := range v {
		w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(f))
	}
}

func (w *writer) slice(v []float64) {
	w.u32(len(v))
	w.f64s(v...)
}

func (w *writer) settings(s Settings) {
	w.flag(s.Bias)
	w.flag(s.Pin)
	w.f64s(s.Lambda, s.Rate)
	w.u32(s.Batch)
	w.f64s(s.Start[:]...)
	w.b = binary.LittleEndian.AppendUint64(w.b, s.Seed)
	w.u32(s.Steps)
}

// reader reads a scene's fields; the first error stops it, and every
// later read returns zero.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: "+format, append([]any{ErrSceneFormat}, args...)...)
	}
}

// take returns the next n bytes, or nil once they run out.
func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b)-r.off {
		r.fail("cut short at byte %d", len(r.b))
		return nil
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p
}

func (r *reader) u32() int {
	if p := r.take(4); p != nil {
		return int(binary.LittleEndian.Uint32(p))
	}
	return 0
}

func (r *reader) flag() bool {
	p := r.take(1)
	if p != nil && p[0] > 1 {
		r.fail("a flag of %d", p[0])
	}
	return p != nil && p[0] == 1
}

func (r *reader) f64() float64 {
	if p := r.take(8); p != nil {
		return math.Float64frombits(binary.LittleEndian.Uint64(p))
	}
	return 0
}

func (r *reader) f64s(dst []float64) {
	for i := range dst {
		dst[i] = r.f64()
	}
}

// count reads a count of items of at least size bytes each, and refuses
// one that the bytes left cannot hold.
func (r *reader) count(size int) int {
	n := r.u32()
	if r.err == nil && n > (len(r.b)-r.off)/size {
		r.fail("a count of %d with %d bytes left", n, len(r.b)-r.off)
		return 0
	}
	return n
}

// countLeft is n if the bytes left hold n items of size bytes, else 0
// with an error.
func (r *reader) countLeft(n, size int) int {
	if r.err != nil {
		return 0
	}
	if n > (len(r.b)-r.off)/size {
		r.fail("%d items of %d bytes with %d bytes left", n, size, len(r.b)-r.off)
		return 0
	}
	return n
}

func (r *reader) slice() []float64 {
	n := r.count(8)
	if r.err != nil || n == 0 {
		return nil
	}
	v := make([]float64, n)
	r.f64s(v)
	return v
}

func (r *reader) settings() Settings {
	var s Settings
	s.Bias, s.Pin = r.flag(), r.flag()
	s.Lambda, s.Rate = r.f64(), r.f64()
	s.Batch = r.u32()
	r.f64s(s.Start[:])
	if p := r.take(8); p != nil {
		s.Seed = binary.LittleEndian.Uint64(p)
	}
	s.Steps = r.u32()
	return s
}
