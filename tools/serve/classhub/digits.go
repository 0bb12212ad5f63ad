package classhub

import (
	"softmaxdemo/core/class"
	"softmaxdemo/core/dataset"
)

// A drawing is one of the class's digits: its number, who sent it (the
// zero phone for the presenter's uploads) and with which Seq, its label
// and pixels, and whether the presenter removed it.
type drawing struct {
	n       uint32
	phone   class.PhoneID
	seq     uint32
	label   uint8
	pixels  [dataset.Pixels]byte
	removed bool
}

// A sender is a phone and a Seq: a drawing's idempotency key.
type sender struct {
	phone class.PhoneID
	seq   uint32
}

// digits are the class's drawings, removed ones too, in the order of
// their numbers.
type digits struct {
	all      []*drawing
	byN      map[uint32]*drawing
	bySender map[sender]uint32
	sent     map[class.PhoneID]int // drawings each phone sent, removed ones too
	kept     int                   // drawings not removed
	last     uint32                // the highest number
}

func newDigits() digits {
	return digits{byN: map[uint32]*drawing{}, bySender: map[sender]uint32{}, sent: map[class.PhoneID]int{}}
}

// add adds d, whose number must be above every other's, and reports
// whether it could.
func (ds *digits) add(d *drawing) bool {
	if d.n <= ds.last {
		return false
	}
	ds.all = append(ds.all, d)
	ds.byN[d.n] = d
	ds.last = d.n
	if d.phone != (class.PhoneID{}) {
		ds.bySender[sender{d.phone, d.seq}] = d.n
		ds.sent[d.phone]++
	}
	if !d.removed {
		ds.kept++
	}
	return true
}

// remove marks d removed.
func (ds *digits) remove(d *drawing) {
	if !d.removed {
		d.removed = true
		ds.kept--
	}
}

// list returns the drawings kept with numbers above after.
func (ds *digits) list(after uint32) []*class.Digit {
	var out []*class.Digit
	for _, d := range ds.all {
		if d.n > after && !d.removed {
			out = append(out, &class.Digit{N: d.n, Label: d.label, Pixels: d.pixels})
		}
	}
	return out
}

// set returns the drawings kept as a dataset.
func (ds *digits) set() *dataset.Set {
	s := dataset.NewSet(ds.kept, 150)
	for _, d := range ds.all {
		if !d.removed {
			s.Append(d.label, d.pixels[:])
		}
	}
	return s
}

// keep adds a new drawing, writes it to the file and shows it to the
// presenter. h.mu is held.
func (h *Hub) keep(d *drawing) {
	h.digits.add(d)
	h.write(addRecord(d))
	h.publish(toPresenter, &class.Digit{N: d.n, Label: d.label, Pixels: d.pixels})
}

// write appends a record to the file of drawings; a write that fails is
// said to the presenter and in the terminal, and again once writes
// succeed. h.mu is held.
func (h *Hub) write(rec []byte) {
	if h.store == nil {
		return
	}
	h.report(h.store.append(rec))
}

// report tells the presenter and the terminal what the file's writes
// come to, when it changes. h.mu is held.
func (h *Hub) report(err error) {
	msg := ""
	if err != nil {
		msg = err.Error() + ": the drawings are kept in memory, and written when the file can be written again"
	}
	if msg == h.fault {
		return
	}
	h.fault = msg
	if msg == "" {
		h.logf("class: the file of drawings is written again")
	} else {
		h.logf("class: %s", msg)
	}
	h.publish(toPresenter, class.Fault{Message: msg})
}
