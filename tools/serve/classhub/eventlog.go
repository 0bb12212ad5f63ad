package classhub

import (
	"strconv"

	"softmaxdemo/core/class"
)

// An audience is who an event is for.
type audience uint8

const (
	toAll audience = iota
	toPresenter
	toStudents
)

// An entry is one event as it goes on the wire, its SSE frame, shared by
// every stream that sends it.
type entry struct {
	seq   uint64
	to    audience
	frame []byte
}

// eventLog is the ring of the last events, for the streams to send and
// for a page that reconnects with Last-Event-ID to get what it missed.
type eventLog struct {
	ring []entry
	seq  uint64 // the last event's seq; the first is 1
}

func (l *eventLog) init(n int) { l.ring = make([]entry, max(n, 1)) }

// add appends an event for to, and returns its seq.
func (l *eventLog) add(to audience, frame []byte) uint64 {
	l.seq++
	l.ring[l.seq%uint64(len(l.ring))] = entry{l.seq, to, frame}
	return l.seq
}

// holds reports whether the events after cursor are all still in the
// ring.
func (l *eventLog) holds(cursor uint64) bool {
	return cursor <= l.seq && l.seq-cursor <= uint64(len(l.ring))
}

// since appends to dst the frames of the events after cursor that are
// for a presenter or a student; false if some of them are no longer in
// the ring.
func (l *eventLog) since(dst [][]byte, cursor uint64, presenter bool) ([][]byte, bool) {
	if !l.holds(cursor) {
		return dst, false
	}
	for s := cursor + 1; s <= l.seq; s++ {
		e := &l.ring[s%uint64(len(l.ring))]
		if e.to == toAll || (e.to == toPresenter) == presenter {
			dst = append(dst, e.frame)
		}
	}
	return dst, true
}

// frame returns an event's SSE frame: its id (this run's epoch and
// seq), its name and its data.
func (h *Hub) frame(seq uint64, e class.Event) []byte {
	data, err := class.EncodeEvent(e)
	if err != nil {
		panic(err) // the hub sends only the protocol's events
	}
	b := make([]byte, 0, len(data)+48)
	b = append(b, "id: "...)
	b = h.appendID(b, seq)
	b = append(b, "\nevent: "...)
	b = append(b, e.Name()...)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	return append(b, '\n', '\n')
}

// appendID appends an event id, epoch-seq.
func (h *Hub) appendID(b []byte, seq uint64) []byte {
	b = append(b, h.epoch...)
	b = append(b, '-')
	return strconv.AppendUint(b, seq, 10)
}

// publish adds e for to and wakes the streams it is for. h.mu is held.
func (h *Hub) publish(to audience, e class.Event) {
	seq := h.log.add(to, nil)
	h.log.ring[seq%uint64(len(h.log.ring))].frame = h.frame(seq, e)
	for s := range h.subs {
		if to == toAll || (to == toPresenter) == s.presenter {
			select {
			case s.wake <- struct{}{}:
			default:
			}
		}
	}
}

// resume returns the seq after which a stream continues one whose last
// event id was last, if this run's log still holds what followed it.
func (h *Hub) resume(last string) (uint64, bool) {
	if len(last) <= len(h.epoch)+1 || last[:len(h.epoch)] != h.epoch || last[len(h.epoch)] != '-' {
		return 0, false
	}
	seq, err := strconv.ParseUint(last[len(h.epoch)+1:], 10, 64)
	if err != nil || !h.log.holds(seq) {
		return 0, false
	}
	return seq, true
}
