package dataset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
)

// Version is the pack format version that Encode writes. Decode reads it
// and version 1, which core/modelfile writes for "my digits" files, and
// refuses any other with ErrVersion.
const Version = 3

// known reports whether Decode reads and EncodeVersion writes version v.
func known(v int) bool { return v == 1 || v == Version }

// MaxImages is the largest number of images a pack or IDX file may declare
// per set. Counts are checked against it before anything is allocated.
const MaxImages = 1 << 20

// magic opens every pack.
var magic = [4]byte{'M', 'N', 'P', 'K'}

// headerSize is the length of the fixed header; crcOffset is where its
// checksum field starts. See the table in doc.go.
const (
	headerSize = 32
	crcOffset  = 28
)

// maxRuns is the most runs an image can have: every other pixel set.
const maxRuns = (Pixels + 1) / 2

// A FormatError reports that the input is not a valid pack or IDX file.
type FormatError string

func (e FormatError) Error() string { return "dataset: invalid format: " + string(e) }

var (
	// ErrVersion is matched (errors.Is) by the error for a pack written
	// in another format version; its message says how to rebuild.
	ErrVersion = errors.New("dataset: unsupported version")
	// ErrChecksum is matched by the error for a pack whose CRC-32 does
	// not match its contents.
	ErrChecksum = errors.New("dataset: checksum mismatch")
)

// versionError carries the version found; it matches ErrVersion.
type versionError struct{ got uint16 }

func (e versionError) Error() string {
	return fmt.Sprintf("dataset: version %d, want 1 or %d; rebuild with `make data`", e.got, Version)
}

func (e versionError) Is(target error) bool { return target == ErrVersion }

// Pack is the content of a pack file: a training set and a test set.
type Pack struct {
	Train, Test *Set
}

// header holds the decoded fixed header of a pack.
type header struct {
	version  uint16
	n        [2]uint32 // images in the train and test sets
	nnz      [2]uint32 // non-zero pixels in the train and test sets
	payload  uint32    // bytes after the header
	checksum uint32
}

// parseHeader decodes and checks the fixed header at the start of b, which
// may be shorter than headerSize: the magic number and version are checked
// on whatever bytes there are, then a short b gives io.ErrUnexpectedEOF.
func parseHeader(b []byte) (header, error) {
	var h header
	if m := min(len(b), len(magic)); !bytes.Equal(b[:m], magic[:m]) {
		return h, FormatError(fmt.Sprintf("magic %q, want %q", b[:m], magic[:]))
	}
	if len(b) >= 6 {
		h.version = binary.LittleEndian.Uint16(b[4:])
		if !known(int(h.version)) {
			return h, versionError{h.version}
		}
	}
	if len(b) < headerSize {
		return h, fmt.Errorf("dataset: header is %d bytes, want %d: %w", len(b), headerSize, io.ErrUnexpectedEOF)
	}
	if b[6] != Rows || b[7] != Cols {
		return h, FormatError(fmt.Sprintf("images are %d×%d, want %d×%d", b[6], b[7], Rows, Cols))
	}
	le := binary.LittleEndian
	h.n = [2]uint32{le.Uint32(b[8:]), le.Uint32(b[12:])}
	h.nnz = [2]uint32{le.Uint32(b[16:]), le.Uint32(b[20:])}
	h.payload = le.Uint32(b[24:])
	h.checksum = le.Uint32(b[crcOffset:])
	for s, name := range setNames {
		if h.n[s] > MaxImages {
			return h, FormatError(fmt.Sprintf("%d %s images, more than the maximum %d", h.n[s], name, MaxImages))
		}
		if uint64(h.nnz[s]) > uint64(h.n[s])*Pixels {
			return h, FormatError(fmt.Sprintf("%d non-zero pixels in %d %s images", h.nnz[s], h.n[s], name))
		}
	}
	// Each image costs a label byte and a run count, each non-zero pixel
	// its grey byte; version 3 adds the train part's length and checksum.
	// The sum cannot overflow after the checks above.
	least := 2*(uint64(h.n[0])+uint64(h.n[1])) + uint64(h.nnz[0]) + uint64(h.nnz[1])
	if h.version == 3 {
		least += partsOffset
	}
	if uint64(h.payload) < least {
		return h, FormatError(fmt.Sprintf("payload of %d bytes, want at least %d for the declared counts", h.payload, least))
	}
	return h, nil
}

var setNames = [2]string{"train", "test"}

// Decode decodes a whole pack held in memory. The returned sets do not
// share memory with b, are allocated once from the header counts and
// satisfy the invariants documented on Set.
//
// It reads versions 1 and 3. Decode returns an error wrapping
// io.ErrUnexpectedEOF if b ends early, an error matching ErrVersion or
// ErrChecksum for another format version (2 among them) or a corrupted
// file, and a FormatError for any other inconsistency: a wrong magic
// number, absurd counts, trailing bytes, a label above 9, a pixel run past
// the end of the image. It never panics.
func Decode(b []byte) (*Pack, error) {
	h, err := whole(b)
	if err != nil {
		return nil, err
	}
	return decodePayload(h, b)
}

// whole checks that b is one whole pack, its length and its checksum, and
// returns its header.
func whole(b []byte) (header, error) {
	h, err := parseHeader(b)
	if err != nil {
		return h, err
	}
	if size := headerSize + uint64(h.payload); uint64(len(b)) < size {
		return h, fmt.Errorf("dataset: pack is %d bytes, header says %d: %w", len(b), size, io.ErrUnexpectedEOF)
	} else if uint64(len(b)) > size {
		return h, FormatError(fmt.Sprintf("%d trailing bytes after the payload", uint64(len(b))-size))
	}
	if sum := crc32.Update(crc32.ChecksumIEEE(b[:crcOffset]), crc32.IEEETable, b[headerSize:]); sum != h.checksum {
		return h, fmt.Errorf("%w: computed %08x, header says %08x", ErrChecksum, sum, h.checksum)
	}
	return h, nil
}

// decodePayload decodes the whole pack b, whose header h whole has checked.
func decodePayload(h header, b []byte) (*Pack, error) {
	if h.version == 3 {
		return decodeV3(h, b)
	}
	return decodeV1(h, b[headerSize:])
}

// decodeV1 decodes the payload of a version 1 pack whose header is h.
func decodeV1(h header, payload []byte) (*Pack, error) {
	var err error

	// The payload is labels, then run headers, then grey levels; the
	// lengths of the first and last follow from the header counts.
	n := int(h.n[0]) + int(h.n[1])
	nnz := int(h.nnz[0]) + int(h.nnz[1])
	labels, runs, greys := payload[:n], payload[n:len(payload)-nnz], payload[len(payload)-nnz:]
	for i, l := range labels {
		if l >= Classes {
			s, j := 0, i
			if j >= int(h.n[0]) {
				s, j = 1, j-int(h.n[0])
			}
			return nil, imageError(setNames[s], j, fmt.Sprintf("label %d, want 0..9", l))
		}
	}
	if i := bytes.IndexByte(greys, 0); i >= 0 {
		return nil, FormatError(fmt.Sprintf("grey level %d of %d is zero", i, nnz))
	}
	p := &Pack{}
	for s, dst := range []**Set{&p.Train, &p.Test} {
		ns, nz := int(h.n[s]), int(h.nnz[s])
		set := &Set{
			Labels: make([]uint8, ns),
			Start:  make([]int32, ns+1),
			Index:  make([]uint16, nz),
			Value:  make([]uint8, nz),
		}
		copy(set.Labels, labels[:ns])
		copy(set.Value, greys[:nz])
		labels, greys = labels[ns:], greys[nz:]
		if runs, err = decodeRuns(set, runs, setNames[s]); err != nil {
			return nil, err
		}
		*dst = set
	}
	if len(runs) != 0 {
		return nil, FormatError(fmt.Sprintf("%d unused bytes after the run headers", len(runs)))
	}
	return p, nil
}

// decodeRuns fills set.Start and set.Index, whose lengths come from the
// header, from the run headers at the start of b, and returns the rest of b.
// name is "train" or "test", for error messages.
func decodeRuns(set *Set, b []byte, name string) ([]byte, error) {
	idx := set.Index
	k := 0 // next entry of idx
	p := 0 // next byte of b
	for i := range set.Labels {
		count, ok := 0, false
		if count, p, ok = uvarint(b, p); !ok {
			return nil, imageError(name, i, fmt.Sprintf("bad run count at byte %d of the run headers", p))
		}
		if count > maxRuns {
			return nil, imageError(name, i, fmt.Sprintf("%d runs, want at most %d", count, maxRuns))
		}
		pos := 0 // next pixel of the image
		for range count {
			skip, length := 0, 0
			if skip, p, ok = uvarint(b, p); ok {
				length, p, ok = uvarint(b, p)
			}
			switch {
			case !ok:
				return nil, imageError(name, i, fmt.Sprintf("bad run header at byte %d of the run headers", p))
			case length == 0:
				return nil, imageError(name, i, "empty run")
			case pos+skip+length > Pixels:
				return nil, imageError(name, i, fmt.Sprintf("run ends at pixel %d, past %d", pos+skip+length, Pixels))
			case k+length > len(idx):
				return nil, imageError(name, i, "more non-zero pixels than the header declares")
			}
			pos += skip
			if k+8 <= len(idx) && length <= 8 {
				// Most runs are short: fill 8 entries without a
				// data-dependent branch; the next run overwrites
				// the extra ones.
				v := uint16(pos)
				d := idx[k : k+8 : k+8]
				d[0], d[1], d[2], d[3] = v, v+1, v+2, v+3
				d[4], d[5], d[6], d[7] = v+4, v+5, v+6, v+7
			} else {
				d := idx[k : k+length]
				for t := range d {
					d[t] = uint16(pos + t)
				}
			}
			pos += length
			k += length
		}
		set.Start[i+1] = int32(k)
	}
	if k != len(idx) {
		return nil, FormatError(fmt.Sprintf("%s runs cover %d non-zero pixels, header declares %d", name, k, len(idx)))
	}
	return b[p:], nil
}

// imageError returns a FormatError about image i of the named set.
func imageError(name string, i int, detail string) error {
	return FormatError(fmt.Sprintf("%s image %d: %s", name, i, detail))
}

// uvarint decodes a varint of at most two bytes (a value below 16384) at
// b[p:]. It returns the value and the offset just past it, or ok == false
// and p unchanged if b ends first or the varint is longer.
func uvarint(b []byte, p int) (v, next int, ok bool) {
	if p < len(b) && b[p] < 0x80 {
		return int(b[p]), p + 1, true
	}
	if p+1 >= len(b) || b[p+1] >= 0x80 {
		return 0, p, false
	}
	return int(b[p]&0x7f) | int(b[p+1])<<7, p + 2, true
}

// Encode writes p to w in the pack format described in the package
// documentation, version Version. Both sets must be non-nil, pass Validate
// and hold at most MaxImages images; otherwise Encode returns an error and
// writes nothing. It returns the first error from w.
func Encode(w io.Writer, p *Pack) error { return EncodeVersion(w, p, Version) }

// EncodeVersion is Encode for a given format version, 1 or Version.
func EncodeVersion(w io.Writer, p *Pack, version int) error {
	if !known(version) {
		return fmt.Errorf("dataset: encode: version %d, want 1 or %d", version, Version)
	}
	if p == nil || p.Train == nil || p.Test == nil {
		return errors.New("dataset: encode: pack needs both a train and a test set")
	}
	sets := [2]*Set{p.Train, p.Test}
	var h header
	for s, set := range sets {
		if err := set.Validate(); err != nil {
			return fmt.Errorf("dataset: encode %s set: %w", setNames[s], err)
		}
		if set.Len() > MaxImages {
			return fmt.Errorf("dataset: encode %s set: %d images, more than the maximum %d", setNames[s], set.Len(), MaxImages)
		}
		h.n[s], h.nnz[s] = uint32(set.Len()), uint32(set.NNZ())
	}
	var buf []byte
	if version == 1 {
		buf = encodeV1(sets)
	} else {
		buf = encodeV3(sets)
	}
	if len(buf)-headerSize > math.MaxUint32 {
		return fmt.Errorf("dataset: encode: payload of %d bytes is too large", len(buf)-headerSize)
	}

	le := binary.LittleEndian
	copy(buf, magic[:])
	le.PutUint16(buf[4:], uint16(version))
	buf[6], buf[7] = Rows, Cols
	le.PutUint32(buf[8:], h.n[0])
	le.PutUint32(buf[12:], h.n[1])
	le.PutUint32(buf[16:], h.nnz[0])
	le.PutUint32(buf[20:], h.nnz[1])
	le.PutUint32(buf[24:], uint32(len(buf)-headerSize))
	if version == 3 {
		sealV3(buf)
	}
	le.PutUint32(buf[crcOffset:], crc32.Update(crc32.ChecksumIEEE(buf[:crcOffset]), crc32.IEEETable, buf[headerSize:]))
	_, err := w.Write(buf)
	return err
}

// encodeV1 returns a version 1 pack holding sets, with room for the header
// at the start, which the caller fills in.
func encodeV1(sets [2]*Set) []byte {
	n := sets[0].Len() + sets[1].Len()
	nnz := sets[0].NNZ() + sets[1].NNZ()
	buf := make([]byte, headerSize+n, headerSize+2*n+nnz+nnz/3)
	copy(buf[headerSize:], sets[0].Labels)
	copy(buf[headerSize+sets[0].Len():], sets[1].Labels)
	for _, set := range sets {
		buf = appendRuns(buf, set)
	}
	buf = append(buf, sets[0].Value...)
	return append(buf, sets[1].Value...)
}

// appendRuns appends the run headers of every image of set to b: the number
// of runs of consecutive non-zero pixels, then for each run the count of
// zero pixels before it and its length, all as uvarints.
func appendRuns(b []byte, set *Set) []byte {
	var runs [2 * maxRuns]int // skip and length of each run
	for i := range set.Len() {
		idx, _ := set.Image(i)
		nr, pos := 0, 0
		for k := 0; k < len(idx); {
			e := k + 1
			for e < len(idx) && idx[e] == idx[e-1]+1 {
				e++
			}
			runs[2*nr], runs[2*nr+1] = int(idx[k])-pos, e-k
			pos = int(idx[e-1]) + 1
			nr++
			k = e
		}
		b = binary.AppendUvarint(b, uint64(nr))
		for _, v := range runs[:2*nr] {
			b = binary.AppendUvarint(b, uint64(v))
		}
	}
	return b
}

// Read reads a whole pack from r and decodes it. It reads the header first
// and returns an error, before allocating, if the pack is larger than limit
// bytes. Errors are those of Decode; r is not closed.
func Read(r io.Reader, limit int64) (*Pack, error) {
	var hb [headerSize]byte
	m, err := io.ReadFull(r, hb[:])
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("dataset: read header: %w", err)
	}
	h, err := parseHeader(hb[:m]) // a short header gives io.ErrUnexpectedEOF
	if err != nil {
		return nil, err
	}
	size := headerSize + int64(h.payload)
	if size > limit {
		return nil, fmt.Errorf("dataset: pack is %d bytes, more than the limit of %d", size, limit)
	}
	b := make([]byte, size)
	copy(b, hb[:])
	if m, err := io.ReadFull(r, b[headerSize:]); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("dataset: pack ends after %d of %d bytes: %w", headerSize+m, size, err)
	}
	var one [1]byte
	switch m, err := io.ReadFull(r, one[:]); {
	case m != 0:
		return nil, FormatError("trailing bytes after the payload")
	case !errors.Is(err, io.EOF):
		return nil, fmt.Errorf("dataset: read: %w", err)
	}
	return Decode(b)
}
