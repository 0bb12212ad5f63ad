package newton

import (
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// BenchmarkLambdaMax is the digits' λ_max for #alpha-max: the power
// iteration on the Hessian of J (λ = 1e-4) on the default pack's 10,000
// training images, at the model after one epoch of the page's default
// SGD, to a relative change of the Rayleigh quotient of 1e-6. Each
// product is one pass over the data, as one conjugate-gradient step of
// Newton's method is. It reports the products taken, λ_max and 2/λ_max,
// and the time of one product; before timing it checks λ_max against a
// second run from another start vector.
//
//	go test -run '^$' -bench LambdaMax -benchtime 3x ./core/newton/
func BenchmarkLambdaMax(b *testing.B) {
	p := datasettest.Default(b).Train
	x32 := softmax.FromSet[float32](p)
	tr, err := train.New(x32, dataset.Pixels, train.Config{LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: 1, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	for tr.Step().Stop == train.Running {
	}
	md := softmax.New[float64](dataset.Pixels)
	softmax.Convert(md, tr.Model())
	x := softmax.FromSet[float64](p)
	o := softmax.Objective{Lambda: 1e-4}
	s := PowerSettings{Tol: 1e-6}
	ref, err := LambdaMax(x, md, o, PowerSettings{Tol: 1e-6, Seed: 7})
	if err != nil {
		b.Fatal(err)
	}
	var st PowerStats
	b.ReportAllocs()
	for b.Loop() {
		if st, err = LambdaMax(x, md, o, s); err != nil {
			b.Fatal(err)
		}
	}
	if relErr(st.Lambda, ref.Lambda) > 1e-4 {
		b.Fatalf("λ_max %v from one start, %v from another", st.Lambda, ref.Lambda)
	}
	b.ReportMetric(float64(st.Iteration), "products")
	b.ReportMetric(st.Lambda, "λ_max")
	b.ReportMetric(st.AlphaMax(), "2/λ_max")
	b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N)/float64(st.Passes), "ms/pass")
}
