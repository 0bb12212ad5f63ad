package metrics

import (
	"math"
	"testing"

	"softmaxdemo/core/softmax"
)

func TestEvaluateKnownAnswers(t *testing.T) {
	// Two features: feature 0 votes for class 3, feature 1 for class 5.
	m := softmax.New[float64](2)
	m.W[0*softmax.K+3] = 100
	m.W[1*softmax.K+5] = 100
	x := &softmax.Examples[float64]{
		Labels: []uint8{3, 5, 5, 0},
		Start:  []int32{0, 1, 2, 3, 3},
		Index:  []uint16{0, 1, 0},
		Value:  []float64{1, 1, 1},
	}
	r := Evaluate(m, x)
	if r.N != 4 || r.Correct != 3 {
		t.Fatalf("N %d, correct %d; want 4 and 3", r.N, r.Correct)
	}
	if r.Accuracy() != 0.75 {
		t.Errorf("accuracy %v, want 0.75", r.Accuracy())
	}
	// Example 3 has no features: all logits 0, predicted 0 (lowest on ties),
	// correct, with probability 1/10.
	want := [softmax.K][softmax.K]int{}
	want[3][3], want[5][5], want[5][3], want[0][0] = 1, 1, 1, 1
	if r.Confusion != want {
		t.Errorf("confusion %v, want %v", r.Confusion, want)
	}
	// log h: ≈0, ≈0, ≈-100 (class 5 gets e^0 against e^100), log(1/10).
	wantLL := (-100 - math.Log(10)) / 4
	if math.Abs(r.MeanLogLikelihood-wantLL) > 1e-9 {
		t.Errorf("mean log-likelihood %v, want %v", r.MeanLogLikelihood, wantLL)
	}
	if l := r.Likelihood(); l <= 0 || l > 1 || math.Abs(l-math.Exp(wantLL)) > 1e-12 {
		t.Errorf("likelihood %v, want %v", l, math.Exp(wantLL))
	}
	acc := r.ClassAccuracy()
	if acc[3] != 1 || acc[5] != 0.5 || acc[0] != 1 || !math.IsNaN(acc[1]) {
		t.Errorf("class accuracy %v", acc)
	}
	preds := Predictions(make([]uint8, 4), m, x)
	if string(preds) != string([]uint8{3, 5, 3, 0}) {
		t.Errorf("predictions %v", preds)
	}
}

func TestEvaluateEmpty(t *testing.T) {
	r := Evaluate(softmax.New[float32](3), &softmax.Examples[float32]{Start: []int32{0}})
	if r.Accuracy() != 0 || r.Likelihood() != 0 {
		t.Errorf("empty set gives accuracy %v, likelihood %v", r.Accuracy(), r.Likelihood())
	}
}
