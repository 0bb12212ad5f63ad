package train

import (
	"fmt"
	"math"
	"sync"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/core/metrics"
	"softmaxdemo/core/shard"
	"softmaxdemo/core/softmax"
)

// benchData is a decoded pack, converted once per process.
type benchData struct {
	train, test *softmax.Examples[float32]
}

// benchPacks holds each pack's examples, converted at most once per process.
var benchPacks struct {
	sync.Mutex
	m map[string]benchData
}

// benchPack returns the named pack's examples. "default" is the committed
// pack, from datasettest, which fails b if it is missing; "full" skips b if
// web/data/full.mnpk is absent, since it is not committed.
func benchPack(b *testing.B, name string) benchData {
	b.Helper()
	benchPacks.Lock()
	defer benchPacks.Unlock()
	if d, ok := benchPacks.m[name]; ok {
		return d
	}
	var p *dataset.Pack
	switch name {
	case "default":
		p = datasettest.Default(b)
	case "full":
		p = datasettest.Full(b)
	default:
		b.Fatalf("no pack named %q", name)
	}
	d := benchData{softmax.FromSet[float32](p.Train), softmax.FromSet[float32](p.Test)}
	if benchPacks.m == nil {
		benchPacks.m = map[string]benchData{}
	}
	benchPacks.m[name] = d
	return d
}

// benchCase is one sub-benchmark: a pack and a batch size (0: full batch).
type benchCase struct {
	pack  string
	batch int
	rate  float64 // α; 0 means the page's default
	floor float64 // lowest sane test accuracy after the first epoch
}

func (c benchCase) name(m int) string {
	b := c.batch
	if b == 0 {
		b = m
	}
	return fmt.Sprintf("pack=%s/batch=%d", c.pack, b)
}

// The floors are well below what one epoch reaches (measured: 90.6% and
// 91.4% at B = 100, 90.1% at B = 1, 64.8% after the single full-batch
// step), so only a broken kernel or update trips them. B = 1 runs at
// α = 0.02: at the page's α = 0.5 single-example steps overshoot (loss 6.1
// after one epoch). The time of a step does not depend on α.
var epochCases = []benchCase{
	{"default", 100, 0, 0.85},
	{"full", 100, 0, 0.85},
	{"default", 1, 0.02, 0.85},
	{"default", 0, 0, 0.50},
}

// config is the page's configuration with c's batch size and rate and an
// epoch budget that a benchmark never reaches.
func (c benchCase) config() Config {
	cfg := Defaults()
	cfg.BatchSize = c.batch
	if c.rate != 0 {
		cfg.LearningRate = c.rate
	}
	cfg.Epochs = math.MaxInt32
	return cfg
}

// epoch runs tr to the end of its current epoch and returns the number of
// steps taken. It fails b if the run stops.
func epoch(b *testing.B, tr *Trainer) int {
	for n := 1; ; n++ {
		st := tr.Step()
		if st.Stop != Running {
			b.Fatalf("the run stopped (%v) at step %d", st.Stop, st.Step)
		}
		if st.EpochEnd {
			return n
		}
	}
}

// checkFirstEpoch trains one epoch from scratch and fails b unless the
// model is finite, its loss on the whole training set is below log 10 (the
// loss of the zero model) and its test accuracy is above c.floor: a fast
// wrong kernel must fail rather than win.
func checkFirstEpoch(b *testing.B, c benchCase, d benchData) {
	b.Helper()
	tr, err := New(d.train, dataset.Pixels, c.config())
	if err != nil {
		b.Fatal(err)
	}
	steps := epoch(b, tr)
	m := d.train.Len()
	if want := (m + tr.Config().BatchSize - 1) / tr.Config().BatchSize; steps != want {
		b.Fatalf("one epoch took %d steps, want %d", steps, want)
	}
	model := tr.Model()
	if !model.Finite() {
		b.Fatal("the model is not finite after one epoch")
	}
	all := make([]int32, m)
	for i := range all {
		all[i] = int32(i)
	}
	loss := softmax.Loss(model, d.train, all, softmax.Objective{})
	acc := metrics.Evaluate(model, d.test).Accuracy()
	if !(loss < math.Log(softmax.K)) || acc < c.floor {
		b.Fatalf("after one epoch: training loss %.4f (want below log 10 = %.4f), test accuracy %.2f%% (want at least %.0f%%)",
			loss, math.Log(softmax.K), 100*acc, 100*c.floor)
	}
}

// reportEpochs adds examples/s and ms/epoch for b.N epochs of m examples.
func reportEpochs(b *testing.B, m int) {
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(m*b.N)/s, "examples/s")
	b.ReportMetric(1e3*s/float64(b.N), "ms/epoch")
}

// BenchmarkEpoch measures one epoch of the page's training (α 0.5,
// λ 1e-4, zero initialisation) per iteration, continuing one run: the
// steady state after the first epoch.
func BenchmarkEpoch(b *testing.B) {
	for _, c := range epochCases {
		m := 0
		if c.batch == 0 { // the name says the batch size
			m = benchPack(b, c.pack).train.Len()
		}
		b.Run(c.name(m), func(b *testing.B) {
			d := benchPack(b, c.pack)
			checkFirstEpoch(b, c, d)
			tr, err := New(d.train, dataset.Pixels, c.config())
			if err != nil {
				b.Fatal(err)
			}
			epoch(b, tr) // leave the first epoch out
			b.ReportAllocs()
			for b.Loop() {
				epoch(b, tr)
			}
			reportEpochs(b, d.train.Len())
		})
	}
}

// BenchmarkFirstEpoch measures the first epoch of a fresh trainer from
// zero weights (as after pressing Train), leaving its construction out.
func BenchmarkFirstEpoch(b *testing.B) {
	for _, c := range epochCases[:2] {
		b.Run(c.name(0), func(b *testing.B) {
			d := benchPack(b, c.pack)
			checkFirstEpoch(b, c, d)
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				tr, err := New(d.train, dataset.Pixels, c.config())
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				epoch(b, tr)
			}
			reportEpochs(b, d.train.Len())
		})
	}
}

// BenchmarkFullBatchWorkers times one full-batch gradient-descent step
// (a pass over the pack's shards, their sum, the update) with the shards
// computed by 1, 2, 4 and 8 goroutines (Concurrent), as the browser's pool
// of workers computes them, and reports the time of one shard alone: on a
// machine with fewer cores than goroutines, what more workers would give
// follows from it (docs/BENCHMARKS.md, "Every core").
//
//	go test -run '^$' -bench FullBatchWorkers -count 5 ./core/train/
func BenchmarkFullBatchWorkers(b *testing.B) {
	for _, pack := range []string{"default", "full"} {
		d := benchPack(b, pack)
		for _, n := range []int{1, 2, 4, 8} {
			b.Run(fmt.Sprintf("pack=%s/workers=%d", pack, n), func(b *testing.B) {
				cfg := Defaults()
				cfg.BatchSize, cfg.Epochs = d.train.Len(), math.MaxInt32
				tr, err := New(d.train, dataset.Pixels, cfg)
				if err != nil {
					b.Fatal(err)
				}
				tr.SetPasses(NewConcurrent(d.train, n))
				for range 3 { // three steps, checked, before timing
					if st := tr.Step(); st.Stop != Running || !(st.Loss < math.Log(softmax.K)+1) {
						b.Fatalf("step %d: %+v", st.Step, st)
					}
				}
				b.ReportAllocs()
				for b.Loop() {
					tr.Step()
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/step")
			})
		}
		b.Run(fmt.Sprintf("pack=%s/one-shard", pack), func(b *testing.B) {
			lo, hi := shard.Range(d.train.Len(), 0)
			x := d.train.View(lo, hi)
			m := softmax.New[float32](dataset.Pixels)
			gw, gb := make([]float32, len(m.W)), make([]float32, softmax.K)
			pos := Positions(x.Len())
			for b.Loop() {
				GradShard(gw, gb, m.W, m.B, x, pos)
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/shard")
		})
	}
}
