package panels

import (
	"fmt"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/paint"
)

// The page's warm-up. Browsers compile WebAssembly lazily, one function
// at a time, on the main thread, the first time it is called; and
// encoding/json builds its decoder for a type the first time it decodes
// one. Uncompiled, the code that shows a run (the store's handling of
// each event, the chart's layout, the runs' legend, the status, the
// confusion matrix, the templates) makes the first second of the first
// run a person trains tasks of 50–60 ms, and none in the runs after it.
// So once the page is ready the instrument runs that code once on
// made-up data (WarmSteps), in a few short tasks of their own, as the
// worker warms its kernels (protocol.Warm). Nothing of it is shown or
// kept.

// WarmSteps are the warm-up's steps, each a few milliseconds. Each
// checks that it ran the code it is there to compile, and returns an error
// if the made-up data no longer lead through it.
func WarmSteps() []func() error {
	m := softmax.New[float32](784)
	for i := range m.W {
		m.W[i] = float32(i%17) * 1e-3
	}
	ev := protocol.Evaluated{Run: 1, Epoch: 1, Step: 100, Accuracy: 0.9, Likelihood: 0.7, Loss: 0.3, T: 0.1}
	ev.Confusion[3][5] = 2
	for c := range 10 {
		ev.Confusion[c][c] = 190
	}
	losses := make([]protocol.Point, 300)
	for i := range losses {
		losses[i] = protocol.Point{Step: i + 1, Loss: 2.3 / float64(i+1), T: float64(i) * 1e-3}
	}
	pr := protocol.Progress{Run: 1, State: store.StatusTraining, Epoch: 1, Epochs: 5, Step: 300, Seen: 30000, PerEpoch: 10000,
		Loss: 0.3, Losses: losses, EpochLoss: 0.31, Rate: 0.5, PerSecond: 1e6}
	st := store.New()
	return []func() error{
		func() error { // the events' wire form, as the worker sends them
			for _, msg := range []protocol.Msg{pr, protocol.Weights{Run: 1, Step: 300, D: m.D, W: m.W, B: m.B}, ev} {
				env, bulk, err := protocol.Encode(msg)
				if err == nil {
					_, err = protocol.Decode(env, bulk)
				}
				if err != nil {
					return err
				}
			}
			return nil
		},
		func() error { // the store's handling of a run
			st.Apply(protocol.Loaded{Name: "default", Train: 10000, Test: 2000})
			st.Asked(protocol.Config{LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: 5, Seed: 1, Deskew: true}, true)
			st.Apply(pr)
			st.Apply(protocol.Weights{Run: 1, Step: 300, D: m.D, W: m.W, B: m.B})
			st.Apply(ev)
			st.ShowEval()
			st.StatusText()
			if st.Status != store.StatusTraining || len(st.Runs) != 1 || len(st.Losses) == 0 || st.Model == nil || st.Eval == nil {
				return fmt.Errorf("the store did not take the made-up run: status %q, %d runs, %d losses", st.Status, len(st.Runs), len(st.Losses))
			}
			return nil
		},
		func() error { // the chart, on every axis
			var sc chart.Scratch
			runs := append(st.ChartRuns(), chart.Run{Losses: losses, Color: store.RunColors[1], StepsPerEpoch: 100, Exact: true})
			for _, ax := range []chart.Axes{{X: chart.AxisSteps, Y: chart.AxisLinear}, {X: chart.AxisPasses, Y: chart.AxisLog}, {X: chart.AxisSeconds, Y: chart.AxisGap, Floor: 0.1}} {
				if g := chart.LayoutRunsInto(&sc, runs, ax, 800, 300, 1); len(g.Smooth) == 0 || len(g.Others) == 0 {
					return fmt.Errorf("the chart on %s/%s drew no curves", ax.X, ax.Y)
				}
			}
			return nil
		},
		func() error { // the gallery's predictions, on straightened digits as by default
			var smp protocol.Samples
			for i := range 60 {
				smp.Labels = append(smp.Labels, uint8(i%10))
				img := make([]byte, 784)
				for j := 200 + i; j < 600; j += 29 {
					img[j] = 255
				}
				smp.Pixels = append(smp.Pixels, img...)
			}
			g := &Gallery{ILang: i18n.Default, ISamples: smp, IModel: m, IDeskew: true}
			g.predict()
			g.Render()
			if len(g.preds) != 60 || g.preds[0] < 0 {
				return fmt.Errorf("the gallery predicted %d of 60 digits", len(g.preds))
			}
			return nil
		},
		func() error { // the components that follow a run
			l := i18n.Default
			NewStatusBar().With(l, store.StatusTraining, st.StatusText(), 1, 5, 0.2, 1e6, 0.9).Render()
			newRunList().Runs(l, st.Runs, st.Run, 0, 1).Render()
			NewScrub().View(l, st.ScrubView(), false).Render()
			(&Confusion{ILang: l, IEval: &ev}).Render()
			(&NewtonProgress{ILang: l, IProgress: protocol.Progress{Method: "newton", Iteration: 3}}).Render()
			(&WeightGrid{ILang: l, IModel: m, IVersion: 1}).Render()
			rgba := make([]byte, 4*784)
			scale := paint.WeightScale(m.W)
			for c := range softmax.K {
				paint.TemplateImage(rgba, m.W, c, scale)
			}
			if kit.Checksum(m) == "" {
				return fmt.Errorf("no checksum for the made-up model")
			}
			return nil
		},
	}
}
