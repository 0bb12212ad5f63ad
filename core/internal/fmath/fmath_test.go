package fmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns how many representable float64 values lie between a and b.
func ulps(a, b float64) uint64 {
	ia, ib := int64(math.Float64bits(a)), int64(math.Float64bits(b))
	if ia > ib {
		return uint64(ia - ib)
	}
	return uint64(ib - ia)
}

func TestExpMatchesMath(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		x := (r.Float64()*2 - 1) * 700
		if d := ulps(Exp(x), math.Exp(x)); d > 2 {
			t.Fatalf("Exp(%v) = %v, math.Exp = %v: %d ulps apart", x, Exp(x), math.Exp(x), d)
		}
	}
	for range 100000 {
		x := (r.Float64()*2 - 1) * 20
		if d := ulps(Exp(x), math.Exp(x)); d > 2 {
			t.Fatalf("Exp(%v) = %v, math.Exp = %v: %d ulps apart", x, Exp(x), math.Exp(x), d)
		}
	}
}

func TestExpSpecialValues(t *testing.T) {
	tests := []struct {
		name string
		x    float64
		want float64
	}{
		{"zero gives one", 0, 1},
		{"one gives e", 1, math.E},
		{"large overflows to infinity", 1000, math.Inf(1)},
		{"positive infinity gives infinity", math.Inf(1), math.Inf(1)},
		{"negative infinity gives zero", math.Inf(-1), 0},
		{"very negative underflows to zero", -800, 0},
		{"edge of the normal range stays close", -708, math.Exp(-708)},
		// math.Exp's amd64 assembly overflows early; the value is e**709.7.
		{"edge of overflow stays finite", 709.7, 1.6549840276802644e+308},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Exp(tt.x)
			if got != tt.want && ulps(got, tt.want) > 1 {
				t.Errorf("Exp(%v) = %v, want %v", tt.x, got, tt.want)
			}
		})
	}
	if !math.IsNaN(Exp(math.NaN())) {
		t.Error("Exp(NaN) is not NaN")
	}
}

func TestLogMatchesMath(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		x := math.Exp((r.Float64()*2 - 1) * 700)
		if d := ulps(Log(x), math.Log(x)); d > 1 {
			t.Fatalf("Log(%v) = %v, math.Log = %v: %d ulps apart", x, Log(x), math.Log(x), d)
		}
	}
	for range 100000 {
		x := 1 + r.Float64()*20
		if d := ulps(Log(x), math.Log(x)); d > 1 {
			t.Fatalf("Log(%v) = %v, math.Log = %v: %d ulps apart", x, Log(x), math.Log(x), d)
		}
	}
}

func TestLogSpecialValues(t *testing.T) {
	if Log(1) != 0 {
		t.Errorf("Log(1) = %v, want 0", Log(1))
	}
	if !math.IsInf(Log(0), -1) {
		t.Errorf("Log(0) = %v, want -Inf", Log(0))
	}
	if !math.IsNaN(Log(-1)) || !math.IsNaN(Log(math.NaN())) {
		t.Error("Log of a negative number or NaN is not NaN")
	}
	if !math.IsInf(Log(math.Inf(1)), 1) {
		t.Error("Log(+Inf) is not +Inf")
	}
	// The smallest subnormal is 2**-1074. (math.Log's amd64 assembly gets
	// this one wrong, which is one more reason not to use it.)
	if d := ulps(Log(math.SmallestNonzeroFloat64), -1074*math.Ln2); d > 1 {
		t.Errorf("Log(2**-1074) = %v, want %v", Log(math.SmallestNonzeroFloat64), -1074*math.Ln2)
	}
}

func BenchmarkExp(b *testing.B) {
	b.ReportAllocs()
	x, s := -3.0, 0.0
	for b.Loop() {
		s += Exp(x)
		x += 1e-9
	}
	if s == 0 {
		b.Fatal("no work")
	}
}
