package protocol

import (
	"math"

	"softmaxdemo/core/jsonlite"
)

// A message's JSON body is written and read by hand (core/jsonlite): each
// message lists its fields once, in its fields method (body.go), and the
// same list writes them all or reads the one whose key the reader is at.
// A field is named as its struct tag names it, and omit marks the tags'
// omitempty, so that the body is what encoding/json would write for the
// message, byte for byte (testdata/wire.golden).

// fields is a message's fields being written (w set) or read (r set).
type fields struct {
	w   *jsonlite.Writer
	r   *jsonlite.Reader
	key string // reading: the key whose value is next
	hit bool   // reading: a field has read it
	err error  // reading: the first error
}

// body is a pointer to a message that lists its fields.
type body[T any] interface {
	*T
	fields(*fields)
}

// writeBody appends m's body as a JSON object.
func writeBody(w *jsonlite.Writer, list func(*fields)) {
	w.Open()
	list(&fields{w: w})
	w.Close()
}

// readBody reads a JSON object into the fields list names; a key no field
// takes is an error.
func readBody(r *jsonlite.Reader, list func(*fields)) error {
	return r.Object(func(key string) error {
		f := fields{r: r, key: key}
		if list(&f); !f.hit {
			return r.Unknown(key)
		}
		return f.err
	})
}

// take reports whether the field k is the one to read now.
func (f *fields) take(k string) bool {
	if f.hit || f.key != k {
		return false
	}
	f.hit = true
	return true
}

// put reports whether the field k, whose value is zero if zero, is to be
// written, and writes its key if so.
func (f *fields) put(k string, omit, zero bool) bool {
	if f.w == nil || omit && zero {
		return false
	}
	f.w.Key(k)
	return true
}

func (f *fields) int(k string, p *int, omit bool) {
	if f.put(k, omit, *p == 0) {
		f.w.Int(int64(*p))
	} else if f.r != nil && f.take(k) {
		v, err := f.r.Int(math.MinInt, math.MaxInt)
		*p, f.err = int(v), err
	}
}

func (f *fields) int64(k string, p *int64, omit bool) {
	if f.put(k, omit, *p == 0) {
		f.w.Int(*p)
	} else if f.r != nil && f.take(k) {
		*p, f.err = f.r.Int(math.MinInt64, math.MaxInt64)
	}
}

func (f *fields) uint64(k string, p *uint64, omit bool) {
	if f.put(k, omit, *p == 0) {
		f.w.Uint(*p)
	} else if f.r != nil && f.take(k) {
		*p, f.err = f.r.Uint(math.MaxUint64)
	}
}

func (f *fields) uint8(k string, p *uint8) {
	if f.put(k, false, false) {
		f.w.Uint(uint64(*p))
	} else if f.r != nil && f.take(k) {
		v, err := f.r.Uint(math.MaxUint8)
		*p, f.err = uint8(v), err
	}
}

func (f *fields) float(k string, p *float64, omit bool) {
	if f.put(k, omit, *p == 0) {
		f.w.Float(*p, 64)
	} else if f.r != nil && f.take(k) {
		*p, f.err = f.r.Float(64)
	}
}

func (f *fields) bool(k string, p *bool, omit bool) {
	if f.put(k, omit, !*p) {
		f.w.Bool(*p)
	} else if f.r != nil && f.take(k) {
		*p, f.err = f.r.Bool()
	}
}

func (f *fields) str(k string, p *string, omit bool) {
	if f.put(k, omit, *p == "") {
		f.w.Str(*p)
	} else if f.r != nil && f.take(k) {
		*p, f.err = f.r.Str()
	}
}

// list writes or reads a slice of n elements, null for nil; elem writes
// or reads element i, which read appends as a zero value first.
func list[T any](f *fields, k string, p *[]T, omit bool, elem func(f *fields, v *T)) {
	if f.put(k, omit, len(*p) == 0) {
		if *p == nil {
			f.w.Null()
			return
		}
		f.w.OpenArray()
		for i := range *p {
			elem(f, &(*p)[i])
		}
		f.w.CloseArray()
	} else if f.r != nil && f.take(k) {
		if f.r.Null() {
			*p = nil
			return
		}
		s := []T{}
		f.err = f.r.Array(func() error {
			var v T
			e := fields{r: f.r}
			elem(&e, &v)
			s = append(s, v)
			return e.err
		})
		*p = s
	}
}

// array writes or reads a fixed-length array, given as a slice of it; a
// JSON array of another length is refused.
func array[T any](f *fields, k string, s []T, elem func(f *fields, v *T)) {
	if f.put(k, false, false) {
		f.w.OpenArray()
		for i := range s {
			elem(f, &s[i])
		}
		f.w.CloseArray()
	} else if f.r != nil && f.take(k) {
		n := 0
		f.err = f.r.Array(func() error {
			if n == len(s) {
				return f.r.Errf("more than %d values", len(s))
			}
			e := fields{r: f.r}
			elem(&e, &s[n])
			n++
			return e.err
		})
		if f.err == nil && n != len(s) {
			f.err = f.r.Errf("%d values, want %d", n, len(s))
		}
	}
}

// The elements of lists and arrays: a value without a key.

func intElem(f *fields, v *int) {
	if f.w != nil {
		f.w.Int(int64(*v))
		return
	}
	n, err := f.r.Int(math.MinInt, math.MaxInt)
	*v, f.err = int(n), err
}

func floatElem(f *fields, v *float64) {
	if f.w != nil {
		f.w.Float(*v, 64)
		return
	}
	*v, f.err = f.r.Float(64)
}

func float32Elem(f *fields, v *float32) {
	if f.w != nil {
		f.w.Float(float64(*v), 32)
		return
	}
	x, err := f.r.Float(32)
	*v, f.err = float32(x), err
}

func strElem(f *fields, v *string) {
	if f.w != nil {
		f.w.Str(*v)
		return
	}
	*v, f.err = f.r.Str()
}

// object writes or reads a nested object whose fields inner lists.
func (f *fields) object(k string, inner func(*fields)) {
	if f.put(k, false, false) {
		writeBody(f.w, inner)
	} else if f.r != nil && f.take(k) {
		f.err = readBody(f.r, inner)
	}
}

// bytes writes a []uint8 as encoding/json does, as base64, null for nil,
// and reads it as base64 or as an array of numbers from 0 to 255.
func (f *fields) bytes(k string, p *[]uint8) {
	if f.put(k, false, false) {
		if *p == nil {
			f.w.Null()
		} else {
			f.w.Base64(*p)
		}
	} else if f.r != nil && f.take(k) {
		switch {
		case f.r.Null():
			*p = nil
		case f.r.Is('"'):
			f.r.P--
			*p, f.err = f.r.Base64()
		default:
			s := []uint8{}
			f.err = f.r.Array(func() error {
				v, err := f.r.Uint(math.MaxUint8)
				s = append(s, uint8(v))
				return err
			})
			*p = s
		}
	}
}
