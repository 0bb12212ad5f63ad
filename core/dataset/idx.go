package dataset

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Magic numbers of the IDX files MNIST is published in: the third byte says
// the elements are unsigned bytes, the fourth gives the number of dimensions.
const (
	idxLabelsMagic = 0x00000801 // idx1-ubyte: count
	idxImagesMagic = 0x00000803 // idx3-ubyte: count, rows, cols
)

// ReadIDX reads an MNIST image file (idx3-ubyte) and its label file
// (idx1-ubyte), as published by LeCun et al., and returns them as one Set.
// Both files hold big-endian headers and the images must be 28×28.
//
// It returns a FormatError for a wrong magic number, wrong dimensions, a
// count above MaxImages, counts that differ between the two files, a label
// above 9 or bytes after the last record, and an error wrapping
// io.ErrUnexpectedEOF if either file ends early. The readers are read
// through a buffer; ReadIDX does not close them.
func ReadIDX(images, labels io.Reader) (*Set, error) {
	var lh [8]byte
	if err := readHeader(labels, lh[:], "labels"); err != nil {
		return nil, err
	}
	if m := binary.BigEndian.Uint32(lh[0:]); m != idxLabelsMagic {
		return nil, FormatError(fmt.Sprintf("labels file magic %#08x, want %#08x", m, idxLabelsMagic))
	}
	var ih [16]byte
	if err := readHeader(images, ih[:], "images"); err != nil {
		return nil, err
	}
	if m := binary.BigEndian.Uint32(ih[0:]); m != idxImagesMagic {
		return nil, FormatError(fmt.Sprintf("images file magic %#08x, want %#08x", m, idxImagesMagic))
	}
	nl := binary.BigEndian.Uint32(lh[4:])
	ni := binary.BigEndian.Uint32(ih[4:])
	rows, cols := binary.BigEndian.Uint32(ih[8:]), binary.BigEndian.Uint32(ih[12:])
	switch {
	case rows != Rows || cols != Cols:
		return nil, FormatError(fmt.Sprintf("images are %d×%d, want %d×%d", rows, cols, Rows, Cols))
	case nl != ni:
		return nil, FormatError(fmt.Sprintf("%d labels but %d images", nl, ni))
	case ni > MaxImages:
		return nil, FormatError(fmt.Sprintf("%d images, more than the maximum %d", ni, MaxImages))
	}
	n := int(ni)

	// Read the labels before allocating for the images, so a short label
	// file cannot make us reserve room for a million images.
	lab, err := io.ReadAll(io.LimitReader(labels, int64(n)))
	if err != nil {
		return nil, fmt.Errorf("dataset: labels: %w", err)
	}
	if len(lab) < n {
		return nil, fmt.Errorf("dataset: labels file ends after %d of %d labels: %w", len(lab), n, io.ErrUnexpectedEOF)
	}
	if err := expectEnd(labels, "labels"); err != nil {
		return nil, err
	}
	for i, l := range lab {
		if l >= Classes {
			return nil, FormatError(fmt.Sprintf("label %d is %d, want 0..9", i, l))
		}
	}

	s := NewSet(n, 0)
	br := bufio.NewReaderSize(images, 64<<10)
	var px [Pixels]uint8
	for i := range n {
		if _, err := io.ReadFull(br, px[:]); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("dataset: images file ends in image %d of %d: %w", i, n, err)
		}
		s.Append(lab[i], px[:])
	}
	if err := expectEnd(br, "images"); err != nil {
		return nil, err
	}
	return s, nil
}

// WriteIDX writes s as an MNIST image file (idx3-ubyte) to images and
// its label file (idx1-ubyte) to labels, the files ReadIDX reads: big-endian
// headers, then the 28×28 grey levels of each image, row-major, and one
// byte per label. It returns the first error from either writer.
func WriteIDX(images, labels io.Writer, s *Set) error {
	n := uint32(s.Len())
	var lh [8]byte
	binary.BigEndian.PutUint32(lh[0:], idxLabelsMagic)
	binary.BigEndian.PutUint32(lh[4:], n)
	if _, err := labels.Write(append(lh[:], s.Labels...)); err != nil {
		return err
	}
	b := make([]byte, 16, 16+s.Len()*Pixels)
	for i, v := range []uint32{idxImagesMagic, n, Rows, Cols} {
		binary.BigEndian.PutUint32(b[4*i:], v)
	}
	b = b[:16+s.Len()*Pixels]
	for i := range s.Len() {
		s.Dense(b[16+i*Pixels:16+(i+1)*Pixels], i)
	}
	_, err := images.Write(b)
	return err
}

// readHeader fills h from r, turning a short read into io.ErrUnexpectedEOF.
func readHeader(r io.Reader, h []byte, what string) error {
	if _, err := io.ReadFull(r, h); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return fmt.Errorf("dataset: %s header: %w", what, err)
	}
	return nil
}

// expectEnd reports an error unless r is at its end.
func expectEnd(r io.Reader, what string) error {
	var one [1]byte
	switch _, err := io.ReadFull(r, one[:]); {
	case err == nil:
		return FormatError(what + " file has bytes after its last record")
	case errors.Is(err, io.EOF):
		return nil
	default:
		return fmt.Errorf("dataset: %s: %w", what, err)
	}
}
