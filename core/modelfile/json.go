package modelfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"softmaxdemo/core/softmax"
)

// The JSON format's name and versions.
const (
	FormatName = "softmax-regression"
	Version    = 2                       // the version EncodeJSON writes
	formatV1   = "softmax-regression/v1" // softmax.Model's MarshalJSON
)

// EncodeJSON writes m and info to w as a version 2 JSON model (see the
// package documentation). It returns an error, having written nothing, if
// m is not a K-class model with finite parameters, and otherwise the first
// error from w.
func EncodeJSON(w io.Writer, m *softmax.Model[float32], info Info) error {
	e, err := NewJSONEncoder(m, info)
	if err != nil {
		return err
	}
	for e.Step() {
	}
	_, err = w.Write(e.Bytes())
	return err
}

// A JSONEncoder writes what EncodeJSON writes, a class's weights at a
// time, so that a page can spread the writing over tasks short enough
// not to hold up a frame: the decimal form of 7,850 parameters takes
// tens of milliseconds on a slow machine's main thread.
type JSONEncoder struct {
	m    softmax.Model[float32] // a copy: the model may change meanwhile
	b    []byte
	next int // the class whose weights Step writes next; K for the biases
}

// NewJSONEncoder returns an encoder of m and info, with the file's head
// written, or the error EncodeJSON returns for m. It copies m's
// parameters.
func NewJSONEncoder(m *softmax.Model[float32], info Info) (*JSONEncoder, error) {
	if err := check(m); err != nil {
		return nil, err
	}
	in, err := json.Marshal(info)
	if err != nil {
		return nil, fmt.Errorf("modelfile: training info: %w", err)
	}
	e := &JSONEncoder{m: softmax.Model[float32]{D: m.D, W: slices.Clone(m.W), B: slices.Clone(m.B)}}
	e.b = make([]byte, 0, 64+len(in)+m.D*softmax.K*12)
	e.b = fmt.Appendf(e.b, `{"format":%q,"version":%d,"features":%d,"classes":%d,`+"\n", FormatName, Version, m.D, softmax.K)
	e.b = append(e.b, `"training":`...)
	e.b = append(e.b, in...)
	e.b = append(e.b, ",\n\"theta\":[\n"...)
	return e, nil
}

// Step writes the next class's weights, or, after the last class, the
// biases and the end of the file, and reports whether there is more to
// write.
func (e *JSONEncoder) Step() bool {
	m, b := &e.m, e.b
	switch c := e.next; {
	case c < softmax.K:
		if c > 0 {
			b = append(b, ",\n"...)
		}
		b = append(b, '[')
		for j := range m.D {
			if j > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendFloat(b, float64(m.W[j*softmax.K+c]), 'g', -1, 32)
		}
		b = append(b, ']')
	case c == softmax.K:
		b = append(b, "],\n\"bias\":["...)
		for c, v := range m.B {
			if c > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendFloat(b, float64(v), 'g', -1, 32)
		}
		b = append(b, "]}"...)
	default:
		return false
	}
	e.b = b
	e.next++
	return e.next <= softmax.K
}

// Bytes returns what the encoder has written: the whole file once Step
// has returned false.
func (e *JSONEncoder) Bytes() []byte { return e.b }

// jsonHead is everything of a JSON model but the numbers, which are
// parsed by hand once the shape is known.
type jsonHead struct {
	Format   string          `json:"format"`
	Version  *int64          `json:"version"`
	Features int64           `json:"features"`
	Classes  int64           `json:"classes"`
	Training *Info           `json:"training"`
	Theta    json.RawMessage `json:"theta"`
	Bias     json.RawMessage `json:"bias"`
}

// DecodeJSON decodes a JSON model, version 2 or 1, as Decode does. The
// declared shape is checked (features against MaxFeatures and against
// features if above 0, classes against K) before the weights are
// allocated; every weight is read at float32 precision, so a file that
// EncodeJSON wrote reads back to the same bits.
func DecodeJSON(b []byte, features int) (*File, error) {
	if err := CheckSize(int64(len(b))); err != nil {
		return nil, err
	}
	var h jsonHead
	if err := json.Unmarshal(b, &h); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se) && cutShort(se, len(b)):
			return nil, truncated("the JSON ends after %d bytes", len(b))
		case errors.As(err, &se) && strings.Contains(se.Error(), "after top-level value"):
			return nil, errorf(ErrFormat, "data after the JSON object at byte %d: the file holds more than one model", se.Offset)
		case errors.As(err, &te):
			return nil, errorf(ErrFormat, "field %q is a JSON %s, want a %v", te.Field, te.Value, te.Type)
		}
		return nil, errorf(ErrFormat, "not JSON (%v): pick a model file saved by this page or tools/train", err)
	}

	f := &File{Format: "json"}
	switch h.Format {
	case FormatName:
		if h.Version == nil {
			return nil, errorf(ErrVersion, "no version: a %q file needs one (this code reads 1 and 2)", FormatName)
		}
		if *h.Version != Version {
			return nil, errorf(ErrVersion, "version %d, this code reads 1 and 2: a newer page or tools/train wrote it; update this one (reload the page, git pull)", *h.Version)
		}
		f.Version = Version
		if h.Training != nil {
			f.Info = *h.Training
		}
	case formatV1:
		if h.Version != nil && *h.Version != 1 {
			return nil, errorf(ErrVersion, "%q with version %d, want no version or 1", formatV1, *h.Version)
		}
		f.Version = 1
	case "":
		return nil, errorf(ErrFormat, "no \"format\" field: this JSON is not a model saved by this page or tools/train")
	default:
		if len(h.Format) > len(FormatName) && h.Format[:len(FormatName)+1] == FormatName+"/" {
			return nil, errorf(ErrVersion, "format %q: this code reads %q versions 1 and 2", h.Format, FormatName)
		}
		return nil, errorf(ErrFormat, "format %q, want %q", h.Format, FormatName)
	}
	if h.Classes != softmax.K {
		return nil, errorf(ErrShape, "the model declares %d classes, want %d (the digits 0 to 9)", h.Classes, softmax.K)
	}
	if err := wantShape(h.Features, features, "the model"); err != nil {
		return nil, err
	}
	if h.Theta == nil || h.Bias == nil {
		return nil, errorf(ErrFormat, "the model has no \"theta\" or no \"bias\"")
	}
	d := int(h.Features)
	m := softmax.New[float32](d)
	if err := parseTheta(m, h.Theta); err != nil {
		return nil, err
	}
	p := numbers{b: h.Bias}
	if err := p.row(m.B, 1, "b", -1); err != nil {
		return nil, err
	}
	f.Model = m
	return f, nil
}

// cutShort reports whether the syntax error se, for an input of n bytes,
// says that the input ended early. encoding/json reports the end of the
// input as "unexpected end of JSON input", or, inside a number or a
// literal such as false, as the invalid character ' ' (it feeds a space
// at the end) at offset n. (json.Decoder tells these apart itself, as
// io.ErrUnexpectedEOF, but linking it made the page 29 kB larger
// gzipped.) The prefix sweep in the tests checks this.
func cutShort(se *json.SyntaxError, n int) bool {
	msg := se.Error()
	return msg == "unexpected end of JSON input" || se.Offset == int64(n) && strings.Contains(msg, "invalid character ' '")
}

// parseTheta reads K rows of m.D numbers from raw, θ[c][j] into
// m.W[j*K+c].
func parseTheta(m *softmax.Model[float32], raw []byte) error {
	p := numbers{b: raw}
	if !p.open() {
		return errorf(ErrShape, "theta is not a list of %d rows", softmax.K)
	}
	for c := range softmax.K {
		if c > 0 && !p.comma() {
			return errorf(ErrShape, "theta has %d rows, want %d", c, softmax.K)
		}
		if err := p.row(m.W[c:], softmax.K, "θ", c); err != nil {
			return err
		}
	}
	return p.end("theta")
}

// numbers scans a JSON value already known to be valid (json.Decoder
// checked it) for lists of numbers.
type numbers struct {
	b []byte
	p int
}

func (s *numbers) space() {
	for s.p < len(s.b) && (s.b[s.p] == ' ' || s.b[s.p] == '\t' || s.b[s.p] == '\n' || s.b[s.p] == '\r') {
		s.p++
	}
}

// is consumes c, after white space, if it comes next.
func (s *numbers) is(c byte) bool {
	s.space()
	if s.p < len(s.b) && s.b[s.p] == c {
		s.p++
		return true
	}
	return false
}

func (s *numbers) open() bool  { return s.is('[') }
func (s *numbers) comma() bool { return s.is(',') }

// end checks that the list closes here.
func (s *numbers) end(what string) error {
	if !s.is(']') {
		return errorf(ErrShape, "%s has more entries than its declared shape", what)
	}
	return nil
}

// row reads a list of n = len(dst)/stride numbers (rounded up) into
// dst[0], dst[stride], … . name and c (the row, -1 for a vector) name
// the entries in errors.
func (s *numbers) row(dst []float32, stride int, name string, c int) error {
	n := (len(dst) + stride - 1) / stride
	where := func(j int) string {
		if c < 0 {
			return fmt.Sprintf("%s[%d]", name, j)
		}
		return fmt.Sprintf("%s[%d][%d]", name, c, j)
	}
	what := "bias"
	if c >= 0 {
		what = fmt.Sprintf("row %d of theta", c)
	}
	if !s.open() {
		return errorf(ErrShape, "%s is not a list of numbers", what)
	}
	for j := range n {
		if j > 0 && !s.comma() {
			return errorf(ErrShape, "%s has %d numbers, want %d", what, j, n)
		}
		if j == 0 && s.is(']') {
			return errorf(ErrShape, "%s is empty, want %d numbers", what, n)
		}
		s.space()
		start := s.p
		for s.p < len(s.b) && s.b[s.p] != ',' && s.b[s.p] != ']' && s.b[s.p] != ' ' && s.b[s.p] != '\n' && s.b[s.p] != '\t' && s.b[s.p] != '\r' {
			if s.b[s.p] == '"' || s.b[s.p] == '[' || s.b[s.p] == '{' {
				break
			}
			s.p++
		}
		tok := s.b[start:s.p]
		if len(tok) == 0 || !isNumberStart(tok[0]) {
			if len(tok) == 0 && start < len(s.b) && s.b[start] == '"' {
				str := s.b[start:]
				if end := bytes.IndexByte(str[1:], '"'); end >= 0 {
					switch string(str[1 : 1+end]) {
					case "NaN", "nan", "Infinity", "-Infinity", "inf", "-inf":
						return errorf(ErrNotFinite, "%s is %s: the model diverged; train it again with a smaller learning rate", where(j), str[1:1+end])
					}
				}
			}
			return errorf(ErrFormat, "%s is not a number", where(j))
		}
		v, err := strconv.ParseFloat(string(tok), 32)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return errorf(ErrNotFinite, "%s is %s, beyond float32's range of ±3.4e38", where(j), tok)
			}
			return errorf(ErrFormat, "%s is %q, not a number", where(j), tok)
		}
		dst[j*stride] = float32(v)
	}
	return s.end(what)
}

func isNumberStart(c byte) bool { return c == '-' || c >= '0' && c <= '9' }
