package class

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// reader reads one JSON value from b, with the shapes the class's
// messages use: objects with known keys, strings, integers, numbers,
// booleans and arrays of these. Its errors say what is wrong and where;
// the message's decoder wraps them in ErrMalformed.
type reader struct {
	b []byte
	p int
}

func (r *reader) errf(format string, args ...any) error {
	return fmt.Errorf("%s at byte %d", fmt.Sprintf(format, args...), r.p)
}

func (r *reader) space() {
	for r.p < len(r.b) {
		switch r.b[r.p] {
		case ' ', '\t', '\n', '\r':
			r.p++
		default:
			return
		}
	}
}

// is consumes c, after spaces, if it is next.
func (r *reader) is(c byte) bool {
	r.space()
	if r.p < len(r.b) && r.b[r.p] == c {
		r.p++
		return true
	}
	return false
}

// end checks that only spaces are left.
func (r *reader) end() error {
	if r.space(); r.p != len(r.b) {
		return r.errf("bytes after the message")
	}
	return nil
}

// object reads an object, calling field for each key; field reads the
// value. A key seen twice is refused; so is an unknown one, by field.
func (r *reader) object(field func(key string) error) error {
	if !r.is('{') {
		return r.errf("want an object")
	}
	if r.is('}') {
		return nil
	}
	var seen []string
	for {
		r.space()
		at := r.p
		key, err := r.str()
		if err != nil {
			return err
		}
		for _, k := range seen {
			if k == key {
				r.p = at
				return r.errf("field %q twice", key)
			}
		}
		seen = append(seen, key)
		if !r.is(':') {
			return r.errf("want ':' after %q", key)
		}
		r.space()
		if err := field(key); err != nil {
			return err
		}
		if r.is(',') {
			continue
		}
		if r.is('}') {
			return nil
		}
		return r.errf("want ',' or '}'")
	}
}

// unknown is the error for a key the message does not have.
func (r *reader) unknown(key string) error { return r.errf("unknown field %q", key) }

// array reads an array, calling elem for each element.
func (r *reader) array(elem func() error) error {
	if !r.is('[') {
		return r.errf("want an array")
	}
	if r.is(']') {
		return nil
	}
	for {
		r.space()
		if err := elem(); err != nil {
			return err
		}
		if r.is(',') {
			continue
		}
		if r.is(']') {
			return nil
		}
		return r.errf("want ',' or ']'")
	}
}

// str reads a string: valid UTF-8, escapes decoded (a lone surrogate
// becomes U+FFFD, as encoding/json reads it).
func (r *reader) str() (string, error) {
	if !r.is('"') {
		return "", r.errf("want a string")
	}
	start := r.p
	for r.p < len(r.b) {
		switch c := r.b[r.p]; {
		case c == '"':
			s := r.b[start:r.p]
			r.p++
			if !utf8.Valid(s) {
				return "", r.errf("a string that is not UTF-8")
			}
			return string(s), nil
		case c == '\\':
			return r.escaped(start)
		case c < 0x20:
			return "", r.errf("a control character in a string")
		default:
			r.p++
		}
	}
	return "", r.errf("a string without its end")
}

// escaped reads the rest of a string that has an escape at r.p, started
// at start.
func (r *reader) escaped(start int) (string, error) {
	out := append([]byte(nil), r.b[start:r.p]...)
	for r.p < len(r.b) {
		c := r.b[r.p]
		switch {
		case c == '"':
			r.p++
			if !utf8.Valid(out) {
				return "", r.errf("a string that is not UTF-8")
			}
			return string(out), nil
		case c < 0x20:
			return "", r.errf("a control character in a string")
		case c != '\\':
			out = append(out, c)
			r.p++
			continue
		}
		if r.p+1 >= len(r.b) {
			break
		}
		e := r.b[r.p+1]
		r.p += 2
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
				return "", r.errf("a bad \\u escape")
			}
			ch := rune(c1)
			if utf16.IsSurrogate(ch) {
				ch = utf8.RuneError
				if r.p+1 < len(r.b) && r.b[r.p] == '\\' && r.b[r.p+1] == 'u' {
					save := r.p
					r.p += 2
					c2, ok := r.hex4()
					if !ok {
						return "", r.errf("a bad \\u escape")
					}
					if d := utf16.DecodeRune(rune(c1), rune(c2)); d != utf8.RuneError {
						ch = d
					} else {
						r.p = save // the second escape stands alone
					}
				}
			}
			out = utf8.AppendRune(out, ch)
		default:
			return "", r.errf("a bad escape \\%c", e)
		}
	}
	return "", r.errf("a string without its end")
}

func (r *reader) hex4() (uint16, bool) {
	if r.p+4 > len(r.b) {
		return 0, false
	}
	var v uint16
	for _, c := range r.b[r.p : r.p+4] {
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
	r.p += 4
	return v, true
}

// number reads a number's text, checked against JSON's grammar; integer
// reports that it has neither a fraction nor an exponent.
func (r *reader) number() (text string, integer bool, err error) {
	r.space()
	start := r.p
	digits := func() int {
		n := 0
		for r.p < len(r.b) && r.b[r.p] >= '0' && r.b[r.p] <= '9' {
			r.p++
			n++
		}
		return n
	}
	if r.p < len(r.b) && r.b[r.p] == '-' {
		r.p++
	}
	switch {
	case r.p < len(r.b) && r.b[r.p] == '0':
		r.p++
	case digits() == 0:
		r.p = start
		return "", false, r.errf("want a number")
	}
	integer = true
	if r.p < len(r.b) && r.b[r.p] == '.' {
		r.p++
		integer = false
		if digits() == 0 {
			return "", false, r.errf("a number without digits after its point")
		}
	}
	if r.p < len(r.b) && (r.b[r.p] == 'e' || r.b[r.p] == 'E') {
		r.p++
		integer = false
		if r.p < len(r.b) && (r.b[r.p] == '+' || r.b[r.p] == '-') {
			r.p++
		}
		if digits() == 0 {
			return "", false, r.errf("a number without digits in its exponent")
		}
	}
	return string(r.b[start:r.p]), integer, nil
}

// int reads an integer within [lo, hi].
func (r *reader) int(lo, hi int64) (int64, error) {
	at := r.p
	text, integer, err := r.number()
	if err != nil {
		return 0, err
	}
	v, perr := strconv.ParseInt(text, 10, 64)
	if !integer || perr != nil || v < lo || v > hi {
		r.p = at
		return 0, r.errf("%s is not an integer from %d to %d", text, lo, hi)
	}
	return v, nil
}

// uint reads an unsigned integer up to hi.
func (r *reader) uint(hi uint64) (uint64, error) {
	at := r.p
	text, integer, err := r.number()
	if err != nil {
		return 0, err
	}
	v, perr := strconv.ParseUint(text, 10, 64)
	if !integer || perr != nil || v > hi {
		r.p = at
		return 0, r.errf("%s is not an integer from 0 to %d", text, hi)
	}
	return v, nil
}

// float32 reads a number as the nearest float32; one beyond float32's
// range is refused.
func (r *reader) float32() (float32, error) {
	at := r.p
	text, _, err := r.number()
	if err != nil {
		return 0, err
	}
	v, perr := strconv.ParseFloat(text, 32)
	if perr != nil || math.IsInf(v, 0) {
		r.p = at
		return 0, r.errf("%s is beyond float32's range", text)
	}
	return float32(v), nil
}

func (r *reader) bool() (bool, error) {
	r.space()
	switch {
	case len(r.b)-r.p >= 4 && string(r.b[r.p:r.p+4]) == "true":
		r.p += 4
		return true, nil
	case len(r.b)-r.p >= 5 && string(r.b[r.p:r.p+5]) == "false":
		r.p += 5
		return false, nil
	}
	return false, r.errf("want true or false")
}

// floats reads an array of at most max numbers as float32.
func (r *reader) floats(max int) ([]float32, error) {
	out := []float32{}
	err := r.array(func() error {
		if len(out) == max {
			return r.errf("more than %d numbers", max)
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
	err := r.array(func() error {
		if len(out) == max {
			return r.errf("more than %d strings", max)
		}
		s, err := r.str()
		out = append(out, s)
		return err
	})
	return out, err
}

// bytes reads a string of standard base64 (padded) holding exactly
// len(dst) bytes into dst.
func (r *reader) bytes(dst []byte) error {
	at := r.p
	s, err := r.str()
	if err != nil {
		return err
	}
	if want := base64.StdEncoding.EncodedLen(len(dst)); len(s) != want {
		r.p = at
		return r.errf("base64 of %d characters, want %d (%d bytes)", len(s), want, len(dst))
	}
	tmp := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(tmp, []byte(s))
	if err != nil || n != len(dst) {
		r.p = at
		return r.errf("bad base64")
	}
	copy(dst, tmp)
	return nil
}
