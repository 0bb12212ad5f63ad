package protocol

import (
	"encoding/binary"
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
