package plane

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

// scenes returns scenes of every kind: the exact surface, a slice with a
// bias, separable data without a minimum, and a path that diverges.
func scenes(t testing.TB) []*Scene {
	t.Helper()
	var out []*Scene
	for _, c := range []struct {
		data string
		k    int
		set  func(*Settings)
	}{
		{"blobs", 2, func(*Settings) {}},
		{"overlap", 3, func(s *Settings) { s.Bias, s.Pin = true, false }},
		{"separable", 2, func(*Settings) {}},
		{"overlap", 2, func(s *Settings) { s.Rate = 40 }},
	} {
		d, err := Generate(c.data, c.k, 1)
		if err != nil {
			t.Fatal(err)
		}
		s := Defaults()
		c.set(&s)
		sc, err := Build(d, s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sc)
	}
	return out
}

// TestSceneBytesRoundTrip: a scene read back from its bytes is the same
// scene, every number to the bit (its bytes again are the same), NaN and
// ±Inf included.
func TestSceneBytesRoundTrip(t *testing.T) {
	all := scenes(t)
	odd := *all[0]
	odd.MinLoss, odd.MinGrad, odd.LambdaMax = math.NaN(), math.Inf(1), math.Inf(-1)
	odd.J = append([]float64{math.Copysign(0, -1), math.SmallestNonzeroFloat64}, odd.J[2:]...)
	all = append(all, &odd)
	for i, sc := range all {
		b, err := sc.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var back Scene
		if err := back.UnmarshalBinary(b); err != nil {
			t.Fatalf("scene %d: %v", i, err)
		}
		again, err := back.MarshalBinary()
		if err != nil || !bytes.Equal(again, b) {
			t.Errorf("scene %d: its bytes read back and written again differ (%v)", i, err)
		}
		if back.K != sc.K || back.Settings != sc.Settings || len(back.J) != len(sc.J) || back.Paths[2].Steps != sc.Paths[2].Steps {
			t.Errorf("scene %d read back: K %d, %+v", i, back.K, back.Settings)
		}
		if math.Float64bits(back.MinLoss) != math.Float64bits(sc.MinLoss) {
			t.Errorf("scene %d: J at the minimum %v, want %v", i, back.MinLoss, sc.MinLoss)
		}
	}
}

// TestSceneBytesRefused: bytes that are not a scene are refused with
// ErrSceneFormat, every proper prefix of a scene's bytes among them.
func TestSceneBytesRefused(t *testing.T) {
	b, err := scenes(t)[1].MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	set := func(off int, v ...byte) []byte {
		c := bytes.Clone(b)
		copy(c[off:], v)
		return c
	}
	k := len(sceneMagic) + 1
	// Centre's count: after K (4 bytes), the settings (50), the flags (4),
	// Min, MinLoss and MinGrad (32), MinIterations (4), λ_max, λ₂ and
	// 2/λ_max (24) and the window (32).
	centre := k + 4 + 50 + 4 + 32 + 4 + 24 + 32
	huge := binary.LittleEndian.AppendUint32(nil, math.MaxUint32)
	for _, c := range []struct {
		name string
		b    []byte
	}{
		{"nothing", nil},
		{"another magic", set(0, 'X')},
		{"another version", set(len(sceneMagic), sceneVersion+1)},
		{"K = 1", set(k, 1, 0, 0, 0)},
		{"K = 6", set(k, 6, 0, 0, 0)},
		{"a flag of 2", set(k+4, 2)},
		{"a count larger than the bytes", set(centre, huge...)},
		{"a byte too many", append(bytes.Clone(b), 0)},
	} {
		var sc Scene
		if err := sc.UnmarshalBinary(c.b); !errors.Is(err, ErrSceneFormat) {
			t.Errorf("%s: %v, want ErrSceneFormat", c.name, err)
		}
	}
	for n := range len(b) {
		var sc Scene
		if err := sc.UnmarshalBinary(b[:n]); !errors.Is(err, ErrSceneFormat) {
			t.Fatalf("the first %d of %d bytes: %v, want ErrSceneFormat", n, len(b), err)
		}
	}
}

// FuzzSceneBytes: any bytes are a scene or an ErrSceneFormat, never a
// panic; a scene read is written back to the same bytes.
func FuzzSceneBytes(f *testing.F) {
	for _, sc := range scenes(f) {
		b, err := sc.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var sc Scene
		if err := sc.UnmarshalBinary(b); err != nil {
			if !errors.Is(err, ErrSceneFormat) {
				t.Fatalf("an error that is not ErrSceneFormat: %v", err)
			}
			return
		}
		again, err := sc.MarshalBinary()
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("read and written back: %v, %d bytes for %d", err, len(again), len(b))
		}
	})
}
