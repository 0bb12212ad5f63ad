package browsertest

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestInspectorLooksInsideOneUpdate: after training, a click on a cell of
// the confusion matrix lists exactly that cell's test images (its count,
// or the cap of 60), each of that true and predicted digit; a click on one
// opens it in the inspector, whose probabilities match the list's to
// float32's rounding and whose loss matches its own data; Apply changes the model's checksum to the one
// the inspector predicted (the worker's step and the page's arithmetic
// agree bit for bit), and the image's loss goes down. A cell also opens
// from the keyboard; gallery digits, the drawing (as the digit chosen) and
// a training image open in the inspector; the time from a click on the
// gallery to the inspector drawn is logged.
func TestInspectorLooksInsideOneUpdate(t *testing.T) {
	ctx := openPage(t)
	trainDefault(t, ctx)
	// The matrix of the run's last step: the last evaluation comes after
	// the Progress that says "done".
	if !eventually(10*time.Second, func() bool {
		return attr(t, ctx, "#confusion", "data-step") == attr(t, ctx, "#status", "data-step")
	}) {
		t.Fatalf("the confusion matrix is of step %s, the run is at step %s", attr(t, ctx, "#confusion", "data-step"), attr(t, ctx, "#status", "data-step"))
	}

	// The off-diagonal cell with the most images.
	type cell struct{ True, Predicted, Count int }
	var c cell
	if !eventually(10*time.Second, func() bool {
		var err error
		c, err = eval[cell](ctx, `(() => {
			let best = {true: -1, predicted: -1, count: 0};
			for (const td of document.querySelectorAll("#confusion td.pick")) {
				const n = +td.dataset.count;
				if (td.dataset.true !== td.dataset.predicted && n > best.count)
					best = {true: +td.dataset.true, predicted: +td.dataset.predicted, count: n};
			}
			return best;
		})()`)
		return err == nil && c.Count > 0
	}) {
		t.Fatalf("no confusion cell off the diagonal has a count: %+v; page says: %s", c, pageText(ctx))
	}
	sel := fmt.Sprintf(`#confusion td[data-true="%d"][data-predicted="%d"]`, c.True, c.Predicted)
	if _, err := eval[bool](ctx, `document.querySelector(`+strconv.Quote(sel)+`).click(), true`); err != nil {
		t.Fatal(err)
	}
	want := min(c.Count, 60)
	type child struct {
		True, Predicted, Index int
		P                      string
	}
	listed := func(c cell) []child {
		var kids []child
		eventually(10*time.Second, func() bool {
			var err error
			kids, err = eval[[]child](ctx, fmt.Sprintf(`(() => {
				const l = document.getElementById("confusion-examples");
				if (!l || l.dataset.true !== "%d" || l.dataset.predicted !== "%d") return [];
				return [...l.children].map(e => ({true: +e.dataset.true, predicted: +e.dataset.predicted, index: +e.dataset.index, p: e.dataset.p}));
			})()`, c.True, c.Predicted))
			return err == nil && len(kids) > 0
		})
		return kids
	}
	kids := listed(c)
	if len(kids) != want || attr(t, ctx, "#confusion-examples", "data-count") != strconv.Itoa(c.Count) {
		t.Fatalf("cell %d→%d counts %d: %d images listed, count %s; want %d", c.True, c.Predicted, c.Count, len(kids),
			attr(t, ctx, "#confusion-examples", "data-count"), want)
	}
	for _, k := range kids {
		if k.True != c.True || k.Predicted != c.Predicted {
			t.Errorf("image %d of cell %d→%d is marked %d→%d", k.Index, c.True, c.Predicted, k.True, k.Predicted)
		}
	}
	t.Logf("cell %d→%d: %d test images, %d listed", c.True, c.Predicted, c.Count, len(kids))

	// Open the first one in the inspector.
	if _, err := eval[bool](ctx, `document.querySelector("#confusion-examples > .cell-example").click(), true`); err != nil {
		t.Fatal(err)
	}
	type inspected struct {
		State, Source, Index, Label, Predicted, P, PAfter, Loss, LossAfter, Model, After, LossText string
	}
	read := func() inspected {
		v, err := eval[inspected](ctx, `(() => {
			const e = document.getElementById("inspect"), d = e.dataset;
			return {state: d.state || "", source: d.source || "", index: d.index || "", label: d.label || "",
				predicted: d.predicted || "", p: d.p || "", pAfter: d.pAfter || "", loss: d.loss || "",
				lossAfter: d.lossAfter || "", model: d.model || "", after: d.after || "",
				lossText: (document.getElementById("inspect-loss") || {}).textContent || ""};
		})()`)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	var in inspected
	if !eventually(5*time.Second, func() bool {
		in = read()
		return in.State == "filled" && in.Source == "cell" && in.Index == strconv.Itoa(kids[0].Index)
	}) {
		t.Fatalf("the inspector shows %+v, want test image %d", in, kids[0].Index)
	}
	if ms, err := eval[float64](ctx, `performance.getEntriesByName("softmax:inspect-filled").pop().startTime - performance.getEntriesByName("softmax:inspect-click").pop().startTime`); err == nil {
		t.Logf("click on a listed image → inspector drawn, the first time: %.1f ms", ms)
	}
	// The list gives p as the model predicts (softmax.Logits); the
	// inspector as the trainer's step computes it (softmax.GradLogits,
	// the pixels in pairs), so that its p − y is the gradient applied.
	// The two orders of addition agree to float32's rounding, a few units
	// in the 7th digit; a different image or model would differ far more.
	p := strings.Split(in.P, ",")
	near := func(a, b string) bool {
		x, err1 := strconv.ParseFloat(a, 32)
		y, err2 := strconv.ParseFloat(b, 32)
		return err1 == nil && err2 == nil && math.Abs(x-y) <= 4e-6
	}
	if len(p) != 10 || !near(p[c.Predicted], kids[0].P) || in.Label != strconv.Itoa(c.True) || in.Predicted != strconv.Itoa(c.Predicted) {
		t.Errorf("the inspector shows label %s, prediction %s, p %v; the list says %d→%d with p = %s",
			in.Label, in.Predicted, p, c.True, c.Predicted, kids[0].P)
	}
	loss, _ := strconv.ParseFloat(in.Loss, 64)
	lossAfter, _ := strconv.ParseFloat(in.LossAfter, 64)
	if shown := fmt.Sprintf("%.4g", loss); !strings.Contains(in.LossText, shown) {
		t.Errorf("the loss shown, %q, is not the loss %s", in.LossText, shown)
	}
	if !(lossAfter < loss) {
		t.Errorf("the loss after the update, %v, is not below the loss before, %v", lossAfter, loss)
	}
	before := attr(t, ctx, "#weights", "data-checksum")
	if in.Model != before {
		t.Errorf("the inspector's model %s is not the page's %s", in.Model, before)
	}

	// Apply: the worker's model becomes the one the inspector computed.
	click(t, ctx, "inspect-apply")
	var now string
	if !eventually(10*time.Second, func() bool {
		now = attr(t, ctx, "#weights", "data-checksum")
		return now != before
	}) {
		t.Fatalf("the model's checksum is still %s after Apply; page says: %s", before, pageText(ctx))
	}
	if now != in.After {
		t.Errorf("after Apply the model's checksum is %s; the inspector computed %s", now, in.After)
	}
	var again inspected
	if !eventually(5*time.Second, func() bool { again = read(); return again.Model == now }) {
		t.Errorf("the inspector still shows model %s, not %s", again.Model, now)
	} else if again.Loss != in.LossAfter {
		t.Errorf("under the updated model the image's loss is %s; the inspector predicted %s", again.Loss, in.LossAfter)
	}
	t.Logf("loss of the image %.4g before, %.4g after one update; checksum %s → %s", loss, lossAfter, before, now)
	// The open cell's list follows the changed model, as the matrix does.
	var counts [2]string
	if !eventually(5*time.Second, func() bool {
		counts = [2]string{attr(t, ctx, sel, "data-count"), attr(t, ctx, "#confusion-examples", "data-count")}
		n, _ := strconv.Atoi(counts[0])
		kids, _ := eval[int](ctx, `document.getElementById("confusion-examples").children.length`)
		return counts[0] == counts[1] && kids == min(n, 60)
	}) {
		t.Errorf("after Apply cell %d→%d counts %s, its list %s", c.True, c.Predicted, counts[0], counts[1])
	}

	t.Run("a cell opens from the keyboard", func(t *testing.T) {
		d, err := eval[cell](ctx, `(() => {
			for (const td of document.querySelectorAll("#confusion td.pick"))
				if (td.dataset.true === td.dataset.predicted) return {true: +td.dataset.true, predicted: +td.dataset.predicted, count: +td.dataset.count};
			return {};
		})()`)
		if err != nil || d.Count == 0 {
			t.Fatalf("no diagonal cell: %+v %v", d, err)
		}
		sel := fmt.Sprintf(`#confusion td[data-true="%d"][data-predicted="%d"]`, d.True, d.Predicted)
		if err := chromedp.Do(ctx, chromedp.Focus(sel), chromedp.KeyEvent(kb.Enter)); err != nil {
			t.Fatal(err)
		}
		if kids := listed(d); len(kids) != min(d.Count, 60) {
			t.Errorf("cell %d→%d counts %d: %d listed", d.True, d.Predicted, d.Count, len(kids))
		}
		if note, _ := eval[string](ctx, `document.getElementById("confusion-examples-note").textContent`); d.Count > 60 && !strings.Contains(note, " 60 ") {
			t.Errorf("cell %d→%d has %d images, 60 shown, and the note says %q", d.True, d.Predicted, d.Count, note)
		}
	})

	t.Run("a gallery digit opens in the inspector", func(t *testing.T) {
		// The first image of each digit in turn: the time from the click
		// to the inspector drawn, by the page's performance marks.
		var times []float64
		for col := range 10 {
			type box struct{ X, Y float64 }
			b, err := eval[box](ctx, fmt.Sprintf(`(() => {
				const g = document.getElementById("gallery");
				g.scrollIntoView();
				const r = g.getBoundingClientRect(), s = r.width / 360;
				return {x: r.left + (%d * 36 + 18) * s, y: r.top + 18 * s};
			})()`, col))
			if err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.MouseClickXY(b.X, b.Y, chromedp.ButtonType(input.MouseButtonLeft))); err != nil {
				t.Fatal(err)
			}
			var g inspected
			if !eventually(5*time.Second, func() bool {
				g = read()
				return g.Source == "gallery" && g.State == "filled" && g.Label == strconv.Itoa(col)
			}) {
				t.Fatalf("clicked the first %d of the gallery; the inspector shows %+v", col, g)
			}
			// The gallery and the inspector read the image alike (deskewed
			// as the model was trained) with the same model.
			if preds := []rune(attr(t, ctx, "#gallery", "data-predicted")); g.Index != "" {
				if i, _ := strconv.Atoi(g.Index); i < len(preds) && string(preds[i]) != g.Predicted {
					t.Errorf("gallery image %d: the gallery predicts %c, the inspector %s", i, preds[i], g.Predicted)
				}
			}
			ms, err := eval[float64](ctx, `(() => {
				const c = performance.getEntriesByName("softmax:inspect-click").pop(), f = performance.getEntriesByName("softmax:inspect-filled").pop();
				return c && f && f.startTime > c.startTime ? f.startTime - c.startTime : -1;
			})()`)
			if err != nil || ms < 0 {
				t.Fatalf("no performance marks for the click and the drawing: %v %v", ms, err)
			}
			times = append(times, ms)
		}
		slices.Sort(times)
		t.Logf("gallery click → inspector drawn, 10 clicks: median %.1f ms, fastest %.1f ms, slowest %.1f ms", (times[4]+times[5])/2, times[0], times[9])
	})

	t.Run("the drawing opens in the inspector as the digit chosen", func(t *testing.T) {
		digit, _ := drawn(t, ctx, strokeSeven...)
		if _, err := eval[bool](ctx, `(() => {
			const s = document.getElementById("inspect-draw-label");
			s.value = "7";
			s.dispatchEvent(new Event("change", {bubbles: true}));
			return true;
		})()`); err != nil {
			t.Fatal(err)
		}
		click(t, ctx, "inspect-draw")
		var g inspected
		if !eventually(5*time.Second, func() bool { g = read(); return g.Source == "drawing" && g.State == "filled" }) {
			t.Fatalf("the inspector shows %+v after asking for the drawing", g)
		}
		if g.Label != "7" || g.Predicted != digit {
			t.Errorf("the drawing is inspected as a %s predicted %s; want a 7 predicted %s, as the draw pad reads it", g.Label, g.Predicted, digit)
		}
	})

	t.Run("a random training image opens in the inspector", func(t *testing.T) {
		click(t, ctx, "inspect-train")
		var g inspected
		if !eventually(5*time.Second, func() bool { g = read(); return g.Source == "train" && g.State == "filled" }) {
			t.Fatalf("the inspector shows %+v after asking for a training image", g)
		}
	})
	if path := os.Getenv("INSPECTOR_SCREENSHOT"); path != "" {
		fullScreenshot(t, ctx, path)
	}
}

// TestConfusionCellsShowTheirCounts: after a run, the confusion matrix's
// 100 cells hold the final evaluation's counts (written in one call by
// web/plot.js): each row adds up to the test digits of its class, all of
// them to the test set, the diagonal to the accuracy shown; a count shows
// as text, shaded green on the diagonal and red off it, and only a cell
// with a count can be clicked and focused. A second run and a change of
// language leave them right.
func TestConfusionCellsShowTheirCounts(t *testing.T) {
	needBrowser(t)
	ctx := openReady(t, startServer(t).URL+"#lang=en&pace=full&epochs=1")
	type cell struct {
		True, Predicted, Count int
		Text, Bg, Role, Tab    string
		Pick                   bool
	}
	read := func() []cell {
		var cs []cell
		s, err := eval[string](ctx, `JSON.stringify([...document.querySelectorAll("#confusion td.cell")].map(td => ({
			true: +td.dataset.true, predicted: +td.dataset.predicted, count: +(td.dataset.count ?? -1), text: td.textContent,
			bg: td.style.background, role: td.getAttribute("role") || "", tab: td.getAttribute("tabindex") || "", pick: td.classList.contains("pick")})))`)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(s), &cs); err != nil {
			t.Fatal(err)
		}
		return cs
	}
	check := func(when string) {
		t.Helper()
		cs := read()
		if len(cs) != 100 {
			t.Fatalf("%s: %d cells", when, len(cs))
		}
		rows, diag, total := [10]int{}, 0, 0
		for i, c := range cs {
			if c.True != i/10 || c.Predicted != i%10 || c.Count < 0 {
				t.Fatalf("%s: cell %d is %+v", when, i, c)
			}
			rows[c.True] += c.Count
			total += c.Count
			if c.True == c.Predicted {
				diag += c.Count
			}
			text, colour := "", ""
			if c.Count > 0 {
				text, colour = strconv.Itoa(c.Count), map[bool]string{true: "rgba(27, 120, 55,", false: "rgba(178, 24, 43,"}[c.True == c.Predicted]
			}
			clickable := c.Pick && c.Role == "button" && c.Tab == "0"
			if c.Text != text || (colour != "" && !strings.HasPrefix(c.Bg, colour)) || clickable != (c.Count > 0) || (c.Count == 0 && (c.Pick || c.Role != "" || c.Tab != "")) {
				t.Errorf("%s: cell %d→%d counts %d and shows %+v", when, c.True, c.Predicted, c.Count, c)
			}
		}
		if total != 2000 {
			t.Errorf("%s: the cells add up to %d test images, want the default pack's 2,000 (rows %v)", when, total, rows)
		}
		acc, _ := strconv.ParseFloat(attr(t, ctx, "#test-accuracy", "data-value"), 64)
		if math.Abs(float64(diag)/float64(total)-acc) > 1e-9 {
			t.Errorf("%s: the diagonal holds %d of %d, the accuracy shown is %v", when, diag, total, acc)
		}
	}
	trainRun(t, ctx, time.Minute)
	check("after a run")
	first := read()
	setField(t, ctx, "lr", "0.05")
	trainRun(t, ctx, time.Minute)
	if !eventually(5*time.Second, func() bool { return !reflect.DeepEqual(read(), first) }) {
		t.Fatal("a second run with another α left every cell as it was")
	}
	check("after a second run")
	choose(t, ctx, "lang", "zh")
	waitAttr(t, ctx, 5*time.Second, ".page", "lang", is("zh-CN"))
	check("in Chinese")
}
