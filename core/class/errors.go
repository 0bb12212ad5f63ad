package class

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Sentinels that every decoding error of this package wraps; test them
// with errors.Is.
var (
	// ErrMalformed: the bytes are not the message: not JSON, a field of
	// the wrong type, an unknown, repeated or missing field, bytes after
	// it; a binary message of the wrong size or magic.
	ErrMalformed = errors.New("class: malformed message")
	// ErrInvalid: the message is well formed but a value is out of its
	// range: a phone id that is not 32 hex digits, a label above 9, a θ
	// that is not finite or outside the plane, a question without
	// choices.
	ErrInvalid = errors.New("class: invalid value")
	// ErrVersion: a message of another version of the protocol (a page
	// and a server of different builds).
	ErrVersion = errors.New("class: unsupported version")
)

// invalidf returns an error wrapping ErrInvalid.
func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// malformedf returns an error wrapping ErrMalformed.
func malformedf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// Codes of a Refusal: what was wrong, in a word a page can look up in
// its catalogs.
const (
	CodeMalformed   = "malformed"    // 400: not the message (ErrMalformed)
	CodeInvalid     = "invalid"      // 400: a value out of range (ErrInvalid)
	CodeVersion     = "version"      // 400: a page of another build: reload it
	CodeChoice      = "choice"       // 400: a choice the open question does not have
	CodeKey         = "key"          // 403: a presenter's request without the right key
	CodeOrigin      = "origin"       // 403: a request from another site
	CodePhoneLimit  = "phone-limit"  // 403: this phone has sent all the drawings it may
	CodeClassLimit  = "class-limit"  // 403: the class holds all the drawings it may, or lines
	CodeNotFound    = "not-found"    // 404: no such drawing, or no θ yet
	CodeMethod      = "method"       // 405: a method the path does not take
	CodeNoQuestion  = "no-question"  // 409: an answer to a question that is not the open one
	CodeRevealed    = "revealed"     // 409: an answer after the reveal
	CodeTooLarge    = "too-large"    // 413: a body above the limit
	CodeContentType = "content-type" // 415: a body of another type than the path takes
	CodeRate        = "rate"         // 429: too many requests from this phone; Retry-After says when
	CodeFull        = "full"         // 503: the class is full; Retry-After says when to ask again
)

// A Refusal is the server's answer to a request it refuses: the HTTP
// status, a Code, a message for people (English) and, for 429 and 503,
// how many seconds to wait before sending again. Nothing changed in the
// class. Its wire form is the body
//
//	{"error":"choice","message":"\"d\" is not a choice of question \"q1\" (a, b, c)"}
//
// with the status, and Retry-After for 429 and 503.
type Refusal struct {
	Status     int
	Code       string
	Message    string
	RetryAfter int // seconds; 0 unless Status is 429 or 503
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("class: %d %s: %s", r.Status, r.Code, r.Message)
}

// Retry reports whether the same request may succeed if sent again
// later, after RetryAfter seconds: a refusal for the rate (429) or a full
// class (503). Every other refusal is final: the request is dropped, not
// resent.
func (r *Refusal) Retry() bool {
	return r.Status == 429 || r.Status == 503 // Too Many Requests, Service Unavailable: net/http stays out of the page
}

// Encode returns r's body.
func (r *Refusal) Encode() []byte {
	w := writer{}
	w.open()
	w.str("error", r.Code)
	w.str("message", r.Message)
	w.close()
	return w.b
}

// DecodeRefusal returns the Refusal of a response with a status of 400
// or more, its Retry-After header and its body. A body that is not a
// refusal's (a proxy's page, say) gives a Refusal with the code "" and
// the body's first line as its message.
func DecodeRefusal(status int, retryAfter string, body []byte) *Refusal {
	ref := &Refusal{Status: status}
	if n, err := strconv.Atoi(strings.TrimSpace(retryAfter)); err == nil && n > 0 {
		ref.RetryAfter = n
	}
	r := reader{b: body}
	err := r.object(func(key string) error {
		var err error
		switch key {
		case "error":
			ref.Code, err = r.str()
		case "message":
			ref.Message, err = r.str()
		default:
			return r.unknown(key)
		}
		return err
	})
	if err == nil {
		err = r.end()
	}
	if err != nil {
		line, _, _ := strings.Cut(string(body), "\n")
		ref.Code, ref.Message = "", strings.TrimSpace(line[:min(len(line), 200)])
	}
	return ref
}

// An Ack is the server's answer to a phone's message it took: Duplicate
// says it had taken that message (the same phone and Seq) before and
// changed nothing now, and Drawing is a drawing's number in the class
// (drawings only). Its wire form is {"ok":true,"duplicate":false,"drawing":12}.
type Ack struct {
	Duplicate bool
	Drawing   uint32
}

// Encode returns a's body.
func (a Ack) Encode() []byte {
	w := writer{}
	w.open()
	w.bool("ok", true)
	w.bool("duplicate", a.Duplicate)
	w.uint("drawing", uint64(a.Drawing))
	w.close()
	return w.b
}

// DecodeAck decodes an Ack's body. Its errors wrap ErrMalformed.
func DecodeAck(b []byte) (Ack, error) {
	var a Ack
	r := reader{b: b}
	err := r.object(func(key string) error {
		switch key {
		case "ok":
			ok, err := r.bool()
			if err == nil && !ok {
				return r.errf("ok is false")
			}
			return err
		case "duplicate":
			v, err := r.bool()
			a.Duplicate = v
			return err
		case "drawing":
			v, err := r.uint(1<<32 - 1)
			a.Drawing = uint32(v)
			return err
		}
		return r.unknown(key)
	})
	if err == nil {
		err = r.end()
	}
	return a, err
}
