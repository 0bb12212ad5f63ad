package metrics

import "softmaxdemo/core/softmax"

// Cell returns the positions in x of the examples with label y that m
// predicts as p, the first max of them at most (max < 0: all), and how
// many there are in all: the count in Evaluate's Confusion[y][p], since it
// predicts exactly as Evaluate does (the largest logit, the lower class on
// ties). It allocates only the result.
func Cell[F softmax.Float](m *softmax.Model[F], x *softmax.Examples[F], y, p, max int) (at []int, count int) {
	var z [softmax.K]F
	for i := range x.Len() {
		if int(x.Labels[i]) != y {
			continue
		}
		index, value := x.Example(i)
		softmax.Logits(&z, m.W, m.B, index, value)
		if softmax.Argmax(&z) != p {
			continue
		}
		if max < 0 || len(at) < max {
			at = append(at, i)
		}
		count++
	}
	return at, count
}
