package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/planeview"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// planeSeed is the seed the page's plane makes its data sets from
// (wasm/ui's planeSeed): the test makes the same points.
const planeSeed = 1

// waitPlane waits until #plane-status's data-state is state, failing with
// what the plane shows after d.
func waitPlane(t testing.TB, ctx context.Context, d time.Duration, state string) {
	t.Helper()
	var got string
	if !eventually(d, func() bool {
		got = attr(t, ctx, "#plane-status", "data-state")
		return got == state
	}) {
		t.Fatalf("the plane is %q, not %q, after %v: %s", got, state, d, planeText(ctx))
	}
}

// planeText is what the plane says, for failure messages.
func planeText(ctx context.Context) string {
	s, _ := eval[string](ctx, `["plane-status", "plane-error", "plane-notes", "plane-paths", "plane-lr-error", "plane-l2-error", "plane-batch-error"]
		.map(id => { const e = document.getElementById(id); return id + ": " + (e ? e.textContent : "missing"); }).join("; ")`)
	return s
}

// waitScene waits until the plane's surface has a scene later than
// version and none is being computed, and returns its version.
func waitScene(t testing.TB, ctx context.Context, after int) int {
	t.Helper()
	v := 0
	if !eventually(time.Minute, func() bool {
		v, _ = strconv.Atoi(attr(t, ctx, "#plane-surface", "data-version"))
		return v > after && attr(t, ctx, "#plane-surface", "data-computing") == "no"
	}) {
		t.Fatalf("the surface stays at version %d (waiting for one after %d): %s", v, after, planeText(ctx))
	}
	return v
}

// threeClassesWithBias sets the plane to K = 3 with a bias and no class
// pinned, one control at a time, each time waiting for the scene after
// version; it returns the last scene's version.
func threeClassesWithBias(t testing.TB, ctx context.Context, version int) int {
	t.Helper()
	choose(t, ctx, "plane-k", "3")
	version = waitScene(t, ctx, version)
	click(t, ctx, "plane-bias")
	version = waitScene(t, ctx, version)
	click(t, ctx, "plane-pin")
	return waitScene(t, ctx, version)
}

// seePlane scrolls the plane into view, as a person does to look at it:
// its scene is computed only within a screen's height of the viewport.
func seePlane(t testing.TB, ctx context.Context) {
	t.Helper()
	if _, err := eval[bool](ctx, `document.getElementById("plane").scrollIntoView({block: "center"}), true`); err != nil {
		t.Fatal(err)
	}
}

// sceneVersion returns the surface's data-version.
func sceneVersion(t testing.TB, ctx context.Context) int {
	t.Helper()
	v, _ := strconv.Atoi(attr(t, ctx, "#plane-surface", "data-version"))
	return v
}

// pathAttr returns an attribute of one method's item of #plane-paths.
func pathAttr(t testing.TB, ctx context.Context, method, name string) string {
	t.Helper()
	return attr(t, ctx, fmt.Sprintf("#plane-paths [data-method=%q]", method), name)
}

// planeModel reads the live model the page shows, from #plane-status's
// data-theta (W, then B).
func planeModel(t testing.TB, ctx context.Context, k int) *softmax.Model[float64] {
	t.Helper()
	f := strings.Split(attr(t, ctx, "#plane-status", "data-theta"), ",")
	if len(f) != 3*k {
		t.Fatalf("data-theta has %d numbers for K = %d", len(f), k)
	}
	m := softmax.NewClasses[float64](2, k)
	for i, s := range f {
		// data-theta gives float32s in their shortest form: read as
		// float32, or a number of more digits becomes another float64.
		v, err := strconv.ParseFloat(s, 32)
		if err != nil {
			t.Fatal(err)
		}
		if i < 2*k {
			m.W[i] = v
		} else {
			m.B[i-2*k] = v
		}
	}
	return m
}

// canvasPixels reads the RGB of the #plane canvas's pixels at pts, and
// the canvas's size in pixels.
func canvasPixels(t testing.TB, ctx context.Context, id string, pts [][2]int) (rgb [][3]uint8, w, h float64) {
	t.Helper()
	js, _ := json.Marshal(pts)
	s, err := eval[string](ctx, fmt.Sprintf(`(() => { const c = document.getElementById(%q), g = c.getContext("2d");
		return JSON.stringify({w: c.width, h: c.height, px: %s.map(([x, y]) => Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3)))}); })()`, id, js))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		W, H float64
		Px   [][3]uint8
	}
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v.Px, v.W, v.H
}

// checkRegions reads back, from the #plane canvas, the colour under each
// point of d and checks that it is the colour of the class the page's
// model predicts there. Points within 5 canvas pixels of a boundary (the
// line drawn there, and the smoothing of the regions' image) are skipped;
// at least 85% must be checked, of at least two classes.
func checkRegions(t testing.TB, ctx context.Context, d plane.Data) {
	t.Helper()
	m := planeModel(t, ctx, d.K)
	_, w, h := canvasPixels(t, ctx, "plane", [][2]int{})
	f := planeview.Frame{W: w, H: h}
	segs := f.Segments(plane.Boundaries(m))
	var pts [][2]int
	var want []int
	for _, p := range d.Points {
		c := f.ToCanvas(p.X)
		near := false
		for i := 0; i+1 < len(segs); i += 2 {
			a, b := segs[i], segs[i+1]
			dx, dy := b.X-a.X, b.Y-a.Y
			s := max(0, min(1, ((c.X-a.X)*dx+(c.Y-a.Y)*dy)/(dx*dx+dy*dy)))
			if math.Hypot(a.X+s*dx-c.X, a.Y+s*dy-c.Y) < 5 {
				near = true
			}
		}
		if near {
			continue
		}
		class, _ := m.Predict([]uint16{0, 1}, []float64{p.X[0], p.X[1]})
		pts = append(pts, [2]int{int(c.X), int(c.Y)})
		want = append(want, class)
	}
	if len(pts) < len(d.Points)*85/100 {
		t.Fatalf("only %d of %d points lie away from the boundaries", len(pts), len(d.Points))
	}
	rgb, _, _ := canvasPixels(t, ctx, "plane", pts)
	seen := map[int]bool{}
	for i, px := range rgb {
		got, dist := planeview.ClassOf(px, d.K)
		if got != want[i] || dist > 12 {
			t.Errorf("the point at canvas (%d, %d) is predicted class %d, but the pixel there, %v, is class %d's (%.0f away)", pts[i][0], pts[i][1], want[i], px, got, dist)
		}
		seen[want[i]] = true
	}
	if len(seen) < 2 {
		t.Errorf("the points checked are all of one predicted class: %v", seen)
	}
	t.Logf("K = %d: %d of %d points checked against the canvas", d.K, len(pts), len(d.Points))
}

// trainPlane presses the plane's Train and waits until its run is done
// and the regions drawn are the final model's.
func trainPlane(t testing.TB, ctx context.Context) {
	t.Helper()
	waitPlane(t, ctx, 10*time.Second, "ready") // so that "done" is this run's
	// A scene that completes fills in 2/λ_max beside α, which moves the
	// button: click once none is being computed.
	waitScene(t, ctx, 0)
	click(t, ctx, "plane-train")
	waitPlane(t, ctx, 2*time.Minute, "done")
	steps := attr(t, ctx, "#plane-status", "data-steps")
	if !eventually(10*time.Second, func() bool { return attr(t, ctx, "#plane", "data-drawn-step") == steps }) {
		t.Fatalf("the regions drawn are of step %s, the model's is %s", attr(t, ctx, "#plane", "data-drawn-step"), steps)
	}
}

// TestPlaneRegionsHoldTheirPoints: after training on blobs, each point
// lies, on the canvas, in the region of the class the model predicts for
// it (pixels read back from the canvas); for logistic regression (K = 2,
// the default) and for three classes with a bias.
func TestPlaneRegionsHoldTheirPoints(t *testing.T) {
	ctx := openPage(t)
	seePlane(t, ctx)
	choose(t, ctx, "pace", "full")
	d, err := plane.Generate("blobs", 2, planeSeed)
	if err != nil {
		t.Fatal(err)
	}
	if got := attr(t, ctx, "#plane-status", "data-points"); got != strconv.Itoa(len(d.Points)) {
		t.Fatalf("the plane shows %s points, blobs has %d", got, len(d.Points))
	}
	trainPlane(t, ctx)
	checkRegions(t, ctx, d)

	v := sceneVersion(t, ctx)
	choose(t, ctx, "plane-k", "3")
	click(t, ctx, "plane-bias")
	click(t, ctx, "plane-pin")
	waitScene(t, ctx, v)
	if attr(t, ctx, "#plane-surface", "data-kind") != "slice" {
		t.Errorf("K = 3 with a bias shows a %q surface, not a slice", attr(t, ctx, "#plane-surface", "data-kind"))
	}
	d, _ = plane.Generate("blobs", 3, planeSeed)
	trainPlane(t, ctx)
	checkRegions(t, ctx, d)
}

// TestPlaneClickAddsAndRemovesAPoint: a click on an empty spot of the
// plane adds a point of the chosen class (data-points and data-counts
// follow, and the surface is computed again), and a click on it removes
// it.
func TestPlaneClickAddsAndRemovesAPoint(t *testing.T) {
	ctx := openPage(t)
	seePlane(t, ctx)
	n, _ := strconv.Atoi(attr(t, ctx, "#plane-status", "data-points"))
	counts := attr(t, ctx, "#plane-status", "data-counts")
	if counts != "60,60" {
		t.Fatalf("blobs has %q points of each class, want 60,60", counts)
	}
	v := waitScene(t, ctx, 0)
	choose(t, ctx, "plane-add-class", "1")
	r := viewRect(t, ctx, "plane-points", false)
	at := planeview.Frame{W: r.Width, H: r.Height}.ToCanvas([2]float64{3.5, -3.5}) // a corner without points
	clickAt := func() {
		x, y := r.Left+at.X, r.Top+at.Y
		if err := chromedp.Do(ctx, chromedp.MouseClickXY(x, y)); err != nil {
			t.Fatal(err)
		}
	}
	clickAt()
	if !eventually(10*time.Second, func() bool { return attr(t, ctx, "#plane-status", "data-points") == strconv.Itoa(n+1) }) {
		t.Fatalf("a click left %s points, want %d: %s", attr(t, ctx, "#plane-status", "data-points"), n+1, planeText(ctx))
	}
	if got := attr(t, ctx, "#plane-status", "data-counts"); got != "60,61" {
		t.Errorf("after a click with class 1 chosen the classes have %q points, want 60,61", got)
	}
	v = waitScene(t, ctx, v)
	clickAt()
	if !eventually(10*time.Second, func() bool { return attr(t, ctx, "#plane-status", "data-points") == strconv.Itoa(n) }) {
		t.Fatalf("a second click left %s points, want %d", attr(t, ctx, "#plane-status", "data-points"), n)
	}
	waitScene(t, ctx, v)
}

// planeNote reports whether the plane shows the note whose catalog key is
// key.
func planeNote(t testing.TB, ctx context.Context, key string) bool {
	t.Helper()
	return attr(t, ctx, fmt.Sprintf("#plane-notes [data-note=%q]", key), "data-note") == key
}

// pathNumber returns a number attribute of one method's path, failing
// if it is not a finite number.
func pathNumber(t testing.TB, ctx context.Context, method, name string) float64 {
	t.Helper()
	s := pathAttr(t, ctx, method, name)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		t.Fatalf("%s's %s is %q, not a finite number", method, name, s)
	}
	return v
}

// TestPlaneSurfaceShowsSeparableDataAndTheStepCeiling: on separable data
// with λ = 0 the surface says there is no minimum, the note says why, and
// Newton's path runs off to a large ‖θ‖ while J falls towards 0; with
// λ > 0 the paths stop at a minimum. On overlap, an α above the 2/λ_max
// shown makes gradient descent zig-zag at every step without settling,
// and far above it diverges, named on its path; no path shows NaN.
func TestPlaneSurfaceShowsSeparableDataAndTheStepCeiling(t *testing.T) {
	ctx := openPage(t)
	seePlane(t, ctx)
	v := waitScene(t, ctx, 0)
	choose(t, ctx, "plane-data", "separable")
	v = waitScene(t, ctx, v)
	if got := attr(t, ctx, "#plane-surface", "data-minimum"); got != "none" || !planeNote(t, ctx, "plane.separated") {
		t.Errorf("separable, λ = 0: minimum %q; %s", got, planeText(ctx))
	}
	runaway := pathNumber(t, ctx, "newton", "data-theta-norm")
	if j := pathNumber(t, ctx, "newton", "data-final-loss"); runaway < 10 || j > 1e-6 {
		t.Errorf("separable, λ = 0: Newton's path ends at ‖θ‖ = %.3g with J = %.3g", runaway, j)
	}
	setField(t, ctx, "plane-l2", "0.05")
	v = waitScene(t, ctx, v)
	if got := attr(t, ctx, "#plane-surface", "data-minimum"); got != "found" || !planeNote(t, ctx, "plane.lambdaStops") || planeNote(t, ctx, "plane.separated") {
		t.Errorf("separable, λ = 0.05: minimum %q; %s", got, planeText(ctx))
	}
	if stop, norm := pathAttr(t, ctx, "newton", "data-stop"), pathNumber(t, ctx, "newton", "data-theta-norm"); stop != "converged" || norm > runaway/2 {
		t.Errorf("separable, λ = 0.05: Newton's path %s at ‖θ‖ = %.3g", stop, norm)
	}

	setField(t, ctx, "plane-l2", "0")
	choose(t, ctx, "plane-data", "overlap")
	v = waitScene(t, ctx, v)
	alphaMax, err := strconv.ParseFloat(attr(t, ctx, "#plane-alpha-max", "data-value"), 64)
	if err != nil || !(alphaMax > 0) {
		t.Fatalf("2/λ_max is %q", attr(t, ctx, "#plane-alpha-max", "data-value"))
	}
	for _, c := range []struct {
		f    float64
		stop string
	}{{0.5, "converged"}, {1.2, "budget"}, {5, "diverged"}} {
		setField(t, ctx, "plane-lr", strconv.FormatFloat(c.f*alphaMax, 'g', 6, 64))
		v = waitScene(t, ctx, v)
		steps := pathNumber(t, ctx, "gd", "data-steps")
		zig := pathNumber(t, ctx, "gd", "data-zigzags")
		if stop := pathAttr(t, ctx, "gd", "data-stop"); stop != c.stop {
			t.Errorf("α = %.2g·2/λ_max: gradient descent %s after %.0f steps, want %s", c.f, stop, steps, c.stop)
		}
		if above := attr(t, ctx, "#plane-alpha-max", "data-above"); above != map[bool]string{false: "no", true: "yes"}[c.f > 1] {
			t.Errorf("α = %.2g·2/λ_max: data-above %q", c.f, above)
		}
		if c.stop == "budget" && zig < steps-5 {
			t.Errorf("α = %.2g·2/λ_max: %.0f zig-zags in %.0f steps", c.f, zig, steps)
		}
		for _, m := range []string{"gd", "sgd", "newton"} {
			pathNumber(t, ctx, m, "data-final-loss")
			pathNumber(t, ctx, m, "data-grad-norm")
		}
	}
}

// TestPlaneRefusesBadInputAndKeepsThePicture: α that is not a number, NaN
// or huge, λ < 0 and B above the points are refused beside their fields
// while the last scene stays; a K that would drop a class's points is
// refused with the reason and the points kept; a good value then applies
// at once. Adding ψ to every θ_c changes no pixel of the regions.
func TestPlaneRefusesBadInputAndKeepsThePicture(t *testing.T) {
	ctx := openPage(t)
	seePlane(t, ctx)
	v := waitScene(t, ctx, 0)
	for _, c := range []struct{ id, value string }{
		{"plane-lr", "abc"}, {"plane-lr", "NaN"}, {"plane-lr", "1e9"}, {"plane-l2", "-1"}, {"plane-batch", "500"},
	} {
		// The whole value at once (a paste): typed, "1e9" would pass
		// through "1", which is a good α.
		paste(t, ctx, c.id, c.value)
		if !eventually(5*time.Second, func() bool { return textOf(t, ctx, c.id+"-error") != "" }) {
			t.Errorf("%s = %q is not refused: %s", c.id, c.value, planeText(ctx))
		}
		// The render that shows the reason would show a new scene begun.
		if got := sceneVersion(t, ctx); got != v || attr(t, ctx, "#plane-surface", "data-computing") != "no" {
			t.Errorf("%s = %q: the scene changed (version %d → %d)", c.id, c.value, v, got)
		}
		good := map[string]string{"plane-lr": "1", "plane-l2": "0", "plane-batch": "1"}[c.id]
		paste(t, ctx, c.id, good)
		if !eventually(5*time.Second, func() bool { return textOf(t, ctx, c.id+"-error") == "" }) {
			t.Errorf("%s = %q stays refused", c.id, good)
		}
		v = waitScene(t, ctx, v) // the good value applies at once
	}

	selectValue(t, ctx, "plane-k", "3")
	if !eventually(5*time.Second, func() bool { return attr(t, ctx, `#plane-add-class option[value="2"]`, "value") == "2" }) {
		t.Fatal("K = 3 offers no class 2 to add")
	}
	selectValue(t, ctx, "plane-add-class", "2")
	r := viewRect(t, ctx, "plane-points", false)
	at := planeview.Frame{W: r.Width, H: r.Height}.ToCanvas([2]float64{-3.6, -3.6})
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(r.Left+at.X, r.Top+at.Y)); err != nil {
		t.Fatal(err)
	}
	want := strconv.Itoa(3*plane.PerClass + 1)
	if !eventually(10*time.Second, func() bool { return attr(t, ctx, "#plane-status", "data-points") == want }) {
		t.Fatalf("the click did not add a point: %s", planeText(ctx))
	}
	selectValue(t, ctx, "plane-k", "2")
	if !eventually(5*time.Second, func() bool { return textOf(t, ctx, "plane-error") != "" }) {
		t.Fatalf("K = 2 with points of class 2 is not refused: %s", planeText(ctx))
	}
	if k, _ := eval[string](ctx, `document.getElementById("plane-k").value`); k != "3" || attr(t, ctx, "#plane-status", "data-points") != want {
		t.Errorf("after the refusal K shows %s and the plane has %s points", k, attr(t, ctx, "#plane-status", "data-points"))
	}

	click(t, ctx, "plane-pin") // ψ needs class 0 free
	choose(t, ctx, "pace", "full")
	trainPlane(t, ctx)
	changed, total, dp, dn := addPsiInPlane(t, ctx)
	if changed > 9 || dp > 1e-5 || dn == 0 {
		t.Errorf("ψ changed %d of %d pixels, probabilities by up to %.2g, ‖θ‖ by %.3g", changed, total, dp, dn)
	}
}

// addPsiInPlane presses the plane's ψ button and, once the plane shows
// the result and has drawn again, returns how many of a 30×30 grid of
// the regions' pixels changed, the grid's size, and the largest change
// of a probability and the change of ‖θ‖² that #plane-psi-result reports.
func addPsiInPlane(t *testing.T, ctx context.Context) (changed, total int, dp, dn float64) {
	t.Helper()
	grid := make([][2]int, 0, 900)
	_, w, h := canvasPixels(t, ctx, "plane", [][2]int{})
	for i := range 30 {
		for j := range 30 {
			grid = append(grid, [2]int{int((float64(i) + 0.5) * w / 30), int((float64(j) + 0.5) * h / 30)})
		}
	}
	before, _, _ := canvasPixels(t, ctx, "plane", grid)
	draws := attr(t, ctx, "#plane", "data-draws")
	click(t, ctx, "plane-psi")
	if !eventually(10*time.Second, func() bool {
		return attr(t, ctx, "#plane-psi-result", "data-max-dp") != "" && attr(t, ctx, "#plane", "data-draws") != draws
	}) {
		t.Fatalf("ψ did not show a result: %s", planeText(ctx))
	}
	after, _, _ := canvasPixels(t, ctx, "plane", grid)
	for i := range before {
		if before[i] != after[i] {
			changed++
		}
	}
	dp, _ = strconv.ParseFloat(attr(t, ctx, "#plane-psi-result", "data-max-dp"), 64)
	dn, _ = strconv.ParseFloat(attr(t, ctx, "#plane-psi-result", "data-dnorm"), 64)
	return changed, len(grid), dp, dn
}

// paste puts value into the input id at once, as a paste does, and lets
// the page hear of it.
func paste(t testing.TB, ctx context.Context, id, value string) {
	t.Helper()
	if _, err := eval[bool](ctx, fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q;
		e.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`, id, value)); err != nil {
		t.Fatalf("putting %q into #%s: %v", value, id, err)
	}
}

// selectValue chooses value in the select id, as choose does, finding
// the element afresh (the plane re-renders its selects' options).
func selectValue(t testing.TB, ctx context.Context, id, value string) {
	t.Helper()
	ok, err := eval[bool](ctx, fmt.Sprintf(`(() => { const e = document.getElementById(%q);
		if (![...e.options].some(o => o.value === %q)) return false;
		e.value = %q; e.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, id, value, value))
	if err != nil || !ok {
		t.Fatalf("choosing %q in #%s: %v (offered: %v)", value, id, err, ok)
	}
}

// textOf returns the text of the element id.
func textOf(t testing.TB, ctx context.Context, id string) string {
	t.Helper()
	s, err := eval[string](ctx, fmt.Sprintf(`(document.getElementById(%q) || {textContent: "<missing>"}).textContent.trim()`, id))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPlaneSceneWaitsOffScreen: on the full page the plane is the last
// panel, far below the top; its scene waits there, costing the page's main
// thread nothing, and is computed once a person scrolls to it.
func TestPlaneSceneWaitsOffScreen(t *testing.T) {
	ctx := openPage(t)
	below, err := eval[float64](ctx, `document.getElementById("plane").getBoundingClientRect().top / innerHeight`)
	if err != nil {
		t.Fatal(err)
	}
	if below < 2.5 {
		t.Fatalf("the plane starts %.1f screens below the top: the test needs it further than the two that start its scene", below)
	}
	time.Sleep(2 * time.Second) // a first scene takes under a second on an idle page
	if v, c := sceneVersion(t, ctx), attr(t, ctx, "#plane-surface", "data-computing"); v != 0 || c != "yes" {
		t.Fatalf("off screen, the plane computed %d scenes (computing %q); it should wait", v, c)
	}
	seePlane(t, ctx)
	waitScene(t, ctx, 0)
}

// sceneSum is the checksum the page shows of a scene (#plane-surface's
// data-scene): FNV-1a of core/plane's bytes of it.
func sceneSum(t testing.TB, sc *plane.Scene) string {
	t.Helper()
	b, err := sc.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	h.Write(b)
	return strconv.FormatUint(h.Sum64(), 16)
}

// TestPlaneSceneIsCoresBitForBit: the scene the plane's worker computes
// in the browser, drawn on the page, is the one core/plane computes
// natively for the same points and settings, bit for bit.
func TestPlaneSceneIsCoresBitForBit(t *testing.T) {
	ctx := openPage(t)
	seePlane(t, ctx)
	v := waitScene(t, ctx, 0)
	for _, c := range []struct {
		data string
		k    int
		set  func(*plane.Settings)
		do   func()
	}{
		{"blobs", 2, func(*plane.Settings) {}, func() {}},
		{"overlap", 3, func(s *plane.Settings) { s.Bias, s.Pin = true, false }, func() {
			choose(t, ctx, "plane-data", "overlap")
			v = waitScene(t, ctx, v)
			v = threeClassesWithBias(t, ctx, v)
		}},
	} {
		c.do()
		d, err := plane.Generate(c.data, c.k, planeSeed)
		if err != nil {
			t.Fatal(err)
		}
		s := plane.Defaults()
		c.set(&s)
		sc, err := plane.Build(d, s)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := attr(t, ctx, "#plane-surface", "data-scene"), sceneSum(t, sc); got != want {
			t.Errorf("%s, K = %d: the page's scene is %s, core/plane's %s", c.data, c.k, got, want)
		}
	}
}

// TestPlanePointsAddedQuicklyWhileItTrains: points clicked faster than
// the plane's worker answers, while it trains, are all kept, once each,
// of the class chosen; and once the run is done the regions drawn are
// the final θ's.
func TestPlanePointsAddedQuicklyWhileItTrains(t *testing.T) {
	ctx := openPage(t)
	seePlane(t, ctx)
	choose(t, ctx, "pace", "50")
	waitScene(t, ctx, 0)
	d, err := plane.Generate("blobs", 2, planeSeed)
	if err != nil {
		t.Fatal(err)
	}
	choose(t, ctx, "plane-add-class", "1")
	click(t, ctx, "plane-train")
	waitPlane(t, ctx, 10*time.Second, "training")
	r := viewRect(t, ctx, "plane-points", false)
	f := planeview.Frame{W: r.Width, H: r.Height}
	var clicks []chromedp.Action[chromedp.Void]
	for i := range 20 {
		at := [2]float64{-3.6 + 0.35*float64(i%10), 3.6 - 0.35*float64(i/10)} // a corner without points, none within a click of another
		px := f.ToCanvas(at)
		clicks = append(clicks, chromedp.MouseClickXY(r.Left+px.X, r.Top+px.Y))
		d.Points = append(d.Points, plane.Point{X: f.FromCanvas(px.X, px.Y), Class: 1})
	}
	if err := chromedp.Do(ctx, clicks...); err != nil { // one after another, without waiting for the page
		t.Fatal(err)
	}
	waitAttr(t, ctx, 20*time.Second, "#plane-status", "data-points", is(strconv.Itoa(len(d.Points))))
	if got := attr(t, ctx, "#plane-status", "data-counts"); got != "60,80" {
		t.Errorf("after 20 clicks with class 1 chosen the classes have %q points, want 60,80", got)
	}
	choose(t, ctx, "pace", "full")
	waitPlane(t, ctx, time.Minute, "done")
	waitAttr(t, ctx, 10*time.Second, "#plane", "data-drawn-step", is(attr(t, ctx, "#plane-status", "data-steps")))
	checkRegions(t, ctx, d)
}

// TestPlaneWorkerDiesAndThePlaneGoesOn: the plane's worker terminated in
// the middle of a run (as a browser may end a worker) is replaced within
// seconds: the plane keeps its points and its picture, and trains on from
// the model it showed, to the end.
func TestPlaneWorkerDiesAndThePlaneGoesOn(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := openWith(t, 3*time.Minute, srv.URL, keepWorkers)
	seePlane(t, ctx)
	choose(t, ctx, "pace", "10")
	waitScene(t, ctx, 0)
	r := viewRect(t, ctx, "plane-points", false)
	at := planeview.Frame{W: r.Width, H: r.Height}.ToCanvas([2]float64{3.5, -3.5})
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(r.Left+at.X, r.Top+at.Y)); err != nil {
		t.Fatal(err)
	}
	waitAttr(t, ctx, 10*time.Second, "#plane-status", "data-points", is("121"))
	click(t, ctx, "plane-train")
	waitAttr(t, ctx, 20*time.Second, "#plane-status", "data-steps", func(v string) bool { n, _ := strconv.Atoi(v); return n >= 10 })
	loss, _ := strconv.ParseFloat(attr(t, ctx, "#plane-status", "data-loss"), 64)
	if _, err := eval[bool](ctx, `globalThis.softmaxPlaneWorkers.at(-1).terminate(), true`); err != nil {
		t.Fatal(err)
	}
	if !eventually(10*time.Second, func() bool {
		n, _ := eval[int](ctx, `globalThis.softmaxPlaneWorkers.length`)
		return n == 2
	}) {
		t.Fatal("the plane's worker was not replaced")
	}
	choose(t, ctx, "pace", "full")
	waitPlane(t, ctx, time.Minute, "done")
	after, _ := strconv.ParseFloat(attr(t, ctx, "#plane-status", "data-loss"), 64)
	if got := attr(t, ctx, "#plane-status", "data-points"); got != "121" || !(after < loss) {
		t.Errorf("after the worker died: %s points, J %v, from %v before", got, after, loss)
	}
}

// TestPlaneByKeyboardAlone: Tab reaches the plane, whose cursor shows;
// the arrow keys move it without scrolling the page, Enter adds three
// points of the chosen class and Delete removes the one under the cursor
// (and nothing where there is none); then Tab reaches the loss surface,
// where an arrow key moves the paths' start and a new scene is drawn.
func TestPlaneByKeyboardAlone(t *testing.T) {
	ctx := openPage(t)
	seePlane(t, ctx)
	v := waitScene(t, ctx, 0)
	tabTo(t, ctx, "plane-keys")
	if n, _ := eval[int](ctx, `(() => { const c = document.getElementById("plane-points");
		return c.getContext("2d").getImageData(0, 0, c.width, c.height).data.filter((v, i) => i % 4 === 3 && v > 0).length; })()`); n == 0 {
		t.Error("the plane has the focus, and #plane-points is blank")
	}
	scroll, _ := eval[float64](ctx, `scrollY`)
	keys := func(ks ...string) {
		t.Helper()
		for _, k := range ks {
			var opts []chromedp.KeyOption
			if strings.HasPrefix(k, "shift+") {
				k, opts = strings.TrimPrefix(k, "shift+"), []chromedp.KeyOption{chromedp.KeyModifiers(chromedp.ModifierShift)}
			}
			if err := chromedp.Do(ctx, chromedp.KeyEvent(k, opts...)); err != nil {
				t.Fatalf("pressing %q: %v", k, err)
			}
		}
	}
	cursorAt := func(x, y float64) {
		t.Helper()
		waitAttr(t, ctx, 5*time.Second, "#plane-cursor", "data-x", is(strconv.FormatFloat(x, 'g', -1, 64)))
		waitAttr(t, ctx, 5*time.Second, "#plane-cursor", "data-y", is(strconv.FormatFloat(y, 'g', -1, 64)))
	}
	points := func(n int, counts string) {
		t.Helper()
		waitAttr(t, ctx, 10*time.Second, "#plane-status", "data-points", is(strconv.Itoa(n)))
		if got := attr(t, ctx, "#plane-status", "data-counts"); got != counts {
			t.Errorf("%d points, of each class %q, want %q", n, got, counts)
		}
	}
	// From (0, 0) to the top left corner, where the blobs have no point.
	keys("shift+"+kb.ArrowLeft, "shift+"+kb.ArrowLeft, "shift+"+kb.ArrowLeft, kb.ArrowLeft, kb.ArrowLeft)
	keys("shift+"+kb.ArrowUp, "shift+"+kb.ArrowUp, "shift+"+kb.ArrowUp, kb.ArrowUp, kb.ArrowUp)
	cursorAt(-3.5, 3.5)
	if got := attr(t, ctx, "#plane-cursor", "data-under"); got != "" {
		t.Fatalf("a point of class %s is under the cursor at (−3.5, 3.5) before any was added", got)
	}
	keys(kb.Enter, kb.ArrowRight, kb.ArrowRight, kb.Enter, kb.ArrowDown, kb.ArrowDown, kb.Enter)
	points(123, "63,60")
	cursorAt(-3, 3)
	waitAttr(t, ctx, 5*time.Second, "#plane-cursor", "data-under", is("0"))
	keys(kb.Delete)
	points(122, "62,60")
	waitAttr(t, ctx, 5*time.Second, "#plane-cursor", "data-under", is(""))
	// Delete where no point is removes nothing and adds nothing: the next
	// point added makes 123.
	keys(kb.Delete, kb.ArrowDown, kb.ArrowDown, kb.Enter)
	points(123, "63,60")
	if now, _ := eval[float64](ctx, `scrollY`); now != scroll {
		t.Errorf("the arrow keys on the plane scrolled the page from %v to %v", scroll, now)
	}

	v = waitScene(t, ctx, v-1)
	tabTo(t, ctx, "plane-surface-keys")
	a, b := attr(t, ctx, "#plane-start", "data-a"), attr(t, ctx, "#plane-start", "data-b")
	keys(kb.ArrowRight)
	waitAttr(t, ctx, 5*time.Second, "#plane-start", "data-a", func(s string) bool {
		x, _ := strconv.ParseFloat(s, 64)
		y, _ := strconv.ParseFloat(a, 64)
		return x > y
	})
	if got := attr(t, ctx, "#plane-start", "data-b"); got != b {
		t.Errorf("→ moved the start's b from %s to %s", b, got)
	}
	waitScene(t, ctx, v)
}

// tabTo presses Tab until the element id has the focus.
func tabTo(t testing.TB, ctx context.Context, id string) {
	t.Helper()
	for range 400 {
		if got, _ := eval[string](ctx, `document.activeElement ? document.activeElement.id : ""`); got == id {
			return
		}
		press(t, ctx, kb.Tab)
	}
	t.Fatalf("Tab did not reach #%s", id)
}
