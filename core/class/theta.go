package class

import (
	"encoding/binary"
	"math"
	"strconv"
	"unsafe"

	"softmaxdemo/core/softmax"
)

// θ's wire form (POST and GET /class/theta), little-endian:
//
//	offset  size       field
//	0       4          magic "CLθ1" as the bytes 'C' 'L' 0xCE 0xB8
//	4       2          K, the classes (2…10)
//	6       2          zero
//	8       4          D, the features (1…784)
//	12      4·D·K      W, float32 bits, softmax.Model's layout (W[j·K + c])
//	12+4·D·K 4·K       B, float32 bits
//
// The numbers are the model's bits exactly, NaN and infinities included:
// a phone shows the projector's θ bit for bit. The bytes from offset 12
// on are the ones Checksum hashes.
const (
	thetaMagic  = "CL\xce\xb8"
	thetaHeader = 12
	// MaxThetaFeatures is the most features a θ on the wire may have.
	MaxThetaFeatures = Pixels
	// MaxThetaBytes is the largest θ on the wire: 784×10 weights and 10
	// biases, 31,452 bytes.
	MaxThetaBytes = thetaHeader + 4*(MaxThetaFeatures+1)*softmax.K
)

// EncodeTheta returns m's wire form. It returns an error wrapping
// ErrInvalid if m has more than MaxThetaFeatures features, another
// number of classes than 2…10, or W of another length than D·K.
func EncodeTheta(m *softmax.Model[float32]) ([]byte, error) {
	if err := checkThetaShape(m.D, len(m.B)); err != nil {
		return nil, err
	}
	if len(m.W) != m.D*len(m.B) {
		return nil, invalidf("θ: %d weights for %d features and %d classes", len(m.W), m.D, len(m.B))
	}
	b := make([]byte, thetaHeader, thetaHeader+4*(len(m.W)+len(m.B)))
	copy(b, thetaMagic)
	binary.LittleEndian.PutUint16(b[4:], uint16(len(m.B)))
	binary.LittleEndian.PutUint32(b[8:], uint32(m.D))
	for _, part := range [][]float32{m.W, m.B} {
		for _, v := range part {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
		}
	}
	return b, nil
}

func checkThetaShape(d, k int) error {
	if d < 1 || d > MaxThetaFeatures || k < 2 || k > softmax.K {
		return invalidf("θ of %d features and %d classes, want 1…%d and 2…%d", d, k, MaxThetaFeatures, softmax.K)
	}
	return nil
}

// DecodeTheta decodes a θ's wire form into a new model. Its errors wrap
// ErrMalformed (another magic, a size that is not the one its header
// gives) or ErrInvalid (a shape out of range); the size is checked before
// anything is allocated.
func DecodeTheta(b []byte) (*softmax.Model[float32], error) {
	if len(b) < thetaHeader {
		return nil, malformedf("θ of %d bytes, shorter than its %d-byte header", len(b), thetaHeader)
	}
	if string(b[:4]) != thetaMagic {
		return nil, malformedf("θ starts with %q, want the magic %q", b[:4], thetaMagic)
	}
	if b[6] != 0 || b[7] != 0 {
		return nil, malformedf("θ's bytes 6 and 7 are %d and %d, want zero", b[6], b[7])
	}
	k, d := int(binary.LittleEndian.Uint16(b[4:])), int64(binary.LittleEndian.Uint32(b[8:]))
	if err := checkThetaShape(int(min(d, MaxThetaFeatures+1)), k); err != nil {
		return nil, err
	}
	if want := thetaHeader + 4*(d+1)*int64(k); int64(len(b)) != want {
		return nil, malformedf("θ of %d bytes, its header (D = %d, K = %d) says %d", len(b), d, k, want)
	}
	m := softmax.NewClasses[float32](int(d), k)
	p := b[thetaHeader:]
	for _, part := range [][]float32{m.W, m.B} {
		for i := range part {
			part[i] = math.Float32frombits(binary.LittleEndian.Uint32(p))
			p = p[4:]
		}
	}
	return m, nil
}

// Checksum is an FNV-1a hash (64 bits) of the bits of m's parameters, W
// then B, each float32 little-endian, in hex without leading zeros, or ""
// for no model: the page's data-theta. It is the hash of a θ's wire form
// from offset 12 on (ChecksumWire), so a server names a θ without
// decoding it.
func Checksum(m *softmax.Model[float32]) string {
	if m == nil {
		return ""
	}
	h := uint64(fnvOffset)
	for _, part := range [][]float32{m.W, m.B} {
		if len(part) == 0 {
			continue
		}
		// The parameters' bits as uint32s, not math.Float32bits for each:
		// the page's WebAssembly inlines nothing of package math, and the
		// page hashes θ on every render of a run (kit.Checksum).
		for _, u := range unsafe.Slice((*uint32)(unsafe.Pointer(&part[0])), len(part)) {
			h = (h ^ uint64(u&0xff)) * fnvPrime
			h = (h ^ uint64(u>>8&0xff)) * fnvPrime
			h = (h ^ uint64(u>>16&0xff)) * fnvPrime
			h = (h ^ uint64(u>>24)) * fnvPrime
		}
	}
	return strconv.FormatUint(h, 16)
}

// ChecksumWire returns the Checksum of the θ whose wire form is b, which
// DecodeTheta accepts.
func ChecksumWire(b []byte) string {
	h := uint64(fnvOffset)
	for _, c := range b[min(thetaHeader, len(b)):] {
		h = (h ^ uint64(c)) * fnvPrime
	}
	return strconv.FormatUint(h, 16)
}

// FNV-1a's 64-bit offset basis and prime.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)
