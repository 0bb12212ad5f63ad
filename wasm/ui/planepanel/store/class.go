package store

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"softmaxdemo/core/class"
	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/i18n"
)

// The plane in a class (core/class): a student sends the line set by
// hand; the presenter's plane shows every student's line, each with the J
// the plane would show for it on the data it has now.

// Part is the plane's part in a class.
type Part int

// The parts: outside a class (the zero value: the plane shows nothing of
// one), a student's phone, the presenter's page.
const (
	None Part = iota
	Student
	Presenter
)

// What #plane-send's data-state says of the line a student sends.
const (
	SendIdle    = "idle"    // nothing sent yet
	SendSending = "sending" // sent, the server has not yet taken it
	SendSent    = "sent"    // the server took it
	SendRefused = "refused" // θ cannot be sent: Class.Why says why
)

// Class is the plane's part in a class, as its views show it: a value,
// whose slices are never changed once in a snapshot.
type Class struct {
	Part Part

	// A student's line: what #plane-send says, the θ last sent (nil
	// before one), and why θ cannot be sent.
	Send string
	Sent *softmax.Model[float32]
	Why  i18n.Msg

	// The presenter's: the lines drawn, best (lowest J) first, and how
	// many the class gave that are not drawn: of another K than the
	// plane's, or given when the plane had no data to judge them on.
	Lines []ClassLine
	Other int
	// Descents are gradient descent from the best line and from the
	// worst, once asked for (Descend), until the lines or the data change.
	Descents []Descent
}

// A Descent is the path of gradient descent from a line of the class
// (plane.Judge.Descend): the line's slot, whether it is the best or the
// worst, J where it starts (the line's) and ends, its steps, why it stopped, and the
// model it ends at.
type Descent struct {
	Slot     int
	Best     bool
	From, To float64
	Steps    int
	Stop     plane.PathStop
	End      *softmax.Model[float32]
}

// A ClassLine is a student's line as the presenter's plane shows it: its
// slot, its model as the plane takes a θ by hand (plane.Judge.Take), and
// J there on the plane's data.
type ClassLine struct {
	Slot  int
	Model *softmax.Model[float32]
	J     float64
}

// SetPart sets the plane's part in a class.
func (p *Plane) SetPart(part Part) {
	if part != Student && part != Presenter {
		part = None
	}
	c := &p.s.Class
	if part != c.Part {
		*c = Class{Part: part, Send: SendIdle}
		p.judge()
	}
}

// SetLines takes the class's lines, each phone's latest by slot (none
// once they were cleared), and judges them on the plane's data.
func (p *Plane) SetLines(lines []class.LineOf) {
	p.lines = slices.Clone(lines)
	p.judge()
}

// judge gives each of the class's lines its J on the plane's data and
// settings now (core/plane's Judge: the code of the plane's own J), best
// first; the lines of another K than the plane's are counted, not drawn.
func (p *Plane) judge() {
	c := &p.s.Class
	was := c.Lines
	c.Lines, c.Other = nil, 0
	defer func() {
		if !sameEnds(was, c.Lines) {
			c.Descents = nil // of other lines, or on other data
		}
	}()
	if c.Part != Presenter {
		return
	}
	j, err := plane.NewJudge(p.s.Data, p.s.Settings)
	if err != nil {
		c.Other = len(p.lines)
		return
	}
	for _, l := range p.lines {
		if l.Line.K != j.K() {
			c.Other++
			continue
		}
		m, err := j.Take(l.Line.W, l.Line.B)
		if err != nil {
			c.Other++
			continue
		}
		c.Lines = append(c.Lines, ClassLine{Slot: l.Slot, Model: m, J: j.Loss(m)})
	}
	slices.SortStableFunc(c.Lines, func(a, b ClassLine) int {
		return cmp.Or(cmp.Compare(a.J, b.J), cmp.Compare(a.Slot, b.Slot))
	})
}

// SendLine returns the line a student sends: the θ the page last knew
// (Base), as core/class's PlaneLine, if PlaneLine.Validate passes; the
// line is then sending. A θ beyond ±MaxTheta is refused, and Why says
// which number and what to do; without a model nothing happens.
func (p *Plane) SendLine() (class.PlaneLine, bool) {
	c := &p.s.Class
	m := p.Base()
	if c.Part != Student || m == nil {
		return class.PlaneLine{}, false
	}
	line := class.PlaneLine{K: m.Classes(), W: slices.Clone(m.W), B: slices.Clone(m.B)}
	if err := line.Validate(); err != nil {
		c.Send, c.Why = SendRefused, beyond(m, err)
		return class.PlaneLine{}, false
	}
	c.Send, c.Why, c.Sent = SendSending, i18n.Msg{}, m.Clone()
	return line, true
}

// Delivered notes that the server took the line last sent.
func (p *Plane) Delivered() {
	if c := &p.s.Class; c.Part == Student && c.Send == SendSending {
		c.Send = SendSent
	}
}

// beyond says which number of m a line cannot carry (err, of
// PlaneLine.Validate), in the page's words: its param's field and value.
func beyond(m *softmax.Model[float32], err error) i18n.Msg {
	k := m.Classes()
	for c := range k {
		for _, of := range Ofs {
			q := Param{Class: c, Of: of}
			i, bias := q.Index(k)
			v := m.W
			if bias {
				v = m.B
			}
			if x := float64(v[i]); !(math.Abs(x) <= plane.MaxTheta) {
				return i18n.Text("plane.send.beyond", symbol(q), strconv.FormatFloat(x, 'g', 4, 32))
			}
		}
	}
	return i18n.Text("raw", err.Error())
}

// symbol is q's name in the notes' symbols: θ_c,j or b_c.
func symbol(q Param) string {
	c := strconv.Itoa(q.Class)
	if q.Of == "b" {
		return "b" + c
	}
	return "θ" + c + "," + q.Of
}

// sameEnds reports whether a and b have the same best and worst line,
// with the same J.
func sameEnds(a, b []ClassLine) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	return a[0].Slot == b[0].Slot && a[0].J == b[0].J && a[len(a)-1].Slot == b[len(b)-1].Slot && a[len(a)-1].J == b[len(b)-1].J
}

// Descend runs gradient descent from the best of the class's lines and
// from the worst (one, if they are the same), on the plane's data and
// settings: the Scene's gradient-descent path, computed at once.
func (p *Plane) Descend() {
	c := &p.s.Class
	c.Descents = nil
	if c.Part != Presenter || len(c.Lines) == 0 {
		return
	}
	j, err := plane.NewJudge(p.s.Data, p.s.Settings)
	if err != nil {
		return
	}
	ends := []ClassLine{c.Lines[0]}
	if n := len(c.Lines); n > 1 {
		ends = append(ends, c.Lines[n-1])
	}
	for i, l := range ends {
		path, err := j.Descend(l.Model)
		if err != nil {
			continue
		}
		last := len(path.Loss) - 1
		end := softmax.NewClasses[float32](2, j.K())
		th := path.Theta[last]
		for i := range end.W {
			end.W[i] = float32(th[i])
		}
		for i := range end.B {
			end.B[i] = float32(th[len(end.W)+i])
		}
		c.Descents = append(c.Descents, Descent{Slot: l.Slot, Best: i == 0, From: l.J, To: path.Loss[last],
			Steps: path.Steps, Stop: path.Stop, End: end})
	}
}
