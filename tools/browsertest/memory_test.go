package browsertest

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

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
