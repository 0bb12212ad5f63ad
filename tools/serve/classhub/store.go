package classhub

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"softmaxdemo/core/class"
	"softmaxdemo/core/dataset"
)

// The file of drawings, DrawingsFile in the class's folder, is appended
// to as drawings arrive and are removed, so that a restart loses none:
//
//	offset  size  field
//	0       8     magic "CLDRAWS1"
//	8       …     records, one after another
//
// A record is either an added drawing,
//
//	1    'A'
//	4    its number, little-endian
//	16   the phone's id (zero for the presenter's uploads)
//	4    the phone's Seq, little-endian
//	1    the label, 0…9
//	784  the grey levels, 28×28 row-major
//	4    CRC-32 (IEEE) of the record's bytes before it
//
// 814 bytes, or a removal,
//
//	1    'R'
//	4    the number of the drawing removed
//	4    CRC-32 of the 5 bytes before it
//
// Each record is one write. On load, a record that ends early or whose
// checksum is wrong is skipped with a warning, and loading goes on at the
// next record that is whole and right; a half-written last record (a
// crash mid-write) is cut from the file.
const (
	DrawingsFile = "drawings.bin"
	fileMagic    = "CLDRAWS1"
	addSize      = 1 + 4 + 16 + 4 + 1 + dataset.Pixels + 4
	removeSize   = 1 + 4 + 4
)

// addRecord returns the record of an added drawing.
func addRecord(d *drawing) []byte {
	b := make([]byte, 0, addSize)
	b = append(b, 'A')
	b = binary.LittleEndian.AppendUint32(b, d.n)
	b = append(b, d.phone[:]...)
	b = binary.LittleEndian.AppendUint32(b, d.seq)
	b = append(b, d.label)
	b = append(b, d.pixels[:]...)
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// removeRecord returns the record of drawing n's removal.
func removeRecord(n uint32) []byte {
	b := binary.LittleEndian.AppendUint32([]byte{'R'}, n)
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// A record is one record of the file: a drawing added, or (removed set,
// only n) one removed.
type record struct {
	removed bool
	d       drawing
}

// parseRecord parses the record at the start of b: ok if it is whole and
// right, short if b ends before the record its first byte names.
func parseRecord(b []byte) (rec record, size int, ok, short bool) {
	if len(b) == 0 {
		return rec, 0, false, true
	}
	switch b[0] {
	case 'A':
		size = addSize
	case 'R':
		size = removeSize
	default:
		return rec, 0, false, false
	}
	if len(b) < size {
		return rec, size, false, true
	}
	if b[0] == 'A' && b[25] > 9 { // a label out of range: no need for the checksum
		return rec, size, false, false
	}
	if crc32.ChecksumIEEE(b[:size-4]) != binary.LittleEndian.Uint32(b[size-4:]) {
		return rec, size, false, false
	}
	rec.d.n = binary.LittleEndian.Uint32(b[1:])
	if b[0] == 'R' {
		rec.removed = true
		return rec, size, rec.d.n > 0, false
	}
	copy(rec.d.phone[:], b[5:21])
	rec.d.seq = binary.LittleEndian.Uint32(b[21:])
	rec.d.label = b[25]
	copy(rec.d.pixels[:], b[26:26+dataset.Pixels])
	return rec, size, rec.d.n > 0 && rec.d.label <= 9, false
}

// parseFile parses a file of drawings: its records, the length of the
// file up to the end of its last good record, and a warning for each
// part skipped. It returns an error for a file that is not a file of
// drawings (another magic), which a class must not write into.
func parseFile(b []byte) (recs []record, good int64, warnings []string, err error) {
	if len(b) < len(fileMagic) {
		if string(b) != fileMagic[:len(b)] {
			return nil, 0, nil, fmt.Errorf("it is not a file of drawings (it starts with %q)", b)
		}
		if len(b) > 0 {
			warnings = append(warnings, fmt.Sprintf("its header is half-written (%d bytes): it is written again", len(b)))
		}
		return nil, 0, warnings, nil
	}
	if string(b[:len(fileMagic)]) != fileMagic {
		return nil, 0, nil, fmt.Errorf("it is not a file of drawings (it starts with %q, want %q)", b[:len(fileMagic)], fileMagic)
	}
	p := len(fileMagic)
	good = int64(p)
	for p < len(b) {
		rec, size, ok, short := parseRecord(b[p:])
		if ok {
			recs = append(recs, rec)
			p += size
			good = int64(p)
			continue
		}
		next := p + 1
		for ; next < len(b); next++ {
			if c := b[next]; c == 'A' || c == 'R' {
				if _, _, ok, _ := parseRecord(b[next:]); ok {
					break
				}
			}
		}
		if next == len(b) && (short || size > 0) && p+max(size, 1) >= len(b) {
			warnings = append(warnings, fmt.Sprintf("its last record is half-written (%d bytes at offset %d, a crash mid-write): skipped", len(b)-p, p))
			break
		}
		warnings = append(warnings, fmt.Sprintf("%d damaged bytes at offset %d: skipped", next-p, p))
		p = next
	}
	return recs, good, warnings, nil
}

// store appends records to the file of drawings. A record that cannot
// be written waits, in order, for the next write or retry; the file is
// synced to the disk a little after a write.
type store struct {
	mu         sync.Mutex
	path       string
	f          *os.File
	size       int64    // the file's length up to its last whole record
	pending    [][]byte // records not written yet
	err        error    // the last attempt's
	delay      time.Duration
	retryEvery time.Duration
	syncing    *time.Timer
	retrying   *time.Timer
	retried    func(error) // the outcome of a retry, for the hub
	closed     bool
}

// openStore reads the file of drawings in dir, cuts a half-written last
// record from it, and opens it for appending. A folder or file that
// cannot be read or written is no error: the store holds the error and
// the drawings wait in memory. A file that is not a file of drawings is
// an error.
func openStore(dir string, delay, retryEvery time.Duration) (*store, []record, []string, error) {
	s := &store{path: filepath.Join(dir, DrawingsFile), delay: delay, retryEvery: retryEvery}
	b, err := os.ReadFile(s.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.err = fmt.Errorf("reading %s: %w", s.path, err)
		return s, nil, nil, nil
	}
	recs, good, warnings, err := parseFile(b)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w; name another folder with -class-dir", s.path, err)
	}
	for i, w := range warnings {
		warnings[i] = s.path + ": " + w
	}
	// The records end at good: what follows holds no whole record.
	s.size = good
	if good > 0 && good < int64(len(b)) {
		if err := os.Truncate(s.path, good); err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: cutting its half-written last record: %v", s.path, err))
			s.size = int64(len(b))
		}
	}
	s.mu.Lock()
	s.openLocked()
	s.mu.Unlock()
	return s, recs, warnings, nil
}

// openLocked opens the file for appending (creating it and its folder),
// writing the magic into an empty one. s.mu is held.
func (s *store) openLocked() error {
	if s.f != nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		s.err = fmt.Errorf("making the class's folder: %w", err)
		return s.err
	}
	f, err := os.OpenFile(s.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		s.err = fmt.Errorf("opening %s: %w", s.path, err)
		return s.err
	}
	if s.size < int64(len(fileMagic)) {
		if err := f.Truncate(0); err != nil {
			f.Close()
			s.err = fmt.Errorf("writing %s: %w", s.path, err)
			return s.err
		}
		if _, err := f.Write([]byte(fileMagic)); err != nil {
			f.Truncate(0)
			f.Close()
			s.err = fmt.Errorf("writing %s: %w", s.path, err)
			return s.err
		}
		s.size = int64(len(fileMagic))
	}
	s.f, s.err = f, nil
	return nil
}

// append writes rec after the records waiting, and returns the error
// that keeps them waiting, or nil once everything is written.
func (s *store) append(rec []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = append(s.pending, rec)
	return s.flushLocked()
}

// flushLocked writes the records waiting. A write that fails is undone
// (the file cut back to its last whole record) and retried later. s.mu
// is held.
func (s *store) flushLocked() error {
	if s.closed {
		return s.err
	}
	if err := s.openLocked(); err != nil {
		s.retryLater()
		return err
	}
	for len(s.pending) > 0 {
		n, err := s.f.Write(s.pending[0])
		if err != nil {
			if n > 0 {
				if terr := s.f.Truncate(s.size); terr != nil {
					err = fmt.Errorf("%w (and cutting the half-written record: %v)", err, terr)
				}
			}
			s.err = fmt.Errorf("writing %s: %w", s.path, err)
			s.retryLater()
			return s.err
		}
		s.size += int64(n)
		s.pending = s.pending[1:]
	}
	s.err = nil
	if s.syncing == nil {
		s.syncing = time.AfterFunc(s.delay, func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.syncing = nil
			if s.f != nil {
				s.f.Sync()
			}
		})
	}
	return nil
}

// retryLater tries the records waiting again after retryEvery. s.mu is
// held.
func (s *store) retryLater() {
	if s.retrying != nil || s.closed {
		return
	}
	s.retrying = time.AfterFunc(s.retryEvery, func() {
		s.mu.Lock()
		s.retrying = nil
		err := s.flushLocked()
		done := s.retried
		s.mu.Unlock()
		if done != nil {
			done(err)
		}
	})
}

// close syncs and closes the file, and returns the error of what could
// not be written.
func (s *store) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pending) > 0 {
		s.flushLocked()
	}
	s.closed = true
	for _, t := range []*time.Timer{s.syncing, s.retrying} {
		if t != nil {
			t.Stop()
		}
	}
	if s.f != nil {
		s.f.Sync()
		s.f.Close()
		s.f = nil
	}
	if len(s.pending) > 0 {
		return fmt.Errorf("%d drawings or removals could not be written to %s: %w", len(s.pending), s.path, s.err)
	}
	return nil
}

// Open loads the class's drawings from the file of drawings in dir and
// appends to it from now on: a half-written last record is skipped and
// a warning logged for each part skipped. A folder that cannot be
// written is no error: the presenter is told and the drawings wait in
// memory. It returns an error for a file that is not a file of drawings.
// Call it once, before serving.
func (h *Hub) Open(dir string) error {
	h.startOnce.Do(h.start)
	st, recs, warnings, err := openStore(dir, h.SyncDelay, h.retryEvery)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		h.logf("class: %s", w)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	skipped := 0
	for _, r := range recs {
		if r.removed {
			if d := h.digits.byN[r.d.n]; d != nil {
				h.digits.remove(d)
			}
			continue
		}
		d := r.d
		if _, dup := h.digits.bySender[sender{d.phone, d.seq}]; (dup && d.phone != class.PhoneID{}) || !h.digits.add(&d) {
			skipped++
		}
	}
	if skipped > 0 {
		h.logf("class: %s: %d drawings whose numbers or senders came before were skipped", st.path, skipped)
	}
	st.retried = func(err error) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.report(err)
	}
	h.store = st
	h.report(st.err)
	return nil
}
