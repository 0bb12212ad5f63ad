package class

import "encoding/binary"

// The class's drawings as the presenter fetches them all at once (GET
// /class/drawings), after a Hello, little-endian:
//
//	offset  size   field
//	0       4      magic "CLD1"
//	4       4      n, the number of drawings
//	8       789·n  each drawing: its number (4 bytes), its label (1),
//	               its 784 grey levels, 28×28 row-major
//
// in the order of their numbers. The phones that sent them are not in it.
const (
	digitsMagic = "CLD1"
	digitSize   = 4 + 1 + Pixels
	// MaxDigitList is the most drawings a list may hold.
	MaxDigitList = 1 << 20
)

// EncodeDigitList returns the wire form of ds. It returns an error
// wrapping ErrInvalid for a label above 9 or more than MaxDigitList
// drawings.
func EncodeDigitList(ds []*Digit) ([]byte, error) {
	if len(ds) > MaxDigitList {
		return nil, invalidf("%d drawings, more than %d", len(ds), MaxDigitList)
	}
	b := make([]byte, 8, 8+digitSize*len(ds))
	copy(b, digitsMagic)
	binary.LittleEndian.PutUint32(b[4:], uint32(len(ds)))
	for _, d := range ds {
		if d.Label > 9 {
			return nil, invalidf("drawing %d has label %d, want 0…9", d.N, d.Label)
		}
		b = binary.LittleEndian.AppendUint32(b, d.N)
		b = append(b, d.Label)
		b = append(b, d.Pixels[:]...)
	}
	return b, nil
}

// DecodeDigitList decodes a list of drawings. Its errors wrap
// ErrMalformed (another magic, a size that is not the one the count
// gives, checked before anything is allocated) or ErrInvalid (a label
// above 9).
func DecodeDigitList(b []byte) ([]*Digit, error) {
	if len(b) < 8 {
		return nil, malformedf("a list of drawings of %d bytes, shorter than its 8-byte header", len(b))
	}
	if string(b[:4]) != digitsMagic {
		return nil, malformedf("a list of drawings starting with %q, want the magic %q", b[:4], digitsMagic)
	}
	n := int64(binary.LittleEndian.Uint32(b[4:]))
	if n > MaxDigitList {
		return nil, malformedf("a list of %d drawings, more than %d", n, MaxDigitList)
	}
	if want := 8 + digitSize*n; int64(len(b)) != want {
		return nil, malformedf("a list of %d drawings in %d bytes, want %d", n, len(b), want)
	}
	ds := make([]*Digit, n)
	all := make([]Digit, n)
	p := b[8:]
	for i := range ds {
		d := &all[i]
		d.N = binary.LittleEndian.Uint32(p)
		d.Label = p[4]
		if d.Label > 9 {
			return nil, invalidf("drawing %d has label %d, want 0…9", d.N, d.Label)
		}
		copy(d.Pixels[:], p[5:digitSize])
		ds[i] = d
		p = p[digitSize:]
	}
	return ds, nil
}
