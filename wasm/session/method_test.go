package session

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"softmaxdemo/wasm/protocol"
)

// TestEveryMethod: each method of the table takes a step, names itself in
// Progress, stamps its loss point with the training time, shows its
// weights to FindExamples and takes my digits without complaint. Apply
// and UseModel change the weights of SGD and gradient-descent runs;
// Newton's method, whose weights are the solver's own, refuses both with
// Failed and keeps its run.
func TestEveryMethod(t *testing.T) {
	for _, name := range slices.Sorted(maps.Keys(methods)) {
		want := name
		if name == "" {
			want = "sgd"
		}
		t.Run("method "+want+" from "+`"`+name+`"`, func(t *testing.T) {
			h, _ := loaded(t, 100)
			cfg := protocol.Config{LearningRate: 0.1, BatchSize: 10, L2: 1e-3, Epochs: 1, Seed: 1, Method: name}
			h.send(protocol.Step{Config: cfg})
			all, p := untilType[protocol.Progress](h)
			if p.Run != 1 || p.Method != want || len(p.Losses) != 1 || p.Losses[0].T <= 0 {
				t.Errorf("after one step: %+v", p)
			}
			all2, w := untilType[protocol.Weights](h)
			mine := myBars(2, 25, 8)
			h.send(mine)
			h.send(protocol.FindExamples{True: 3, Predicted: 3, Max: 2})
			all3, ex := untilType[protocol.Examples](h)
			if ex.Run != 1 || ex.Step != w.Step || ex.Step != p.Step {
				t.Errorf("FindExamples answered for run %d step %d, want run 1 step %d", ex.Run, ex.Step, w.Step)
			}
			if f := only[protocol.Failed](slices.Concat(all, all2, all3)); len(f) > 0 {
				t.Errorf("failed: %+v", f)
			}

			h.send(protocol.Apply{Config: cfg, Label: mine.Labels[0], Pixels: mine.Pixels[:784]})
			got := h.until(func(m protocol.Msg) bool {
				_, w := m.(protocol.Weights)
				_, f := m.(protocol.Failed)
				return w || f
			})
			f, failed := got[len(got)-1].(protocol.Failed)
			if failed != (want == "newton") || (failed && !strings.Contains(f.Message, "not to Newton's method")) {
				t.Errorf("Apply answered %+v", got[len(got)-1])
			}

			h.send(protocol.UseModel{Config: cfg, D: w.D, W: w.W, B: w.B})
			got = h.until(func(m protocol.Msg) bool {
				_, p := m.(protocol.Progress)
				_, f := m.(protocol.Failed)
				return p || f
			})
			switch last := got[len(got)-1].(type) {
			case protocol.Progress:
				if want == "newton" || last.Run != 2 || last.Method != want {
					t.Errorf("UseModel answered %+v", last)
				}
			case protocol.Failed:
				if want != "newton" || last.Key != "err.newtonModel" || last.Hint != hintNewton || !strings.Contains(last.Message, "cannot continue a loaded model") {
					t.Errorf("UseModel answered %+v", last)
				}
				h.send(protocol.Evaluate{})
				if _, e := untilType[protocol.Evaluated](h); e.Run != 1 {
					t.Errorf("after the refused model, run %d is current, want 1", e.Run)
				}
			}
		})
	}
}
