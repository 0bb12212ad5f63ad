package modelfile

import (
	"encoding/binary"
	"fmt"
	"io"

	"softmaxdemo/core/dataset"
)

// Digits for NumPy (EncodeDigitsNPZ). An uncompressed .npz, as np.savez
// writes it, with two arrays: images.npy, n×28×28 uint8 ('|u1') in C
// order, the grey levels as MNIST's IDX files hold them (0 is the
// background), and labels.npy, n uint8. With a model file's W and b,
//
//	f = np.load("class-digits.npz")
//	np.argmax(f["images"].reshape(-1, 784) / 255 @ W + b, axis=1)
//
// are the model's predictions of them.

// EncodeDigitsNPZ writes s to w as a .npz archive of images.npy and
// labels.npy. It returns an error, having written nothing, if s holds
// more than maxNPZDigits images, and otherwise the first error from w.
func EncodeDigitsNPZ(w io.Writer, s *dataset.Set) error {
	n := s.Len()
	if n > maxNPZDigits {
		return errorf(ErrTooLarge, "%d digits, more than the limit of %d", n, maxNPZDigits)
	}
	images := appendNPYHeader(make([]byte, 0, 128+n*dataset.Pixels), "|u1", fmt.Sprintf("(%d, %d, %d)", n, dataset.Rows, dataset.Cols))
	at := len(images)
	images = images[:at+n*dataset.Pixels]
	for i := range n {
		s.Dense(images[at+i*dataset.Pixels:at+(i+1)*dataset.Pixels], i)
	}
	labels := append(appendNPYHeader(nil, "|u1", fmt.Sprintf("(%d,)", n)), s.Labels...)
	z := zipWriter{buf: make([]byte, 0, len(images)+len(labels)+512)}
	z.add("images.npy", images)
	z.add("labels.npy", labels)
	_, err := w.Write(z.close())
	return err
}

// maxNPZDigits is the most images EncodeDigitsNPZ writes and
// DecodeDigitsNPZ reads: a zip's 32-bit sizes hold them, and MaxBytes
// too.
const maxNPZDigits = (MaxBytes - 1<<16) / dataset.Pixels

// DecodeDigitsNPZ decodes a .npz archive holding images.npy (n×28×28 or
// n×784, '|u1') and labels.npy (n integers 0…9 of any width, '|u1' to
// '<i8'), as EncodeDigitsNPZ or np.savez write them, into a Set; other
// arrays are ignored. It refuses more than max images (and more than
// fit in MaxBytes) with ErrTooLarge, checking shapes before anything is
// allocated; its other errors wrap the package's sentinels as DecodeNPZ's
// do. It never panics.
func DecodeDigitsNPZ(b []byte, max int) (*dataset.Set, error) {
	max = min(max, maxNPZDigits)
	if len(b) > MaxBytes {
		return nil, errorf(ErrTooLarge, "the file is %d bytes, more than the limit of %d", len(b), MaxBytes)
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
		if e.name == "images.npy" || e.name == "labels.npy" {
			if files[e.name] != nil {
				return nil, errorf(ErrFormat, "the archive holds %s twice", e.name)
			}
			files[e.name] = &entries[i]
		}
	}
	for _, name := range []string{"images.npy", "labels.npy"} {
		if files[name] == nil {
			return nil, errorf(ErrFormat, "the archive has no %s: save it with np.savez(f, images=images, labels=labels), images of shape (n, 28, 28) and dtype uint8", name)
		}
	}
	read := func(name string, size func(descr, file, name string) (int, error), values int64) (*npyArray, error) {
		data, err := files[name+".npy"].open(b, uint64(10+maxNPYHeader+8*values))
		if err != nil {
			return nil, err
		}
		return parseNPYOf(data, name, size, values)
	}
	images, err := read("images", byteSize, int64(max)*dataset.Pixels)
	if err != nil {
		return nil, err
	}
	sh := images.shape
	if !(len(sh) == 3 && sh[1] == dataset.Rows && sh[2] == dataset.Cols) && !(len(sh) == 2 && sh[1] == dataset.Pixels) {
		return nil, errorf(ErrShape, "images has shape %s, want (n, 28, 28) or (n, 784)", images.shapeString())
	}
	n := sh[0]
	labels, err := read("labels", intSize, int64(max))
	if err != nil {
		return nil, err
	}
	if len(labels.shape) != 1 || labels.shape[0] != n {
		return nil, errorf(ErrShape, "labels has shape %s, want (%d,), a label for each of the %d images", labels.shapeString(), n, n)
	}
	s := dataset.NewSet(int(n), 150)
	for i := range int(n) {
		var y uint64
		switch p := labels.data[i*labels.size:]; labels.size {
		case 1:
			y = uint64(p[0])
		case 2:
			y = uint64(binary.LittleEndian.Uint16(p))
		case 4:
			y = uint64(binary.LittleEndian.Uint32(p))
		default:
			y = binary.LittleEndian.Uint64(p)
		}
		if y >= dataset.Classes {
			return nil, errorf(ErrFormat, "labels[%d] is %d, want 0…9", i, int64(y))
		}
		s.Append(uint8(y), images.data[i*dataset.Pixels:(i+1)*dataset.Pixels])
	}
	return s, nil
}

// byteSize accepts the dtype of grey levels, unsigned bytes.
func byteSize(descr, file, name string) (int, error) {
	if descr == "|u1" || descr == "<u1" {
		return 1, nil
	}
	return 0, errorf(ErrDType, "%s has dtype '%s', want '|u1': save %s.astype(np.uint8)", file, descr, name)
}

// intSize accepts the dtypes of labels: integers, little-endian, of 1 to
// 8 bytes.
func intSize(descr, file, name string) (int, error) {
	switch descr {
	case "|u1", "<u1", "|i1", "<i1":
		return 1, nil
	case "<u2", "<i2":
		return 2, nil
	case "<u4", "<i4":
		return 4, nil
	case "<u8", "<i8":
		return 8, nil
	}
	return 0, errorf(ErrDType, "%s has dtype '%s', want integers ('|u1' … '<i8'): save %s.astype(np.uint8)", file, descr, name)
}
