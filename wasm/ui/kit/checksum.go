package kit

import (
	"strconv"
	"unsafe"

	"softmaxdemo/core/softmax"
)

// Checksum is an FNV-1a hash of the bits of m's parameters (W, then B,
// each float32's four bytes little-endian first), in hex, or "" for no
// model: two pages that trained the same run show the same checksum,
// which is how tools/browsertest compares runs bit for bit. The panels
// that show it compute it on every render of a run, so it makes no call
// per parameter: the page's WebAssembly inlines nothing of this package
// (app.wasm's inlining, in the Makefile), and hash/fnv's Write,
// binary.LittleEndian and math.Float32bits would be three calls for each
// of 7,850 parameters.
func Checksum(m *softmax.Model[float32]) string {
	if m == nil {
		return ""
	}
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for _, part := range [][]float32{m.W, m.B} {
		if len(part) == 0 {
			continue
		}
		for _, u := range unsafe.Slice((*uint32)(unsafe.Pointer(&part[0])), len(part)) {
			h = (h ^ uint64(u&0xff)) * prime
			h = (h ^ uint64(u>>8&0xff)) * prime
			h = (h ^ uint64(u>>16&0xff)) * prime
			h = (h ^ uint64(u>>24)) * prime
		}
	}
	return strconv.FormatUint(h, 16)
}
