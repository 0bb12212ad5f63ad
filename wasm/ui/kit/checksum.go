package kit

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"strconv"

	"softmaxdemo/core/softmax"
)

// Checksum is an FNV-1a hash of the bits of m's parameters, in hex,
// or "" for no model: two pages that trained the same run show the same
// checksum, which is how tools/browsertest compares runs bit for bit.
func Checksum(m *softmax.Model[float32]) string {
	if m == nil {
		return ""
	}
	h := fnv.New64a()
	var b [4]byte
	for _, part := range [][]float32{m.W, m.B} {
		for _, v := range part {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
			h.Write(b[:])
		}
	}
	return strconv.FormatUint(h.Sum64(), 16)
}
