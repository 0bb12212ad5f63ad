package classhub

import (
	"net/http"
	"strconv"

	"softmaxdemo/core/class"
)

// The phones' requests: each decodes its body, then, holding h.mu, seats
// the phone and takes one of its requests (admit), then checks and
// applies the message, all or nothing.

func (h *Hub) join(body []byte) ([]byte, *class.Refusal) {
	j, err := class.DecodeJoin(body)
	if err != nil {
		return nil, badRequest(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ref := h.admit(j.Phone); ref != nil {
		return nil, ref
	}
	return class.Ack{}.Encode(), nil
}

// answer takes a phone's choice in the open question: one answer per
// phone, changed by a later one (a higher Seq) until the reveal.
func (h *Hub) answer(body []byte) ([]byte, *class.Refusal) {
	a, err := class.DecodeAnswer(body)
	if err != nil {
		return nil, badRequest(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ref := h.admit(a.Phone); ref != nil {
		return nil, ref
	}
	q := h.question
	if q.ID == "" || a.Question != q.ID {
		open := "no question is open"
		if q.ID != "" {
			open = "the open question is " + strconv.Quote(q.ID)
		}
		return nil, &class.Refusal{Status: http.StatusConflict, Code: class.CodeNoQuestion,
			Message: "question " + strconv.Quote(a.Question) + " is not open: " + open}
	}
	prev, had := h.answers[a.Phone]
	if had && a.Seq <= prev.seq {
		return class.Ack{Duplicate: true}.Encode(), nil
	}
	if q.Revealed {
		return nil, &class.Refusal{Status: http.StatusConflict, Code: class.CodeRevealed,
			Message: "question " + strconv.Quote(q.ID) + " is revealed: answers are closed"}
	}
	c := q.Choice(a.Choice)
	if c < 0 {
		return nil, &class.Refusal{Status: http.StatusBadRequest, Code: class.CodeChoice,
			Message: strconv.Quote(a.Choice) + " is not a choice of question " + strconv.Quote(q.ID)}
	}
	if had {
		h.counts[prev.choice]--
	}
	h.counts[c]++
	h.answers[a.Phone] = answer{c, a.Seq}
	if !had || prev.choice != c {
		h.publish(toPresenter, class.Tally{Question: q.ID, Counts: h.countsOf()})
	}
	return class.Ack{}.Encode(), nil
}

// drawing takes a phone's drawing once: a drawing sent again (the same
// phone and Seq) is acknowledged with its number and not kept twice.
func (h *Hub) drawing(body []byte) ([]byte, *class.Refusal) {
	d, err := class.DecodeDrawing(body)
	if err != nil {
		return nil, badRequest(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	p, ref := h.admit(d.Phone)
	if ref != nil {
		return nil, ref
	}
	if n, ok := h.digits.bySender[sender{d.Phone, d.Seq}]; ok {
		return class.Ack{Duplicate: true, Drawing: n}.Encode(), nil
	}
	if ok, wait := p.draw.take(h.Now(), h.DrawRate, h.DrawBurst); !ok {
		return nil, tooFast(wait, "more than "+strconv.FormatFloat(h.DrawRate, 'g', -1, 64)+" drawings a second from this phone")
	}
	if h.digits.sent[d.Phone] >= h.MaxDrawingsPerPhone {
		return nil, &class.Refusal{Status: http.StatusForbidden, Code: class.CodePhoneLimit,
			Message: "this phone has sent " + itoa(h.MaxDrawingsPerPhone) + " drawings, all a phone may send in this class"}
	}
	if ref := h.room(1); ref != nil {
		return nil, ref
	}
	dr := &drawing{n: h.digits.last + 1, phone: d.Phone, seq: d.Seq, label: d.Label, pixels: d.Pixels}
	h.keep(dr)
	return class.Ack{Drawing: dr.n}.Encode(), nil
}

// room refuses n more drawings if the class would hold more than
// MaxDrawings. h.mu is held.
func (h *Hub) room(n int) *class.Refusal {
	if h.digits.kept+n > h.MaxDrawings {
		return &class.Refusal{Status: http.StatusForbidden, Code: class.CodeClassLimit,
			Message: "the class holds " + itoa(h.digits.kept) + " drawings; " + itoa(n) + " more would pass its limit of " + itoa(h.MaxDrawings)}
	}
	return nil
}

// line takes a phone's line in the plane; its latest (by Seq) is kept.
func (h *Hub) line(body []byte) ([]byte, *class.Refusal) {
	l, err := class.DecodeLine(body)
	if err != nil {
		return nil, badRequest(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ref := h.admit(l.Phone); ref != nil {
		return nil, ref
	}
	e := h.lines[l.Phone]
	if e != nil && l.Seq <= e.seq {
		return class.Ack{Duplicate: true}.Encode(), nil
	}
	if e == nil {
		if len(h.lines) >= h.MaxLines {
			return nil, &class.Refusal{Status: http.StatusForbidden, Code: class.CodeClassLimit,
				Message: "the class holds the lines of " + itoa(h.MaxLines) + " phones, its limit"}
		}
		h.slots++
		e = &lineEntry{slot: h.slots}
		h.lines[l.Phone] = e
	}
	e.seq, e.line = l.Seq, &l.Line
	h.publish(toPresenter, class.LineOf{Slot: e.slot, Line: l.Line})
	return class.Ack{}.Encode(), nil
}

// countsOf returns the open question's counts. h.mu is held.
func (h *Hub) countsOf() []class.Count {
	out := make([]class.Count, len(h.question.Choices))
	for i, c := range h.question.Choices {
		out[i] = class.Count{Choice: c, N: h.counts[i]}
	}
	return out
}

// poll is the question as a presenter or a student sees it: the counts
// for the presenter, and for students once revealed. h.mu is held.
func (h *Hub) poll(presenter bool) class.Poll {
	p := class.Poll{Question: h.question}
	if p.Question.Choices == nil {
		p.Question.Choices = []string{}
	}
	if h.question.ID != "" && (presenter || h.question.Revealed) {
		p.Counts = h.countsOf()
	}
	return p
}
