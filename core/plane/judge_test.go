package plane

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"softmaxdemo/core/softmax"
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

// TestDescendIsTheScenesGradientDescent: in the exact case, the path a
// Judge descends from a line is the Scene's gradient-descent path from
// the start at that line, step for step, and ends where it ends.
func TestDescendIsTheScenesGradientDescent(t *testing.T) {
	d, err := Generate("overlap", 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, start := range [][2]float64{{-2, 2}, {3, -1.5}} {
		s := Defaults()
		s.Start = start
		sc, err := Build(d, s)
		if err != nil {
			t.Fatal(err)
		}
		j, err := NewJudge(d, s)
		if err != nil {
			t.Fatal(err)
		}
		m := softmax.NewClasses[float32](2, 2)
		m.W[1], m.W[3] = float32(start[0]), float32(start[1])
		p, err := j.Descend(m)
		if err != nil {
			t.Fatal(err)
		}
		gd := sc.Paths[GD]
		if p.Steps != gd.Steps || p.Stop != gd.Stop || !slices.Equal(p.Loss, gd.Loss) || !slices.Equal(p.Points[len(p.Points)-1][:], gd.Points[len(gd.Points)-1][:]) {
			t.Errorf("from %v: %d steps (%v) to J = %v, the Scene's %d (%v) to %v", start, p.Steps, p.Stop, p.Loss[len(p.Loss)-1], gd.Steps, gd.Stop, gd.Loss[len(gd.Loss)-1])
		}
		if p.Loss[0] != j.Loss(m) && math.Abs(p.Loss[0]-j.Loss(m)) > 1e-12 {
			t.Errorf("the path starts at J = %v, the line's is %v", p.Loss[0], j.Loss(m))
		}
	}
}
