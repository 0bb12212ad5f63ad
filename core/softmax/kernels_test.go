package softmax

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomExamples returns n examples with d features, each with about half
// of its features non-zero, values in [0, 1), and random labels.
func randomExamples[F Float](r *rand.Rand, n, d int) *Examples[F] {
	x := &Examples[F]{Start: []int32{0}}
	for range n {
		for j := range d {
			if r.IntN(2) == 0 {
				x.Index = append(x.Index, uint16(j))
				x.Value = append(x.Value, F(r.Float64()))
			}
		}
		x.Start = append(x.Start, int32(len(x.Index)))
		x.Labels = append(x.Labels, uint8(r.IntN(K)))
	}
	return x
}

// randomModel returns a model with weights and biases drawn from N(0, std²).
func randomModel[F Float](r *rand.Rand, d int, std float64) *Model[F] {
	m := New[F](d)
	for i := range m.W {
		m.W[i] = F(r.NormFloat64() * std)
	}
	for i := range m.B {
		m.B[i] = F(r.NormFloat64() * std)
	}
	return m
}

func iota32(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}

// naiveLoss is the reference: dense θ in the notes' K×d layout, float64,
// softmax written directly from the definition (with max subtraction).
func naiveLoss(m *Model[float64], x *Examples[float64], batch []int32, o Objective) float64 {
	dense := make([]float64, m.D)
	total := 0.0
	for _, i := range batch {
		clear(dense)
		idx, val := x.Example(int(i))
		for t, j := range idx {
			dense[j] = val[t]
		}
		var z [K]float64
		for c := range K {
			z[c] = m.B[c]
			for j := range m.D {
				z[c] += m.W[j*K+c] * dense[j]
			}
		}
		mx := z[0]
		for _, v := range z {
			mx = math.Max(mx, v)
		}
		s := 0.0
		for _, v := range z {
			s += math.Exp(v - mx)
		}
		total += -(z[x.Labels[i]] - mx - math.Log(s))
	}
	return total/float64(len(batch)) + naivePenalty(m, o)
}

// checkPartial checks analytic, the partial derivative of loss with
// respect to the parameter *p, against the central difference
// (loss(p+h) − loss(p−h)) / 2h to a relative error of 1e-6; a fixed
// parameter's must be exactly 0. It leaves *p as it was.
func checkPartial(t *testing.T, name string, p *float64, analytic float64, fixed bool, h float64, loss func() float64) {
	t.Helper()
	if fixed {
		if analytic != 0 {
			t.Errorf("%s: a fixed parameter has gradient %v", name, analytic)
		}
		return
	}
	old := *p
	*p = old + h
	up := loss()
	*p = old - h
	down := loss()
	*p = old
	numeric := (up - down) / (2 * h)
	if rel := math.Abs(analytic-numeric) / math.Max(math.Abs(analytic)+math.Abs(numeric), 1e-12); rel > 1e-6 {
		t.Errorf("%s: analytic %.10g, numeric %.10g, relative error %.2g", name, analytic, numeric, rel)
	}
}

// naivePenalty is J's penalty from the definition: λ/2 times the sum of
// the squared weights, and of the squared biases under L2Bias.
func naivePenalty(m *Model[float64], o Objective) float64 {
	reg := 0.0
	for _, w := range m.W {
		reg += w * w
	}
	if o.L2Bias {
		for _, b := range m.B {
			reg += b * b
		}
	}
	return o.Lambda / 2 * reg
}

func TestLossKnownAnswers(t *testing.T) {
	// One feature, x = 1. Every number below was worked out by hand.
	x := &Examples[float64]{Labels: []uint8{1}, Start: []int32{0, 1}, Index: []uint16{0}, Value: []float64{1}}
	tests := []struct {
		name   string
		w1     float64 // weight of class 1; all others are zero
		o      Objective
		want   float64
		wantP1 float64
	}{
		// All logits 0: h is uniform, 1/10 each; loss log 10.
		{"zero model gives log 10", 0, Objective{}, 2.302585092994046, 0.1},
		// z_1 = ln 2, others 0: h_1 = 2/(9+2) = 2/11; loss log(11/2).
		{"one logit ln 2 gives log 5.5", math.Ln2, Objective{}, 1.7047480922384253, 2.0 / 11},
		// Same, with λ = 0.5: penalty 0.25·(ln 2)² = 0.1201132534795503.
		{"L2 adds lambda over two times theta squared", math.Ln2, Objective{Lambda: 0.5}, 1.7047480922384253 + 0.1201132534795503, 2.0 / 11},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New[float64](1)
			m.W[1] = tt.w1
			if got := Loss(m, x, []int32{0}, tt.o); math.Abs(got-tt.want) > 1e-15 {
				t.Errorf("Loss = %.17g, want %.17g", got, tt.want)
			}
			_, p := m.Predict(x.Example(0))
			if math.Abs(p[1]-tt.wantP1) > 1e-16 {
				t.Errorf("h_1 = %.17g, want %.17g", p[1], tt.wantP1)
			}
		})
	}
}

func TestSoftmaxProperties(t *testing.T) {
	tests := []struct {
		name string
		z    [K]float64
	}{
		{"zeros", [K]float64{}},
		{"large positive logits", [K]float64{1000, 999, 998, 0, -1, 5, 1000, 3, 2, 1}},
		{"large negative logits", [K]float64{-1000, -999, -1000, -1000, -1000, -1000, -1000, -1000, -1000, -998}},
		{"mixed extremes", [K]float64{1000, -1000, 1000, -1000, 0, 0, 0, 0, 0, 0}},
		{"ordinary values", [K]float64{0.1, -0.3, 2.5, 1, 0, 0.7, -2, 3, 0.2, -0.1}},
	}
	for _, tt := range tests {
		t.Run(tt.name+" give finite probabilities summing to one", func(t *testing.T) {
			p := tt.z
			lse := Softmax(&p)
			if math.IsNaN(lse) || math.IsInf(lse, 0) {
				t.Fatalf("logsumexp = %v", lse)
			}
			s := 0.0
			for _, v := range p {
				if math.IsNaN(v) || v < 0 || v > 1 {
					t.Fatalf("probability %v", v)
				}
				s += v
			}
			if math.Abs(s-1) > 1e-15 {
				t.Errorf("sum = %.17g", s)
			}
		})
		t.Run(tt.name+" are unchanged by adding a constant", func(t *testing.T) {
			p, q := tt.z, tt.z
			for c := range q {
				q[c] += 3.25
			}
			Softmax(&p)
			Softmax(&q)
			for c := range p {
				if math.Abs(p[c]-q[c]) > 1e-12 {
					t.Errorf("h_%d = %v, after the shift %v", c, p[c], q[c])
				}
			}
		})
	}
	t.Run("float32 logits of plus and minus 1000 stay finite", func(t *testing.T) {
		p := [K]float32{1000, -1000, 0, 0, 0, 0, 0, 0, 0, 0}
		lse := Softmax(&p)
		if p[0] != 1 || p[1] != 0 || lse != 1000 {
			t.Errorf("p = %v, logsumexp = %v", p, lse)
		}
	})
}

func TestGradientMatchesFiniteDifferences(t *testing.T) {
	const d, n, h = 5, 7, 1e-5
	objectives := []struct {
		name string
		o    Objective
	}{
		{"without L2", Objective{}},
		{"with L2", Objective{Lambda: 0.3}},
		{"with L2 on the bias too", Objective{Lambda: 0.3, L2Bias: true}},
		{"with class 0 pinned", Objective{PinFirst: true}},
		{"with L2 and class 0 pinned", Objective{Lambda: 0.3, PinFirst: true}},
	}
	for _, tt := range objectives {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			x := randomExamples[float64](r, n, d)
			m := randomModel[float64](r, d, 1)
			if tt.o.PinFirst {
				for j := range d {
					m.W[j*K] = 0
				}
				m.B[0] = 0
			}
			before := m.Clone()
			batch := iota32(n)
			gw, gb := make([]float64, d*K), make([]float64, K)
			loss := Gradient(gw, gb, m, x, batch, tt.o)
			if want := naiveLoss(m, x, batch, tt.o); math.Abs(loss-want) > 1e-12 {
				t.Errorf("Gradient returned loss %v, the reference %v", loss, want)
			}
			objective := func() float64 { return Loss(m, x, batch, tt.o) }
			for j := range d {
				for c := range K {
					checkPartial(t, "θ", &m.W[j*K+c], gw[j*K+c], tt.o.PinFirst && c == 0, h, objective)
				}
			}
			for c := range K {
				checkPartial(t, "b", &m.B[c], gb[c], tt.o.PinFirst && c == 0, h, objective)
			}
			for i := range m.W {
				if m.W[i] != before.W[i] {
					t.Fatal("the gradient check left the weights changed")
				}
			}
		})
	}
}

// TestGradFloat32MatchesReference compares the float32 kernel with the
// float64 instantiation of the same code and with the naive loss.
func TestGradFloat32MatchesReference(t *testing.T) {
	const d, n = 784, 50
	r := rand.New(rand.NewPCG(1, 2))
	x64 := randomExamples[float64](r, n, d)
	m64 := randomModel[float64](r, d, 0.05)
	x32 := &Examples[float32]{Labels: x64.Labels, Start: x64.Start, Index: x64.Index, Value: make([]float32, len(x64.Value))}
	for i, v := range x64.Value {
		x32.Value[i] = float32(v)
		x64.Value[i] = float64(float32(v))
	}
	m32 := New[float32](d)
	for i, w := range m64.W {
		m32.W[i] = float32(w)
		m64.W[i] = float64(float32(w))
	}
	for i, w := range m64.B {
		m32.B[i] = float32(w)
		m64.B[i] = float64(float32(w))
	}
	batch := iota32(n)
	g64, b64 := make([]float64, d*K), make([]float64, K)
	g32, b32 := make([]float32, d*K), make([]float32, K)
	l64 := Grad(g64, b64, m64.W, m64.B, x64, batch)
	l32 := Grad(g32, b32, m32.W, m32.B, x32, batch)
	if ref := naiveLoss(m64, x64, batch, Objective{}) * n; math.Abs(l64-ref) > 1e-9*ref {
		t.Errorf("float64 loss %v, naive %v", l64, ref)
	}
	if math.Abs(l32-l64) > 1e-4*l64 {
		t.Errorf("float32 loss %v, float64 %v", l32, l64)
	}
	worst := 0.0
	for i := range g64 {
		worst = math.Max(worst, math.Abs(float64(g32[i])-g64[i]))
	}
	for i := range b64 {
		worst = math.Max(worst, math.Abs(float64(b32[i])-b64[i]))
	}
	if worst > 1e-4 {
		t.Errorf("float32 and float64 gradients differ by up to %v", worst)
	}
}

// TestGradWritesOnlyItsRows puts the outputs in a larger array with NaN on
// both sides: a write past either end would change a NaN.
func TestGradWritesOnlyItsRows(t *testing.T) {
	const d, n, pad = 9, 5, 4
	r := rand.New(rand.NewPCG(1, 2))
	x := randomExamples[float32](r, n, d)
	// Make sure the first and last features are used.
	x.Index[0], x.Index[len(x.Index)-1] = 0, d-1
	m := randomModel[float32](r, d, 1)
	nan := float32(math.NaN())
	back := make([]float32, pad+d*K+pad+pad+K+pad)
	for i := range back {
		back[i] = nan
	}
	gw := back[pad : pad+d*K]
	gb := back[pad+d*K+2*pad : pad+d*K+2*pad+K]
	clear(gw)
	clear(gb)
	Grad(gw, gb, m.W, m.B, x, iota32(n))
	for i, v := range back {
		inside := (i >= pad && i < pad+d*K) || (i >= pad+d*K+2*pad && i < pad+d*K+2*pad+K)
		if inside == (v != v) {
			t.Fatalf("slot %d = %v (inside an output: %v)", i, v, inside)
		}
	}
}

func TestOneStepLowersTheLoss(t *testing.T) {
	const d, n = 784, 32
	r := rand.New(rand.NewPCG(1, 2))
	x := randomExamples[float32](r, n, d)
	m := randomModel[float32](r, d, 0.01)
	batch := iota32(n)
	o := Objective{Lambda: 1e-3}
	gw, gb := make([]float32, d*K), make([]float32, K)
	before := Gradient(gw, gb, m, x, batch, o)
	for i := range m.W {
		m.W[i] -= 0.01 * gw[i]
	}
	for c := range m.B {
		m.B[c] -= 0.01 * gb[c]
	}
	if after := Loss(m, x, batch, o); !(after < before) {
		t.Errorf("loss %v before the step, %v after", before, after)
	}
}

func TestGradAllocatesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := randomExamples[float32](r, 100, 784)
	m := randomModel[float32](r, 784, 0.01)
	gw, gb := make([]float32, 784*K), make([]float32, K)
	batch := iota32(100)
	if a := testing.AllocsPerRun(10, func() { Grad(gw, gb, m.W, m.B, x, batch) }); a != 0 {
		t.Errorf("Grad allocates %v times per batch", a)
	}
}

func TestPredict(t *testing.T) {
	m := New[float32](3)
	m.W[2*K+7] = 5 // feature 2 votes for class 7
	m.B[4] = 1     // class 4 wins when feature 2 is absent
	tests := []struct {
		name  string
		index []uint16
		value []float32
		want  int
	}{
		{"no features gives the largest bias", nil, nil, 4},
		{"a feature with a large weight wins", []uint16{2}, []float32{1}, 7},
		{"a weak feature does not overcome the bias", []uint16{2}, []float32{0.1}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := m.Predict(tt.index, tt.value); got != tt.want {
				t.Errorf("Predict = %d, want %d", got, tt.want)
			}
		})
	}
}

// BenchmarkGrad measures Grad on float32 MNIST-like batches, after
// checking it once against the float64 instantiation (the Go code, never a
// batch kernel) and the naive loss on the same values, so that a fast
// wrong kernel fails instead of winning.
func BenchmarkGrad(b *testing.B) {
	for _, n := range []int{1, 32, 100} {
		b.Run("batch="+itoa(n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			x := mnistLike(r, n)
			m := randomModel[float32](r, 784, 0.01)
			gw, gb := make([]float32, 784*K), make([]float32, K)
			batch := iota32(n)
			checkGrad32(b, m, x, batch)
			b.ReportAllocs()
			for b.Loop() {
				Grad(gw, gb, m.W, m.B, x, batch)
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "examples/s")
		})
	}
}

// checkGrad32 fails b unless the float32 Grad of m on x's batch gives the
// loss and gradient that the float64 Grad gives on the same values, within
// float32 rounding, and the loss that naiveLoss gives.
func checkGrad32(b *testing.B, m *Model[float32], x *Examples[float32], batch []int32) {
	b.Helper()
	widen := func(v []float32) []float64 {
		w := make([]float64, len(v))
		for i, f := range v {
			w[i] = float64(f)
		}
		return w
	}
	m64 := &Model[float64]{D: m.D, W: widen(m.W), B: widen(m.B)}
	x64 := &Examples[float64]{Labels: x.Labels, Start: x.Start, Index: x.Index, Value: widen(x.Value)}
	g32, b32 := make([]float32, len(m.W)), make([]float32, K)
	g64, b64 := make([]float64, len(m.W)), make([]float64, K)
	l32, l64 := Grad(g32, b32, m.W, m.B, x, batch), Grad(g64, b64, m64.W, m64.B, x64, batch)
	if ref := naiveLoss(m64, x64, batch, Objective{}) * float64(len(batch)); math.Abs(l64-ref) > 1e-9*ref || math.Abs(l32-l64) > 1e-4*l64 {
		b.Fatalf("loss %v in float32, %v in float64, naive %v", l32, l64, ref)
	}
	worst := 0.0
	for i := range g64 {
		worst = math.Max(worst, math.Abs(float64(g32[i])-g64[i]))
	}
	for i := range b64 {
		worst = math.Max(worst, math.Abs(float64(b32[i])-b64[i]))
	}
	if worst > 1e-4*float64(len(batch)) {
		b.Fatalf("float32 and float64 gradients differ by up to %v", worst)
	}
}

// mnistLike returns n examples of about 150 non-zero pixels of 784 each,
// in runs of 1 to 6 neighbouring pixels (pairs and singles, as strokes
// give them) with gaps of 1 to 4.
func mnistLike(r *rand.Rand, n int) *Examples[float32] {
	x := &Examples[float32]{Start: []int32{0}}
	for range n {
		start := r.IntN(784 - 300)
		for j := start; j < start+300; j += 1 + r.IntN(4) {
			for run := 1 + r.IntN(6); run > 0 && j < start+300; run-- {
				x.Index = append(x.Index, uint16(j))
				x.Value = append(x.Value, float32(r.Float64()))
				j++
			}
		}
		x.Start = append(x.Start, int32(len(x.Index)))
		x.Labels = append(x.Labels, uint8(r.IntN(K)))
	}
	return x
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
