package main

import (
	"fmt"
	"io"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/metrics"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// figureRates are the shares of each batch given to my digits in the
// rows of the figure.
var figureRates = []float64{0, 0.01, 0.05, 0.1, 0.2, 0.5}

// runFigure prints the figure named by -figure. The only one is
// "mydigits", the table of docs/modelfile.md: test accuracy, on MNIST and
// on off-centre digits, as "my digits" are mixed into training at a few
// rates. It trains once per rate, with the training flags' settings (-lr,
// -batch, -l2, -epochs, -seed …; the page's defaults unless given), on the
// -data or -idx images; -deskew, -method, -my-digits, -load and -save do not
// apply.
func runFigure(o *options, out io.Writer) error {
	if o.figure != "mydigits" {
		return fmt.Errorf("unknown -figure %q (want \"mydigits\")", o.figure)
	}
	trainSet, testSet, err := load(o)
	if err != nil {
		return err
	}
	// My digits: 5 of each class from the first half of the test set,
	// shifted 4 right and 3 down, a stand-in for a class's own
	// handwriting; held out: the second half, shifted the same way.
	var mine, held []int
	var per [dataset.Classes]int
	half := testSet.Len() / 2
	for i, y := range testSet.Labels {
		switch {
		case i < half && per[y] < 5:
			mine = append(mine, i)
			per[y]++
		case i >= half:
			held = append(held, i)
		}
	}
	x := softmax.FromSet[float32](trainSet)
	test := softmax.FromSet[float32](testSet)
	my := softmax.FromSet[float32](shifted(testSet, mine, 4, 3))
	heldX := softmax.FromSet[float32](shifted(testSet, held, 4, 3))
	c := o.cfg
	fmt.Fprintf(out, "%d epochs, B = %d, α %g, λ %g, seed %d, on %d training images\n\n",
		c.Epochs, c.BatchSize, c.LearningRate, c.L2, c.Seed, x.Len())
	fmt.Fprintf(out, "| my digits per batch of %d | rate | MNIST test (%d) | my %d digits read right | held-out off-centre digits (%d) |\n| --- | --- | --- | --- | --- |\n",
		c.BatchSize, test.Len(), my.Len(), heldX.Len())
	for _, rate := range figureRates {
		c.MyDigitsRate = rate
		tr, err := train.New(x, dataset.Pixels, c)
		if err != nil {
			return err
		}
		if err := tr.SetMyDigits(my); err != nil {
			return err
		}
		k := 0
		for tr.Stopped() == train.Running {
			k = tr.Step().MyDigits
		}
		m := tr.Model()
		fmt.Fprintf(out, "| %d | %g | %.2f%% | %d of %d | %.2f%% |\n", k, rate,
			100*metrics.Evaluate(m, test).Accuracy(), metrics.Evaluate(m, my).Correct, my.Len(), 100*metrics.Evaluate(m, heldX).Accuracy())
	}
	return nil
}

// shifted returns the images of s at pos moved right by dx and down by dy
// pixels (what falls off the edge is lost).
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
