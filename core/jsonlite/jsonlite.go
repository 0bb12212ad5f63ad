// Package jsonlite reads and writes JSON by hand, without encoding/json
// and without reflection: a Reader that knows JSON's grammar and nothing
// of Go's types, and a Writer that appends. A message says in code which
// fields it has, field by field, so that what V8 compiles for it is that
// code alone, not encoding/json's walk over every struct's fields by
// reflection (docs/decisions/0035-a-codec-of-our-own.md).
//
// The Writer writes what encoding/json's Marshal writes for the same
// values: numbers with the fewest digits that read back to the same bits
// (float64 or float32), in decimal from 1e-6 to 1e21 and with an exponent
// outside it; strings with quotes, backslashes, control characters, <, >,
// &, U+2028 and U+2029 escaped and invalid UTF-8 as U+FFFD; bytes as
// padded standard base64. NaN and the infinities have no JSON: the first
// one written is the Writer's Err. The Reader is strict: a string that is
// not UTF-8, a number out of its range, a key seen twice, or bytes after
// the value is an error that says what and where.
package jsonlite

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Writer appends one JSON value to B. Every value method writes the comma
// it needs before it, so an array is OpenArray, its values, CloseArray,
// and an object is Open, then Key and a value for each member, Close.
type Writer struct {
	B    []byte
	Err  error // the first number that JSON cannot hold
	more bool  // a value written in the innermost open object or array: the next takes a comma
}

// Open begins an object.
func (w *Writer) Open() { w.sep(); w.B = append(w.B, '{'); w.more = false }

// Close ends an object.
func (w *Writer) Close() { w.B = append(w.B, '}'); w.more = true }

// OpenArray begins an array.
func (w *Writer) OpenArray() { w.sep(); w.B = append(w.B, '['); w.more = false }

// CloseArray ends an array.
func (w *Writer) CloseArray() { w.B = append(w.B, ']'); w.more = true }

// sep writes the comma before every member but the first.
func (w *Writer) sep() {
	if w.more {
		w.B = append(w.B, ',')
	}
	w.more = true
}

// Key writes an object's next key, which needs no escaping, and its colon.
func (w *Writer) Key(k string) {
	w.sep()
	w.B = append(w.B, '"')
	w.B = append(w.B, k...)
	w.B = append(w.B, '"', ':')
	w.more = false // the value that follows takes no comma
}

// Str writes a string.
func (w *Writer) Str(s string) { w.sep(); w.B = AppendString(w.B, s) }

// Int writes an integer.
func (w *Writer) Int(v int64) { w.sep(); w.B = strconv.AppendInt(w.B, v, 10) }

// Uint writes an unsigned integer.
func (w *Writer) Uint(v uint64) { w.sep(); w.B = strconv.AppendUint(w.B, v, 10) }

// Bool writes true or false.
func (w *Writer) Bool(v bool) { w.sep(); w.B = strconv.AppendBool(w.B, v) }

// Null writes null.
func (w *Writer) Null() { w.sep(); w.B = append(w.B, "null"...) }

// Float writes v as a float64 (bits 64) or a float32 (bits 32). NaN or an
// infinity writes 0 and, if it is the first, sets Err.
func (w *Writer) Float(v float64, bits int) {
	w.sep()
	if math.IsNaN(v) || math.IsInf(v, 0) {
		if w.Err == nil {
			w.Err = fmt.Errorf("%v has no JSON", v)
		}
		w.B = append(w.B, '0')
		return
	}
	w.B = AppendFloat(w.B, v, bits)
}

// Base64 writes bytes as a string of padded standard base64.
func (w *Writer) Base64(v []byte) {
	w.sep()
	w.B = append(w.B, '"')
	w.B = base64.StdEncoding.AppendEncode(w.B, v)
	w.B = append(w.B, '"')
}

// AppendFloat appends a finite v as encoding/json writes a float64 (bits
// 64) or a float32 (bits 32): the fewest digits that read back to the
// same bits, with an exponent below 1e-6 and from 1e21 on.
func AppendFloat(b []byte, v float64, bits int) []byte {
	format := byte('f')
	if a := math.Abs(v); a != 0 {
		if bits == 64 && (a < 1e-6 || a >= 1e21) || bits == 32 && (float32(a) < 1e-6 || float32(a) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, v, format, -1, bits)
	if format == 'e' {
		// e-09 is written e-9, as encoding/json writes it
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// AppendString appends s as encoding/json writes a string: quotes,
// backslashes, control characters, <, >, &, U+2028 and U+2029 escaped,
// and each byte that is not UTF-8 as U+FFFD.
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&15])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// maxDepth bounds the nesting Skip follows.
const maxDepth = 64

// Reader reads one JSON value from B, from byte P on. Its errors say what
// is wrong and where.
type Reader struct {
	B []byte
	P int
}

// Errf returns an error that says what is wrong at the reader's place.
func (r *Reader) Errf(format string, args ...any) error {
	return fmt.Errorf("%s at byte %d", fmt.Sprintf(format, args...), r.P)
}

func (r *Reader) space() {
	for r.P < len(r.B) {
		switch r.B[r.P] {
		case ' ', '\t', '\n', '\r':
			r.P++
		default:
			return
		}
	}
}

// Is consumes c, after spaces, if it is next.
func (r *Reader) Is(c byte) bool {
	r.space()
	if r.P < len(r.B) && r.B[r.P] == c {
		r.P++
		return true
	}
	return false
}

// Null consumes null, after spaces, if it is next.
func (r *Reader) Null() bool {
	r.space()
	if len(r.B)-r.P >= 4 && string(r.B[r.P:r.P+4]) == "null" {
		r.P += 4
		return true
	}
	return false
}

// End checks that only spaces are left.
func (r *Reader) End() error {
	if r.space(); r.P != len(r.B) {
		return r.Errf("bytes after the value")
	}
	return nil
}

// Object reads an object, calling field for each key; field reads the
// value. A key seen twice is refused; an unknown one is field's to refuse
// (Unknown).
func (r *Reader) Object(field func(key string) error) error {
	if !r.Is('{') {
		return r.Errf("want an object")
	}
	if r.Is('}') {
		return nil
	}
	var seen []string
	for {
		r.space()
		at := r.P
		key, err := r.Str()
		if err != nil {
			return err
		}
		for _, k := range seen {
			if k == key {
				r.P = at
				return r.Errf("field %q twice", key)
			}
		}
		seen = append(seen, key)
		if !r.Is(':') {
			return r.Errf("want ':' after %q", key)
		}
		r.space()
		if err := field(key); err != nil {
			return err
		}
		if r.Is(',') {
			continue
		}
		if r.Is('}') {
			return nil
		}
		return r.Errf("want ',' or '}'")
	}
}

// Unknown is the error for a key the object does not have.
func (r *Reader) Unknown(key string) error { return r.Errf("unknown field %q", key) }

// Array reads an array, calling elem for each element.
func (r *Reader) Array(elem func() error) error {
	if !r.Is('[') {
		return r.Errf("want an array")
	}
	if r.Is(']') {
		return nil
	}
	for {
		r.space()
		if err := elem(); err != nil {
			return err
		}
		if r.Is(',') {
			continue
		}
		if r.Is(']') {
			return nil
		}
		return r.Errf("want ',' or ']'")
	}
}

// Skip reads any one value, nested at most 64 deep, and returns its bytes.
func (r *Reader) Skip() ([]byte, error) {
	r.space()
	start := r.P
	err := r.skip(0)
	return r.B[start:r.P], err
}

func (r *Reader) skip(depth int) error {
	if depth > maxDepth {
		return r.Errf("more than %d levels of nesting", maxDepth)
	}
	r.space()
	if r.P >= len(r.B) {
		return r.Errf("want a value")
	}
	switch c := r.B[r.P]; {
	case c == '{':
		return r.Object(func(string) error { return r.skip(depth + 1) })
	case c == '[':
		return r.Array(func() error { return r.skip(depth + 1) })
	case c == '"':
		_, err := r.Str()
		return err
	case c == 't' || c == 'f':
		_, err := r.Bool()
		return err
	case r.Null():
		return nil
	default:
		_, _, err := r.number()
		return err
	}
}

// Str reads a string: valid UTF-8, escapes decoded (a lone surrogate
// becomes U+FFFD, as encoding/json reads it).
func (r *Reader) Str() (string, error) {
	if !r.Is('"') {
		return "", r.Errf("want a string")
	}
	start := r.P
	for r.P < len(r.B) {
		switch c := r.B[r.P]; {
		case c == '"':
			s := r.B[start:r.P]
			r.P++
			if !utf8.Valid(s) {
				return "", r.Errf("a string that is not UTF-8")
			}
			return string(s), nil
		case c == '\\':
			return r.escaped(start)
		case c < 0x20:
			return "", r.Errf("a control character in a string")
		default:
			r.P++
		}
	}
	return "", r.Errf("a string without its end")
}

// escaped reads the rest of a string that has an escape at r.P, started
// at start.
func (r *Reader) escaped(start int) (string, error) {
	out := append([]byte(nil), r.B[start:r.P]...)
	for r.P < len(r.B) {
		c := r.B[r.P]
		switch {
		case c == '"':
			r.P++
			if !utf8.Valid(out) {
				return "", r.Errf("a string that is not UTF-8")
			}
			return string(out), nil
		case c < 0x20:
			return "", r.Errf("a control character in a string")
		case c != '\\':
			out = append(out, c)
			r.P++
			continue
		}
		if r.P+1 >= len(r.B) {
			break
		}
		e := r.B[r.P+1]
		r.P += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			c1, ok := r.hex4()
			if !ok {
				return "", r.Errf("a bad \\u escape")
			}
			ch := rune(c1)
			if utf16.IsSurrogate(ch) {
				ch = utf8.RuneError
				if r.P+1 < len(r.B) && r.B[r.P] == '\\' && r.B[r.P+1] == 'u' {
					save := r.P
					r.P += 2
					c2, ok := r.hex4()
					if !ok {
						return "", r.Errf("a bad \\u escape")
					}
					if d := utf16.DecodeRune(rune(c1), rune(c2)); d != utf8.RuneError {
						ch = d
					} else {
						r.P = save // the second escape stands alone
					}
				}
			}
			out = utf8.AppendRune(out, ch)
		default:
			return "", r.Errf("a bad escape \\%c", e)
		}
	}
	return "", r.Errf("a string without its end")
}

func (r *Reader) hex4() (uint16, bool) {
	if r.P+4 > len(r.B) {
		return 0, false
	}
	var v uint16
	for _, c := range r.B[r.P : r.P+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | uint16(c)
	}
	r.P += 4
	return v, true
}

// number reads a number's text, checked against JSON's grammar; integer
// reports that it has neither a fraction nor an exponent.
func (r *Reader) number() (text string, integer bool, err error) {
	r.space()
	start := r.P
	digits := func() int {
		n := 0
		for r.P < len(r.B) && r.B[r.P] >= '0' && r.B[r.P] <= '9' {
			r.P++
			n++
		}
		return n
	}
	if r.P < len(r.B) && r.B[r.P] == '-' {
		r.P++
	}
	switch {
	case r.P < len(r.B) && r.B[r.P] == '0':
		r.P++
	case digits() == 0:
		r.P = start
		return "", false, r.Errf("want a number")
	}
	integer = true
	if r.P < len(r.B) && r.B[r.P] == '.' {
		r.P++
		integer = false
		if digits() == 0 {
			return "", false, r.Errf("a number without digits after its point")
		}
	}
	if r.P < len(r.B) && (r.B[r.P] == 'e' || r.B[r.P] == 'E') {
		r.P++
		integer = false
		if r.P < len(r.B) && (r.B[r.P] == '+' || r.B[r.P] == '-') {
			r.P++
		}
		if digits() == 0 {
			return "", false, r.Errf("a number without digits in its exponent")
		}
	}
	return string(r.B[start:r.P]), integer, nil
}

// Int reads an integer within [lo, hi].
func (r *Reader) Int(lo, hi int64) (int64, error) {
	at := r.P
	text, integer, err := r.number()
	if err != nil {
		return 0, err
	}
	v, perr := strconv.ParseInt(text, 10, 64)
	if !integer || perr != nil || v < lo || v > hi {
		r.P = at
		return 0, r.Errf("%s is not an integer from %d to %d", text, lo, hi)
	}
	return v, nil
}

// Uint reads an unsigned integer up to hi.
func (r *Reader) Uint(hi uint64) (uint64, error) {
	at := r.P
	text, integer, err := r.number()
	if err != nil {
		return 0, err
	}
	v, perr := strconv.ParseUint(text, 10, 64)
	if !integer || perr != nil || v > hi {
		r.P = at
		return 0, r.Errf("%s is not an integer from 0 to %d", text, hi)
	}
	return v, nil
}

// Float reads a number as the nearest float64 (bits 64) or float32 (bits
// 32); one beyond the type's range is refused.
func (r *Reader) Float(bits int) (float64, error) {
	at := r.P
	text, _, err := r.number()
	if err != nil {
		return 0, err
	}
	v, perr := strconv.ParseFloat(text, bits)
	if perr != nil || math.IsInf(v, 0) {
		r.P = at
		return 0, r.Errf("%s is beyond float%d's range", text, bits)
	}
	return v, nil
}

// Bool reads true or false.
func (r *Reader) Bool() (bool, error) {
	r.space()
	switch {
	case len(r.B)-r.P >= 4 && string(r.B[r.P:r.P+4]) == "true":
		r.P += 4
		return true, nil
	case len(r.B)-r.P >= 5 && string(r.B[r.P:r.P+5]) == "false":
		r.P += 5
		return false, nil
	}
	return false, r.Errf("want true or false")
}

// Base64 reads a string of padded standard base64 and returns its bytes.
func (r *Reader) Base64() ([]byte, error) {
	at := r.P
	s, err := r.Str()
	if err != nil {
		return nil, err
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(out, []byte(s))
	if err != nil {
		r.P = at
		return nil, r.Errf("bad base64")
	}
	return out[:n], nil
}

// SkipUnknown skips the value of key, a key the object does not have, so
// that a writer may add keys that an older reader ignores, as
// encoding/json ignores them; but a key that differs from one of known
// only in case, which encoding/json would read as that one, is refused.
func (r *Reader) SkipUnknown(key string, known ...string) error {
	for _, k := range known {
		if strings.EqualFold(key, k) {
			return r.Errf("field %q, which is not %q", key, k)
		}
	}
	_, err := r.Skip()
	return err
}
