package planework

import (
	"bytes"
	"math"
	"testing"
	"time"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/protocol"
)

// session runs a plane worker for the test and returns its inbox and
// outbox.
func session(t *testing.T) (chan<- protocol.Msg, <-chan protocol.Msg) {
	t.Helper()
	in, out := make(chan protocol.Msg, 64), make(chan protocol.Msg, 1024)
	t.Cleanup(Go(in, out))
	return in, out
}

// until reads events until ok says so, and returns the last state, frame
// and scene seen.
func until(t *testing.T, out <-chan protocol.Msg, ok func(st protocol.PlaneState, f protocol.PlaneFrame, sc *protocol.PlaneScene) bool) (protocol.PlaneState, protocol.PlaneFrame, *protocol.PlaneScene) {
	t.Helper()
	var st protocol.PlaneState
	var f protocol.PlaneFrame
	var sc *protocol.PlaneScene
	deadline := time.After(60 * time.Second)
	for {
		select {
		case m := <-out:
			switch m := m.(type) {
			case protocol.PlaneState:
				st = m
			case protocol.PlaneFrame:
				f = m
			case protocol.PlaneScene:
				sc = &m
			}
			if ok(st, f, sc) {
				return st, f, sc
			}
		case <-deadline:
			t.Fatalf("the plane's worker never got there: state %+v, frame at step %d", st, f.Status.Steps)
		}
	}
}

// settled reports whether the worker is at rest with the scene and the
// frame of the state's version.
func settled(st protocol.PlaneState, f protocol.PlaneFrame, sc *protocol.PlaneScene) bool {
	return sc != nil && sc.Seq == st.Seq && !st.Building && st.State != stateTraining && f.Seq == st.Seq
}

// TestTheWorkersSceneIsCores: the scene the worker sends for a set-up is
// core/plane's for the same data and settings, bit for bit, and its frame
// is the live model's regions.
func TestTheWorkersSceneIsCores(t *testing.T) {
	in, out := session(t)
	for _, c := range []struct {
		data string
		k    int
		set  func(*plane.Settings)
	}{
		{"blobs", 2, func(*plane.Settings) {}},
		{"overlap", 3, func(s *plane.Settings) { s.Bias, s.Pin = true, false }},
	} {
		s := plane.Defaults()
		c.set(&s)
		in <- protocol.PlaneSetUp{Data: c.data, K: c.k, Settings: s}
		st, f, sc := until(t, out, settled)
		d, err := plane.Generate(c.data, c.k, Seed)
		if err != nil {
			t.Fatal(err)
		}
		want, err := plane.Build(d, s)
		if err != nil {
			t.Fatal(err)
		}
		wb, _ := want.MarshalBinary()
		gb, _ := sc.Scene.MarshalBinary()
		if !bytes.Equal(wb, gb) {
			t.Errorf("%s, K = %d: the worker's scene is not core/plane's", c.data, c.k)
		}
		if len(st.Data.Points) != len(d.Points) || f.N != defaultGrid || len(f.Image) != 4*f.N*f.N || f.Model() == nil {
			t.Errorf("%s: state with %d points, frame of %d cells and %d bytes", c.data, len(st.Data.Points), f.N, len(f.Image))
		}
	}
}

// TestPointsSentQuicklyAreAllKept: points added faster than the worker
// answers, while it trains, are all in its data, once each, in order; the
// last scene is for the last data, and the regions drawn are the final θ's.
func TestPointsSentQuicklyAreAllKept(t *testing.T) {
	in, out := session(t)
	in <- protocol.PlaneSetUp{Data: "blobs", K: 2, Settings: plane.Defaults()}
	st, _, _ := until(t, out, settled)
	first := len(st.Data.Points)
	in <- protocol.PlaneTrain{On: true}
	var added [][2]float64
	for i := range 30 {
		at := [2]float64{-3.5 + 0.2*float64(i), 3.5}
		added = append(added, at)
		in <- protocol.PlanePoint{At: at, Radius: 0.01, Class: i % 2}
	}
	st, f, sc := until(t, out, func(st protocol.PlaneState, f protocol.PlaneFrame, sc *protocol.PlaneScene) bool {
		return len(st.Data.Points) == first+30 && settled(st, f, sc) && f.State == stateDone
	})
	pts := st.Data.Points[first:]
	for i, at := range added {
		if pts[i].X != at || pts[i].Class != i%2 {
			t.Fatalf("point %d is %+v, want %v of class %d", i, pts[i], at, i%2)
		}
	}
	if sc.Seq != st.Seq || f.Seq != st.Seq {
		t.Errorf("the last scene is for version %d, the frame %d, the data %d", sc.Seq, f.Seq, st.Seq)
	}
	class, prob := make([]uint8, f.N*f.N), make([]float32, f.N*f.N)
	plane.Regions(class, prob, f.Model(), f.N, f.N)
	if st.State != stateDone || f.Status.Points != first+30 {
		t.Errorf("after the points: %q, the model on %d points", st.State, f.Status.Points)
	}
}

// TestWhatThePageAsksWaits: ψ asked while the model trains is added once
// it has trained; α asked at 1.5 × 2/λ_max is set once the scene knows
// 2/λ_max.
func TestWhatThePageAsksWaits(t *testing.T) {
	in, out := session(t)
	s := plane.Defaults()
	s.Pin, s.Bias = false, true
	in <- protocol.PlaneSetUp{Data: "blobs", K: 3, Settings: s, Warm: true}
	in <- protocol.PlanePsi{}
	st, _, _ := until(t, out, func(st protocol.PlaneState, f protocol.PlaneFrame, sc *protocol.PlaneScene) bool {
		return st.Psis == 1
	})
	if st.State != stateDone || st.Psi == nil || st.Psi.MaxDP > 1e-5 {
		t.Errorf("ψ was added in state %q: %+v", st.State, st.Psi)
	}
	in <- protocol.PlaneSetUp{Data: "overlap", K: 2, Settings: plane.Defaults()}
	in <- protocol.PlaneAbove{Times: 1.5}
	_, _, sc := until(t, out, func(st protocol.PlaneState, f protocol.PlaneFrame, sc *protocol.PlaneScene) bool {
		return settled(st, f, sc) && st.Settings.Rate != plane.Defaults().Rate
	})
	if gd := sc.Scene.Paths[plane.GD]; gd.ZigZags < gd.Steps/2 {
		t.Errorf("α above 2/λ_max: %d zig-zags in %d steps", gd.ZigZags, gd.Steps)
	}
}

// TestAWorkerTakesOverAnother: a worker resumed from another's last
// frame draws the same regions and goes on training from there.
func TestAWorkerTakesOverAnother(t *testing.T) {
	in, out := session(t)
	s := plane.Defaults()
	s.Pin, s.Bias = false, true
	in <- protocol.PlaneSetUp{Data: "ring", K: 3, Settings: s, Warm: true}
	st, f, _ := until(t, out, func(st protocol.PlaneState, f protocol.PlaneFrame, sc *protocol.PlaneScene) bool {
		return settled(st, f, sc) && f.State == stateDone
	})
	in2, out2 := session(t)
	in2 <- protocol.PlaneResume{Name: st.Name, Data: st.Data, Settings: st.Settings, W: f.W, B: f.B}
	_, g, _ := until(t, out2, settled)
	if !bytes.Equal(g.Image, f.Image) || g.Status.Loss != f.Status.Loss {
		t.Errorf("the worker taken over draws other regions, or J = %v, not %v", g.Status.Loss, f.Status.Loss)
	}
	in2 <- protocol.PlaneTrain{On: true}
	_, h, _ := until(t, out2, func(st protocol.PlaneState, f protocol.PlaneFrame, sc *protocol.PlaneScene) bool {
		return f.Status.Steps > 0
	})
	// From θ = 0 J would be log 3; from the model taken over it stays at
	// the minimum the first worker reached, but for rounding.
	if math.Abs(h.Status.Loss-f.Status.Loss) > 1e-9 {
		t.Errorf("training on from the model taken over: J = %v, from %v", h.Status.Loss, f.Status.Loss)
	}
}

// TestKeysAddAndRemoveOnlyWhatTheySay: a key's PointAdd adds a point
// even on top of another (where a click would remove it), and PointRemove
// removes the point under it, or nothing if none is there.
func TestKeysAddAndRemoveOnlyWhatTheySay(t *testing.T) {
	in, out := session(t)
	in <- protocol.PlaneSetUp{Data: "blobs", K: 2, Settings: plane.Defaults()}
	st, _, _ := until(t, out, settled)
	n, at := len(st.Data.Points), [2]float64{0.5, -3.75}
	points := func(want int) protocol.PlaneState {
		t.Helper()
		st, _, _ := until(t, out, func(st protocol.PlaneState, f protocol.PlaneFrame, sc *protocol.PlaneScene) bool {
			return len(st.Data.Points) == want && settled(st, f, sc)
		})
		return st
	}
	in <- protocol.PlanePoint{At: at, Radius: 0.2, Class: 1, Do: protocol.PointAdd}
	points(n + 1)
	in <- protocol.PlanePoint{At: at, Radius: 0.2, Class: 0, Do: protocol.PointAdd}
	st = points(n + 2)
	if p := st.Data.Points[n:]; p[0].X != at || p[1].X != at || p[0].Class != 1 || p[1].Class != 0 {
		t.Fatalf("two points added at %v: %+v", at, p)
	}
	in <- protocol.PlanePoint{At: [2]float64{3.5, 3.5}, Radius: 0.2, Do: protocol.PointRemove}
	in <- protocol.PlanePoint{At: [2]float64{at[0] + 0.1, at[1]}, Radius: 0.2, Do: protocol.PointRemove}
	st = points(n + 1)
	if st.Data.Points[n].X != at || st.Data.Points[n].Class != 1 {
		t.Errorf("after a removal under the cursor and one where there is no point: %+v", st.Data.Points[n:])
	}
	if got := len(st.Data.Points); got != n+1 {
		t.Errorf("%d points, want %d", got, n+1)
	}
}

// TestRefusalsSayWhy: an input core/plane refuses comes back with its
// problem, and the plane keeps what it had.
func TestRefusalsSayWhy(t *testing.T) {
	in, out := session(t)
	in <- protocol.PlaneSetUp{Data: "blobs", K: 2, Settings: plane.Defaults()}
	st, _, _ := until(t, out, settled)
	in <- protocol.PlanePoint{At: [2]float64{99, 0}, Radius: 0.01}
	st2, _, _ := until(t, out, func(st protocol.PlaneState, f protocol.PlaneFrame, sc *protocol.PlaneScene) bool {
		return st.Refused != nil
	})
	if st2.Refused.Problem != int(plane.OutsideView) || st2.Refused.X[0] != "99" || len(st2.Data.Points) != len(st.Data.Points) {
		t.Errorf("a point outside the view: %+v, %d points", st2.Refused, len(st2.Data.Points))
	}
}
