package classhub

import (
	"errors"
	"io"
	"math"
	"mime"
	"net/http"
	"strconv"
	"time"

	"softmaxdemo/core/class"
)

// A phone is a joined phone's seat: its open streams, when it was last
// heard from, and its rate limits. Whatever must outlive the seat (its
// answers, drawings and line) is kept elsewhere, by phone id.
type phone struct {
	open []*sub    // its streams, oldest first
	seen time.Time // its last request, or when its last stream closed
	req  bucket    // its requests
	draw bucket    // its drawings
}

// A bucket is a token bucket: it holds up to burst tokens, refilled at
// rate a second, and a request takes one.
type bucket struct {
	tokens float64
	at     time.Time
	used   bool
}

// take takes a token at now, or returns how long until there is one.
func (b *bucket) take(now time.Time, rate float64, burst int) (bool, time.Duration) {
	if !b.used {
		b.tokens, b.at, b.used = float64(burst), now, true
	}
	if dt := now.Sub(b.at).Seconds(); dt > 0 {
		b.tokens = math.Min(float64(burst), b.tokens+dt*rate)
	}
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / rate * float64(time.Second))
}

// seat returns id's seat, joining it if the class has room, or a
// refusal saying that the class is full. h.mu is held.
func (h *Hub) seat(id class.PhoneID) (*phone, *class.Refusal) {
	now := h.Now()
	if p := h.phones[id]; p != nil {
		p.seen = now
		return p, nil
	}
	if len(h.phones) >= h.MaxStudents {
		return nil, &class.Refusal{Status: http.StatusServiceUnavailable, Code: class.CodeFull, RetryAfter: 30,
			Message: "the class is full (" + itoa(h.MaxStudents) + " phones): ask the teacher, or try again in a while"}
	}
	p := &phone{seen: now}
	h.phones[id] = p
	h.publish(toPresenter, class.Joined{N: len(h.phones)})
	return p, nil
}

// admit seats id and takes one of its requests, or refuses: a full
// class, or too many requests a second from this phone. h.mu is held.
func (h *Hub) admit(id class.PhoneID) (*phone, *class.Refusal) {
	p, ref := h.seat(id)
	if ref != nil {
		return nil, ref
	}
	if ok, wait := p.req.take(h.Now(), h.Rate, h.Burst); !ok {
		return nil, tooFast(wait, "more than "+strconv.FormatFloat(h.Rate, 'g', -1, 64)+" requests a second from this phone")
	}
	return p, nil
}

// tooFast is the refusal of a request that came too soon after others.
func tooFast(wait time.Duration, why string) *class.Refusal {
	return &class.Refusal{Status: http.StatusTooManyRequests, Code: class.CodeRate,
		RetryAfter: max(1, int(math.Ceil(wait.Seconds()))), Message: why + ": send it again after Retry-After seconds"}
}

// expire ends the seats of the phones without a stream that have not
// been heard from for Grace, and says how many are left. h.mu is held.
func (h *Hub) expire() {
	now, gone := h.Now(), false
	for id, p := range h.phones {
		if len(p.open) == 0 && now.Sub(p.seen) > h.Grace {
			delete(h.phones, id)
			gone = true
		}
	}
	if gone {
		h.publish(toPresenter, class.Joined{N: len(h.phones)})
	}
}

// sweep expires seats every quarter of Grace until the hub closes.
func (h *Hub) sweep() {
	defer h.wg.Done()
	t := time.NewTicker(min(max(h.Grace/4, 10*time.Millisecond), 15*time.Second))
	defer t.Stop()
	for {
		select {
		case <-t.C:
			h.mu.Lock()
			h.expire()
			h.mu.Unlock()
		case <-h.closed:
			return
		}
	}
}

// phonePost is the handler of a phone's POST: a JSON body of at most
// MaxBody bytes, given to handle, whose answer (an Ack's body, or a
// refusal) it writes.
func (h *Hub) phonePost(handle func(body []byte) ([]byte, *class.Refusal)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if ref := wantType(r, "application/json"); ref != nil {
			refuse(w, ref)
			return
		}
		body, ref := readBody(w, r, h.MaxBody)
		if ref == nil {
			var out []byte
			if out, ref = handle(body); ref == nil {
				reply(w, out)
				return
			}
		}
		refuse(w, ref)
	}
}

// wantType refuses a body of another media type than want: a form or
// text/plain from another site's page cannot reach the class without a
// CORS preflight, which the class never answers.
func wantType(r *http.Request, want string) *class.Refusal {
	if t, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || t != want {
		return &class.Refusal{Status: http.StatusUnsupportedMediaType, Code: class.CodeContentType,
			Message: "a body of type " + strconv.Quote(r.Header.Get("Content-Type")) + ", want " + want}
	}
	return nil
}

// readBody reads r's body, refusing one longer than limit with 413.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, *class.Refusal) {
	if r.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		if _, ok := err.(*http.MaxBytesError); ok {
			return nil, tooLarge(limit)
		}
		return nil, &class.Refusal{Status: http.StatusBadRequest, Code: class.CodeMalformed, Message: "reading the body: " + err.Error()}
	}
	return body, nil
}

func tooLarge(limit int64) *class.Refusal {
	return &class.Refusal{Status: http.StatusRequestEntityTooLarge, Code: class.CodeTooLarge,
		Message: "a body of more than " + strconv.FormatInt(limit, 10) + " bytes"}
}

// badRequest is the refusal of a body the protocol's decoder refused.
func badRequest(err error) *class.Refusal {
	code := class.CodeInvalid
	switch {
	case errors.Is(err, class.ErrMalformed):
		code = class.CodeMalformed
	case errors.Is(err, class.ErrVersion):
		code = class.CodeVersion
	}
	return &class.Refusal{Status: http.StatusBadRequest, Code: code, Message: err.Error()}
}

func itoa(n int) string { return strconv.Itoa(n) }
