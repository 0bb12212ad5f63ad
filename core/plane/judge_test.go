package plane

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestJudgeGivesTheLabsJ: for θs set by hand under each pin and bias, a
// Judge takes the θ as the Lab's SetTheta does (the same numbers, pin and
// bias applied) and gives the J the Lab's Status shows, to the bit; what
// SetTheta refuses, Take refuses.
func TestJudgeGivesTheLabsJ(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{2, 3} {
		d, err := Generate("overlap", k, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, pin := range []bool{false, true} {
			for _, bias := range []bool{false, true} {
				s := Defaults()
				s.Pin, s.Bias, s.Lambda = pin, bias, 0.05
				lab, err := NewLab(d, s)
				if err != nil {
					t.Fatal(err)
				}
				j, err := NewJudge(d, s)
				if err != nil {
					t.Fatal(err)
				}
				for range 5 {
					w, b := make([]float32, 2*k), make([]float32, k)
					w64, b64 := make([]float64, 2*k), make([]float64, k)
					for i := range w {
						w[i] = float32(r.NormFloat64() * 3)
						w64[i] = float64(w[i])
					}
					for i := range b {
						b[i] = float32(r.NormFloat64())
						b64[i] = float64(b[i])
					}
					if err := lab.SetTheta(w64, b64); err != nil {
						t.Fatal(err)
					}
					m, err := j.Take(w, b)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(m.W, lab.Model().W) || !slices.Equal(m.B, lab.Model().B) {
						t.Errorf("K=%d pin %v bias %v: Take gives %v %v, the Lab %v %v", k, pin, bias, m.W, m.B, lab.Model().W, lab.Model().B)
					}
					if got, want := j.Loss(m), lab.Status().Loss; got != want {
						t.Errorf("K=%d pin %v bias %v: J = %v, the Lab's %v", k, pin, bias, got, want)
					}
				}
				w, b := make([]float32, 2*k), make([]float32, k)
				w[1] = 101
				var e *InputError
				if _, err := j.Take(w, b); !errors.As(err, &e) || e.Problem != BadTheta {
					t.Errorf("θ of 101 taken: %v", err)
				}
				if _, err := j.Take(w[:1], b); err == nil {
					t.Error("one weight taken")
				}
			}
		}
	}
	if _, err := NewJudge(Data{K: 2}, Defaults()); err == nil {
		t.Error("a Judge of no points")
	}
}
