package softmax_test

import (
	"fmt"

	"softmaxdemo/core/softmax"
)

// A model with one feature that votes for class 7.
func ExampleModel_Predict() {
	m := softmax.New[float64](1)
	m.W[0*softmax.K+7] = 3 // θ_7 = (3); h_7 = e³/(e³+9) ≈ 0.6906
	class, p := m.Predict([]uint16{0}, []float64{1})
	fmt.Printf("class %d with probability %.3f\n", class, p[7])
	// Output: class 7 with probability 0.691
}
