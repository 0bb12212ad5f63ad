package train

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"

	"softmaxdemo/core/softmax"
)

// StateVersion is the version of a trainer's state as bytes, which
// MarshalBinary writes and Restore reads.
//
// A trainer's state, between two steps, as bytes (MarshalBinary), from
// which Restore makes a trainer that goes on bit for bit as the first
// would have: a run stopped anywhere, saved and restored, ends with the
// same weights as a run never stopped. All numbers are little-endian.
//
//	offset  size     field
//	0       4        magic "TRST"
//	4       2        version (StateVersion)
//	6       2        flags: 1 my digits present, 2 L2Bias, 4 PinFirst
//	8       4        d, features
//	12      4        m, training examples
//	16      8×14     Config: LearningRate, BatchSize, L2, Epochs,
//	                 Iterations, Decay, DecayEvery, Tolerance, Seed, Init,
//	                 InitStd, MyDigitsRate, and the state's α (decayed)
//	                 and pos (the position in the epoch); float64 or
//	                 uint64 each
//	128     8×5      step, epoch, seen, stop; epochSum (float64)
//	168     8        prevEpoch (float64; NaN before the first epoch ends)
//	176     20       the shuffle's PCG state (rand.PCG.MarshalBinary)
//	196     4·m      the epoch's order of the examples, uint32 each
//	…       4·2(dK+K) the model's W and B, then the epoch start's W and B,
//	                 float32 each
//	with my digits:
//	…       4+4+20   their count n, the position in their order, their
//	                 PCG state
//	…       4·n      their order, uint32 each
//	end−4   4        CRC-32 (IEEE) of every byte before it
//
// The gradient buffers are not kept: a step leaves them at zero.
const StateVersion = 1

const (
	stateMagic  = "TRST"
	stateHeader = 196
	pcgBytes    = 20
	maxExamples = 1 << 24 // m and my digits' n are checked against it before allocating
)

// Errors Restore returns, wrapped with the detail; test with errors.Is.
var (
	// ErrState: the bytes are not a trainer's state (a wrong magic, a
	// field out of range).
	ErrState = errors.New("train: not a trainer state")
	// ErrStateVersion: a state of another version.
	ErrStateVersion = errors.New("train: unsupported state version")
	// ErrStateChecksum: the bytes changed after they were written.
	ErrStateChecksum = errors.New("train: state checksum mismatch")
	// ErrStateMismatch: a good state of another run: other data, another
	// shape of model, or a Config that differs in what a run cannot change.
	ErrStateMismatch = errors.New("train: the state belongs to another run")
)

// MarshalBinary returns the trainer's state between two steps, in the
// layout above: for 10,000 examples and 784 features about 103 KB. The
// trainer's data and my digits are not in it, only their sizes; Restore
// needs the same ones. It allocates the returned bytes and never fails.
func (t *Trainer) MarshalBinary() ([]byte, error) {
	d, m := t.model.D, len(t.order)
	size := stateHeader + 4*m + 8*(len(t.model.W)+len(t.model.B)) + 4
	e := &t.myDigits
	if e.x != nil {
		size += 8 + pcgBytes + 4*len(e.order)
	}
	b := make([]byte, 0, size)
	b = append(b, stateMagic...)
	b = binary.LittleEndian.AppendUint16(b, StateVersion)
	var flags uint16
	if e.x != nil {
		flags |= 1
	}
	if t.cfg.L2Bias {
		flags |= 2
	}
	if t.cfg.PinFirst {
		flags |= 4
	}
	b = binary.LittleEndian.AppendUint16(b, flags)
	b = binary.LittleEndian.AppendUint32(b, uint32(d))
	b = binary.LittleEndian.AppendUint32(b, uint32(m))
	c := t.cfg
	f64 := func(v float64) { b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v)) }
	u64 := func(v uint64) { b = binary.LittleEndian.AppendUint64(b, v) }
	f64(c.LearningRate)
	u64(uint64(c.BatchSize))
	f64(c.L2)
	u64(uint64(c.Epochs))
	u64(uint64(c.Iterations))
	f64(c.Decay)
	u64(uint64(c.DecayEvery))
	f64(c.Tolerance)
	u64(c.Seed)
	u64(uint64(c.Init))
	f64(c.InitStd)
	f64(c.MyDigitsRate)
	f64(t.rate)
	u64(uint64(t.pos))
	u64(uint64(t.step))
	u64(uint64(t.epoch))
	u64(uint64(t.seen))
	u64(uint64(t.stop))
	f64(t.epochSum)
	f64(t.prevEpoch)
	b = appendPCG(b, t.src)
	for _, i := range t.order {
		b = binary.LittleEndian.AppendUint32(b, uint32(i))
	}
	for _, s := range [][]float32{t.model.W, t.model.B, t.saved.W, t.saved.B} {
		for _, v := range s {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
		}
	}
	if e.x != nil {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(e.order)))
		b = binary.LittleEndian.AppendUint32(b, uint32(e.pos))
		b = appendPCG(b, e.src)
		for _, i := range e.order {
			b = binary.LittleEndian.AppendUint32(b, uint32(i))
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b)), nil
}

func appendPCG(b []byte, p *rand.PCG) []byte {
	s, _ := p.MarshalBinary() // never fails
	return append(b, s...)
}

// Restore makes t go on from state, which MarshalBinary wrote for a
// trainer with the same data, features and my digits (SetMyDigits, called
// before Restore) and a Config that differs at most in what a run can
// change (α, λ, the rate of my digits: the state's values are taken).
// It returns an error wrapping ErrState, ErrStateVersion,
// ErrStateChecksum, ErrStateMismatch or io.ErrUnexpectedEOF, and then
// changes nothing. It never panics on bad bytes.
func (t *Trainer) Restore(state []byte) error {
	r := reader{b: state}
	if len(state) < 16 {
		return fmt.Errorf("train: state of %d bytes: %w", len(state), io.ErrUnexpectedEOF)
	}
	if string(r.next(4)) != stateMagic {
		return fmt.Errorf("%w: magic %q", ErrState, state[:4])
	}
	if v := r.u16(); v != StateVersion {
		return fmt.Errorf("%w: version %d, want %d; the page and the worker are of different builds: reload the page", ErrStateVersion, v, StateVersion)
	}
	flags := r.u16()
	d, m := int(r.u32()), int(r.u32())
	switch {
	case flags > 7:
		return fmt.Errorf("%w: flags %#x", ErrState, flags)
	case d < 1 || d > 1<<16 || m < 1 || m > maxExamples:
		return fmt.Errorf("%w: %d features, %d examples", ErrState, d, m)
	}
	// The whole length, from the sizes, before anything is allocated.
	k := len(t.model.B)
	size := stateHeader + 4*m + 8*(d*k+k) + 4
	if flags&1 != 0 {
		size += 8 + pcgBytes
		if len(state) >= size-4-pcgBytes-4 {
			n := int(binary.LittleEndian.Uint32(state[size-4-pcgBytes-8:]))
			if n < 1 || n > maxExamples {
				return fmt.Errorf("%w: %d of my digits", ErrState, n)
			}
			size += 4 * n
		}
	}
	switch {
	case len(state) < size:
		return fmt.Errorf("train: state of %d bytes, %d expected: %w", len(state), size, io.ErrUnexpectedEOF)
	case len(state) > size:
		return fmt.Errorf("%w: %d bytes after the state", ErrState, len(state)-size)
	}
	if sum := binary.LittleEndian.Uint32(state[size-4:]); sum != crc32.ChecksumIEEE(state[:size-4]) {
		return fmt.Errorf("%w: %d bytes", ErrStateChecksum, len(state))
	}

	var c Config
	c.LearningRate = r.f64()
	c.BatchSize = r.int()
	c.L2 = r.f64()
	c.Epochs = r.int()
	c.Iterations = r.int()
	c.Decay = r.f64()
	c.DecayEvery = r.int()
	c.Tolerance = r.f64()
	c.Seed = r.u64()
	c.Init = Init(r.int())
	c.InitStd = r.f64()
	c.MyDigitsRate = r.f64()
	c.L2Bias, c.PinFirst = flags&2 != 0, flags&4 != 0
	rate, pos := r.f64(), r.int()
	step, epoch, seen, stop := r.int(), r.int(), r.int(), Stop(r.int())
	epochSum, prevEpoch := r.f64(), r.f64()
	pcg := r.next(pcgBytes)

	// The numbers are as written; now they must make sense and fit t.
	switch {
	case c.Validate(m) != nil:
		return fmt.Errorf("%w: %v", ErrState, c.Validate(m))
	case c.BatchSize < 1 || pos < 0 || pos >= m || step < 0 || epoch < 0 || seen < 0 || stop < Running || stop > Diverged:
		return fmt.Errorf("%w: batch %d, position %d, step %d, epoch %d, seen %d, stop %d", ErrState, c.BatchSize, pos, step, epoch, seen, stop)
	case math.IsNaN(rate) || rate < 0 || math.IsInf(rate, 0):
		return fmt.Errorf("%w: α %v", ErrState, rate)
	case d != t.model.D || m != len(t.order):
		return fmt.Errorf("%w: %d features and %d examples, this run %d and %d", ErrStateMismatch, d, m, t.model.D, len(t.order))
	}
	if err := sameShape(c, t.cfg); err != nil {
		return err
	}
	src := new(rand.PCG)
	if err := src.UnmarshalBinary(pcg); err != nil {
		return fmt.Errorf("%w: shuffle: %v", ErrState, err)
	}
	order := make([]int32, m)
	if err := r.perm(order); err != nil {
		return err
	}
	model, saved := softmax.NewClasses[float32](d, k), softmax.NewClasses[float32](d, k)
	for _, s := range [][]float32{model.W, model.B, saved.W, saved.B} {
		for i := range s {
			s[i] = math.Float32frombits(r.u32())
		}
	}
	var e myDigits
	if flags&1 != 0 {
		n, epos := int(r.u32()), int(r.u32())
		if t.myDigits.x == nil || n != t.myDigits.x.Len() {
			have := 0
			if t.myDigits.x != nil {
				have = t.myDigits.x.Len()
			}
			return fmt.Errorf("%w: %d of my digits, this run %d", ErrStateMismatch, n, have)
		}
		if epos < 0 || epos > n {
			return fmt.Errorf("%w: position %d in %d of my digits", ErrState, epos, n)
		}
		e = t.myDigits
		e.src = new(rand.PCG)
		if err := e.src.UnmarshalBinary(r.next(pcgBytes)); err != nil {
			return fmt.Errorf("%w: my digits: %v", ErrState, err)
		}
		e.rng, e.order, e.pos = rand.New(e.src), make([]int32, n), epos
		if err := r.perm(e.order); err != nil {
			return err
		}
	} else if t.myDigits.x != nil {
		return fmt.Errorf("%w: no digits of mine, this run %d", ErrStateMismatch, t.myDigits.x.Len())
	}

	t.cfg.LearningRate, t.cfg.L2, t.cfg.MyDigitsRate = c.LearningRate, c.L2, c.MyDigitsRate
	t.obj.Lambda = c.L2
	t.src, t.rng = src, rand.New(src)
	t.order = order
	t.model.CopyFrom(model)
	t.saved.CopyFrom(saved)
	t.rate, t.pos, t.step, t.epoch, t.seen, t.stop = rate, pos, step, epoch, int64(seen), stop
	t.epochSum, t.prevEpoch = epochSum, prevEpoch
	if e.x != nil {
		t.myDigits = e
	}
	t.setMyDigitsK()
	return nil
}

// sameShape returns an ErrStateMismatch naming the first option a run
// cannot change in which a and b differ (numbers bit for bit, shown as
// their bits).
func sameShape(a, b Config) error {
	type opt struct {
		name     string
		got, run any
	}
	for _, o := range []opt{
		{"batch size", a.BatchSize, b.BatchSize},
		{"epochs", a.Epochs, b.Epochs},
		{"iterations", a.Iterations, b.Iterations},
		{"decay", math.Float64bits(a.Decay), math.Float64bits(b.Decay)},
		{"decay every", a.DecayEvery, b.DecayEvery},
		{"tolerance", math.Float64bits(a.Tolerance), math.Float64bits(b.Tolerance)},
		{"seed", a.Seed, b.Seed},
		{"initialisation", a.Init, b.Init},
		{"initial standard deviation", math.Float64bits(a.InitStd), math.Float64bits(b.InitStd)},
		{"L2 on the bias", a.L2Bias, b.L2Bias},
		{"pinned class 0", a.PinFirst, b.PinFirst},
	} {
		if o.got != o.run {
			return fmt.Errorf("%w: %s %v, this run %v", ErrStateMismatch, o.name, o.got, o.run)
		}
	}
	return nil
}

// reader reads a state's fields in order; the caller has checked the
// length.
type reader struct {
	b []byte
	i int
}

func (r *reader) next(n int) []byte {
	s := r.b[r.i : r.i+n]
	r.i += n
	return s
}
func (r *reader) u16() uint16  { return binary.LittleEndian.Uint16(r.next(2)) }
func (r *reader) u32() uint32  { return binary.LittleEndian.Uint32(r.next(4)) }
func (r *reader) u64() uint64  { return binary.LittleEndian.Uint64(r.next(8)) }
func (r *reader) f64() float64 { return math.Float64frombits(r.u64()) }

// int reads a uint64 as an int, or -1 if it does not fit one.
func (r *reader) int() int {
	v := r.u64()
	if v > math.MaxInt {
		return -1
	}
	return int(v)
}

// perm reads len(dst) indices that must be a permutation of 0..len(dst)-1.
func (r *reader) perm(dst []int32) error {
	seen := make([]bool, len(dst))
	for k := range dst {
		i := r.u32()
		if int64(i) >= int64(len(dst)) || seen[i] {
			return fmt.Errorf("%w: order entry %d is %d, not a new index below %d", ErrState, k, i, len(dst))
		}
		seen[i] = true
		dst[k] = int32(i)
	}
	return nil
}
