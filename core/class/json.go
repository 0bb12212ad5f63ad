package class

import (
	"encoding/base64"
	"strconv"
)

// The class's messages are JSON, read and written here by hand rather
// than by encoding/json: a page decodes an event for every message of the
// stream, and encoding/json walks each struct's fields by reflection,
// which is more code for V8 to compile and run on every one of them. The
// messages are flat and few, so each says in code which fields it has:
// a reader that knows JSON's grammar and nothing of Go's types, and a
// writer that appends. The reader is strict: an unknown or repeated
// field, a missing one, or bytes after the value is refused.

// writer appends one JSON value to b.
type writer struct {
	b     []byte
	first bool // no member written yet in the innermost open object or array
}

func (w *writer) open() { w.b = append(w.b, '{'); w.first = true }

func (w *writer) close() { w.b = append(w.b, '}'); w.first = false }

func (w *writer) openArray() { w.b = append(w.b, '['); w.first = true }

func (w *writer) closeArray() { w.b = append(w.b, ']'); w.first = false }

// sep writes the comma before every member but the first.
func (w *writer) sep() {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
}

// key writes an object's next key (which needs no escaping) and colon.
func (w *writer) key(k string) {
	w.sep()
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':')
	w.first = true // the value that follows takes no comma
}

func (w *writer) str(k, v string) {
	w.key(k)
	w.b = appendString(w.b, v)
	w.first = false
}

func (w *writer) int(k string, v int64) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, v, 10)
	w.first = false
}

func (w *writer) uint(k string, v uint64) {
	w.key(k)
	w.b = strconv.AppendUint(w.b, v, 10)
	w.first = false
}

func (w *writer) bool(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
	w.first = false
}

// floats writes an array of float32, each with the fewest digits that
// read back to the same bits. The caller has checked that they are
// finite.
func (w *writer) floats(k string, v []float32) {
	w.key(k)
	w.openArray()
	for _, f := range v {
		w.sep()
		w.b = strconv.AppendFloat(w.b, float64(f), 'g', -1, 32)
	}
	w.closeArray()
}

func (w *writer) strs(k string, v []string) {
	w.key(k)
	w.openArray()
	for _, s := range v {
		w.sep()
		w.b = appendString(w.b, s)
	}
	w.closeArray()
}

func (w *writer) bytes(k string, v []byte) {
	w.key(k)
	w.b = append(w.b, '"')
	w.b = base64.StdEncoding.AppendEncode(w.b, v)
	w.b = append(w.b, '"')
	w.first = false
}

// appendString appends s as a JSON string: quotes, backslashes and
// control characters escaped, everything else as it is (s is UTF-8).
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
