package protocol

import (
	"encoding/binary"
	"fmt"
	"math"
)

// packFloats returns a and b as little-endian float32 bytes, the layout of
// a JavaScript Float32Array on every browser we target.
func packFloats(a, b []float32) []byte {
	out := make([]byte, 0, 4*(len(a)+len(b)))
	for _, s := range [][]float32{a, b} {
		for _, f := range s {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(f))
		}
	}
	return out
}

// unpackFloats is the inverse of packFloats for len(b) a multiple of 4.
func unpackFloats(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// pointBytes is the size of one loss point in bulk: step, loss, T.
const pointBytes = 24

// packPoints returns ps as little-endian float64 triples (step, loss, T),
// a Float64Array's layout, or nil for none. Decoding a report's points
// from JSON was a fifth of the page's main-thread time while training.
func packPoints(ps []Point) []byte {
	if len(ps) == 0 {
		return nil
	}
	out := make([]byte, 0, pointBytes*len(ps))
	for _, p := range ps {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(float64(p.Step)))
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(p.Loss))
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(p.T))
	}
	return out
}

// points is the inverse of packPoints. It refuses bytes that are not whole
// points, a step that is not a whole number from 0 to 2^53, and a loss or
// time that is not finite (JSON, which carried them before, had no NaN).
func points(b []byte) ([]Point, error) {
	if len(b)%pointBytes != 0 {
		return nil, fmt.Errorf("protocol: progress has %d bytes of loss points, not a multiple of %d", len(b), pointBytes)
	}
	if len(b) == 0 {
		return nil, nil
	}
	ps := make([]Point, len(b)/pointBytes)
	for i := range ps {
		f := func(k int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b[pointBytes*i+8*k:])) }
		step, loss, t := f(0), f(1), f(2)
		if !(step >= 0 && step <= 1<<53 && step == math.Trunc(step)) {
			return nil, fmt.Errorf("protocol: loss point %d has step %v, not a whole number from 0 to 2^53", i, step)
		}
		if math.IsNaN(loss) || math.IsInf(loss, 0) || math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, fmt.Errorf("protocol: loss point %d is not finite: loss %v at %v s", i, loss, t)
		}
		ps[i] = Point{Step: int(step), Loss: loss, T: t}
	}
	return ps, nil
}
