package browsertest

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/planeview"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// thetaID is the id of the field of #plane-theta for class c's weight of
// x₁ (of "1"), of x₂ ("2") or its bias ("b").
func thetaID(c int, of string) string { return fmt.Sprintf("plane-theta-%d-%s", c, of) }

// thetaIndex is where the field's number is in #plane-status's
// data-theta (W as softmax.Model stores it, then B) for K = k.
func thetaIndex(c int, of string, k int) int {
	switch of {
	case "1":
		return c
	case "2":
		return k + c
	}
	return 2*k + c
}

// nativeJ is J of m on d with s, as core computes it natively in float64.
func nativeJ(d plane.Data, s plane.Settings, m *softmax.Model[float64]) float64 {
	all := make([]int32, len(d.Points))
	for i := range all {
		all[i] = int32(i)
	}
	return softmax.Loss(m, plane.Examples[float64](d), all, s.Objective())
}

// waitTheta waits until #plane-status's data-theta holds want (a float32)
// at i, and returns the model it shows.
func waitTheta(t *testing.T, ctx context.Context, k, i int, want float32) *softmax.Model[float64] {
	t.Helper()
	var m *softmax.Model[float64]
	if !eventually(10*time.Second, func() bool {
		m = planeModel(t, ctx, k)
		v := m.W
		j := i
		if i >= 2*k {
			v, j = m.B, i-2*k
		}
		return v[j] == float64(want)
	}) {
		t.Fatalf("data-theta %q never held %v at %d: %s; %s", attr(t, ctx, "#plane-status", "data-theta"), want, i, planeText(ctx), thetaText(ctx))
	}
	return m
}

// thetaText is what #plane-theta's fields hold and say, for failure
// messages.
func thetaText(ctx context.Context) string {
	s, _ := eval[string](ctx, `[...document.querySelectorAll("#plane-theta input")].map(e => e.id + "=" + JSON.stringify(e.value) +
		(e.disabled ? " (disabled)" : "") + ((document.getElementById(e.id + "-error") || {}).textContent ? " (" + document.getElementById(e.id + "-error").textContent + ")" : "")).join(", ")`)
	sent, _ := eval[string](ctx, `(globalThis.softmaxCommandLog || []).filter(c => c.startsWith("plane")).slice(-12).join(" ")`)
	return "#plane-theta: " + s + "; the plane's last commands: " + sent
}

// checkLoss checks that #plane-status's data-loss is J of the model it
// shows, computed natively, bit for bit (it is written at full
// precision).
func checkLoss(t *testing.T, ctx context.Context, d plane.Data, s plane.Settings, what string) {
	t.Helper()
	var got, want float64
	if !eventually(5*time.Second, func() bool {
		// data-theta and data-loss come in one frame, and are read apart:
		// read both again until a frame is read whole.
		m := planeModel(t, ctx, d.K)
		got, _ = strconv.ParseFloat(attr(t, ctx, "#plane-status", "data-loss"), 64)
		want = nativeJ(d, s, m)
		return got == want && planeModel(t, ctx, d.K).W[0] == m.W[0]
	}) {
		t.Errorf("%s: data-loss is %v, core's J for data-theta is %v", what, got, want)
	}
}

// TestPlaneThetaTypedByHand: in #plane-theta each number of the model is
// a field; typing one (keystroke by keystroke) changes data-theta at its
// place and data-loss to J as core computes it natively for that θ. In
// the exact case (K = 2, class 0 pinned, no bias) class 0's fields are
// disabled and class 1's θ is the paths' start; with K = 3, a bias and no
// pin there are nine fields. NaN, a comma and 1e9 are refused beside the
// field and θ is kept; a change of K drops a half-typed value, and axe
// finds nothing to fault.
func TestPlaneThetaTypedByHand(t *testing.T) {
	ctx := openPage(t)
	seePlane(t, ctx)
	v := waitScene(t, ctx, 0)
	d, err := plane.Generate("blobs", 2, planeSeed)
	if err != nil {
		t.Fatal(err)
	}
	s := plane.Defaults()
	if dis, _ := eval[bool](ctx, `document.getElementById("plane-theta-0-1").disabled && !document.getElementById("plane-theta-1-1").disabled`); !dis {
		t.Error("class 0 is pinned, and its field is not disabled (or class 1's is)")
	}
	if n, _ := eval[int](ctx, `document.querySelectorAll("#plane-theta input").length`); n != 4 {
		t.Errorf("K = 2 without a bias: %d fields, want 4", n)
	}
	setField(t, ctx, thetaID(1, "1"), "1.5")
	waitTheta(t, ctx, 2, thetaIndex(1, "1", 2), 1.5)
	setField(t, ctx, thetaID(1, "2"), "-0.75")
	waitTheta(t, ctx, 2, thetaIndex(1, "2", 2), -0.75)
	checkLoss(t, ctx, d, s, "K = 2, θ₁ = (1.5, −0.75)")
	waitAttr(t, ctx, 10*time.Second, "#plane-start", "data-a", is("1.5"))
	waitAttr(t, ctx, 10*time.Second, "#plane-start", "data-b", is("-0.75"))
	v = waitScene(t, ctx, v)

	threeClassesWithBias(t, ctx, v)
	waitAttr(t, ctx, 10*time.Second, "#plane-theta", "data-pin", is("no"))
	if n, _ := eval[int](ctx, `document.querySelectorAll("#plane-theta input:not([disabled])").length`); n != 9 {
		t.Fatalf("K = 3 with a bias, unpinned: %d fields to type in, want 9", n)
	}
	d, _ = plane.Generate("blobs", 3, planeSeed)
	s.Bias, s.Pin = true, false
	for i, f := range []struct {
		c  int
		of string
	}{{0, "1"}, {0, "2"}, {0, "b"}, {1, "1"}, {1, "2"}, {1, "b"}, {2, "1"}, {2, "2"}, {2, "b"}} {
		value := float32(i+1) * 0.25 * float32(1-2*(i%2)) // 0.25, −0.5, 0.75, …: all exact in float32
		setField(t, ctx, thetaID(f.c, f.of), strconv.FormatFloat(float64(value), 'g', -1, 32))
		waitTheta(t, ctx, 3, thetaIndex(f.c, f.of, 3), value)
		checkLoss(t, ctx, d, s, fmt.Sprintf("%s = %v", thetaID(f.c, f.of), value))
	}

	kept := attr(t, ctx, "#plane-status", "data-theta")
	for _, bad := range []string{"NaN", "0,5", "1e9"} {
		paste(t, ctx, thetaID(1, "2"), bad)
		if !eventually(5*time.Second, func() bool { return textOf(t, ctx, thetaID(1, "2")+"-error") != "" }) {
			t.Errorf("%q is not refused: %s", bad, planeText(ctx))
		}
		if got := attr(t, ctx, "#plane-status", "data-theta"); got != kept {
			t.Errorf("%q changed θ from %s to %s", bad, kept, got)
		}
		if inv := attr(t, ctx, "#"+thetaID(1, "2"), "aria-invalid"); inv != "true" {
			t.Errorf("%q: aria-invalid is %q", bad, inv)
		}
	}
	if src := axeIfThere(t); src != "" {
		axe(t, ctx, src, "the plane with a θ refused")
	}
	// K changes while a refused value is in its field: the table is made
	// again for K = 4 and the value is dropped, without a word.
	paste(t, ctx, thetaID(1, "1"), "2.")
	paste(t, ctx, thetaID(1, "1"), "NaN")
	choose(t, ctx, "plane-k", "4")
	waitAttr(t, ctx, 10*time.Second, "#plane-theta", "data-k", is("4"))
	if !eventually(5*time.Second, func() bool {
		n, _ := eval[int](ctx, `document.querySelectorAll("#plane-theta input[aria-invalid='true']").length`)
		return n == 0 && textOf(t, ctx, thetaID(1, "1")+"-error") == "" && textOf(t, ctx, "plane-error") == ""
	}) {
		t.Errorf("after K = 4 a refusal stays: %s", planeText(ctx))
	}
	if got, _ := eval[string](ctx, `document.getElementById("plane-theta-1-1").value`); got == "NaN" {
		t.Error("after K = 4 the field still holds the half-typed NaN")
	}
}

// axeIfThere is axe-core's source if it is installed, or "".
func axeIfThere(t *testing.T) (src string) {
	t.Helper()
	t.Run("axe", func(t *testing.T) { src = axeSource(t) }) // a skip ends only the subtest
	return src
}

// lineGap is the distance, in the plane's units, from x to the boundary
// between classes i and j of m.
func lineGap(m *softmax.Model[float64], i, j int, x [2]float64) float64 {
	k := m.Classes()
	n := [2]float64{m.W[i] - m.W[j], m.W[k+i] - m.W[k+j]}
	return math.Abs(n[0]*x[0]+n[1]*x[1]+m.B[i]-m.B[j]) / math.Hypot(n[0], n[1])
}

// dragOnPlane presses the mouse at the plane's point from, moves it in
// steps to to, and lets go there: real pointer events on #plane-points.
func dragOnPlane(t *testing.T, ctx context.Context, from, to [2]float64) {
	t.Helper()
	r := viewRect(t, ctx, "plane-points", false)
	f := planeview.Frame{W: r.Width, H: r.Height}
	held := func(p *input.DispatchMouseEventParams) {
		p.Button, p.Buttons, p.ClickCount = input.MouseButtonLeft, 1, 1
	}
	a := f.ToCanvas(from)
	actions := []chromedp.Action[chromedp.Void]{
		chromedp.MouseEvent(chromedp.MouseMoved, r.Left+a.X, r.Top+a.Y),
		chromedp.MouseEvent(chromedp.MousePressed, r.Left+a.X, r.Top+a.Y, held),
	}
	const steps = 12
	for i := 1; i <= steps; i++ {
		u := float64(i) / steps
		p := f.ToCanvas([2]float64{from[0] + u*(to[0]-from[0]), from[1] + u*(to[1]-from[1])})
		actions = append(actions, chromedp.MouseEvent(chromedp.MouseMoved, r.Left+p.X, r.Top+p.Y, held))
	}
	b := f.ToCanvas(to)
	actions = append(actions, chromedp.MouseEvent(chromedp.MouseReleased, r.Left+b.X, r.Top+b.Y, held))
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("dragging on the plane: %v", err)
	}
}

// TestPlaneBoundaryDraggedByMouse: with K = 2, a bias and class 0
// pinned, θ₁ = (2, 0) and b₁ = 0 make the boundary the line x₁ = 0.
// Dragged by its middle to x₁ = 1.5, it moves across (θ kept, b₁ = −3);
// dragged by its top end, it turns about its midpoint and passes through
// the release point, |θ₁| kept. Each time the line passes within a pixel
// of where the mouse let go, the pixels of #plane on either side of it
// are the two classes', and the points stay as they were. A drag off the
// canvas holds the line at the view's edge.
func TestPlaneBoundaryDraggedByMouse(t *testing.T) {
	ctx := openPage(t)
	seePlane(t, ctx)
	v := waitScene(t, ctx, 0)
	click(t, ctx, "plane-bias")
	waitScene(t, ctx, v)
	waitAttr(t, ctx, 10*time.Second, "#plane-theta", "data-bias", is("yes"))
	setField(t, ctx, thetaID(1, "1"), "2")
	waitTheta(t, ctx, 2, thetaIndex(1, "1", 2), 2)
	points := attr(t, ctx, "#plane-status", "data-points")
	r := viewRect(t, ctx, "plane-points", false)
	px := 2 * plane.Extent / r.Width // a CSS pixel in the plane's units

	release := [2]float64{1.5, 0.5}
	dragOnPlane(t, ctx, [2]float64{0, 0.5}, release)
	var m *softmax.Model[float64]
	if !eventually(10*time.Second, func() bool {
		m = planeModel(t, ctx, 2)
		return lineGap(m, 0, 1, release) < px
	}) {
		t.Fatalf("dragged by its middle to %v, the boundary of θ %v %v is %.3g units from it", release, m.W, m.B, lineGap(m, 0, 1, release))
	}
	if m.W[1] != 2 || m.W[3] != 0 {
		t.Errorf("a boundary moved across turned: θ₁ = (%v, %v)", m.W[1], m.W[3])
	}
	checkSides(t, ctx, m, release)

	// Its ends are at x₂ = ±4: taken near the top, it turns about (1.5, 0).
	release = [2]float64{3, 3}
	dragOnPlane(t, ctx, [2]float64{1.5, 3.6}, release)
	if !eventually(10*time.Second, func() bool {
		m = planeModel(t, ctx, 2)
		return lineGap(m, 0, 1, release) < px && m.W[3] != 0
	}) {
		t.Fatalf("turned by its end to %v, the boundary of θ %v %v is %.3g units from it", release, m.W, m.B, lineGap(m, 0, 1, release))
	}
	if g := lineGap(m, 0, 1, [2]float64{1.5, 0}); g > px {
		t.Errorf("the turned boundary left its pivot (1.5, 0) by %.3g", g)
	}
	if n := math.Hypot(m.W[1], m.W[3]); math.Abs(n-2) > 1e-5 {
		t.Errorf("the turn changed |θ₁| from 2 to %v", n)
	}
	checkSides(t, ctx, m, release)
	if got := attr(t, ctx, "#plane-status", "data-points"); got != points {
		t.Errorf("the drags changed the points from %s to %s", points, got)
	}

	// Dragged by its middle off the canvas to the right, it stops at the
	// view's edge; the page goes on answering.
	mid := [2]float64{1.5, 0} // on the line, halfway along it
	dragOnPlane(t, ctx, mid, [2]float64{6, 0})
	if !eventually(10*time.Second, func() bool {
		m = planeModel(t, ctx, 2)
		return lineGap(m, 0, 1, [2]float64{plane.Extent, 0}) < px
	}) {
		t.Errorf("dragged off the canvas, the boundary of θ %v %v is not at the view's edge", m.W, m.B)
	}
	setField(t, ctx, thetaID(1, "b"), "0")
	waitTheta(t, ctx, 2, thetaIndex(1, "b", 2), 0)
}

// checkSides reads #plane's pixels half a unit either side of m's
// boundary of classes 0 and 1 at x, and checks that each is the colour of
// the class the model predicts there, one on each side.
func checkSides(t *testing.T, ctx context.Context, m *softmax.Model[float64], x [2]float64) {
	t.Helper()
	n := [2]float64{m.W[0] - m.W[1], m.W[2] - m.W[3]}
	l := math.Hypot(n[0], n[1])
	var pts [][2]float64
	for _, s := range []float64{-0.5, 0.5} {
		p := [2]float64{x[0] + s*n[0]/l, x[1] + s*n[1]/l}
		if math.Abs(p[0]) < plane.Extent && math.Abs(p[1]) < plane.Extent {
			pts = append(pts, p)
		}
	}
	waitAttr(t, ctx, 10*time.Second, "#plane", "data-drawn-step", is(attr(t, ctx, "#plane-status", "data-steps")))
	time.Sleep(100 * time.Millisecond) // the frame drawn after the last θ
	_, w, h := canvasPixels(t, ctx, "plane", [][2]int{})
	f := planeview.Frame{W: w, H: h}
	var at [][2]int
	for _, p := range pts {
		c := f.ToCanvas(p)
		at = append(at, [2]int{int(c.X), int(c.Y)})
	}
	rgb, _, _ := canvasPixels(t, ctx, "plane", at)
	seen := map[int]bool{}
	for i, p := range pts {
		want, _ := m.Predict([]uint16{0, 1}, []float64{p[0], p[1]})
		got, dist := planeview.ClassOf(rgb[i], 2)
		if got != want || dist > 12 {
			t.Errorf("at %v the model predicts class %d, and #plane shows %v, class %d's (%.0f away)", p, want, rgb[i], got, dist)
		}
		seen[got] = true
	}
	if len(pts) == 2 && len(seen) != 2 {
		t.Errorf("the two sides of the boundary at %v show one class", x)
	}
}
