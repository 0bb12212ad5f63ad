package dataset

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
)

// Version 3 keeps the training images in a prefix of the file, with a
// checksum of their own, so that a page can start training while the test
// images are still arriving. See the table in doc.go.

// partsOffset is where a version 3 payload's train part starts: after the
// part's length and its CRC-32.
const partsOffset = 8

// leastPart is the fewest bytes a version 1 style part can hold n images
// with nnz non-zero pixels in: a label and a run count per image, a grey
// level per pixel.
func leastPart(n, nnz uint32) uint64 { return 2*uint64(n) + uint64(nnz) }

// TrainPrefix returns how many bytes at the start of a pack hold its header
// and its training images, so that DecodeTrain can decode them before the
// rest arrives: for version 3, from its first 36 bytes. For version 1,
// whose payload interleaves the two sets, it returns 0 and no error: the
// whole pack is needed. A b too short to tell gives an error wrapping
// io.ErrUnexpectedEOF; a bad header or an impossible length, the error
// Decode would give.
func TrainPrefix(b []byte) (int, error) {
	h, err := parseHeader(b)
	if err != nil || h.version != 3 {
		return 0, err
	}
	if len(b) < headerSize+4 {
		return 0, fmt.Errorf("dataset: %d bytes, want %d to find the training images: %w", len(b), headerSize+4, io.ErrUnexpectedEOF)
	}
	t, err := trainPart(h, b[headerSize:headerSize+4])
	if err != nil {
		return 0, err
	}
	return headerSize + partsOffset + int(t), nil
}

// Counts returns the numbers of training and test images the header at the
// start of b declares, with the checks Decode makes of the header alone.
func Counts(b []byte) (train, test int, err error) {
	h, err := parseHeader(b)
	if err != nil {
		return 0, 0, err
	}
	return int(h.n[0]), int(h.n[1]), nil
}

// trainPart returns the train part's length from the first bytes of a
// version 3 payload, checked against the header's counts and payload length.
func trainPart(h header, payload []byte) (uint32, error) {
	t := binary.LittleEndian.Uint32(payload)
	least, rest := leastPart(h.n[0], h.nnz[0]), leastPart(h.n[1], h.nnz[1])
	if uint64(t) < least || partsOffset+uint64(t)+rest > uint64(h.payload) {
		return 0, FormatError(fmt.Sprintf("train part of %d bytes, want %d to %d for the declared counts and payload", t, least, int64(h.payload)-partsOffset-int64(rest)))
	}
	return t, nil
}

// DecodeTrain decodes the training set from the start of b. For version 3
// the first TrainPrefix(b) bytes are enough (b may be longer, or the whole
// pack), and are checked with the train part's own CRC-32; version 1
// needs the whole pack, which Decode checks and decodes. Errors are those of
// Decode, and io.ErrUnexpectedEOF if b ends before the training images do.
func DecodeTrain(b []byte) (*Set, error) {
	n, err := TrainPrefix(b)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		p, err := Decode(b)
		if err != nil {
			return nil, err
		}
		return p.Train, nil
	}
	if len(b) < n {
		return nil, fmt.Errorf("dataset: the training images end at byte %d, have %d: %w", n, len(b), io.ErrUnexpectedEOF)
	}
	h, _ := parseHeader(b)
	if err := checkTrainPart(b[:n]); err != nil {
		return nil, err
	}
	return decodePart(b[headerSize+partsOffset:n], h.n[0], h.nnz[0], 0)
}

// DecodeTest decodes the test set of a whole pack. It checks the pack's
// length and both checksums as Decode does, but for version 3 it does not
// decode the training images again: their content is DecodeTrain's to
// check, and a pack passes Decode if and only if it passes both.
func DecodeTest(b []byte) (*Set, error) {
	h, err := whole(b)
	if err != nil {
		return nil, err
	}
	if h.version != 3 {
		p, err := decodePayload(h, b)
		if err != nil {
			return nil, err
		}
		return p.Test, nil
	}
	_, test, err := splitV3(h, b)
	if err != nil {
		return nil, err
	}
	return decodePart(test, h.n[1], h.nnz[1], 1)
}

// splitV3 returns the train and test parts of a whole version 3 pack b
// whose header is h, after checking the train part's length and CRC-32.
func splitV3(h header, b []byte) (train, test []byte, err error) {
	payload := b[headerSize:]
	t, err := trainPart(h, payload)
	if err != nil {
		return nil, nil, err
	}
	if err := checkTrainPart(b[:headerSize+partsOffset+int(t)]); err != nil {
		return nil, nil, err
	}
	return payload[partsOffset : partsOffset+t], payload[partsOffset+t:], nil
}

// checkTrainPart checks the train part's CRC-32 in a version 3 prefix.
func checkTrainPart(prefix []byte) error {
	if sum, want := trainSum(prefix), binary.LittleEndian.Uint32(prefix[headerSize+4:]); sum != want {
		return fmt.Errorf("%w: training images: computed %08x, the pack says %08x", ErrChecksum, sum, want)
	}
	return nil
}

// decodeV3 decodes the payload of a version 3 pack whose header is h and
// whose whole checksum Decode has checked.
func decodeV3(h header, b []byte) (*Pack, error) {
	first, rest, err := splitV3(h, b)
	if err != nil {
		return nil, err
	}
	train, err := decodePart(first, h.n[0], h.nnz[0], 0)
	if err != nil {
		return nil, err
	}
	test, err := decodePart(rest, h.n[1], h.nnz[1], 1)
	if err != nil {
		return nil, err
	}
	return &Pack{Train: train, Test: test}, nil
}

// decodePart decodes one set of n images with nnz non-zero pixels from a
// part laid out as version 1 lays out a payload: labels, run headers, grey
// levels. s is 0 for the training set, 1 for the test set.
func decodePart(part []byte, n, nnz uint32, s int) (*Set, error) {
	name := setNames[s]
	if leastPart(n, nnz) > uint64(len(part)) {
		return nil, FormatError(fmt.Sprintf("%s part of %d bytes, want at least %d", name, len(part), leastPart(n, nnz)))
	}
	labels, runs, greys := part[:n], part[n:len(part)-int(nnz)], part[len(part)-int(nnz):]
	for i, l := range labels {
		if l >= Classes {
			return nil, imageError(name, i, fmt.Sprintf("label %d, want 0..9", l))
		}
	}
	if i := bytes.IndexByte(greys, 0); i >= 0 {
		return nil, FormatError(fmt.Sprintf("%s grey level %d of %d is zero", name, i, nnz))
	}
	set := &Set{
		Labels: make([]uint8, n),
		Start:  make([]int32, n+1),
		Index:  make([]uint16, nnz),
		Value:  make([]uint8, nnz),
	}
	copy(set.Labels, labels)
	copy(set.Value, greys)
	rest, err := decodeRuns(set, runs, name)
	if err != nil {
		return nil, err
	}
	if len(rest) != 0 {
		return nil, FormatError(fmt.Sprintf("%d unused bytes after the %s run headers", len(rest), name))
	}
	return set, nil
}

// encodeV3 returns the payload of a version 3 pack holding sets, with room
// for the header at the start; EncodeVersion fills in the header, then
// sealV3 the train part's checksum.
func encodeV3(sets [2]*Set) []byte {
	n := sets[0].Len() + sets[1].Len()
	nnz := sets[0].NNZ() + sets[1].NNZ()
	buf := make([]byte, headerSize+partsOffset, headerSize+partsOffset+2*n+nnz+nnz/3)
	var t int
	for s, set := range sets {
		start := len(buf)
		buf = append(buf, set.Labels...)
		buf = appendRuns(buf, set)
		buf = append(buf, set.Value...)
		if s == 0 {
			t = len(buf) - start
		}
	}
	binary.LittleEndian.PutUint32(buf[headerSize:], uint32(t))
	return buf
}

// sealV3 writes the train part's CRC-32 into a version 3 pack whose header
// bytes 0–27 are written.
func sealV3(buf []byte) {
	t := binary.LittleEndian.Uint32(buf[headerSize:])
	binary.LittleEndian.PutUint32(buf[headerSize+4:], trainSum(buf[:headerSize+partsOffset+int(t)]))
}

// trainSum is the CRC-32 of a version 3 prefix: header bytes 0–27, the
// train part's length and the part itself.
func trainSum(prefix []byte) uint32 {
	sum := crc32.ChecksumIEEE(prefix[:crcOffset])
	sum = crc32.Update(sum, crc32.IEEETable, prefix[headerSize:headerSize+4])
	return crc32.Update(sum, crc32.IEEETable, prefix[headerSize+partsOffset:])
}
