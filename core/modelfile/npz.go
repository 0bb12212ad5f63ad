package modelfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"softmaxdemo/core/softmax"
)

// npyMagic opens every .npy array.
const npyMagic = "\x93NUMPY"

// maxNPYHeader bounds the header of a .npy array (NumPy's own limit is
// 10,000 bytes).
const maxNPYHeader = 1 << 16

// EncodeNPZ writes m to w as a NumPy .npz archive holding W.npy (D×K
// float32, C order: m.W as it is) and b.npy (K float32). Entries are
// stored uncompressed, as np.savez does. It returns an error, having
// written nothing, if m is not a K-class model with finite parameters,
// and otherwise the first error from w.
func EncodeNPZ(w io.Writer, m *softmax.Model[float32]) error {
	if err := check(m); err != nil {
		return err
	}
	// Stored with the sizes and checksum in the local header, so the
	// archive has no data descriptors: the simplest zip to read.
	z := zipWriter{buf: make([]byte, 0, 4*len(m.W)+4*len(m.B)+512)}
	z.add("W.npy", appendNPY(nil, fmt.Sprintf("(%d, %d)", m.D, softmax.K), m.W))
	z.add("b.npy", appendNPY(nil, fmt.Sprintf("(%d,)", softmax.K), m.B))
	_, err := w.Write(z.close())
	return err
}

// appendNPY appends a .npy version 1.0 array of little-endian float32 of
// the given shape (a Python tuple) to b (see appendNPYHeader).
func appendNPY(b []byte, shape string, data []float32) []byte {
	b = appendNPYHeader(b, "<f4", shape)
	for _, v := range data {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

// appendNPYHeader appends the header of a .npy version 1.0 array of the
// NumPy dtype descr and shape (a Python tuple) to b: the magic, the
// version, the header length, the header dict padded with spaces and
// ending in a newline so that the data start at a multiple of 64 bytes,
// as NumPy writes it. The data follow.
func appendNPYHeader(b []byte, descr, shape string) []byte {
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape)
	pre := len(npyMagic) + 4
	total := (pre + len(dict) + 1 + 63) / 64 * 64
	hlen := total - pre
	b = append(b, npyMagic...)
	b = append(b, 1, 0, byte(hlen), byte(hlen>>8))
	b = append(b, dict...)
	b = append(b, strings.Repeat(" ", hlen-len(dict)-1)...)
	return append(b, '\n')
}

// DecodeNPZ decodes a .npz archive holding W (D×K) and b (K), as np.savez
// or np.savez_compressed write them, into a model; other arrays in the
// archive are ignored. If features is above 0, D must equal it. Arrays of
// float64 are rounded to float32; a value that is NaN, infinite or beyond
// float32's range is refused with ErrNotFinite. Shapes are checked before
// the arrays are allocated. It never panics.
func DecodeNPZ(b []byte, features int) (*softmax.Model[float32], error) {
	if err := CheckSize(int64(len(b))); err != nil {
		return nil, err
	}
	if !isZip(b) {
		return nil, errorf(ErrFormat, "not a .npz (zip) archive: it starts with %q", b[:min(len(b), 8)])
	}
	entries, err := readZip(b)
	if err != nil {
		return nil, err
	}
	files := map[string]*zipEntry{}
	for i, e := range entries {
		if e.name == "W.npy" || e.name == "b.npy" {
			if files[e.name] != nil {
				return nil, errorf(ErrFormat, "the archive holds %s twice", e.name)
			}
			files[e.name] = &entries[i]
		}
	}
	for _, name := range []string{"W.npy", "b.npy"} {
		if files[name] == nil {
			return nil, errorf(ErrFormat, "the archive has no %s: save it with np.savez(f, W=W, b=b), W of shape (784, 10)", name)
		}
	}
	W, err := readArray(b, files["W.npy"], "W")
	if err != nil {
		return nil, err
	}
	if len(W.shape) != 2 || W.shape[1] != softmax.K {
		if len(W.shape) == 2 && W.shape[0] == softmax.K {
			return nil, errorf(ErrShape, "W has shape %s, want (features, %d): save W.T instead", W.shapeString(), softmax.K)
		}
		return nil, errorf(ErrShape, "W has shape %s, want (features, %d)", W.shapeString(), softmax.K)
	}
	if err := wantShape(W.shape[0], features, "W"); err != nil {
		return nil, err
	}
	B, err := readArray(b, files["b.npy"], "b")
	if err != nil {
		return nil, err
	}
	if len(B.shape) != 1 || B.shape[0] != softmax.K {
		return nil, errorf(ErrShape, "b has shape %s, want (%d,)", B.shapeString(), softmax.K)
	}
	m := softmax.New[float32](int(W.shape[0]))
	if err := W.floats(m.W); err != nil {
		return nil, err
	}
	if err := B.floats(m.B); err != nil {
		return nil, err
	}
	return m, nil
}

// npyArray is a parsed .npy array: its shape, element size (4 or 8) and
// raw little-endian data.
type npyArray struct {
	name  string
	shape []int64
	size  int // 4 or 8
	data  []byte
}

func (a *npyArray) shapeString() string {
	parts := make([]string, len(a.shape))
	for i, n := range a.shape {
		parts[i] = strconv.FormatInt(n, 10)
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// floats converts a's data to float32 into dst, whose length is the
// number of elements, refusing values that are not finite in float32.
func (a *npyArray) floats(dst []float32) error {
	for i := range dst {
		var v float32
		if a.size == 4 {
			v = math.Float32frombits(binary.LittleEndian.Uint32(a.data[4*i:]))
		} else {
			v = float32(math.Float64frombits(binary.LittleEndian.Uint64(a.data[8*i:])))
		}
		if notFinite(v) {
			at := fmt.Sprintf("[%d]", i)
			if len(a.shape) == 2 {
				at = fmt.Sprintf("[%d, %d]", i/int(a.shape[1]), i%int(a.shape[1]))
			}
			return errorf(ErrNotFinite, "%s%s is %v in float32: the model diverged, or holds values beyond ±3.4e38", a.name, at, v)
		}
		dst[i] = v
	}
	return nil
}

// maxEntry is the largest .npy entry DecodeNPZ reads: a header and
// MaxFeatures×K float64 values.
const maxEntry = 10 + maxNPYHeader + MaxFeatures*softmax.K*8

// readArray reads and parses one .npy entry of the archive b, checking
// its declared size before reading it.
func readArray(b []byte, e *zipEntry, name string) (*npyArray, error) {
	data, err := e.open(b, maxEntry)
	if err != nil {
		return nil, err
	}
	return parseNPY(data, name)
}

// floatSize is the element size of the dtypes a model's arrays may have,
// '<f4' and '<f8'.
func floatSize(descr, file, name string) (int, error) {
	switch descr {
	case "<f4":
		return 4, nil
	case "<f8":
		return 8, nil
	}
	return 0, errorf(ErrDType, "%s has dtype '%s', want '<f4' or '<f8': save %s.astype(np.float32)", file, descr, name)
}

// parseNPY parses a .npy file of a model's floats held in b (versions
// 1.0, 2.0 and 3.0).
func parseNPY(b []byte, name string) (*npyArray, error) {
	return parseNPYOf(b, name, floatSize, MaxFeatures*softmax.K)
}

// parseNPYOf parses a .npy file held in b whose dtype size gives the
// element size of (or refuses), with at most maxValues elements.
func parseNPYOf(b []byte, name string, size func(descr, file, name string) (int, error), maxValues int64) (*npyArray, error) {
	file := name + ".npy"
	if n := min(len(b), len(npyMagic)); string(b[:n]) != npyMagic[:n] {
		return nil, errorf(ErrFormat, "%s does not start with the .npy magic \\x93NUMPY", file)
	}
	if len(b) < len(npyMagic)+2 {
		return nil, truncated("%s ends in its header", file)
	}
	major, minor := b[6], b[7]
	var hlen, pre int
	switch {
	case major == 1 && minor == 0:
		if len(b) < 10 {
			return nil, truncated("%s ends in its header", file)
		}
		hlen, pre = int(binary.LittleEndian.Uint16(b[8:])), 10
	case (major == 2 || major == 3) && minor == 0:
		if len(b) < 12 {
			return nil, truncated("%s ends in its header", file)
		}
		h := binary.LittleEndian.Uint32(b[8:])
		if h > maxNPYHeader {
			return nil, errorf(ErrFormat, "%s has a header of %d bytes, more than %d", file, h, maxNPYHeader)
		}
		hlen, pre = int(h), 12
	default:
		return nil, errorf(ErrVersion, "%s is .npy version %d.%d, this code reads 1.0 to 3.0: save it with np.savez", file, major, minor)
	}
	if len(b) < pre+hlen {
		return nil, truncated("%s ends in its header", file)
	}
	a := &npyArray{name: name}
	descr, fortran, shape, err := parseDict(string(b[pre : pre+hlen]))
	if err != nil {
		return nil, errorf(ErrFormat, "%s has a bad header: %v", file, err)
	}
	if a.size, err = size(descr, file, name); err != nil {
		return nil, err
	}
	if fortran {
		return nil, errorf(ErrLayout, "%s is in Fortran order: save np.ascontiguousarray(%s)", file, name)
	}
	a.shape = shape
	n := int64(1)
	for _, s := range shape {
		if s > maxValues {
			return nil, errorf(ErrTooLarge, "%s declares shape %s, more than %d values", file, a.shapeString(), maxValues)
		}
		n *= s
		if n > maxValues {
			return nil, errorf(ErrTooLarge, "%s declares shape %s, more than %d values", file, a.shapeString(), maxValues)
		}
	}
	data := b[pre+hlen:]
	switch want := n * int64(a.size); {
	case int64(len(data)) < want:
		return nil, truncated("%s holds %d bytes of data, its shape %s needs %d", file, len(data), a.shapeString(), want)
	case int64(len(data)) > want:
		return nil, errorf(ErrFormat, "%s has %d bytes after its data", file, int64(len(data))-want)
	}
	a.data = data
	return a, nil
}

// parseDict parses a .npy header: a Python dict literal with the keys
// 'descr' (a string), 'fortran_order' (True or False) and 'shape' (a
// tuple of integers), in any order, optionally followed by spaces and a
// newline.
func parseDict(h string) (descr string, fortran bool, shape []int64, err error) {
	p := pyScanner{s: strings.TrimRight(h, " \n\x00")}
	if !p.is('{') {
		return "", false, nil, errors.New("no dict")
	}
	seen := map[string]bool{}
	for !p.is('}') {
		key, ok := p.str()
		if !ok || !p.is(':') {
			return "", false, nil, fmt.Errorf("bad entry at byte %d", p.p)
		}
		if seen[key] {
			return "", false, nil, fmt.Errorf("key %q twice", key)
		}
		seen[key] = true
		switch key {
		case "descr":
			if descr, ok = p.str(); !ok {
				return "", false, nil, errors.New("'descr' is not a string (a structured dtype?)")
			}
		case "fortran_order":
			switch {
			case p.word("True"):
				fortran = true
			case p.word("False"):
				fortran = false
			default:
				return "", false, nil, errors.New("'fortran_order' is neither True nor False")
			}
		case "shape":
			if shape, ok = p.tuple(); !ok {
				return "", false, nil, errors.New("'shape' is not a tuple of integers")
			}
		default:
			return "", false, nil, fmt.Errorf("unknown key %q", key)
		}
		if !p.is(',') {
			if !p.is('}') {
				return "", false, nil, fmt.Errorf("bad entry at byte %d", p.p)
			}
			break
		}
	}
	if p.space(); p.p != len(p.s) {
		return "", false, nil, fmt.Errorf("text after the dict at byte %d", p.p)
	}
	if !seen["descr"] || !seen["fortran_order"] || !seen["shape"] {
		return "", false, nil, errors.New("want the keys 'descr', 'fortran_order' and 'shape'")
	}
	return descr, fortran, shape, nil
}

// pyScanner reads the few Python literals of a .npy header.
type pyScanner struct {
	s string
	p int
}

func (p *pyScanner) space() {
	for p.p < len(p.s) && (p.s[p.p] == ' ' || p.s[p.p] == '\n' || p.s[p.p] == '\t') {
		p.p++
	}
}

func (p *pyScanner) is(c byte) bool {
	p.space()
	if p.p < len(p.s) && p.s[p.p] == c {
		p.p++
		return true
	}
	return false
}

func (p *pyScanner) word(w string) bool {
	p.space()
	if strings.HasPrefix(p.s[p.p:], w) {
		p.p += len(w)
		return true
	}
	return false
}

// str reads a quoted string without escapes.
func (p *pyScanner) str() (string, bool) {
	p.space()
	if p.p >= len(p.s) || (p.s[p.p] != '\'' && p.s[p.p] != '"') {
		return "", false
	}
	q := p.s[p.p]
	end := strings.IndexByte(p.s[p.p+1:], q)
	if end < 0 || strings.IndexByte(p.s[p.p+1:p.p+1+end], '\\') >= 0 {
		return "", false
	}
	v := p.s[p.p+1 : p.p+1+end]
	p.p += end + 2
	return v, true
}

// tuple reads a tuple of non-negative integers: (), (n,), (n, m), ...
func (p *pyScanner) tuple() ([]int64, bool) {
	if !p.is('(') {
		return nil, false
	}
	var out []int64
	for !p.is(')') {
		p.space()
		start := p.p
		for p.p < len(p.s) && p.s[p.p] >= '0' && p.s[p.p] <= '9' {
			p.p++
		}
		if start == p.p || p.p-start > 12 || len(out) >= 8 {
			return nil, false
		}
		n, err := strconv.ParseInt(p.s[start:p.p], 10, 64)
		if err != nil {
			return nil, false
		}
		out = append(out, n)
		if !p.is(',') {
			if !p.is(')') {
				return nil, false
			}
			break
		}
	}
	return out, true
}
