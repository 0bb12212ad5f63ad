package planework

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"softmaxdemo/core/metrics"
	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/planeimage"
	"softmaxdemo/wasm/protocol"
)

// handFrame waits for the first frame that has answered the θ set by
// hand numbered hand, and returns it with the last state.
func handFrame(t *testing.T, out <-chan protocol.Msg, hand int) (protocol.PlaneState, protocol.PlaneFrame) {
	t.Helper()
	st, f, _ := until(t, out, func(st protocol.PlaneState, f protocol.PlaneFrame, sc *protocol.PlaneScene) bool {
		return f.Hand == hand
	})
	return st, f
}

// jAt returns J of the model m (float32, as the worker holds it) on d
// with s, computed natively in float64 by core/softmax, and the training
// accuracy by core/metrics.
func jAt(d plane.Data, s plane.Settings, m *softmax.Model[float32]) (loss, acc float64) {
	m64 := softmax.NewClasses[float64](2, d.K)
	softmax.Convert(m64, m)
	all := make([]int32, len(d.Points))
	for i := range all {
		all[i] = int32(i)
	}
	return softmax.Loss(m64, plane.Examples[float64](d), all, s.Objective()), metrics.Evaluate(m, plane.Examples[float32](d)).Accuracy()
}

// TestThetaByHandIsDrawnAtOnce: a PlaneTheta makes its θ the live model:
// the next frame carries it, bit for bit as float32, with J and the
// accuracy that core computes natively for it, and its regions; a θ that
// is not a number or beyond ±MaxTheta is refused with BadTheta and the
// model kept; a θ typed for another K is dropped without a refusal; and a
// good θ afterwards clears the refusal.
func TestThetaByHandIsDrawnAtOnce(t *testing.T) {
	in, out := session(t)
	s := plane.Defaults()
	s.Pin, s.Bias = false, true
	in <- protocol.PlaneSetUp{Data: "blobs", K: 3, Settings: s}
	until(t, out, settled)
	d, _ := plane.Generate("blobs", 3, Seed)
	w, b := []float64{0.5, -1, 0.25, 2, 0.125, -3}, []float64{0.1, 0, -0.1}
	in <- protocol.PlaneTheta{W: w, B: b, Hand: 1}
	_, f := handFrame(t, out, 1)
	m := f.Model()
	for i := range w {
		if m.W[i] != float32(w[i]) {
			t.Fatalf("the frame's W[%d] = %v, set %v", i, m.W[i], w[i])
		}
	}
	for c := range b {
		if m.B[c] != float32(b[c]) {
			t.Fatalf("the frame's B[%d] = %v, set %v", c, m.B[c], b[c])
		}
	}
	loss, acc := jAt(d, s, m)
	if f.Status.Loss != loss || f.Status.Accuracy != acc {
		t.Errorf("the frame says J = %v and accuracy %v; core says %v and %v", f.Status.Loss, f.Status.Accuracy, loss, acc)
	}
	class, prob := make([]uint8, f.N*f.N), make([]float32, f.N*f.N)
	plane.Regions(class, prob, m, f.N, f.N)
	img := make([]byte, 4*f.N*f.N)
	planeimage.RegionImage(img, class, prob, 3)
	if !bytes.Equal(img, f.Image) {
		t.Error("the frame's regions are not the θ set by hand's")
	}

	for i, bad := range [][]float64{{math.NaN(), 0, 0, 0, 0, 0}, {0, 0, math.Inf(1), 0, 0, 0}, {0, 0, 0, 0, 0, -1e3}} {
		in <- protocol.PlaneTheta{W: bad, B: b, Hand: 2 + i}
		// The frame goes before the state that says why.
		st, g, _ := until(t, out, func(st protocol.PlaneState, f protocol.PlaneFrame, sc *protocol.PlaneScene) bool {
			return f.Hand == 2+i && st.Refused != nil && (i == 0 || st.Refused.Value != "NaN")
		})
		if st.Refused.Problem != int(plane.BadTheta) {
			t.Errorf("θ with %v: refusal %+v", bad, st.Refused)
		}
		if !slices.Equal(g.W, f.W) || !slices.Equal(g.B, f.B) || g.Status.Loss != f.Status.Loss {
			t.Errorf("θ with %v changed the model to %v %v", bad, g.W, g.B)
		}
	}
	in <- protocol.PlaneTheta{W: []float64{9, 9, 9, 9}, B: []float64{9, 9}, Hand: 9}
	st, g := handFrame(t, out, 9)
	if !slices.Equal(g.W, f.W) || st.Seq != 0 { // a state would have said a new refusal
		t.Errorf("a θ for K = 2 in a plane of K = 3 was taken (%v), or changed the state (%+v)", g.W, st.Refused)
	}
	in <- protocol.PlaneTheta{W: w, B: []float64{0, 0, 0}, Hand: 10}
	_, g, _ = until(t, out, func(st protocol.PlaneState, f protocol.PlaneFrame, sc *protocol.PlaneScene) bool {
		return f.Hand == 10 && st.Refused == nil
	})
	if g.B[0] != 0 || g.W[0] != 0.5 {
		t.Errorf("a good θ after the refusals: %v %v", g.W, g.B)
	}
}

// TestTrainingGoesOnFromThetaByHand: Train after a θ set by hand takes
// its steps from it: the first step is the one core/plane's Lab takes
// from that θ, bit for bit.
func TestTrainingGoesOnFromThetaByHand(t *testing.T) {
	in, out := session(t)
	s := plane.Defaults()
	s.Pin, s.Bias, s.Lambda = false, true, 0.01
	in <- protocol.PlaneSetUp{Data: "overlap", K: 3, Settings: s}
	until(t, out, settled)
	w, b := []float64{1, -1, 0, 0.5, 0.5, -1}, []float64{0, 0.5, -0.5}
	in <- protocol.PlaneTheta{W: w, B: b, Hand: 1}
	handFrame(t, out, 1)
	in <- protocol.PlanePace{StepsPerSecond: 1} // the first step at once, the next a second later
	in <- protocol.PlaneTrain{On: true}
	_, f, _ := until(t, out, func(st protocol.PlaneState, f protocol.PlaneFrame, sc *protocol.PlaneScene) bool {
		return f.Status.Steps >= 1
	})
	d, _ := plane.Generate("overlap", 3, Seed)
	from := softmax.NewClasses[float32](2, 3)
	for i, v := range w {
		from.W[i] = float32(v)
	}
	for c, v := range b {
		from.B[c] = float32(v)
	}
	lab, err := plane.NewLabFrom(d, s, from)
	if err != nil {
		t.Fatal(err)
	}
	lab.Step()
	if f.Status.Steps != 1 || !slices.Equal(f.W, lab.Model().W) || !slices.Equal(f.B, lab.Model().B) {
		t.Errorf("step %d from θ by hand: %v %v; core/plane's first step from it: %v %v", f.Status.Steps, f.W, f.B, lab.Model().W, lab.Model().B)
	}
}

// TestThetaByHandIsTheExactSurfacesStart: for K = 2, class 0 pinned and
// no bias, θ set by hand is the paths' start: the state's settings and
// the scene's say so, and gradient descent's path starts there; a quick
// θ (a drag) computes only the paths, on the surface already drawn.
func TestThetaByHandIsTheExactSurfacesStart(t *testing.T) {
	in, out := session(t)
	in <- protocol.PlaneSetUp{Data: "overlap", K: 2, Settings: plane.Defaults()}
	_, _, first := until(t, out, settled)
	in <- protocol.PlaneTheta{W: []float64{0, 1.5, 0, -0.75}, B: []float64{0, 0}, Hand: 1}
	st, _, sc := until(t, out, func(st protocol.PlaneState, f protocol.PlaneFrame, sc *protocol.PlaneScene) bool {
		return f.Hand == 1 && settled(st, f, sc) && sc.Scene.Settings.Start == [2]float64{1.5, -0.75}
	})
	if st.Settings.Start != [2]float64{1.5, -0.75} || !sc.Scene.Exact {
		t.Fatalf("the start is %v, the scene exact: %v", st.Settings.Start, sc.Scene.Exact)
	}
	if p := sc.Scene.Paths[plane.GD].Points; len(p) == 0 || p[0] != [2]float64{1.5, -0.75} {
		t.Errorf("gradient descent's path starts at %v", p[:min(1, len(p))])
	}
	at := [2]float64{float64(float32(0.3)), float64(float32(2.1))}
	in <- protocol.PlaneTheta{W: []float64{0, at[0], 0, at[1]}, B: []float64{0, 0}, Quick: true, Hand: 2}
	_, _, quick := until(t, out, func(st protocol.PlaneState, f protocol.PlaneFrame, sc *protocol.PlaneScene) bool {
		return f.Hand == 2 && sc != nil && sc.Scene.Settings.Start == at && !st.Building
	})
	if quick.Scene.Window != sc.Scene.Window || !slices.Equal(quick.Scene.J, sc.Scene.J) {
		t.Error("a quick θ computed the surface again, not only the paths")
	}
	if first.Scene.Settings.Start == at {
		t.Fatal("the test's start is the set-up's")
	}
}
