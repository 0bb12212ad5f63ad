package newton

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// benchRun solves to the end b.N times and reports the iterations, CG
// steps, passes over the data and the time per iteration. Before the loop
// it checks once that the run converges and, if want is not 0, that J is
// within 1e-6 relative of want (scikit-learn's optimum), so that a fast
// wrong solver fails instead of winning.
func benchRun(b *testing.B, x *softmax.Examples[float64], d int, o softmax.Objective, set Settings, want float64) {
	b.Helper()
	s, err := New(x, d, o, set)
	if err != nil {
		b.Fatal(err)
	}
	all := runAll(s)
	last := all[len(all)-1]
	if last.Stop != Converged {
		b.Fatalf("does not converge: %s", s.Reason())
	}
	// Stopped by ‖∇J‖ ≤ 1e-5, J is within 1e-6 of the optimum; by the
	// relative rule (DefaultRelTol) within 1e-5 (measured: 2e-6).
	tol := 1e-6
	if last.GradNorm > set.GradTol {
		tol = 1e-5
	}
	if want != 0 && relErr(last.J, want)*2 > tol {
		b.Fatalf("J %.12f, scikit-learn's optimum %.12f", last.J, want)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, _ := New(x, d, o, set)
		runAll(s)
	}
	b.ReportMetric(float64(last.Iteration), "iterations")
	b.ReportMetric(float64(last.TotalCG), "CG-steps")
	b.ReportMetric(float64(last.Passes), "passes")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/float64(last.Iteration), "s/iteration")
	b.ReportMetric(last.J, "J")
}

// BenchmarkNewton: the default pack (10,000 images), λ = 1e-4, to
// ‖∇J‖ ≤ 1e-5 or ‖∇J‖ ≤ 3e-5·‖∇J₀‖ (the default stopping rule; the
// -absolute variant to 1e-5 alone): truncated Newton with plain and with
// Jacobi-preconditioned CG, from zeros and from one epoch of SGD, and
// Exact Newton on the images averaged down to 7×7.
func BenchmarkNewton(b *testing.B) {
	train, _ := defaultPack(b)
	o := softmax.Objective{Lambda: 1e-4}
	const want28, want7 = 0.188065543387832, 0.488826964736767 // testdata/reference.golden
	b.Run("default/truncated", func(b *testing.B) { benchRun(b, train, dataset.Pixels, o, Settings{GradTol: 1e-5}, want28) })
	b.Run("default/truncated-absolute", func(b *testing.B) {
		benchRun(b, train, dataset.Pixels, o, Settings{GradTol: 1e-5, RelTol: 1e-300}, want28)
	})
	b.Run("default/jacobi", func(b *testing.B) {
		benchRun(b, train, dataset.Pixels, o, Settings{GradTol: 1e-5, Jacobi: true}, want28)
	})
	b.Run("default/warm-start-1-sgd-epoch", func(b *testing.B) {
		benchRun(b, train, dataset.Pixels, o, Settings{GradTol: 1e-5, Start: sgdEpoch(b, train)}, want28)
	})
	small := Downsample(train, 28, 4)
	b.Run("default-7x7/exact", func(b *testing.B) { benchRun(b, small, 49, o, Settings{GradTol: 1e-5, Exact: true}, want7) })
	b.Run("default-7x7/truncated", func(b *testing.B) { benchRun(b, small, 49, o, Settings{GradTol: 1e-5}, want7) })
}

// sgdEpoch returns the model after one epoch of the page's default SGD
// (B = 100, α = 0.5, λ = 1e-4), as float64, for a warm start.
func sgdEpoch(b *testing.B, x *softmax.Examples[float64]) *softmax.Model[float64] {
	v := make([]float32, len(x.Value))
	for i, f := range x.Value {
		v[i] = float32(f)
	}
	x32 := &softmax.Examples[float32]{Labels: x.Labels, Start: x.Start, Index: x.Index, Value: v}
	tr, err := train.New(x32, dataset.Pixels, train.Defaults())
	if err != nil {
		b.Fatal(err)
	}
	for !tr.Step().EpochEnd {
	}
	m := softmax.New[float64](dataset.Pixels)
	softmax.Convert(m, tr.Model())
	return m
}

// BenchmarkNewtonFull: the full 60,000 training images from the IDX files
// (make mnist-idx), λ = 1e-4, to ‖∇J‖ ≤ 1e-5. Skipped without them.
func BenchmarkNewtonFull(b *testing.B) {
	dir := "../../.cache/mnist/package/data"
	img, err := os.Open(filepath.Join(dir, "train-images-idx3-ubyte"))
	if err != nil {
		b.Skip("no IDX files: make mnist-idx")
	}
	defer img.Close()
	lab, err := os.Open(filepath.Join(dir, "train-labels-idx1-ubyte"))
	if err != nil {
		b.Skip("no IDX files: make mnist-idx")
	}
	defer lab.Close()
	s, err := dataset.ReadIDX(img, lab)
	if err != nil {
		b.Fatal(err)
	}
	benchRun(b, softmax.FromSet[float64](s), dataset.Pixels, softmax.Objective{Lambda: 1e-4}, Settings{GradTol: 1e-5}, 0)
}

// BenchmarkEigenvalues finds the 500 eigenvalues of each of the
// null-space view's Hessians (viewHessians). Before the loop it checks
// that they ascend and add up to the trace within 1e-12 of the largest
// eigenvalue's scale times n.
func BenchmarkEigenvalues(b *testing.B) {
	for _, c := range viewHessians(b) {
		b.Run(c.name, func(b *testing.B) {
			ev := c.eigenvalues(b)
			trace, sum := 0.0, 0.0
			for i := range c.n {
				trace += c.h[i*c.n+i]
				sum += ev[i]
				if i > 0 && ev[i] < ev[i-1] {
					b.Fatalf("eigenvalue %d (%v) below eigenvalue %d (%v)", i, ev[i], i-1, ev[i-1])
				}
			}
			if math.Abs(sum-trace) > 1e-12*float64(c.n)*ev[c.n-1] {
				b.Fatalf("the eigenvalues add up to %v, the trace is %v", sum, trace)
			}
			b.ReportAllocs()
			for b.Loop() {
				Eigenvalues(c.h, c.n)
			}
		})
	}
}

// BenchmarkHessVec is one H·v product over the default pack: the unit of
// truncated Newton's work.
func BenchmarkHessVec(b *testing.B) {
	x, _ := defaultPack(b)
	d := dataset.Pixels
	n := (d + 1) * K
	v, u, out := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range u {
		u[i] = float64(i%13) - 6
	}
	mu := make([]float64, x.Len()*K)
	evalRange(0, make([]float64, n), make([]float64, n), mu, v, d, x, 0, x.Len())
	b.ReportAllocs()
	for b.Loop() {
		clear(out)
		hvRange(out, u, mu, d, x, 0, x.Len())
	}
	b.ReportMetric(float64(x.Len()*b.N)/b.Elapsed().Seconds(), "examples/s")
}
