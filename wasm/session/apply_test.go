package session

import (
	"bytes"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/digit"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// TestInspectorCommands: after a run, PickTrain hands out the training
// image asked for; Apply on it changes the run's weights exactly as
// train.StepOn (one trainer step with B = 1 on that image) changes a copy
// of them; FindExamples lists exactly the test images of each cell of the
// confusion matrix, as many as its count (up to the cap).
func TestInspectorCommands(t *testing.T) {
	for _, deskew := range []bool{false, true} {
		name := "raw images"
		if deskew {
			name = "deskewed images"
		}
		t.Run(name, func(t *testing.T) {
			b := synthPack(t, 300, 400)
			pack, err := dataset.Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			trainSet, testSet := pack.Train, pack.Test
			if deskew {
				trainSet, testSet = digit.DeskewSet(trainSet), digit.DeskewSet(testSet)
			}
			env := newEnv(1e6)
			h := start(t, env)
			h.send(env.serve("synth", "synth.mnpk", b))
			untilType[protocol.Samples](h)
			cfg := protocol.Config{LearningRate: 0.05, BatchSize: 50, L2: 1e-3, Epochs: 1, Seed: 1, Deskew: deskew}
			w, _ := trainToEnd(t, h, cfg)

			h.send(protocol.PickTrain{Index: 300 + 7}) // modulo 300
			_, picked := untilType[protocol.Picked](h)
			if picked.Index != 7 || picked.Label != trainSet.Labels[7] || !bytes.Equal(picked.Pixels, trainSet.Dense(make([]byte, 784), 7)) {
				t.Fatalf("picked image %d, label %d: want training image 7, label %d, with its pixels", picked.Index, picked.Label, trainSet.Labels[7])
			}

			want := &softmax.Model[float32]{D: w.D, W: append([]float32(nil), w.W...), B: append([]float32(nil), w.B...)}
			x := softmax.FromSet[float32](trainSet)
			index, value := x.Example(7)
			applyCfg := cfg
			applyCfg.LearningRate, applyCfg.L2 = 0.3, 1e-2 // the Train panel's α and λ now
			if _, err := train.StepOn(want, index, value, picked.Label, 0.3, softmax.Objective{Lambda: 1e-2}); err != nil {
				t.Fatal(err)
			}
			h.send(protocol.Apply{Config: applyCfg, Label: picked.Label, Pixels: picked.Pixels})
			_, got := untilType[protocol.Weights](h)
			_, e := untilType[protocol.Evaluated](h)
			if got.Run != w.Run || got.Step != w.Step {
				t.Errorf("weights of run %d step %d after Apply: want run %d step %d", got.Run, got.Step, w.Run, w.Step)
			}
			if !sameFloats(got.W, want.W) || !sameFloats(got.B, want.B) {
				t.Fatal("Apply's weights differ from one trainer step with B = 1 on the image")
			}
			if sameFloats(got.W, w.W) {
				t.Fatal("Apply changed nothing")
			}

			model := &softmax.Model[float32]{D: got.D, W: got.W, B: got.B}
			cells := 0
			for y := range softmax.K {
				for p := range softmax.K {
					if e.Confusion[y][p] == 0 && y != p {
						continue
					}
					cells++
					h.send(protocol.FindExamples{True: y, Predicted: p, Max: 5})
					_, ex := untilType[protocol.Examples](h)
					n := e.Confusion[y][p]
					if ex.Count != n || len(ex.Index) != min(n, 5) || ex.True != y || ex.Predicted != p {
						t.Fatalf("cell %d→%d: count %d, %d listed; the confusion matrix counts %d", y, p, ex.Count, len(ex.Index), n)
					}
					for k, i := range ex.Index {
						px := ex.Pixels[784*k : 784*(k+1)]
						if int(testSet.Labels[i]) != y || !bytes.Equal(px, testSet.Dense(make([]byte, 784), i)) {
							t.Errorf("cell %d→%d: image %d is not test image %d of digit %d", y, p, k, i, y)
						}
						var probs [softmax.K]float32
						copy(probs[:], ex.Probs[10*k:])
						c, _ := model.Predict(sparse(uint8(y), px).Example(0))
						if c != p || softmax.Argmax(&probs) != p {
							t.Errorf("cell %d→%d: image %d is predicted %d (probabilities say %d)", y, p, i, c, softmax.Argmax(&probs))
						}
					}
				}
			}
			if cells < 10 {
				t.Errorf("only %d cells checked", cells)
			}
		})
	}
}

func sameFloats(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(a[i] != a[i] && b[i] != b[i]) {
			return false
		}
	}
	return true
}
