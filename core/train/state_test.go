package train

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"testing"

	"softmaxdemo/core/softmax"
)

// stateCases are runs of every kind a state must carry on: minibatches of
// 1 and 100, the full batch, step decay, L2 (the dense update) and none
// (the sparse one), normal initialisation, pinning, a tolerance, and my
// digits mixed in.
func stateCases() []struct {
	name     string
	cfg      Config
	myDigits bool
} {
	base := Config{LearningRate: 0.3, BatchSize: 10, Epochs: 4, Seed: 1, InitStd: 1}
	with := func(f func(*Config)) Config { c := base; f(&c); return c }
	return []struct {
		name     string
		cfg      Config
		myDigits bool
	}{
		{"B=1 sparse", with(func(c *Config) { c.BatchSize, c.Epochs = 1, 2 }), false},
		{"B=100 with L2 and decay", with(func(c *Config) { c.BatchSize, c.L2, c.Decay, c.DecayEvery = 100, 1e-3, 0.5, 1 }), false},
		{"full batch, normal start, bias L2, tolerance", with(func(c *Config) {
			c.BatchSize, c.Epochs, c.Iterations, c.Tolerance, c.L2, c.L2Bias, c.Init = 0, 0, 40, 1e-4, 1e-3, true, Normal
		}), false},
		{"B=7 pinned with my digits", with(func(c *Config) { c.BatchSize, c.PinFirst, c.MyDigitsRate = 7, true, 0.3 }), true},
		{"B=100 with my digits and decay", with(func(c *Config) { c.BatchSize, c.MyDigitsRate, c.Decay, c.DecayEvery = 100, 0.05, 0.7, 2 }), true},
	}
}

// newFor makes the trainer of cfg on x, with my digits if mine is not nil.
func newFor(t *testing.T, x, mine *softmax.Examples[float32], d int, cfg Config) *Trainer {
	t.Helper()
	tr, err := New(x, d, cfg)
	if err == nil && mine != nil {
		err = tr.SetMyDigits(mine)
	}
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestRestoreIsBitIdentical: a run stopped at random steps, its state
// written, a new trainer restored from it and run on, stopped again and
// so on, takes the same steps (the same Stats) and ends with the same
// weights, bit for bit, as the run never stopped. Many seeds, each kind
// of run; α and λ are changed mid-run once, as the page's sliders do.
func TestRestoreIsBitIdentical(t *testing.T) {
	const d = 40
	x := synthetic(rand.New(rand.NewPCG(1, 2)), 300, d)
	mine := synthetic(rand.New(rand.NewPCG(3, 4)), 13, d)
	for _, tc := range stateCases() {
		t.Run(tc.name, func(t *testing.T) {
			var my *softmax.Examples[float32]
			if tc.myDigits {
				my = mine
			}
			for seed := range uint64(12) {
				cfg := tc.cfg
				cfg.Seed = seed + 1
				change := int(seed*7) % 25 // the step after which α and λ change
				slide := func(tr *Trainer, step int) {
					if step == change {
						if err := tr.SetRate(cfg.LearningRate / 2); err != nil {
							t.Fatal(err)
						}
						if err := tr.SetL2(cfg.L2 * 2); err != nil {
							t.Fatal(err)
						}
					}
				}
				want := newFor(t, x, my, d, cfg)
				var wantStats []Stats
				for want.Stopped() == Running {
					slide(want, len(wantStats))
					wantStats = append(wantStats, want.Step())
				}
				r := rand.New(rand.NewPCG(seed, 9))
				tr := newFor(t, x, my, d, cfg)
				var got []Stats
				for tr.Stopped() == Running {
					if r.IntN(4) == 0 {
						state, err := tr.MarshalBinary()
						if err != nil {
							t.Fatal(err)
						}
						tr = newFor(t, x, my, d, cfg) // a new worker, the page's Config
						if err := tr.Restore(state); err != nil {
							t.Fatalf("seed %d, step %d: %v", seed, len(got), err)
						}
					}
					slide(tr, len(got))
					got = append(got, tr.Step())
				}
				if len(got) != len(wantStats) {
					t.Fatalf("seed %d: %d steps, uninterrupted %d", seed, len(got), len(wantStats))
				}
				for i := range got {
					if got[i] != wantStats[i] {
						t.Fatalf("seed %d: step %d is %+v, uninterrupted %+v", seed, i, got[i], wantStats[i])
					}
				}
				if !sameBits(tr.Model().W, want.Model().W) || !sameBits(tr.Model().B, want.Model().B) {
					t.Fatalf("seed %d: the restored run's weights differ from the uninterrupted run's", seed)
				}
			}
		})
	}
}

// validState returns a state of a run of cfg on x (with my digits if
// mine), after steps steps.
func validState(t testing.TB, x, mine *softmax.Examples[float32], d int, cfg Config, steps int) []byte {
	tr, err := New(x, d, cfg)
	if err == nil && mine != nil {
		err = tr.SetMyDigits(mine)
	}
	if err != nil {
		t.Fatal(err)
	}
	for range steps {
		tr.Step()
	}
	b, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// resealed returns b with its checksum made right again, so that a test
// reaches the check behind it.
func resealed(b []byte) []byte {
	b = bytes.Clone(b)
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
	return b
}

func TestRestoreRefusesBadStates(t *testing.T) {
	const d = 20
	x := synthetic(rand.New(rand.NewPCG(1, 2)), 50, d)
	mine := synthetic(rand.New(rand.NewPCG(3, 4)), 5, d)
	cfg := Config{LearningRate: 0.3, BatchSize: 5, Epochs: 3, Seed: 1, InitStd: 1, MyDigitsRate: 0.2}
	good := validState(t, x, mine, d, cfg, 13)
	plain := cfg
	plain.MyDigitsRate = 0
	goodPlain := validState(t, x, nil, d, plain, 13)
	set := func(b []byte, off int, v uint64, size int) []byte {
		b = bytes.Clone(b)
		switch size {
		case 2:
			binary.LittleEndian.PutUint16(b[off:], uint16(v))
		case 4:
			binary.LittleEndian.PutUint32(b[off:], uint32(v))
		default:
			binary.LittleEndian.PutUint64(b[off:], v)
		}
		return resealed(b)
	}
	orderAt := stateHeader
	for _, tt := range []struct {
		name  string
		state []byte
		cfg   Config
		mine  *softmax.Examples[float32]
		want  error
	}{
		{"empty returns ErrUnexpectedEOF", nil, cfg, mine, io.ErrUnexpectedEOF},
		{"a wrong magic returns ErrState", append([]byte("PACK"), good[4:]...), cfg, mine, ErrState},
		{"another version returns ErrStateVersion", set(good, 4, 2, 2), cfg, mine, ErrStateVersion},
		{"a flipped bit returns ErrStateChecksum", func() []byte { b := bytes.Clone(good); b[len(b)/2] ^= 4; return b }(), cfg, mine, ErrStateChecksum},
		{"unknown flags return ErrState", set(good, 6, 9, 2), cfg, mine, ErrState},
		{"zero features return ErrState", set(good, 8, 0, 4), cfg, mine, ErrState},
		{"too many examples return ErrState before allocating", set(good, 12, 1<<30, 4), cfg, mine, ErrState},
		{"a trailing byte returns ErrState", resealed(append(bytes.Clone(good), 0, 0, 0, 0, 0)), cfg, mine, ErrState},
		{"a position past the epoch returns ErrState", set(good, 16+8*13, 50, 8), cfg, mine, ErrState},
		{"a negative step returns ErrState", set(good, 128, 1<<63, 8), cfg, mine, ErrState},
		{"an unknown stop returns ErrState", set(good, 128+24, 7, 8), cfg, mine, ErrState},
		{"a batch size of 0 returns ErrState", set(good, 16+8, 0, 8), cfg, mine, ErrState},
		{"an order that repeats an index returns ErrState", set(good, orderAt, uint64(binary.LittleEndian.Uint32(good[orderAt+4:])), 4), cfg, mine, ErrState},
		{"an order index past m returns ErrState", set(good, orderAt, 50, 4), cfg, mine, ErrState},
		{"another seed returns ErrStateMismatch", good, func() Config { c := cfg; c.Seed = 2; return c }(), mine, ErrStateMismatch},
		{"another batch size returns ErrStateMismatch", good, func() Config { c := cfg; c.BatchSize = 10; return c }(), mine, ErrStateMismatch},
		{"other data return ErrStateMismatch", good, cfg, mine, ErrStateMismatch},
		{"without my digits returns ErrStateMismatch", good, cfg, nil, ErrStateMismatch},
		{"a state without my digits for a run with them returns ErrStateMismatch", goodPlain, cfg, mine, ErrStateMismatch},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := x
			if tt.name == "other data return ErrStateMismatch" {
				data = synthetic(rand.New(rand.NewPCG(1, 2)), 60, d)
			}
			tr := newFor(t, data, tt.mine, d, tt.cfg)
			before, _ := tr.MarshalBinary()
			err := tr.Restore(tt.state)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Restore: %v, want %v", err, tt.want)
			}
			if after, _ := tr.MarshalBinary(); !bytes.Equal(before, after) {
				t.Error("a refused state changed the trainer")
			}
		})
	}
}

// TestRestorePrefixes: every non-empty proper prefix of a state, with and
// without my digits, returns io.ErrUnexpectedEOF.
func TestRestorePrefixes(t *testing.T) {
	const d = 12
	x := synthetic(rand.New(rand.NewPCG(1, 2)), 30, d)
	mine := synthetic(rand.New(rand.NewPCG(3, 4)), 4, d)
	cfg := Config{LearningRate: 0.3, BatchSize: 4, Epochs: 2, Seed: 1, InitStd: 1, MyDigitsRate: 0.25}
	for _, my := range []*softmax.Examples[float32]{nil, mine} {
		good := validState(t, x, my, d, cfg, 5)
		tr := newFor(t, x, my, d, cfg)
		for n := 1; n < len(good); n++ {
			if err := tr.Restore(good[:n]); !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("a prefix of %d of %d bytes: %v, want io.ErrUnexpectedEOF", n, len(good), err)
			}
		}
		if err := tr.Restore(good); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzRestore: Restore never panics, and a state it accepts is written
// back by MarshalBinary as the same bytes.
func FuzzRestore(f *testing.F) {
	const d = 12
	x := synthetic(rand.New(rand.NewPCG(1, 2)), 30, d)
	mine := synthetic(rand.New(rand.NewPCG(3, 4)), 4, d)
	cfg := Config{LearningRate: 0.3, BatchSize: 4, Epochs: 2, Seed: 1, InitStd: 1, MyDigitsRate: 0.25}
	for _, steps := range []int{0, 3, 8, 15} {
		f.Add(validState(f, x, mine, d, cfg, steps))
	}
	f.Fuzz(func(t *testing.T, state []byte) {
		tr, err := New(x, d, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.SetMyDigits(mine); err != nil {
			t.Fatal(err)
		}
		if tr.Restore(state) != nil {
			return
		}
		again, err := tr.MarshalBinary()
		if err != nil || !bytes.Equal(again, state) {
			t.Fatalf("an accepted state is written back differently (%v)", err)
		}
		tr.Step() // and the run goes on
	})
}

// BenchmarkMarshalBinary: the cost of one state of a run on 10,000
// examples of 784 features, the page's default pack.
func BenchmarkMarshalBinary(b *testing.B) {
	x := synthetic(rand.New(rand.NewPCG(1, 2)), 10000, 784)
	tr, err := New(x, 784, Config{LearningRate: 0.3, BatchSize: 100, Epochs: 5, Seed: 1, InitStd: 1})
	if err != nil {
		b.Fatal(err)
	}
	tr.Step()
	state, _ := tr.MarshalBinary()
	b.SetBytes(int64(len(state)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.MarshalBinary(); err != nil {
			b.Fatal(err)
		}
	}
}
