package protocol

import (
	"math"

	"softmaxdemo/core/jsonlite"
)

// A message's JSON body is written and read by hand (core/jsonlite): each
// message lists its fields once, in its body method (body.go), and the
// same list writes them or reads them.
// A field is named as its struct tag names it, and omit marks the tags'
// omitempty, so that the body is what encoding/json would write for the
// message, byte for byte (testdata/wire.golden).

// fields is a message's fields being written (w set) or read (r set).
// Reading, the object's members are delimited first (members), and each
// field then reads the member of its key, if there is one (take).
type fields struct {
	w       *jsonlite.Writer
	r       *jsonlite.Reader
	members []member
	end     int   // reading: where the object ends
	err     error // reading: the first error
}

// member is one member of the object being read.
type member struct {
	key   string
	at    int // where its value starts
	taken bool
}

// writeObject appends an object whose fields list writes.
func writeObject(w *jsonlite.Writer, list func(*fields)) {
	w.Open()
	list(&fields{w: w})
	w.Close()
}

// readObject reads an object into the fields list names, and returns the
// first error: its JSON's, a field's, or a key no field took.
func readObject(r *jsonlite.Reader, list func(*fields)) error {
	f, err := members(r)
	if err != nil {
		return err
	}
	list(f)
	return f.done()
}

// members delimits the members of the object at r and leaves r after it.
func members(r *jsonlite.Reader) (*fields, error) {
	f := &fields{r: r}
	err := r.Object(func(key string) error {
		f.members = append(f.members, member{key: key, at: r.P})
		_, err := r.Skip()
		return err
	})
	f.end = r.P
	return f, err
}

// done returns the first error of the fields read, or a member no field
// took; it leaves r after the object.
func (f *fields) done() error {
	if f.err == nil {
		for _, m := range f.members {
			if !m.taken {
				f.r.P = m.at
				f.err = f.r.Unknown(m.key)
				break
			}
		}
	}
	if f.err == nil {
		f.r.P = f.end
	}
	return f.err
}

// take reports whether the object read has a member k, and puts the
// reader at its value.
func (f *fields) take(k string) bool {
	if f.r == nil || f.err != nil {
		return false
	}
	for i := range f.members {
		if m := &f.members[i]; m.key == k && !m.taken {
			m.taken = true
			f.r.P = m.at
			return true
		}
	}
	return false
}

// fail keeps the first error.
func (f *fields) fail(err error) {
	if f.err == nil {
		f.err = err
	}
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
	} else if f.take(k) {
		v, err := f.r.Int(math.MinInt, math.MaxInt)
		*p = int(v)
		f.fail(err)
	}
}

func (f *fields) int64(k string, p *int64, omit bool) {
	if f.put(k, omit, *p == 0) {
		f.w.Int(*p)
	} else if f.take(k) {
		v, err := f.r.Int(math.MinInt64, math.MaxInt64)
		*p = v
		f.fail(err)
	}
}

func (f *fields) uint64(k string, p *uint64, omit bool) {
	if f.put(k, omit, *p == 0) {
		f.w.Uint(*p)
	} else if f.take(k) {
		v, err := f.r.Uint(math.MaxUint64)
		*p = v
		f.fail(err)
	}
}

func (f *fields) uint8(k string, p *uint8) {
	if f.put(k, false, false) {
		f.w.Uint(uint64(*p))
	} else if f.take(k) {
		v, err := f.r.Uint(math.MaxUint8)
		*p = uint8(v)
		f.fail(err)
	}
}

func (f *fields) float(k string, p *float64, omit bool) {
	if f.put(k, omit, *p == 0) {
		f.w.Float(*p, 64)
	} else if f.take(k) {
		v, err := f.r.Float(64)
		*p = v
		f.fail(err)
	}
}

func (f *fields) bool(k string, p *bool, omit bool) {
	if f.put(k, omit, !*p) {
		f.w.Bool(*p)
	} else if f.take(k) {
		v, err := f.r.Bool()
		*p = v
		f.fail(err)
	}
}

func (f *fields) str(k string, p *string, omit bool) {
	if f.put(k, omit, *p == "") {
		f.w.Str(*p)
	} else if f.take(k) {
		v, err := f.r.Str()
		*p = v
		f.fail(err)
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
	} else if f.take(k) {
		if f.r.Null() {
			*p = nil
			return
		}
		s := []T{}
		f.fail(f.r.Array(func() error {
			var v T
			e := fields{r: f.r}
			elem(&e, &v)
			s = append(s, v)
			return e.err
		}))
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
	} else if f.take(k) {
		n := 0
		err := f.r.Array(func() error {
			if n == len(s) {
				return f.r.Errf("more than %d values", len(s))
			}
			e := fields{r: f.r}
			elem(&e, &s[n])
			n++
			return e.err
		})
		if err == nil && n != len(s) {
			err = f.r.Errf("%d values, want %d", n, len(s))
		}
		f.fail(err)
	}
}

// The elements of lists and arrays: a value without a key.

func intElem(f *fields, v *int) {
	if f.w != nil {
		f.w.Int(int64(*v))
		return
	}
	n, err := f.r.Int(math.MinInt, math.MaxInt)
	*v = int(n)
	f.fail(err)
}

func floatElem(f *fields, v *float64) {
	if f.w != nil {
		f.w.Float(*v, 64)
		return
	}
	x, err := f.r.Float(64)
	*v = x
	f.fail(err)
}

func float32Elem(f *fields, v *float32) {
	if f.w != nil {
		f.w.Float(float64(*v), 32)
		return
	}
	x, err := f.r.Float(32)
	*v = float32(x)
	f.fail(err)
}

func strElem(f *fields, v *string) {
	if f.w != nil {
		f.w.Str(*v)
		return
	}
	x, err := f.r.Str()
	*v = x
	f.fail(err)
}

// object writes or reads a nested object whose fields inner lists.
func (f *fields) object(k string, inner func(*fields)) {
	if f.put(k, false, false) {
		writeObject(f.w, inner)
	} else if f.take(k) {
		f.fail(readObject(f.r, inner))
	}
}

// element writes or reads an object that is an element of a list.
func (f *fields) element(inner func(*fields)) {
	if f.w != nil {
		writeObject(f.w, inner)
		return
	}
	f.fail(readObject(f.r, inner))
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
	} else if f.take(k) {
		switch {
		case f.r.Null():
			*p = nil
		case f.r.Is('"'):
			f.r.P--
			v, err := f.r.Base64()
			*p = v
			f.fail(err)
		default:
			s := []uint8{}
			f.fail(f.r.Array(func() error {
				v, err := f.r.Uint(math.MaxUint8)
				s = append(s, uint8(v))
				return err
			}))
			*p = s
		}
	}
}
