package session

import (
	"math"
	"strings"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/metrics"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// trained returns the final weights and evaluation of a run with cfg in a
// session of its own.
func trained(t *testing.T, cfg protocol.Config) (protocol.Weights, protocol.Evaluated) {
	t.Helper()
	h, _ := loaded(t, 1000)
	h.send(protocol.Train{Config: cfg})
	all := h.until(done)
	more, ev := untilType[protocol.Evaluated](h) // the weights come between
	ws := only[protocol.Weights](append(all, more...))
	return ws[len(ws)-1], ev
}

func TestUseModel(t *testing.T) {
	one := defaults
	one.Epochs = 1
	w, ev := trained(t, one)
	h, _ := loaded(t, 1000)
	h.send(protocol.UseModel{Config: defaults, D: w.D, W: w.W, B: w.B})
	all, got := untilType[protocol.Evaluated](h)

	t.Run("the worker answers with the model's weights and evaluation", func(t *testing.T) {
		ws := only[protocol.Weights](all)
		if len(ws) != 1 || !sameBits(ws[0].W, w.W) || !sameBits(ws[0].B, w.B) || ws[0].Step != 0 {
			t.Fatalf("%d Weights events, want one with the uploaded weights at step 0", len(ws))
		}
		if got.Accuracy != ev.Accuracy || got.Loss != ev.Loss || got.Run != ws[0].Run {
			t.Errorf("Evaluated %+v, want the accuracy %v and loss %v of the uploaded model", got, ev.Accuracy, ev.Loss)
		}
	})
	t.Run("Evaluate reports the uploaded model's accuracy", func(t *testing.T) {
		h.send(protocol.Evaluate{})
		if _, again := untilType[protocol.Evaluated](h); again.Accuracy != ev.Accuracy {
			t.Errorf("accuracy %v, want %v", again.Accuracy, ev.Accuracy)
		}
	})
	t.Run("training continues from it", func(t *testing.T) {
		h.send(protocol.Step{Config: defaults})
		_, p := untilType[protocol.Progress](h)
		if p.Step != 1 || p.Loss > 0.5 {
			t.Errorf("first step from the uploaded model: %+v, want step 1 with a low loss (a fresh model starts at 2.3)", p)
		}
		h.send(protocol.Train{Config: defaults})
		all := h.until(done)
		if ev2 := only[protocol.Evaluated](all); len(ev2) == 0 || ev2[len(ev2)-1].Accuracy < ev.Accuracy-0.02 {
			t.Errorf("after training on, evaluations %+v", ev2)
		}
	})
}

func TestUseModelRefusals(t *testing.T) {
	nan := make([]float32, 7840)
	nan[5] = float32(math.NaN())
	tests := []struct {
		name string
		m    protocol.UseModel
		want string
	}{
		{"a model of 49 features", protocol.UseModel{Config: defaults, D: 49, W: make([]float32, 490), B: make([]float32, 10)}, "49 features, the data 784"},
		{"a model with NaN", protocol.UseModel{Config: defaults, D: 784, W: nan, B: make([]float32, 10)}, "NaN"},
		{"a bad config", protocol.UseModel{Config: protocol.Config{LearningRate: -1, BatchSize: 10, Epochs: 1}, D: 784, W: make([]float32, 7840), B: make([]float32, 10)}, "learning rate -1"},
	}
	h, _ := loaded(t, 100)
	for _, tt := range tests {
		t.Run(tt.name+" is refused", func(t *testing.T) {
			h.send(tt.m)
			if _, f := untilType[protocol.Failed](h); !strings.Contains(f.Message, tt.want) {
				t.Errorf("Failed %+v, want a message containing %q", f, tt.want)
			}
		})
	}
	t.Run("a refused model changes nothing", func(t *testing.T) {
		h.send(protocol.Evaluate{})
		if _, e := untilType[protocol.Evaluated](h); e.Run != 0 {
			t.Errorf("after the refusals, Evaluated is of run %d, want 0 (no run)", e.Run)
		}
	})
	t.Run("a model before any data is refused", func(t *testing.T) {
		h := start(t, newEnv(0))
		h.send(protocol.UseModel{D: 784})
		if _, f := untilType[protocol.Failed](h); !strings.Contains(f.Message, "no data") {
			t.Errorf("Failed %+v", f)
		}
	})
}

// myBars returns n images of a bar on rows row and row+1, labelled to:
// synthPack's digit c is a bar on rows 2c+3 and 2c+4, so rows 25 and 26
// are a digit drawn where the data have none.
func myBars(n, row int, to uint8) protocol.MyDigits {
	var d protocol.MyDigits
	for i := range n {
		px := make([]byte, dataset.Pixels)
		for _, row := range []int{row, row + 1} {
			for col := 5 + i%3; col < 22; col++ {
				px[row*dataset.Cols+col] = 200
			}
		}
		d.Labels = append(d.Labels, to)
		d.Pixels = append(d.Pixels, px...)
	}
	return d
}

// readAs counts the images of d that the model w predicts as labelled.
func readAs(w protocol.Weights, d protocol.MyDigits) int {
	m := &softmax.Model[float32]{D: w.D, W: w.W, B: w.B}
	set := dataset.NewSet(len(d.Labels), 40)
	for i, y := range d.Labels {
		set.Append(y, d.Pixels[i*dataset.Pixels:(i+1)*dataset.Pixels])
	}
	return metrics.Evaluate(m, softmax.FromSet[float32](set)).Correct
}

func TestMyDigits(t *testing.T) {
	mine := myBars(5, 25, 8) // five digits, low on the pad, that the person calls 8
	run := func(rate float64) protocol.Weights {
		h, _ := loaded(t, 1000)
		h.send(mine)
		cfg := defaults
		cfg.MyDigitsRate = rate
		return finalWeights(t, h, cfg)
	}
	without, with := readAs(run(0), mine), readAs(run(0.05), mine)
	t.Logf("my 5 digits read as labelled: %d without mixing them in, %d at rate 0.05", without, with)
	if without == 5 {
		t.Errorf("without mixing them in, the model reads all of my 5 digits as 8")
	}
	if with != 5 {
		t.Errorf("with rate 0.05, the model reads %d of my 5 digits as 8, want 5", with)
	}
}

func TestMyDigitsChangeTheRunningRun(t *testing.T) {
	mine := myBars(5, 25, 8)
	h, _ := loaded(t, 1000)
	cfg := defaults
	cfg.MyDigitsRate = 0.05
	h.send(protocol.Step{Config: cfg}) // a run without my digits
	untilType[protocol.Progress](h)
	h.send(mine)
	w := finalWeights(t, h, cfg)
	if w.Run != 1 {
		t.Errorf("MyDigits started a new run: %+v", w)
	}
	if n := readAs(w, mine); n != 5 {
		t.Errorf("my digits sent to the running run: %d of 5 read as 8", n)
	}
	t.Run("bad digits are refused", func(t *testing.T) {
		h.send(protocol.MyDigits{Labels: []uint8{1}, Pixels: make([]byte, 10)})
		if _, f := untilType[protocol.Failed](h); !strings.Contains(f.Message, "10 bytes of pixels for 1 digits") {
			t.Errorf("Failed %+v", f)
		}
	})
}
