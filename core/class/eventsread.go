package class

// DecodeEvent decodes the data of an event called name: a value of the
// event's type, but a *Digit for a drawing. Its errors wrap ErrMalformed
// (an unknown name too), ErrInvalid or, for a Hello, ErrVersion.
func DecodeEvent(name string, data []byte) (Event, error) {
	var (
		e   Event
		err error
	)
	switch name {
	case EventHello:
		var h Hello
		err = decodeObject(data, name, helloNames, h.readField)
		if err == nil {
			err = h.validate()
		}
		e = h
	case EventState:
		var s State
		err = decodeObject(data, name, stateNames, s.readField)
		e = s
	case EventTeacher:
		var t Teacher
		err = decodeObject(data, name, []string{"here"}, func(r *reader, _ int) (err error) {
			t.Here, err = r.bool()
			return err
		})
		e = t
	case EventTheta:
		var t ThetaVersion
		err = decodeObject(data, name, thetaNames, t.readField)
		e = t
	case EventQuestion:
		var p Poll
		err = decodeObject(data, name, pollNames, p.readField)
		if err == nil {
			err = p.validate()
		}
		e = p
	case EventCounts:
		var t Tally
		err = decodeObject(data, name, []string{"question", "counts"}, func(r *reader, i int) (err error) {
			if i == 0 {
				t.Question, err = r.str()
				return err
			}
			t.Counts, err = readCounts(r)
			return err
		})
		if err == nil && t.Counts == nil {
			err = malformedf("counts: no counts")
		}
		e = t
	case EventJoined:
		var j Joined
		err = decodeObject(data, name, []string{"n"}, func(r *reader, _ int) error {
			n, err := r.int(0, 1<<31-1)
			j.N = int(n)
			return err
		})
		e = j
	case EventDrawing:
		d := new(Digit)
		err = decodeObject(data, name, []string{"n", "label", "pixels"}, func(r *reader, i int) error {
			switch i {
			case 0:
				n, err := r.uint(1<<32 - 1)
				d.N = uint32(n)
				return err
			case 1:
				l, err := r.uint(9)
				d.Label = uint8(l)
				return err
			}
			return r.bytes(d.Pixels[:])
		})
		e = d
	case EventRemoved:
		var m Removed
		err = decodeObject(data, name, []string{"n"}, func(r *reader, _ int) error {
			n, err := r.uint(1<<32 - 1)
			m.N = uint32(n)
			return err
		})
		e = m
	case EventLine:
		var l LineOf
		err = decodeObject(data, name, lineOfNames, l.readField)
		if err == nil {
			err = l.Line.Validate()
		}
		e = l
	case EventCleared:
		err = decodeObject(data, name, nil, nil)
		e = Cleared{}
	case EventFault:
		var f Fault
		err = decodeObject(data, name, []string{"message"}, func(r *reader, _ int) (err error) {
			f.Message, err = r.str()
			return err
		})
		e = f
	default:
		return nil, malformedf("an event called %q", name)
	}
	if err != nil {
		return nil, err
	}
	return e, nil
}

var helloNames = []string{"v", "role", "state", "teacher", "theta", "question", "mine", "sent", "maxSent", "joined", "drawings", "last", "lines", "fault"}

func (h *Hello) readField(r *reader, i int) error {
	var err error
	var n int64
	switch helloNames[i] {
	case "v":
		n, err = r.int(0, 1<<31-1)
		h.Version = int(n)
	case "role":
		h.Role, err = r.str()
	case "state":
		err = readObject(r, stateNames, h.State.readField)
	case "teacher":
		h.Teacher, err = r.bool()
	case "theta":
		err = readObject(r, thetaNames, h.Theta.readField)
	case "question":
		err = readObject(r, pollNames, h.Poll.readField)
	case "mine":
		h.Mine, err = r.str()
	case "sent":
		n, err = r.int(0, 1<<31-1)
		h.Sent = int(n)
	case "maxSent":
		n, err = r.int(0, 1<<31-1)
		h.MaxSent = int(n)
	case "joined":
		n, err = r.int(0, 1<<31-1)
		h.Joined = int(n)
	case "drawings":
		n, err = r.int(0, 1<<31-1)
		h.Drawings = int(n)
	case "last":
		var u uint64
		u, err = r.uint(1<<32 - 1)
		h.Last = uint32(u)
	case "lines":
		h.Lines = []LineOf{}
		err = r.array(func() error {
			var l LineOf
			err := readObject(r, lineOfNames, l.readField)
			h.Lines = append(h.Lines, l)
			return err
		})
	case "fault":
		h.Fault, err = r.str()
	}
	return err
}

// validate checks a decoded Hello's version, role, question and lines.
func (h *Hello) validate() error {
	if h.Version != Version {
		return versionError(h.Version)
	}
	if h.Role != RolePresenter && h.Role != RoleStudent {
		return invalidf("role %q, want %q or %q", h.Role, RolePresenter, RoleStudent)
	}
	if err := h.Poll.validate(); err != nil {
		return err
	}
	for _, l := range h.Lines {
		if err := l.Line.Validate(); err != nil {
			return err
		}
	}
	return nil
}

var thetaNames = []string{"version", "checksum"}

func (t *ThetaVersion) readField(r *reader, i int) (err error) {
	if i == 0 {
		t.Version, err = r.uint(1<<63 - 1)
		return err
	}
	t.Checksum, err = r.str()
	return err
}

var pollNames = []string{"id", "choices", "revealed", "counts"}

func (p *Poll) readField(r *reader, i int) (err error) {
	if i < 3 {
		return p.Question.readField(r, i)
	}
	p.Counts, err = readCounts(r)
	return err
}

// validate checks that the question is valid and that its counts, if
// any, are one for each choice, in the question's order.
func (p Poll) validate() error {
	if err := p.Question.Validate(); err != nil {
		return err
	}
	if p.Counts == nil {
		return nil
	}
	if len(p.Counts) != len(p.Question.Choices) {
		return invalidf("%d counts for %d choices", len(p.Counts), len(p.Question.Choices))
	}
	for i, c := range p.Counts {
		if c.Choice != p.Question.Choices[i] {
			return invalidf("count %d is of %q, want %q", i, c.Choice, p.Question.Choices[i])
		}
	}
	return nil
}

// readCounts reads an object from choice to count, in its order, or
// null for nil.
func readCounts(r *reader) ([]Count, error) {
	r.space()
	if len(r.b)-r.p >= 4 && string(r.b[r.p:r.p+4]) == "null" {
		r.p += 4
		return nil, nil
	}
	counts := []Count{}
	err := r.object(func(key string) error {
		if len(counts) == MaxChoices {
			return r.errf("more than %d counts", MaxChoices)
		}
		n, err := r.int(0, 1<<31-1)
		counts = append(counts, Count{key, int(n)})
		return err
	})
	return counts, err
}

var lineOfNames = []string{"slot", "k", "w", "b"}

func (l *LineOf) readField(r *reader, i int) error {
	if i == 0 {
		n, err := r.int(0, 1<<31-1)
		l.Slot = int(n)
		return err
	}
	return l.Line.readField(r, i-1)
}
