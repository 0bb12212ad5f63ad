package main

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The WebAssembly module, read as far as wasmsize needs: its sections,
// and the names of its functions.

// module is what wasmsize reads of a WebAssembly module.
type module struct {
	sections []section
	imports  int               // imported functions, which come first in the function index space
	bodies   [][]byte          // the code section's function bodies, in order
	names    map[uint32]string // function index → name
}

type section struct {
	id   byte
	name string // a custom section's
	body []byte
}

var sectionNames = map[byte]string{1: "type", 2: "import", 3: "function", 4: "table", 5: "memory",
	6: "global", 7: "export", 8: "start", 9: "element", 10: "code", 11: "data", 12: "data count"}

func (s section) String() string {
	if s.id == 0 {
		return "custom " + s.name
	}
	return sectionNames[s.id]
}

// reader reads LEB128 numbers and names from a section, remembering the
// first error.
type reader struct {
	b   []byte
	p   int
	err error
}

func (r *reader) uleb() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.p:])
	if n <= 0 {
		r.err = fmt.Errorf("a bad number at byte %d", r.p)
		return 0
	}
	r.p += n
	return v
}

func (r *reader) bytes(n uint64) []byte {
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)-r.p) {
		r.err = fmt.Errorf("%d bytes at byte %d run past the end (%d)", n, r.p, len(r.b))
		return nil
	}
	out := r.b[r.p : r.p+int(n)]
	r.p += int(n)
	return out
}

func (r *reader) byte() byte {
	b := r.bytes(1)
	if b == nil {
		return 0
	}
	return b[0]
}

func (r *reader) more() bool { return r.err == nil && r.p < len(r.b) }

// parseModule reads the sections, the imported functions, the function
// bodies and the function names of the module b.
func parseModule(b []byte) (*module, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("not WebAssembly")
	}
	m := &module{names: map[uint32]string{}}
	r := &reader{b: b, p: 8}
	for r.more() {
		id := r.byte()
		body := r.bytes(r.uleb())
		s := section{id: id, body: body}
		if id == 0 {
			sr := &reader{b: body}
			s.name = string(sr.bytes(sr.uleb()))
			if s.name == "name" {
				readNames(sr, m.names)
			}
			if sr.err != nil {
				return nil, fmt.Errorf("custom section %q: %w", s.name, sr.err)
			}
		}
		m.sections = append(m.sections, s)
		sr := &reader{b: body}
		switch id {
		case 2:
			m.imports = countFuncImports(sr)
		case 10:
			for range sr.uleb() {
				m.bodies = append(m.bodies, sr.bytes(sr.uleb()))
			}
		}
		if sr.err != nil {
			return nil, fmt.Errorf("%s section: %w", s, sr.err)
		}
	}
	return m, r.err
}

// countFuncImports counts the functions an import section imports.
func countFuncImports(r *reader) int {
	n := 0
	for range r.uleb() {
		r.bytes(r.uleb()) // module
		r.bytes(r.uleb()) // name
		switch r.byte() {
		case 0: // function: its type
			r.uleb()
			n++
		case 1: // table: element type, limits
			r.byte()
			limits(r)
		case 2: // memory: limits
			limits(r)
		case 3: // global: type, mutability
			r.byte()
			r.byte()
		default:
			r.err = errors.New("an import of unknown kind")
		}
	}
	return n
}

func limits(r *reader) {
	if r.byte()&1 != 0 {
		r.uleb()
	}
	r.uleb()
}

// readNames reads the function names subsection (1) of a name section.
func readNames(r *reader, out map[uint32]string) {
	for r.more() {
		id := r.byte()
		sub := &reader{b: r.bytes(r.uleb())}
		if id != 1 {
			continue
		}
		for range sub.uleb() {
			idx := sub.uleb()
			out[uint32(idx)] = string(sub.bytes(sub.uleb()))
		}
		if sub.err != nil {
			r.err = sub.err
		}
	}
}
