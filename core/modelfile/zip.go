package modelfile

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
)

// A small zip reader and writer for .npz files, in place of archive/zip:
// importing archive/zip links in compress/flate's compressor (its init
// registers it), which made the page's app.wasm 145 kB larger gzipped.
// The reader handles what np.savez and np.savez_compressed write (stored
// or deflated entries, zip64 extra fields); the writer writes stored
// entries only.

// Zip record signatures and sizes.
const (
	sigLocal     = 0x04034b50
	sigCentral   = 0x02014b50
	sigEnd       = 0x06054b50
	sigEnd64     = 0x06064b50
	sigEnd64Loc  = 0x07064b50
	localSize    = 30
	centralSize  = 46
	endSize      = 22
	end64LocSize = 20
	end64Size    = 56
	methodStore  = 0
	methodFlate  = 8
)

// zipEntry is one entry of the central directory.
type zipEntry struct {
	name        string
	method      uint16
	flags       uint16
	crc         uint32
	csize, size uint64
	offset      uint64 // of the local header
}

// zipWriter appends stored entries to buf.
type zipWriter struct {
	buf     []byte
	entries []zipEntry
}

// add appends a stored entry holding data.
func (z *zipWriter) add(name string, data []byte) {
	e := zipEntry{name: name, crc: crc32.ChecksumIEEE(data), csize: uint64(len(data)), size: uint64(len(data)), offset: uint64(len(z.buf))}
	le := binary.LittleEndian
	b := le.AppendUint32(z.buf, sigLocal)
	b = le.AppendUint16(b, 20) // version needed: 2.0
	b = le.AppendUint16(b, 0)  // flags
	b = le.AppendUint16(b, methodStore)
	b = le.AppendUint16(b, 0)    // time 00:00
	b = le.AppendUint16(b, 0x21) // date 1980-01-01
	b = le.AppendUint32(b, e.crc)
	b = le.AppendUint32(b, uint32(e.csize))
	b = le.AppendUint32(b, uint32(e.size))
	b = le.AppendUint16(b, uint16(len(name)))
	b = le.AppendUint16(b, 0) // extra
	b = append(b, name...)
	z.buf = append(b, data...)
	z.entries = append(z.entries, e)
}

// close appends the central directory and its end record and returns the
// archive.
func (z *zipWriter) close() []byte {
	le := binary.LittleEndian
	start := len(z.buf)
	b := z.buf
	for _, e := range z.entries {
		b = le.AppendUint32(b, sigCentral)
		b = le.AppendUint16(b, 20) // made by: 2.0
		b = le.AppendUint16(b, 20) // needed: 2.0
		b = le.AppendUint16(b, 0)
		b = le.AppendUint16(b, methodStore)
		b = le.AppendUint16(b, 0)
		b = le.AppendUint16(b, 0x21)
		b = le.AppendUint32(b, e.crc)
		b = le.AppendUint32(b, uint32(e.csize))
		b = le.AppendUint32(b, uint32(e.size))
		b = le.AppendUint16(b, uint16(len(e.name)))
		b = append(b, make([]byte, 12)...) // extra, comment, disk, internal and external attributes
		b = le.AppendUint32(b, uint32(e.offset))
		b = append(b, e.name...)
	}
	b = le.AppendUint32(b, sigEnd)
	b = append(b, 0, 0, 0, 0) // disk numbers
	b = le.AppendUint16(b, uint16(len(z.entries)))
	b = le.AppendUint16(b, uint16(len(z.entries)))
	b = le.AppendUint32(b, uint32(len(b)-start-4-4-4))
	b = le.AppendUint32(b, uint32(start))
	return le.AppendUint16(b, 0) // comment
}

// readZip reads the central directory of the archive b.
func readZip(b []byte) ([]zipEntry, error) {
	le := binary.LittleEndian
	// The end record is the last 22 bytes, unless a comment (at most
	// 65,535 bytes) follows it.
	end := -1
	for i := len(b) - endSize; i >= 0 && i >= len(b)-endSize-0xffff; i-- {
		if le.Uint32(b[i:]) == sigEnd && i+endSize+int(le.Uint16(b[i+20:])) == len(b) {
			end = i
			break
		}
	}
	if end < 0 {
		return nil, truncated("the zip archive has no end record")
	}
	n, cdSize, cdOff := uint64(le.Uint16(b[end+10:])), uint64(le.Uint32(b[end+12:])), uint64(le.Uint32(b[end+16:]))
	if n == 0xffff || cdSize == 0xffffffff || cdOff == 0xffffffff {
		// Zip64: a locator just before the end record points to the
		// zip64 end record.
		loc := end - end64LocSize
		if loc < 0 || le.Uint32(b[loc:]) != sigEnd64Loc {
			return nil, errorf(ErrFormat, "the zip archive's zip64 end record is missing")
		}
		off := le.Uint64(b[loc+8:])
		if off > uint64(loc) || uint64(loc)-off < end64Size || le.Uint32(b[off:]) != sigEnd64 {
			return nil, errorf(ErrFormat, "the zip archive's zip64 end record is corrupt")
		}
		n, cdSize, cdOff = le.Uint64(b[off+32:]), le.Uint64(b[off+40:]), le.Uint64(b[off+48:])
	}
	if cdOff > uint64(end) || cdSize > uint64(end)-cdOff || n > cdSize/centralSize {
		return nil, errorf(ErrFormat, "the zip archive's directory (%d entries, %d bytes at %d) does not fit in it", n, cdSize, cdOff)
	}
	cd := b[cdOff : cdOff+cdSize]
	entries := make([]zipEntry, 0, n)
	for range n {
		if len(cd) < centralSize || le.Uint32(cd) != sigCentral {
			return nil, errorf(ErrFormat, "the zip archive's directory is corrupt")
		}
		e := zipEntry{
			flags: le.Uint16(cd[8:]), method: le.Uint16(cd[10:]), crc: le.Uint32(cd[16:]),
			csize: uint64(le.Uint32(cd[20:])), size: uint64(le.Uint32(cd[24:])), offset: uint64(le.Uint32(cd[42:])),
		}
		nameLen, extraLen, commentLen := int(le.Uint16(cd[28:])), int(le.Uint16(cd[30:])), int(le.Uint16(cd[32:]))
		if len(cd) < centralSize+nameLen+extraLen+commentLen {
			return nil, errorf(ErrFormat, "the zip archive's directory is corrupt")
		}
		e.name = string(cd[centralSize : centralSize+nameLen])
		if err := e.zip64(cd[centralSize+nameLen : centralSize+nameLen+extraLen]); err != nil {
			return nil, err
		}
		entries = append(entries, e)
		cd = cd[centralSize+nameLen+extraLen+commentLen:]
	}
	return entries, nil
}

// zip64 takes the sizes and offset that the 32-bit fields mark as
// 0xffffffff from the zip64 extra field (id 1) in extra.
func (e *zipEntry) zip64(extra []byte) error {
	le := binary.LittleEndian
	for len(extra) >= 4 {
		id, size := le.Uint16(extra), int(le.Uint16(extra[2:]))
		if len(extra) < 4+size {
			break
		}
		field := extra[4 : 4+size]
		extra = extra[4+size:]
		if id != 1 {
			continue
		}
		for _, v := range []*uint64{&e.size, &e.csize, &e.offset} {
			if *v != 0xffffffff {
				continue
			}
			if len(field) < 8 {
				return errorf(ErrFormat, "the zip archive's zip64 field for %s is short", e.name)
			}
			*v, field = le.Uint64(field), field[8:]
		}
	}
	return nil
}

// open returns the uncompressed bytes of entry e of archive b, checking
// e.size against limit before allocating, and the CRC-32.
func (e *zipEntry) open(b []byte, limit uint64) ([]byte, error) {
	le := binary.LittleEndian
	switch {
	case e.size > limit:
		return nil, errorf(ErrTooLarge, "%s is %d bytes, more than the limit of %d", e.name, e.size, limit)
	case e.flags&1 != 0:
		return nil, errorf(ErrFormat, "%s is encrypted", e.name)
	case e.method != methodStore && e.method != methodFlate:
		return nil, errorf(ErrFormat, "%s uses a zip compression other than stored or deflate: save it with np.savez", e.name)
	case e.offset > uint64(len(b)) || uint64(len(b))-e.offset < localSize || le.Uint32(b[e.offset:]) != sigLocal:
		return nil, errorf(ErrFormat, "the zip archive's entry %s is corrupt", e.name)
	}
	start := e.offset + localSize + uint64(le.Uint16(b[e.offset+26:])) + uint64(le.Uint16(b[e.offset+28:]))
	if start > uint64(len(b)) || e.csize > uint64(len(b))-start {
		return nil, errorf(ErrFormat, "the zip archive's entry %s runs past its end", e.name)
	}
	raw := b[start : start+e.csize]
	var data []byte
	if e.method == methodStore {
		if e.csize != e.size {
			return nil, errorf(ErrFormat, "the stored entry %s has two sizes, %d and %d", e.name, e.csize, e.size)
		}
		data = raw
	} else {
		data = make([]byte, e.size)
		r := flate.NewReader(bytes.NewReader(raw))
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, errorf(ErrFormat, "%s does not inflate to its %d bytes: %v", e.name, e.size, err)
		}
		if n, err := r.Read(make([]byte, 1)); n != 0 || !errors.Is(err, io.EOF) {
			return nil, errorf(ErrFormat, "%s inflates to more than its %d bytes", e.name, e.size)
		}
	}
	if crc32.ChecksumIEEE(data) != e.crc {
		return nil, errorf(ErrFormat, "%s fails its checksum: the file is corrupt", e.name)
	}
	return data, nil
}
