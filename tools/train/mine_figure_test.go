package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/metrics"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// shifted returns the images of s at pos moved right by dx and down by dy
// pixels (what falls off the edge is lost): digits drawn off-centre, a
// stand-in for a class's own handwriting.
func shifted(s *dataset.Set, pos []int, dx, dy int) *dataset.Set {
	out := dataset.NewSet(len(pos), 150)
	src := make([]uint8, dataset.Pixels)
	dst := make([]uint8, dataset.Pixels)
	for _, i := range pos {
		s.Dense(src, i)
		clear(dst)
		for r := range dataset.Rows {
			for c := range dataset.Cols {
				if r+dy < dataset.Rows && c+dx < dataset.Cols {
					dst[(r+dy)*dataset.Cols+c+dx] = src[r*dataset.Cols+c]
				}
			}
		}
		out.Append(s.Labels[i], dst)
	}
	return out
}

// TestMineFigure prints the table of docs/modelfile.md: test accuracy, on
// MNIST and on off-centre digits, as "my digits" are mixed in at a few
// rates. It takes a few seconds; run it with
//
//	MINE_FIGURE=1 go test -run TestMineFigure -v ./tools/train/
func TestMineFigure(t *testing.T) {
	if os.Getenv("MINE_FIGURE") == "" {
		t.Skip("set MINE_FIGURE=1 to print the figure")
	}
	b, err := os.ReadFile(pack)
	if err != nil {
		t.Fatal(err)
	}
	p, err := dataset.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	// My digits: 5 of each class from the first half of the test set,
	// shifted 4 right and 3 down; the held-out set: the second half of the
	// test set, shifted the same way.
	var mine, held []int
	var per [dataset.Classes]int
	half := p.Test.Len() / 2
	for i, y := range p.Test.Labels {
		switch {
		case i < half && per[y] < 5:
			mine = append(mine, i)
			per[y]++
		case i >= half:
			held = append(held, i)
		}
	}
	x := softmax.FromSet[float32](p.Train)
	test := softmax.FromSet[float32](p.Test)
	my := softmax.FromSet[float32](shifted(p.Test, mine, 4, 3))
	heldX := softmax.FromSet[float32](shifted(p.Test, held, 4, 3))
	var out strings.Builder
	fmt.Fprintf(&out, "| my digits per batch of 100 | rate | MNIST test (%d) | my %d digits | held-out off-centre digits (%d) |\n| --- | --- | --- | --- | --- |\n",
		test.Len(), my.Len(), heldX.Len())
	for _, rate := range []float64{0, 0.01, 0.05, 0.1, 0.2, 0.5} {
		cfg := train.Defaults()
		cfg.ExtraRate = rate
		tr, err := train.New(x, dataset.Pixels, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.SetExtra(my); err != nil {
			t.Fatal(err)
		}
		k := 0
		for tr.Stopped() == train.Running {
			k = tr.Step().Extra
		}
		m := tr.Model()
		fmt.Fprintf(&out, "| %d | %g | %.2f%% | %d of %d | %.2f%% |\n", k, rate,
			100*metrics.Evaluate(m, test).Accuracy(), readsAsLabelled(m, my), my.Len(), 100*metrics.Evaluate(m, heldX).Accuracy())
	}
	t.Logf("5 epochs, B = 100, α 0.5, λ 1e-4, seed 1, on %d training images:\n%s", x.Len(), out.String())
}
