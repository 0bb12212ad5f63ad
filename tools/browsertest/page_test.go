package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestTrainToDone(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := newBrowser(t, 3*time.Minute)
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, 60*time.Second, "ready")
	t.Logf("ready %v after navigation", time.Since(start).Round(time.Millisecond))
	click(t, ctx, "train")
	waitState(t, ctx, 5*time.Second, "training", "done")
	waitState(t, ctx, 60*time.Second, "done")
	acc, err := strconv.ParseFloat(attr(t, ctx, "#test-accuracy", "data-value"), 64)
	if err != nil || acc < 0.85 {
		t.Errorf("test accuracy %v (%v), want at least 0.85", acc, err)
	}
	if n, _ := strconv.Atoi(attr(t, ctx, "#loss-chart", "data-points")); n < 10 {
		t.Errorf("the loss chart has %d points", n)
	}
	// Chromium has WebAssembly SIMD: the worker must have loaded the SIMD
	// kernel and found it to agree with the Go code bit for bit.
	if k := attr(t, ctx, "#kernel", "data-kernel"); k != "wasm-simd" {
		t.Errorf("the worker trains with the %q kernel, want wasm-simd", k)
	}
	checkGallery(t, ctx)
}

// checkGallery: after training, the gallery shows 60 test digits, each with
// a prediction, most of them right, and its canvas is drawn (the images
// and the labels cover part of it, not none and not all).
func checkGallery(t *testing.T, ctx context.Context) {
	t.Helper()
	type state struct {
		Samples, Misread int
		Predicted, Label string
		Inked, Total     int
	}
	var g state
	if !eventually(5*time.Second, func() bool {
		var err error
		g, err = eval[state](ctx, `(() => {
			const c = document.getElementById("gallery");
			const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
			let inked = 0;
			for (let i = 3; i < d.length; i += 4) if (d[i] > 0) inked++;
			return {samples: +c.dataset.samples, misread: +c.dataset.misread, predicted: c.dataset.predicted,
				label: c.getAttribute("aria-label"), inked, total: d.length / 4};
		})()`)
		return err == nil && g.Samples > 0 && !strings.Contains(g.Predicted, "·")
	}) {
		t.Fatalf("the gallery has no predictions: %+v", g)
	}
	if g.Samples != 60 || len([]rune(g.Predicted)) != 60 {
		t.Errorf("the gallery shows %d samples and %d predictions, want 60", g.Samples, len([]rune(g.Predicted)))
	}
	if g.Misread > 12 {
		t.Errorf("%d of 60 gallery digits misread after training, want at most 12", g.Misread)
	}
	if !strings.Contains(g.Label, fmt.Sprintf("%d of 60 test digits misread", g.Misread)) && g.Misread > 0 {
		t.Errorf("the gallery's description %q does not say how many are misread (%d)", g.Label, g.Misread)
	}
	if g.Inked < g.Total/20 || g.Inked > g.Total*9/10 {
		t.Errorf("the gallery canvas has %d of %d pixels drawn", g.Inked, g.Total)
	}
}

// openReady opens the page on a new browser and waits until it is ready.
func openReady(t testing.TB, url string) context.Context {
	t.Helper()
	ctx := newBrowser(t, 4*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, 60*time.Second, "ready")
	return ctx
}

// openPage serves the repository's site and opens the page on a new
// browser, ready to train; it needs a browser, as needBrowser says.
func openPage(t *testing.T) context.Context {
	t.Helper()
	needBrowser(t)
	return openReady(t, startServer(t).URL)
}

// trainThenPause presses Train, waits until the run has taken n steps
// (the page's step counter), then presses Pause and waits until it is
// paused.
func trainThenPause(t testing.TB, ctx context.Context, n int) {
	t.Helper()
	click(t, ctx, "train")
	waitState(t, ctx, 30*time.Second, "training")
	var at string
	if !eventually(time.Minute, func() bool {
		at = attr(t, ctx, "#status", "data-step")
		s, _ := strconv.Atoi(at)
		return s >= n
	}) {
		t.Fatalf("the run is at step %s, not %d; page says: %s", at, n, pageText(ctx))
	}
	click(t, ctx, "pause")
	waitState(t, ctx, 30*time.Second, "paused")
}

// trainDefault presses Train with the settings in the fields and waits
// until that run is done.
func trainDefault(t testing.TB, ctx context.Context) {
	t.Helper()
	trainRun(t, ctx, 90*time.Second)
}

// trainRun presses Train and waits until training has moved (#status
// data-run or data-step changed) and ended, so that a "done" left by the
// last run does not pass for this one's.
func trainRun(t testing.TB, ctx context.Context, d time.Duration) {
	t.Helper()
	if end := runEnd(t, ctx, d, false); end.State != "done" {
		t.Fatalf("the run ended %q, want done; page says: %s", end.State, pageText(ctx))
	}
}

// ended is how a run ended, as runEnd saw it: #status's state, and the ms
// from the click on Train to it when runEnd clicked.
type ended struct {
	State string
	MS    float64
}

// runEnd presses Train (with the mouse, or, if byScript, from the page's
// own script, timed by its clock) and waits until #status shows another
// run or step than before and the state done or error, or d has passed.
// It waits in one call that the page answers when the status changes,
// so that nothing reads the page over the DevTools protocol while it
// trains: the benchmarks time the run and the main thread's tasks.
func runEnd(t testing.TB, ctx context.Context, d time.Duration, byScript bool) ended {
	t.Helper()
	before, err := eval[string](ctx, `(() => { const s = document.getElementById("status"); return s.dataset.run + "/" + s.dataset.step; })()`)
	if err != nil {
		t.Fatal(err)
	}
	if !byScript {
		click(t, ctx, "train")
	}
	js := fmt.Sprintf(`new Promise((resolve) => {
		const s = document.getElementById("status");
		const where = () => s.dataset.run + "/" + s.dataset.step;
		let seen, gaveUp, start = 0;
		const finish = (state) => {
			seen.disconnect();
			clearTimeout(gaveUp);
			resolve(JSON.stringify({State: state, MS: performance.now() - start}));
		};
		const check = () => {
			const state = s.dataset.state;
			if (where() !== %q && (state === "done" || state === "error")) finish(state);
		};
		seen = new MutationObserver(check);
		seen.observe(s, {attributes: true});
		gaveUp = setTimeout(() => finish("not at all: still " + s.dataset.state + " at run/step " + where()), %d);
		if (%t) {
			start = performance.now();
			document.getElementById("train").click();
		}
		check();
	})`, before, d.Milliseconds(), byScript)
	out, err := evalAsync[string](ctx, js)
	if err != nil {
		t.Fatalf("waiting for the run pressed at run/step %s to end: %v", before, err)
	}
	var e ended
	if err := json.Unmarshal([]byte(out), &e); err != nil {
		t.Fatal(err)
	}
	return e
}

func TestDrawnDigitsAreClassified(t *testing.T) {
	ctx := openPage(t)
	trainDefault(t, ctx)
	tests := []struct {
		name    string
		strokes [][][2]float64
		want    string
	}{
		{"a vertical stroke", strokeOne, "1"},
		{"a closed loop", strokeZero, "0"},
		{"a seven", strokeSeven, "7"},
		{"a four in two strokes", strokeFour, "4"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" drawn with the mouse", func(t *testing.T) {
			clearPad(t, ctx)
			drawWithMouse(t, ctx, tt.strokes...)
			checkDrawn(t, ctx, tt.name, tt.want)
		})
	}
	for _, tt := range tests[:2] {
		t.Run(tt.name+" drawn with a finger", func(t *testing.T) {
			clearPad(t, ctx)
			drawWithFinger(t, ctx, tt.strokes...)
			checkDrawn(t, ctx, tt.name, tt.want)
		})
	}
	// make screenshot: the README's picture of the trained page with a
	// drawn digit.
	if path := os.Getenv("SCREENSHOT"); path != "" {
		clearPad(t, ctx)
		drawWithMouse(t, ctx, strokeSeven...)
		checkDrawn(t, ctx, "a seven", "7")
		fullScreenshot(t, ctx, path)
	}
}

func TestPauseStopsTraining(t *testing.T) {
	ctx := openPage(t)
	setField(t, ctx, "epochs", "400")
	trainThenPause(t, ctx, 30)
	// The worker sends the Progress that says paused after its last
	// step's, and the page applies events in order, so nothing of the
	// run arrives after it. The page's counters must then stay put: a
	// second and a half of watching them, which a busy machine can only
	// make see less, never fail.
	epoch, points := attr(t, ctx, "#epoch", "data-value"), attr(t, ctx, "#loss-chart", "data-points")
	if eventually(1500*time.Millisecond, func() bool {
		return attr(t, ctx, "#epoch", "data-value") != epoch || attr(t, ctx, "#loss-chart", "data-points") != points
	}) {
		t.Errorf("while paused, the epoch moved from %s to %s and the chart from %s to %s points",
			epoch, attr(t, ctx, "#epoch", "data-value"), points, attr(t, ctx, "#loss-chart", "data-points"))
	}
	click(t, ctx, "train")
	waitState(t, ctx, 30*time.Second, "training")
	if !eventually(time.Minute, func() bool { return attr(t, ctx, "#loss-chart", "data-points") != points }) {
		t.Fatal("Train after Pause did not resume")
	}
	click(t, ctx, "pause")
	waitState(t, ctx, 30*time.Second, "paused")
}

func TestInvalidValuesAreRefused(t *testing.T) {
	ctx := openPage(t)
	tests := []struct{ field, value, reason string }{
		{"lr", "abc", "not a number"},
		{"lr", "-1", "must be above 0"},
		{"lr", "NaN", "finite number"},
		{"batch", "0", "from 1 to 10000"},
		{"l2", "-5", "at least 0"},
		{"epochs", "2.5", "whole number"},
		{"decay", "2", "at most 1"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s of %s", tt.field, tt.value), func(t *testing.T) {
			setField(t, ctx, tt.field, tt.value)
			click(t, ctx, "train")
			reasonShown := func() string {
				r, _ := eval[string](ctx, fmt.Sprintf(`document.getElementById(%q).textContent`, tt.field+"-error"))
				return r
			}
			var reason string
			if !eventually(3*time.Second, func() bool { reason = reasonShown(); return strings.Contains(reason, tt.reason) }) {
				t.Errorf("the reason shown is %q, want one containing %q", reason, tt.reason)
			}
			if inv := attr(t, ctx, "#"+tt.field, "aria-invalid"); inv != "true" {
				t.Errorf("aria-invalid is %q", inv)
			}
			if s := waitState(t, ctx, time.Second, "ready", "training", "done", "paused", "error"); s != "ready" {
				t.Errorf("training started anyway: status %q", s)
			}
			setField(t, ctx, tt.field, map[string]string{"lr": "0.5", "batch": "100", "l2": "0.0001", "epochs": "5", "decay": "1"}[tt.field])
			if !eventually(3*time.Second, func() bool { reason = reasonShown(); return reason == "" }) {
				t.Errorf("a valid value still shows %q", reason)
			}
		})
	}
	trainDefault(t, ctx) // and the valid values train
}

// TestPresetsFillTheFields: choosing "full-batch gradient descent" sets B
// to the whole training set, and that trains.
func TestPresetsFillTheFields(t *testing.T) {
	ctx := openPage(t)
	choose(t, ctx, "preset", "full")
	var batch, epochs string
	if !eventually(3*time.Second, func() bool {
		batch, _ = eval[string](ctx, `document.getElementById("batch").value`)
		epochs, _ = eval[string](ctx, `document.getElementById("epochs").value`)
		return batch == "10000" && epochs == "100"
	}) {
		t.Fatalf("after choosing full-batch GD, B = %q and epochs = %q", batch, epochs)
	}
	setField(t, ctx, "epochs", "3") // keep the test short
	click(t, ctx, "train")
	waitState(t, ctx, 60*time.Second, "done")
	if e := attr(t, ctx, "#epoch", "data-value"); e != "3" {
		t.Errorf("after 3 full-batch epochs the page shows epoch %s", e)
	}
	if n := attr(t, ctx, "#loss-chart", "data-points"); n != "3" {
		t.Errorf("3 full-batch steps drew %s loss points", n)
	}
}

// choose picks an option of a select, as a person would, and lets the page
// hear of it.
func choose(t testing.TB, ctx context.Context, id, value string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.SetValue("#"+id, value),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Evaluate[bool](fmt.Sprintf(`document.getElementById(%q).dispatchEvent(new Event("change", {bubbles: true}))`, id))(ctx, tg)
			return err
		})); err != nil {
		t.Fatalf("choosing %q in #%s: %v", value, id, err)
	}
}

// TestLecturePresetAndPinning: the lecture notes' preset fills every
// field, its random start reaches the worker (three full-batch steps from
// N(0, 1) leave the loss far above log 10, where a zero start begins), and
// pinning keeps digit 0's template blank while the others learn.
func TestLecturePresetAndPinning(t *testing.T) {
	ctx := openPage(t)
	choose(t, ctx, "preset", "lecture")
	want := map[string]string{"lr": "0.1", "batch": "10000", "l2": "0.001", "epochs": "1000", "init": "normal"}
	var got map[string]string
	if !eventually(3*time.Second, func() bool {
		got, _ = eval[map[string]string](ctx, `Object.fromEntries(["lr", "batch", "l2", "epochs", "init"].map(id => [id, document.getElementById(id).value]))`)
		return fmt.Sprint(got) == fmt.Sprint(want)
	}) {
		t.Fatalf("the lecture preset set %v, want %v", got, want)
	}
	setField(t, ctx, "epochs", "3") // keep the test short
	trainRun(t, ctx, 60*time.Second)
	summary := attr(t, ctx, "#loss-chart", "aria-label")
	var loss float64
	if _, err := fmt.Sscanf(summary, "Batch loss %g", &loss); err != nil || loss < 3 {
		t.Errorf("after 3 full-batch steps from N(0, 1) the chart says %q: want a loss far above log 10 = 2.30", summary)
	}

	choose(t, ctx, "preset", "minibatch")
	click(t, ctx, "pin")
	setField(t, ctx, "epochs", "1")
	trainRun(t, ctx, 60*time.Second)
	blank := func(c int) bool {
		b, err := eval[bool](ctx, fmt.Sprintf(`(() => {
			const c = document.getElementById("weight-%d");
			const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
			return d.every(v => v === 255);
		})()`, c))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if !eventually(5*time.Second, func() bool { return blank(0) && !blank(1) }) {
		t.Errorf("with digit 0 pinned, its template is blank: %v; digit 1's is blank: %v", blank(0), blank(1))
	}
	if acc := attr(t, ctx, "#test-accuracy", "data-value"); acc < "0.85" {
		t.Errorf("pinned, one epoch reaches test accuracy %s, want at least 0.85", acc)
	}
}

// Memory is measured by the page itself (#memory: the page's and the
// worker's live Go heap, in bytes, measured when a run comes to rest), so
// these tests read what a teacher could read, and wait on the page's run
// and step counters, never on the clock.

// heaps is what #memory says: the page's and the worker's live heap.
type heaps struct{ Page, Worker uint64 }

func (h heaps) String() string {
	return fmt.Sprintf("page %.1f MB, worker %.1f MB", float64(h.Page)/1e6, float64(h.Worker)/1e6)
}

// readHeaps reads #memory; it fails the test if either figure is missing.
func readHeaps(t testing.TB, ctx context.Context) heaps {
	t.Helper()
	var h heaps
	for _, f := range []struct {
		name string
		dst  *uint64
	}{{"data-page-heap", &h.Page}, {"data-worker-heap", &h.Worker}} {
		v := attr(t, ctx, "#memory", f.name)
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n == 0 {
			t.Fatalf("#memory[%s] is %q, want a number of bytes above 0", f.name, v)
		}
		*f.dst = n
	}
	return h
}

// resetRun presses Reset and waits until the page shows the fresh run at
// step 0: the Progress that announces it carries the worker's heap, and
// the page measures its own as it applies it, so #memory is current.
func resetRun(t testing.TB, ctx context.Context) {
	t.Helper()
	before := attr(t, ctx, "#status", "data-run")
	click(t, ctx, "reset")
	if !eventually(30*time.Second, func() bool {
		return attr(t, ctx, "#status", "data-run") != before && attr(t, ctx, "#status", "data-step") == "0"
	}) {
		t.Fatalf("Reset did not start a new run (was run %s); page says: %s", before, pageText(ctx))
	}
}

// TestMemoryIsShown: after a run and after a Reset, #memory gives the
// page's and the worker's heap in bytes and says them in megabytes.
func TestMemoryIsShown(t *testing.T) {
	needBrowser(t)
	ctx := openReady(t, startServer(t).URL+"#lang=en&pace=full&epochs=1")
	trainRun(t, ctx, 60*time.Second)
	h := readHeaps(t, ctx)
	text, _ := eval[string](ctx, `document.getElementById("memory").textContent`)
	want := fmt.Sprintf("page %.1f MB, training worker %.1f MB", float64(h.Page)/1e6, float64(h.Worker)/1e6)
	if !strings.Contains(text, want) {
		t.Errorf("#memory says %q, want it to contain %q", text, want)
	}
	// The worker holds the pack (10,000 training images), so its heap is
	// megabytes; the page's holds at least the test images of the gallery.
	if h.Worker < 1e6 || h.Page < 1e5 {
		t.Errorf("heaps of %v are too small to be measured ones", h)
	}
	resetRun(t, ctx)
	readHeaps(t, ctx)
	t.Logf("after one epoch and a Reset: %v", h)
}

// TestMemoryStaysFlat: 100 train/reset cycles (one epoch of the default
// pack at full pace each) leave the page's and the worker's heap within
// 8 MB of where they were at cycle 10, once the caches and the run list
// have filled. It takes a few minutes, so it runs with SOAK=1:
//
//	SOAK=1 go test -count=1 -run TestMemoryStaysFlat -v ./tools/browsertest/
func TestMemoryStaysFlat(t *testing.T) {
	if os.Getenv("SOAK") != "1" {
		t.Skip("100 train/reset cycles take minutes: run with SOAK=1")
	}
	needBrowser(t)
	ctx := newBrowser(t, 60*time.Minute)
	ctx = navigateReady(t, ctx, startServer(t).URL+"#lang=en&pace=full&epochs=1")
	const cycles, from, limit = 100, 10, 8e6
	var at10 heaps
	start := time.Now()
	for c := 1; c <= cycles; c++ {
		trainRun(t, ctx, 60*time.Second)
		resetRun(t, ctx)
		h := readHeaps(t, ctx)
		if c == 1 || c%10 == 0 {
			t.Logf("cycle %d: %v", c, h)
		}
		if c == from {
			at10 = h
		}
		if c == cycles {
			t.Logf("%d cycles in %v", cycles, time.Since(start).Round(time.Second))
			checkGrowth(t, fmt.Sprintf("from cycle %d to %d", from, cycles), at10, h, limit)
		}
	}
}

// TestMemorySoak: a long run at a slow pace (10 steps a second), paused
// every 600 steps (a minute) to read #memory and resumed, leaves both
// heaps within 8 MB of the first reading. SOAK_TIME sets how long
// (default an hour):
//
//	SOAK=1 SOAK_TIME=1h go test -count=1 -timeout 2h -run TestMemorySoak -v ./tools/browsertest/
func TestMemorySoak(t *testing.T) {
	if os.Getenv("SOAK") != "1" {
		t.Skip("an hour at a slow pace: run with SOAK=1 (SOAK_TIME=1h)")
	}
	d := time.Hour
	if s := os.Getenv("SOAK_TIME"); s != "" {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			t.Fatalf("SOAK_TIME=%q: %v", s, err)
		}
	}
	needBrowser(t)
	ctx := newBrowser(t, d+10*time.Minute)
	ctx = navigateReady(t, ctx, startServer(t).URL+"#lang=en&pace=10&epochs=1000")
	const every, limit = 600, 8e6
	var first heaps
	end := time.Now().Add(d)
	for i := 0; ; i++ {
		run := attr(t, ctx, "#status", "data-run")
		step, _ := strconv.Atoi(attr(t, ctx, "#status", "data-step"))
		click(t, ctx, "train")
		if !eventually(5*time.Minute, func() bool {
			s, _ := strconv.Atoi(attr(t, ctx, "#status", "data-step"))
			return s >= step+every
		}) {
			t.Fatalf("the run did not take %d steps from step %d; page says: %s", every, step, pageText(ctx))
		}
		click(t, ctx, "pause")
		waitState(t, ctx, 30*time.Second, "paused")
		if r := attr(t, ctx, "#status", "data-run"); i > 0 && r != run {
			t.Fatalf("resuming started run %s instead of going on with run %s", r, run)
		}
		h := readHeaps(t, ctx)
		t.Logf("step %s: %v", attr(t, ctx, "#status", "data-step"), h)
		if i == 0 {
			first = h
		}
		if time.Now().After(end) {
			checkGrowth(t, "from the first reading to the last", first, h, limit)
			return
		}
	}
}

// navigateReady opens url in the browser of ctx and waits until the page
// is ready.
func navigateReady(t testing.TB, ctx context.Context, url string) context.Context {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, 60*time.Second, "ready")
	return ctx
}

// checkGrowth fails t if either heap grew by more than limit bytes from a
// to b.
func checkGrowth(t testing.TB, what string, a, b heaps, limit float64) {
	t.Helper()
	t.Logf("%s: %v → %v", what, a, b)
	if g := float64(b.Page) - float64(a.Page); g > limit {
		t.Errorf("%s the page's heap grew by %.1f MB, more than %.0f MB", what, g/1e6, limit/1e6)
	}
	if g := float64(b.Worker) - float64(a.Worker); g > limit {
		t.Errorf("%s the worker's heap grew by %.1f MB, more than %.0f MB", what, g/1e6, limit/1e6)
	}
}
