package softmax

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// randomFew returns n examples of d features (about half present) with
// labels below k, and a model of k classes with N(0, 1) parameters.
func randomFew(r *rand.Rand, n, d, k int) (*Examples[float64], *Model[float64]) {
	x := &Examples[float64]{Start: []int32{0}}
	for range n {
		for j := range d {
			if r.IntN(2) == 0 {
				x.Index = append(x.Index, uint16(j))
				x.Value = append(x.Value, 2*r.Float64()-1)
			}
		}
		x.Start = append(x.Start, int32(len(x.Index)))
		x.Labels = append(x.Labels, uint8(r.IntN(k)))
	}
	m := NewClasses[float64](d, k)
	for i := range m.W {
		m.W[i] = r.NormFloat64()
	}
	for i := range m.B {
		m.B[i] = r.NormFloat64()
	}
	return x, m
}

// naiveLossK is J written from the definition for a model of k classes,
// dense, in float64: the reference for fewer classes than K.
func naiveLossK(m *Model[float64], x *Examples[float64], o Objective) float64 {
	k := m.Classes()
	total := 0.0
	for i := range x.Len() {
		idx, val := x.Example(i)
		z := make([]float64, k)
		for c := range k {
			if !o.NoBias {
				z[c] = m.B[c]
			}
			for t, j := range idx {
				z[c] += m.W[int(j)*k+c] * val[t]
			}
		}
		mx := math.Inf(-1)
		for _, v := range z {
			mx = math.Max(mx, v)
		}
		s := 0.0
		for _, v := range z {
			s += math.Exp(v - mx)
		}
		total += mx + math.Log(s) - z[x.Labels[i]]
	}
	return total/float64(x.Len()) + naivePenalty(m, o)
}

func TestFewerClassesMatchFiniteDifferences(t *testing.T) {
	const d, n, h = 3, 11, 1e-5
	objectives := []Objective{
		{},
		{Lambda: 0.2},
		{Lambda: 0.2, L2Bias: true},
		{PinFirst: true},
		{NoBias: true},
		{PinFirst: true, NoBias: true, Lambda: 0.1},
	}
	for _, k := range []int{2, 3, 5} {
		for _, o := range objectives {
			t.Run(fmt.Sprintf("k=%d %+v", k, o), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(k), 9))
				x, m := randomFew(r, n, d, k)
				if err := x.CheckClasses(d, k); err != nil {
					t.Fatal(err)
				}
				if o.NoBias {
					clear(m.B)
				}
				if o.PinFirst {
					for j := range d {
						m.W[j*k] = 0
					}
					m.B[0] = 0
				}
				batch := iota32(n)
				gw, gb := make([]float64, d*k), make([]float64, k)
				loss := Gradient(gw, gb, m, x, batch, o)
				if want := naiveLossK(m, x, o); math.Abs(loss-want) > 1e-12 {
					t.Fatalf("loss %v, the reference %v", loss, want)
				}
				objective := func() float64 { return naiveLossK(m, x, o) }
				for j := range d {
					for c := range k {
						checkPartial(t, fmt.Sprintf("θ[%d,%d]", c, j), &m.W[j*k+c], gw[j*k+c], o.PinFirst && c == 0, h, objective)
					}
				}
				for c := range k {
					checkPartial(t, fmt.Sprintf("b[%d]", c), &m.B[c], gb[c], o.NoBias || (o.PinFirst && c == 0), h, objective)
				}
			})
		}
	}
}

// TestFewerClassesAreNeverChosen checks that a model of k classes fills
// the K-array of logits with −∞ from k on, so softmax gives those classes
// exactly 0 and the k probabilities are those of a k-class softmax.
func TestFewerClassesAreNeverChosen(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	x, m := randomFew(r, 20, 2, 3)
	for i := range x.Len() {
		idx, val := x.Example(i)
		c, p := m.Predict(idx, val)
		if c >= 3 {
			t.Fatalf("example %d: class %d of a 3-class model", i, c)
		}
		sum := 0.0
		for cl, pc := range p {
			if cl >= 3 && pc != 0 {
				t.Fatalf("example %d: p[%d] = %v, want 0", i, cl, pc)
			}
			sum += pc
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("example %d: probabilities sum to %v", i, sum)
		}
	}
}

func TestCheckClassesRefusesLabelsAndValues(t *testing.T) {
	x := &Examples[float64]{Labels: []uint8{2}, Start: []int32{0, 2}, Index: []uint16{0, 1}, Value: []float64{1, 2}}
	if err := x.CheckClasses(2, 2); err == nil {
		t.Error("label 2 of a 2-class model was accepted")
	}
	if err := x.CheckClasses(2, 3); err != nil {
		t.Errorf("a valid example was refused: %v", err)
	}
	x.Value[1] = math.NaN()
	if err := x.CheckClasses(2, 3); err == nil {
		t.Error("a NaN feature was accepted")
	}
}
