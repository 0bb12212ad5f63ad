package class

import (
	"errors"
	"fmt"
)

// Version is the protocol's version, in Join and Hello: a page and a
// server of different builds see that they differ and the page reloads.
const Version = 1

// versionError is the error for a message of protocol version v.
func versionError(v int) error {
	return fmt.Errorf("%w: version %d, this server speaks %d: reload the page", ErrVersion, v, Version)
}

// decodeObject reads b as one JSON object holding exactly the keys
// names, each read by field(r, i) with i the key's index in names. Its
// errors wrap ErrMalformed and name the message, what.
func decodeObject(b []byte, what string, names []string, field func(r *reader, i int) error) error {
	r := reader{b: b}
	err := readObject(&r, names, field)
	if err == nil {
		err = r.end()
	}
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrMalformed, what, err)
	}
	return nil
}

// readObject reads one object holding exactly the keys names from r.
func readObject(r *reader, names []string, field func(r *reader, i int) error) error {
	var seen uint64
	err := r.object(func(key string) error {
		for i, n := range names {
			if n == key {
				seen |= 1 << i
				return field(r, i)
			}
		}
		return r.unknown(key)
	})
	if err != nil {
		return err
	}
	for i, n := range names {
		if seen&(1<<i) == 0 {
			return fmt.Errorf("no field %q", n)
		}
	}
	return nil
}

// phoneField reads a phone id's text; it is parsed once the message is
// read, so that a bad one is ErrInvalid, not ErrMalformed.
func phoneField(r *reader, text *string) error {
	s, err := r.str()
	*text = s
	return err
}

// parsePhone parses a phone id read by phoneField.
func parsePhone(text string) (PhoneID, error) { return ParsePhoneID(text) }

// done returns err if it is not nil, and otherwise v's error.
func done(err error, v interface{ Validate() error }) error {
	if err != nil {
		return err
	}
	return v.Validate()
}

// Encode returns j's wire form.
func (j Join) Encode() []byte {
	w := writer{}
	w.open()
	w.int("v", int64(j.Version))
	w.str("phone", j.Phone.String())
	w.close()
	return w.b
}

// DecodeJoin decodes and validates a Join. Its errors wrap ErrMalformed,
// ErrInvalid or ErrVersion.
func DecodeJoin(b []byte) (Join, error) {
	var j Join
	var phone string
	err := decodeObject(b, "join", []string{"v", "phone"}, func(r *reader, i int) error {
		if i == 0 {
			v, err := r.int(0, 1<<31-1)
			j.Version = int(v)
			return err
		}
		return phoneField(r, &phone)
	})
	if err != nil {
		return j, err
	}
	if j.Version != Version {
		return j, versionError(j.Version)
	}
	j.Phone, err = parsePhone(phone)
	return j, done(err, j)
}

// Encode returns a's wire form.
func (a Answer) Encode() []byte {
	w := writer{}
	w.open()
	w.str("phone", a.Phone.String())
	w.uint("seq", uint64(a.Seq))
	w.str("question", a.Question)
	w.str("choice", a.Choice)
	w.close()
	return w.b
}

// DecodeAnswer decodes and validates an Answer. Its errors wrap
// ErrMalformed or ErrInvalid.
func DecodeAnswer(b []byte) (Answer, error) {
	var a Answer
	var phone string
	err := decodeObject(b, "answer", []string{"phone", "seq", "question", "choice"}, func(r *reader, i int) error {
		var err error
		switch i {
		case 0:
			return phoneField(r, &phone)
		case 1:
			a.Seq, err = readSeq(r)
		case 2:
			a.Question, err = r.str()
		case 3:
			a.Choice, err = r.str()
		}
		return err
	})
	if err != nil {
		return a, err
	}
	a.Phone, err = parsePhone(phone)
	return a, done(err, a)
}

func readSeq(r *reader) (uint32, error) {
	v, err := r.uint(MaxSeq)
	return uint32(v), err
}

// Encode returns d's wire form.
func (d *Drawing) Encode() []byte {
	w := writer{b: make([]byte, 0, 1200)}
	w.open()
	w.str("phone", d.Phone.String())
	w.uint("seq", uint64(d.Seq))
	w.uint("label", uint64(d.Label))
	w.bytes("pixels", d.Pixels[:])
	w.close()
	return w.b
}

// DecodeDrawing decodes and validates a Drawing. Its errors wrap
// ErrMalformed (pixels that are not base64 of exactly 784 bytes too) or
// ErrInvalid (a label above 9).
func DecodeDrawing(b []byte) (*Drawing, error) {
	d := new(Drawing)
	var phone string
	err := decodeObject(b, "drawing", []string{"phone", "seq", "label", "pixels"}, func(r *reader, i int) error {
		switch i {
		case 0:
			return phoneField(r, &phone)
		case 1:
			var err error
			d.Seq, err = readSeq(r)
			return err
		case 2:
			v, err := r.uint(255)
			d.Label = uint8(v)
			return err
		}
		return r.bytes(d.Pixels[:])
	})
	if err != nil {
		return nil, err
	}
	d.Phone, err = parsePhone(phone)
	if err = done(err, d); err != nil {
		return nil, err
	}
	return d, nil
}

// appendTo writes l's three fields into an open object.
func (l PlaneLine) appendTo(w *writer) {
	w.int("k", int64(l.K))
	w.floats("w", l.W)
	w.floats("b", l.B)
}

// readField reads field i (k, w or b) of a plane line.
func (l *PlaneLine) readField(r *reader, i int) error {
	var err error
	switch i {
	case 0:
		var k int64
		k, err = r.int(0, 255)
		l.K = int(k)
	case 1:
		l.W, err = r.floats(2 * MaxLineClass)
	case 2:
		l.B, err = r.floats(MaxLineClass)
	}
	return err
}

// Encode returns l's wire form. Numbers that are not finite are written
// as they are and refused by the decoder: Validate l first.
func (l Line) Encode() []byte {
	w := writer{}
	w.open()
	w.str("phone", l.Phone.String())
	w.uint("seq", uint64(l.Seq))
	l.Line.appendTo(&w)
	w.close()
	return w.b
}

// DecodeLine decodes and validates a Line. Its errors wrap ErrMalformed
// or ErrInvalid (a θ that is not finite or outside the plane's range).
func DecodeLine(b []byte) (Line, error) {
	var l Line
	var phone string
	err := decodeObject(b, "line", []string{"phone", "seq", "k", "w", "b"}, func(r *reader, i int) error {
		switch i {
		case 0:
			return phoneField(r, &phone)
		case 1:
			var err error
			l.Seq, err = readSeq(r)
			return err
		}
		return l.Line.readField(r, i-2)
	})
	if err != nil {
		return l, err
	}
	l.Phone, err = parsePhone(phone)
	return l, done(err, l)
}

func (s State) appendTo(w *writer) {
	w.int("chapter", int64(s.Chapter))
	w.str("lang", s.Lang)
	w.int("scrub", int64(s.Scrub))
}

var stateNames = []string{"chapter", "lang", "scrub"}

func (s *State) readField(r *reader, i int) error {
	var err error
	var v int64
	switch i {
	case 0:
		v, err = r.int(-1<<31, 1<<31-1)
		s.Chapter = int(v)
	case 1:
		s.Lang, err = r.str()
	case 2:
		v, err = r.int(-1<<31, 1<<31-1)
		s.Scrub = int(v)
	}
	return err
}

// Encode returns s's wire form.
func (s State) Encode() []byte {
	w := writer{}
	w.open()
	s.appendTo(&w)
	w.close()
	return w.b
}

// DecodeState decodes and validates a State. Its errors wrap
// ErrMalformed or ErrInvalid.
func DecodeState(b []byte) (State, error) {
	var s State
	err := decodeObject(b, "state", stateNames, s.readField)
	return s, done(err, s)
}

func (q Question) appendTo(w *writer) {
	w.str("id", q.ID)
	w.strs("choices", q.Choices)
	w.bool("revealed", q.Revealed)
}

var questionNames = []string{"id", "choices", "revealed"}

func (q *Question) readField(r *reader, i int) error {
	var err error
	switch i {
	case 0:
		q.ID, err = r.str()
	case 1:
		q.Choices, err = r.strs(MaxChoices)
	case 2:
		q.Revealed, err = r.bool()
	}
	return err
}

// Encode returns q's wire form.
func (q Question) Encode() []byte {
	w := writer{}
	w.open()
	q.appendTo(&w)
	w.close()
	return w.b
}

// DecodeQuestion decodes and validates a Question. Its errors wrap
// ErrMalformed or ErrInvalid.
func DecodeQuestion(b []byte) (Question, error) {
	var q Question
	err := decodeObject(b, "question", questionNames, q.readField)
	return q, done(err, q)
}

// IsRefusable reports whether err is one of this package's decoding
// errors (ErrMalformed, ErrInvalid or ErrVersion), which a server answers
// with 400.
func IsRefusable(err error) bool {
	return errors.Is(err, ErrMalformed) || errors.Is(err, ErrInvalid) || errors.Is(err, ErrVersion)
}
