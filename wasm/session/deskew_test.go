package session

import (
	"testing"
	"time"

	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/core/digit"
	"softmaxdemo/wasm/protocol"
)

// trainToEnd trains cfg to the end and returns the last Weights and
// Evaluated events.
func trainToEnd(t *testing.T, h *harness, cfg protocol.Config) (protocol.Weights, protocol.Evaluated) {
	t.Helper()
	h.send(protocol.Train{Config: cfg})
	all := h.until(done)
	more, e := untilType[protocol.Evaluated](h) // the weights come between
	ws := only[protocol.Weights](append(all, more...))
	if len(ws) == 0 {
		t.Fatal("no Weights")
	}
	return ws[len(ws)-1], e
}

// TestDeskewedRun trains 5 epochs at the page's defaults on the committed
// pack, raw and then deskewed. The deskewed run must be a new run, reach
// at least 93.5% on the test sample and beat the raw run (measured: 91.65%
// raw, 95.05% deskewed), and give the same weights as core/train on
// digit.DeskewSet's images.
func TestDeskewedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("trains twice on 10,000 images")
	}
	b := datasettest.DefaultBytes(t)
	env := newEnv(time.Millisecond)
	h := start(t, env)
	h.send(env.serve("default", "default.mnpk", b))
	_, samples := untilType[protocol.Samples](h)

	raw := defaults
	straight := defaults
	straight.Deskew = true
	_, er := trainToEnd(t, h, raw)
	ws, ed := trainToEnd(t, h, straight)
	t.Logf("test accuracy after 5 epochs: %.2f%% raw, %.2f%% deskewed", 100*er.Accuracy, 100*ed.Accuracy)
	if ed.Run != er.Run+1 || ed.Epoch != 5 {
		t.Errorf("raw run %d, deskewed run %d after %d epochs: want the next run, after 5", er.Run, ed.Run, ed.Epoch)
	}
	if ed.Accuracy < 0.935 || ed.Accuracy <= er.Accuracy {
		t.Errorf("test accuracy %.2f%% deskewed, %.2f%% raw: want at least 93.5%% and above raw", 100*ed.Accuracy, 100*er.Accuracy)
	}

	pack := datasettest.Default(t)
	t.Run("the weights are core/train's on DeskewSet's images", func(t *testing.T) {
		tc, err := trainConfig(straight, pack.Train.Len())
		if err != nil {
			t.Fatal(err)
		}
		checkTrainedLike(t, ws, digit.DeskewSet(pack.Train), tc)
	})
	t.Run("the gallery stays raw", func(t *testing.T) {
		if want := Gallery(pack.Test); string(samples.Pixels) != string(want.Pixels) {
			t.Error("the Samples are not the raw test images")
		}
	})
	t.Run("Evaluate reports on the current run's test images", func(t *testing.T) {
		h.send(protocol.Evaluate{})
		if _, e := untilType[protocol.Evaluated](h); e != ed {
			t.Errorf("Evaluate gave %+v, the run's last evaluation %+v", e, ed)
		}
	})
}

func TestSwitchingDeskewStartsANewRun(t *testing.T) {
	h, _ := loaded(t, 1000)
	cfg := protocol.Config{LearningRate: 0.5, BatchSize: 1, Epochs: 1000, Seed: 1}
	for i, deskew := range []bool{false, true, false} {
		cfg.Deskew = deskew
		h.send(protocol.Train{Config: cfg})
		h.until(func(m protocol.Msg) bool { p, ok := m.(protocol.Progress); return ok && p.Run == i+1 })
	}
	h.send(protocol.Pause{})
}

// BenchmarkDeskewPack measures what Deskew adds to loading the committed
// pack: straightening its 12,000 images and converting them for training.
func BenchmarkDeskewPack(b *testing.B) {
	pack := datasettest.Default(b)
	b.ReportAllocs()
	for b.Loop() {
		straightened(pack.Train)
		straightened(pack.Test)
	}
	b.ReportMetric(1e3*b.Elapsed().Seconds()/float64(b.N), "ms/pack")
}
