package classroom

import (
	"time"

	"softmaxdemo/core/class"
	"softmaxdemo/wasm/ui/browser"
)

// Backoff of a message sent again after a network error or a 5xx: it
// doubles from minWait to maxWait.
const (
	minWait = 100 * time.Millisecond
	maxWait = 5 * time.Second
)

// A message is a phone's request that must reach the server once: its
// path and its body (with its Seq, core/class). Question keys the
// messages of which only the latest counts (an answer's question, or
// "line" for the phone's line in the plane): a newer one replaces one
// not yet sent.
type message struct {
	Path     string
	Body     []byte
	Question string
}

// outbox sends a phone's messages in order, one at a time, each again,
// the same bytes, until the server answers it (core/class's package
// comment): a 2xx or a final refusal takes it out; a 429 or 503 sends it
// again after Retry-After; a network error or a 5xx after a wait that
// doubles.
type outbox struct {
	q        []message
	inFlight bool
	wait     time.Duration
}

// add queues m, in place of an answer to the same question not yet on
// its way.
func (o *outbox) add(m message) {
	if m.Question != "" {
		for i := len(o.q) - 1; i >= 0; i-- {
			if o.q[i].Question == m.Question && !(i == 0 && o.inFlight) {
				o.q = append(o.q[:i], o.q[i+1:]...)
			}
		}
	}
	o.q = append(o.q, m)
}

// next returns the message to send now, if one is waiting and none is on
// its way.
func (o *outbox) next() (message, bool) {
	if o.inFlight || len(o.q) == 0 {
		return message{}, false
	}
	o.inFlight = true
	return o.q[0], true
}

// pending reports how many messages are not yet taken.
func (o *outbox) pending() int { return len(o.q) }

// done takes the answer to the message on its way: when to send again
// (0: the next one, at once) and the server's refusal if it refused it
// for good.
func (o *outbox) done(r browser.Response) (again time.Duration, refused *class.Refusal) {
	o.inFlight = false
	if len(o.q) == 0 {
		return 0, nil
	}
	switch {
	case r.Err == "" && r.Status >= 200 && r.Status < 300:
		o.q, o.wait = o.q[1:], 0
		return 0, nil
	case r.Err == "" && r.Status >= 400 && r.Status < 500 || r.Status == 503:
		ref := class.DecodeRefusal(r.Status, r.RetryAfter, r.Body)
		if ref.Retry() {
			return time.Duration(max(ref.RetryAfter, 1)) * time.Second, nil
		}
		o.q, o.wait = o.q[1:], 0
		return 0, ref
	}
	o.wait = min(max(2*o.wait, minWait), maxWait)
	return o.wait, nil
}
