package metrics

import (
	"math/rand/v2"
	"testing"

	"softmaxdemo/core/softmax"
)

// cellModel returns a random model on 20 features and 500 random examples,
// so that most cells of the confusion matrix are filled.
func cellModel() (*softmax.Model[float32], *softmax.Examples[float32]) {
	const d = 20
	r := rand.New(rand.NewPCG(1, 2))
	m := softmax.New[float32](d)
	m.InitNormal(r, 1)
	x := &softmax.Examples[float32]{Start: []int32{0}}
	for range 500 {
		for j := range d {
			if r.IntN(3) == 0 {
				x.Index = append(x.Index, uint16(j))
				x.Value = append(x.Value, float32(r.Float64()))
			}
		}
		x.Start = append(x.Start, int32(len(x.Index)))
		x.Labels = append(x.Labels, uint8(r.IntN(softmax.K)))
	}
	return m, x
}

// TestCellListsTheConfusionCount: for every pair of digits, Cell finds as
// many examples as Evaluate counts, each with that label and prediction,
// and caps the list.
func TestCellListsTheConfusionCount(t *testing.T) {
	m, x := cellModel()
	res := Evaluate(m, x)
	for y := range softmax.K {
		for p := range softmax.K {
			at, n := Cell(m, x, y, p, -1)
			if n != res.Confusion[y][p] || len(at) != n {
				t.Fatalf("true %d predicted %d: %d listed, count %d; Evaluate counts %d", y, p, len(at), n, res.Confusion[y][p])
			}
			for _, i := range at {
				c, _ := m.Predict(x.Example(i))
				if int(x.Labels[i]) != y || c != p {
					t.Errorf("example %d has label %d and prediction %d, want %d and %d", i, x.Labels[i], c, y, p)
				}
			}
			if capped, n2 := Cell(m, x, y, p, 2); len(capped) != min(2, n) || n2 != n {
				t.Errorf("true %d predicted %d with a cap of 2: %d listed, count %d", y, p, len(capped), n2)
			}
		}
	}
}
