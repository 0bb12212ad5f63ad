package class

import (
	"encoding/base64"

	"softmaxdemo/core/jsonlite"
)

// The class's messages are JSON, read and written here by hand rather
// than by encoding/json: a page decodes an event for every message of the
// stream, and encoding/json walks each struct's fields by reflection,
// which is more code for V8 to compile and run on every one of them. The
// messages are flat and few, so each says in code which fields it has:
// core/jsonlite's reader, which knows JSON's grammar and nothing of Go's
// types, and its writer, which appends. The reader is strict: an unknown
// or repeated field, a missing one, or bytes after the value is refused.
// writer and reader add to them the keyed members and the bounded arrays
// the class's messages use.

// writer appends one JSON value to B.
type writer struct{ jsonlite.Writer }

func (w *writer) open()        { w.Open() }
func (w *writer) close()       { w.Close() }
func (w *writer) openArray()   { w.OpenArray() }
func (w *writer) closeArray()  { w.CloseArray() }
func (w *writer) key(k string) { w.Key(k) }

func (w *writer) str(k, v string)          { w.Key(k); w.Str(v) }
func (w *writer) int(k string, v int64)    { w.Key(k); w.Int(v) }
func (w *writer) uint(k string, v uint64)  { w.Key(k); w.Uint(v) }
func (w *writer) bool(k string, v bool)    { w.Key(k); w.Bool(v) }
func (w *writer) bytes(k string, v []byte) { w.Key(k); w.Base64(v) }

// floats writes an array of float32, each with the fewest digits that
// read back to the same bits. The caller has checked that they are
// finite.
func (w *writer) floats(k string, v []float32) {
	w.Key(k)
	w.OpenArray()
	for _, f := range v {
		w.Float(float64(f), 32)
	}
	w.CloseArray()
}

func (w *writer) strs(k string, v []string) {
	w.Key(k)
	w.OpenArray()
	for _, s := range v {
		w.Str(s)
	}
	w.CloseArray()
}

// reader reads one JSON value from B, with the shapes the class's
// messages use: objects with known keys, strings, integers, numbers,
// booleans and arrays of these. Its errors say what is wrong and where;
// the message's decoder wraps them in ErrMalformed.
type reader struct{ jsonlite.Reader }

func (r *reader) errf(format string, args ...any) error { return r.Errf(format, args...) }
func (r *reader) end() error                            { return r.End() }
func (r *reader) object(field func(key string) error) error {
	return r.Object(field)
}
func (r *reader) unknown(key string) error        { return r.Unknown(key) }
func (r *reader) array(elem func() error) error   { return r.Array(elem) }
func (r *reader) str() (string, error)            { return r.Str() }
func (r *reader) int(lo, hi int64) (int64, error) { return r.Int(lo, hi) }
func (r *reader) uint(hi uint64) (uint64, error)  { return r.Uint(hi) }
func (r *reader) bool() (bool, error)             { return r.Bool() }

// float32 reads a number as the nearest float32; one beyond float32's
// range is refused.
func (r *reader) float32() (float32, error) {
	v, err := r.Float(32)
	return float32(v), err
}

// floats reads an array of at most max numbers as float32.
func (r *reader) floats(max int) ([]float32, error) {
	out := []float32{}
	err := r.Array(func() error {
		if len(out) == max {
			return r.Errf("more than %d numbers", max)
		}
		v, err := r.float32()
		out = append(out, v)
		return err
	})
	return out, err
}

// strs reads an array of at most max strings.
func (r *reader) strs(max int) ([]string, error) {
	out := []string{}
	err := r.Array(func() error {
		if len(out) == max {
			return r.Errf("more than %d strings", max)
		}
		s, err := r.Str()
		out = append(out, s)
		return err
	})
	return out, err
}

// bytes reads a string of standard base64 (padded) holding exactly
// len(dst) bytes into dst.
func (r *reader) bytes(dst []byte) error {
	at := r.P
	s, err := r.Str()
	if err != nil {
		return err
	}
	if want := base64.StdEncoding.EncodedLen(len(dst)); len(s) != want {
		r.P = at
		return r.Errf("base64 of %d characters, want %d (%d bytes)", len(s), want, len(dst))
	}
	tmp := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(tmp, []byte(s))
	if err != nil || n != len(dst) {
		r.P = at
		return r.Errf("bad base64")
	}
	copy(dst, tmp)
	return nil
}
