package classhub

import (
	"errors"
	"net/http"
	"os"
	"slices"
	"strconv"
	"time"

	"softmaxdemo/core/class"
)

// A sub is one open event stream.
type sub struct {
	presenter bool
	phone     class.PhoneID
	wake      chan struct{} // an event for it was published (capacity 1)
	kick      chan struct{} // closed when a newer stream of the same phone replaces it
}

// serveEvents serves GET /class/events: the presenter's stream with the
// key, a phone's (its id in the query) otherwise. A stream that goes on
// from one the page had (Last-Event-ID, or the query parameter last, of
// this run and still in the log) starts with the events it missed;
// any other starts with a Hello.
func (h *Hub) serveEvents(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s := &sub{presenter: h.isPresenter(r), wake: make(chan struct{}, 1), kick: make(chan struct{})}
	if !s.presenter {
		id, err := class.ParsePhoneID(q.Get("id"))
		if err != nil {
			refuse(w, badRequest(err))
			return
		}
		s.phone = id
	}
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		last = q.Get("last")
	}

	h.mu.Lock()
	if s.presenter {
		h.presenterOn()
	} else {
		p, ref := h.seat(s.phone)
		if ref != nil {
			h.mu.Unlock()
			refuse(w, ref)
			return
		}
		p.open = append(p.open, s)
		if len(p.open) > h.MaxStreams {
			close(p.open[0].kick)
			p.open = p.open[1:]
		}
	}
	h.subs[s] = struct{}{}
	cursor, ok := h.resume(last)
	var first []byte
	if !ok {
		cursor = h.log.seq
		hello := h.hello(s)
		first = h.frame(cursor, &hello)
	}
	h.mu.Unlock()
	defer h.leave(s)

	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	out := [][]byte{[]byte("retry: " + strconv.FormatInt(h.Retry.Milliseconds(), 10) + "\n\n")}
	if first != nil {
		out = append(out, first)
	}
	keepalive := time.NewTicker(h.Keepalive)
	defer keepalive.Stop()
	for {
		h.mu.Lock()
		out, ok = h.log.since(out, cursor, s.presenter)
		cursor = h.log.seq
		if !ok {
			h.drops++
		}
		h.mu.Unlock()
		if !ok {
			h.logf("class: a %s's stream fell more than %d events behind and was closed; it reconnects and starts again", role(s), h.LogSize)
			return
		}
		if len(out) > 0 {
			if !h.send(rc, w, out) {
				return
			}
			out = out[:0]
		}
		select {
		case <-s.wake:
		case <-keepalive.C:
			out = append(out, []byte(":\n\n"))
		case <-s.kick:
			return
		case <-r.Context().Done():
			return
		case <-h.closed:
			return
		}
	}
}

// send writes frames and flushes them within WriteTimeout, and reports
// whether it could: a stream whose reader does not keep up is dropped
// rather than left holding up its goroutine and its events.
func (h *Hub) send(rc *http.ResponseController, w http.ResponseWriter, frames [][]byte) bool {
	rc.SetWriteDeadline(time.Now().Add(h.WriteTimeout))
	var err error
	for _, f := range frames {
		if _, err = w.Write(f); err != nil {
			break
		}
	}
	if err == nil {
		err = rc.Flush()
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		h.mu.Lock()
		h.drops++
		h.mu.Unlock()
		h.logf("class: a stream took more than %v to take its events and was closed; it reconnects and goes on", h.WriteTimeout)
	}
	return err == nil
}

func role(s *sub) string {
	if s.presenter {
		return class.RolePresenter
	}
	return "phone"
}

// leave forgets a closed stream: the presenter's page may be gone, a
// phone's seat is kept for Grace.
func (h *Hub) leave(s *sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, s)
	if s.presenter {
		h.presenterOff()
		return
	}
	if p := h.phones[s.phone]; p != nil {
		p.open = slices.DeleteFunc(p.open, func(o *sub) bool { return o == s })
		p.seen = h.Now()
	}
}

// presenterOn counts a presenter's stream and says the teacher is here.
// h.mu is held.
func (h *Hub) presenterOn() {
	h.presenters++
	if h.teacherOff != nil {
		h.teacherOff.Stop()
		h.teacherOff = nil
	}
	if !h.teacherHere {
		h.teacherHere = true
		h.publish(toAll, class.Teacher{Here: true})
	}
}

// presenterOff counts a presenter's stream closed and, if it was the
// last and none opens within TeacherGrace, says the teacher is gone.
// h.mu is held.
func (h *Hub) presenterOff() {
	h.presenters--
	if h.presenters > 0 || h.teacherOff != nil {
		return
	}
	var t *time.Timer
	t = time.AfterFunc(h.TeacherGrace, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.teacherOff != t {
			return
		}
		h.teacherOff = nil
		if h.presenters == 0 && h.teacherHere {
			h.teacherHere = false
			h.publish(toAll, class.Teacher{Here: false})
		}
	})
	h.teacherOff = t
}

// hello is the Hello of stream s. h.mu is held.
func (h *Hub) hello(s *sub) class.Hello {
	hl := class.Hello{Version: class.Version, Role: class.RoleStudent, State: h.state, Teacher: h.teacherHere,
		Theta: h.thetaVersion(), Poll: h.poll(s.presenter), Lines: []class.LineOf{}}
	if !s.presenter {
		if a, ok := h.answers[s.phone]; ok && h.question.ID != "" {
			hl.Mine = h.question.Choices[a.choice]
		}
		hl.Sent, hl.MaxSent = h.digits.sent[s.phone], h.MaxDrawingsPerPhone
		return hl
	}
	hl.Role = class.RolePresenter
	hl.Joined, hl.Drawings, hl.Last, hl.Fault = len(h.phones), h.digits.kept, h.digits.last, h.fault
	for _, e := range h.lines {
		if e.line != nil {
			hl.Lines = append(hl.Lines, class.LineOf{Slot: e.slot, Line: *e.line})
		}
	}
	slices.SortFunc(hl.Lines, func(a, b class.LineOf) int { return a.Slot - b.Slot })
	return hl
}
