package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// The page on a classroom's screen: the templates large and
// live, why the model reads a drawing so, the likelihood value, and "done"
// that shows the final model's numbers.

// screen emulates a screen of w×h CSS pixels; mobile adds a phone's
// viewport rules and touch.
func screen(t testing.TB, ctx context.Context, w, h int64, mobile bool) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		scale := 1.0
		if mobile {
			scale = 3
		}
		if _, err := cdp.Call(ctx, tg, emulation.SetDeviceMetricsOverride,
			emulation.SetDeviceMetricsOverrideParams{Width: w, Height: h, DeviceScaleFactor: scale, Mobile: mobile}); err != nil {
			return err
		}
		if mobile {
			_, err := cdp.Call(ctx, tg, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 5})
			return err
		}
		return nil
	}))
	if err != nil {
		t.Fatalf("emulating a %d×%d screen: %v", w, h, err)
	}
}

// openOnScreen opens url on a new browser with the given timeout, on a
// screen of w×h CSS pixels as screen emulates it, and waits until the page
// is ready.
func openOnScreen(t *testing.T, url string, timeout time.Duration, w, h int64, mobile bool) context.Context {
	t.Helper()
	ctx := newBrowser(t, timeout)
	screen(t, ctx, w, h, mobile)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, 60*time.Second, "ready")
	return ctx
}

// box is an element's place in the viewport, and the viewport's size.
type box struct {
	ID                       string
	Left, Top, Right, Bottom float64
	Width                    float64
	InnerWidth, InnerHeight  float64
	ScrollX, ScrollY         float64
}

// boxes returns the boxes of the elements with the given ids, as the page
// stands (without scrolling to them).
func boxes(t *testing.T, ctx context.Context, ids ...string) []box {
	t.Helper()
	js, _ := json.Marshal(ids)
	s, err := eval[string](ctx, fmt.Sprintf(`JSON.stringify(%s.map(id => {
		const e = document.getElementById(id);
		const r = e ? e.getBoundingClientRect() : {left: NaN, top: NaN, right: NaN, bottom: NaN, width: NaN};
		return {id, left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width,
			innerWidth: innerWidth, innerHeight: innerHeight, scrollX: scrollX, scrollY: scrollY};
	}))`, js))
	if err != nil {
		t.Fatal(err)
	}
	var out []box
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkFirstScreen fails unless every element is whole within the first
// viewport, unscrolled.
func checkFirstScreen(t *testing.T, ctx context.Context, ids ...string) {
	t.Helper()
	for _, b := range boxes(t, ctx, ids...) {
		if b.ScrollX != 0 || b.ScrollY != 0 {
			t.Errorf("the page is scrolled to %v, %v", b.ScrollX, b.ScrollY)
		}
		if !(b.Left >= 0 && b.Top >= 0 && b.Right <= b.InnerWidth && b.Bottom <= b.InnerHeight) {
			t.Errorf("#%s is at (%.0f, %.0f)–(%.0f, %.0f), not within the %.0f×%.0f screen", b.ID, b.Left, b.Top, b.Right, b.Bottom, b.InnerWidth, b.InnerHeight)
		}
	}
}

// shot saves a screenshot of the viewport into $CLASSROOM_SHOTS, if set.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("CLASSROOM_SHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	}
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
	}
}

// TestFitsAClassroomScreen: on a projector's 1280×720 and a laptop's
// 1366×768, the status, Train, the loss chart and the draw pad are in the
// first screen; the settings are open; the templates are at least 112 px
// wide; and Present enlarges the type.
func TestFitsAClassroomScreen(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	for _, tt := range []struct {
		size [2]int64
		lang string
	}{{[2]int64{1280, 720}, "en"}, {[2]int64{1280, 720}, "zh"}, {[2]int64{1366, 768}, "en"}} {
		size := tt.size
		t.Run(fmt.Sprintf("%d×%d in %s", size[0], size[1], tt.lang), func(t *testing.T) {
			ctx := openOnScreen(t, strings.TrimSuffix(srv.URL, "/")+"/#lang="+tt.lang, 2*time.Minute, size[0], size[1], false)
			shot(t, ctx, fmt.Sprintf("screen-%d-%s", size[0], tt.lang))
			checkFirstScreen(t, ctx, "status", "test-accuracy", "likelihood", "train", "loss-chart", "draw-pad")
			if open, _ := eval[bool](ctx, `document.querySelector("details.settings").open`); !open {
				t.Error("the settings are folded on a wide screen")
			}
			widths, err := eval[[]float64](ctx, `[...document.querySelectorAll("#weights canvas")].map(c => c.getBoundingClientRect().width)`)
			if err != nil || len(widths) != 10 {
				t.Fatalf("templates %v (%v)", widths, err)
			}
			t.Logf("templates %.0f px wide", widths[0])
			for c, w := range widths {
				if w < 112 {
					t.Errorf("template %d is %.0f px wide, want at least 112", c, w)
				}
			}
			if w, _ := eval[float64](ctx, `document.documentElement.scrollWidth - innerWidth`); w > 0 {
				t.Errorf("the page scrolls sideways by %.0f px", w)
			}
			fontSize := func() float64 {
				v, _ := eval[float64](ctx, `parseFloat(getComputedStyle(document.documentElement).fontSize)`)
				return v
			}
			before := fontSize()
			click(t, ctx, "present")
			var after float64
			if !eventually(3*time.Second, func() bool { after = fontSize(); return after >= 1.25*before }) ||
				attr(t, ctx, "#present", "aria-pressed") != "true" {
				t.Errorf("Present: type %v px, was %v; aria-pressed %q", after, before, attr(t, ctx, "#present", "aria-pressed"))
			}
			shot(t, ctx, fmt.Sprintf("present-%d-%s", size[0], tt.lang))
			click(t, ctx, "present")
			if !eventually(3*time.Second, func() bool { return fontSize() == before }) || attr(t, ctx, "#present", "aria-pressed") != "false" {
				t.Errorf("Present again: type %v px, want %v", fontSize(), before)
			}
		})
	}
}

// TestPhoneShowsTrainAndThePad: on a phone (390×844, touch), the status,
// Train and the draw pad are in the first screen with the settings folded,
// nothing scrolls sideways, a tap on a template shows its pixel's
// weights, and the settings open with a tap.
func TestPhoneShowsTrainAndThePad(t *testing.T) {
	needBrowser(t)
	ctx := openOnScreen(t, startServer(t).URL, 2*time.Minute, 390, 844, true)
	var open bool
	if !eventually(3*time.Second, func() bool {
		open, _ = eval[bool](ctx, `document.querySelector("details.settings").open`)
		return !open
	}) {
		t.Error("the settings are open on a phone")
	}
	shot(t, ctx, "phone")
	checkFirstScreen(t, ctx, "status", "train", "draw-pad")
	if w, _ := eval[float64](ctx, `document.documentElement.scrollWidth - innerWidth`); w > 0 {
		t.Errorf("the page scrolls sideways by %.0f px", w)
	}
	trainDefault(t, ctx)
	tapTemplate(t, ctx, 5, 14, 10)
	var row, col string
	if !eventually(3*time.Second, func() bool {
		row, col = attr(t, ctx, "#weight-probe", "data-row"), attr(t, ctx, "#weight-probe", "data-col")
		n, _ := eval[int](ctx, `document.querySelectorAll("#weight-probe [data-w]").length`)
		return row == "14" && col == "10" && n == 10
	}) {
		t.Errorf("a tap on row 14, column 10 of a template shows row %q, column %q", row, col)
	}
	if err := chromedp.Do(ctx, chromedp.Click("details.settings > summary")); err != nil {
		t.Fatal(err)
	}
	if !eventually(3*time.Second, func() bool {
		open, _ = eval[bool](ctx, `document.querySelector("details.settings").open && document.getElementById("lr").getBoundingClientRect().height > 0`)
		return open
	}) {
		t.Error("a tap on the settings' summary does not open them")
	}
}

// tapTemplate taps pixel (row, col) of digit c's template with a finger.
func tapTemplate(t *testing.T, ctx context.Context, c, row, col int) {
	t.Helper()
	r := viewRect(t, ctx, "weight-"+strconv.Itoa(c), true)
	pt := &input.TouchPoint{X: r.Left + (float64(col)+0.5)*r.Width/28, Y: r.Top + (float64(row)+0.5)*r.Height/28}
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{pt}}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}})
		return err
	}))
	if err != nil {
		t.Fatalf("tapping template %d: %v", c, err)
	}
}

// TestTemplatesExplainTheDrawing: after training, pointing at a template's
// pixel shows that pixel's ten weights, coloured as the templates show
// them; drawing a digit shows the contributions x ⊙ θ_c of the top digits,
// whose sums plus b_c are the logits the probabilities come from.
func TestTemplatesExplainTheDrawing(t *testing.T) {
	needBrowser(t)
	ctx := openOnScreen(t, startServer(t).URL, 3*time.Minute, 1280, 720, false)
	trainDefault(t, ctx)

	t.Run("pointing at a template pixel shows its ten weights", func(t *testing.T) {
		const digit, row, col = 3, 14, 10
		r := viewRect(t, ctx, "weight-"+strconv.Itoa(digit), true)
		x, y := r.Left+(col+0.5)*r.Width/28, r.Top+(row+0.5)*r.Height/28
		if err := chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, x-3, y), chromedp.MouseEvent(chromedp.MouseMoved, x, y)); err != nil {
			t.Fatal(err)
		}
		var probe struct {
			Row, Col string
			W        []string
			Colours  [][3]int
		}
		if !eventually(3*time.Second, func() bool {
			s, _ := eval[string](ctx, `JSON.stringify({row: document.getElementById("weight-probe").dataset.row || "",
				col: document.getElementById("weight-probe").dataset.col || "",
				w: [...document.querySelectorAll("#weight-probe [data-w]")].map(e => e.dataset.w),
				colours: [...Array(10).keys()].map(c => { const d = document.getElementById("weight-" + c).getContext("2d").getImageData(`+strconv.Itoa(col)+`, `+strconv.Itoa(row)+`, 1, 1).data; return [d[0], d[1], d[2]]; })})`)
			json.Unmarshal([]byte(s), &probe)
			return probe.Row == strconv.Itoa(row) && probe.Col == strconv.Itoa(col) && len(probe.W) == 10
		}) {
			t.Fatalf("pointing at row %d, column %d of template %d shows %+v", row, col, digit, probe)
		}
		scale, _ := strconv.ParseFloat(attr(t, ctx, "#weights", "data-scale"), 64)
		if scale <= 0 || attr(t, ctx, "#weights-legend", "data-max") != attr(t, ctx, "#weights", "data-scale") {
			t.Errorf("the templates' scale is %v and the legend ends at %s", scale, attr(t, ctx, "#weights-legend", "data-max"))
		}
		nonzero := 0
		for c, ws := range probe.W {
			w, err := strconv.ParseFloat(ws, 64)
			if err != nil {
				t.Fatalf("weight %d is %q", c, ws)
			}
			// The template's pixel has the weight's colour: red for a
			// positive weight, blue for a negative one, as much as it is
			// large on the scale.
			rgb := probe.Colours[c]
			switch tint := rgb[0] - rgb[2]; {
			case math.Abs(w) < scale/50:
			case w > 0 && tint <= 0, w < 0 && tint >= 0:
				t.Errorf("θ_{%d,j} = %v but template %d's pixel is rgb%v", c, w, c, rgb)
			}
			if w != 0 {
				nonzero++
			}
		}
		if nonzero == 0 {
			t.Errorf("the middle pixel's weights are all zero after training: %v", probe.W)
		}
		t.Logf("pixel (%d, %d): θ = %v", row, col, probe.W)
	})

	t.Run("a drawing's contributions add up to its logits", func(t *testing.T) {
		clearPad(t, ctx)
		drawWithMouse(t, ctx, strokeSeven...)
		checkDrawn(t, ctx, "a seven", "7")
		type term struct{ Class, Z, B, Sum, P float64 }
		var got struct {
			Logits string
			Terms  []term
			Drawn  []int
		}
		if !eventually(3*time.Second, func() bool {
			s, _ := eval[string](ctx, `JSON.stringify({logits: document.getElementById("contributions").dataset.logits,
				terms: [...document.querySelectorAll("#contributions .term")].map(e => ({class: +e.dataset.class, z: +e.dataset.z, b: +e.dataset.b, sum: +e.dataset.sum, p: +e.dataset.p})),
				drawn: [...document.querySelectorAll("#contributions canvas")].map(c => { const d = c.getContext("2d").getImageData(0, 0, 28, 28).data; let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i] !== 255 || d[i+1] !== 255 || d[i+2] !== 255) n++; return n; })})`)
			json.Unmarshal([]byte(s), &got)
			return len(got.Terms) == 3 && got.Logits != ""
		}) {
			t.Fatalf("the contributions show %+v", got)
		}
		var z [10]float64
		for i, s := range strings.Split(got.Logits, ",") {
			z[i], _ = strconv.ParseFloat(s, 64)
		}
		zmax := slicesMax(z[:])
		var p [10]float64
		sum := 0.0
		for i := range z {
			p[i] = math.Exp(z[i] - zmax)
			sum += p[i]
		}
		d, bars := prediction(t, ctx)
		for i := range p {
			p[i] /= sum
			if math.Abs(p[i]-bars[i]) > 1e-4 {
				t.Errorf("softmax of the logits shown gives p_%d = %.5f, the bar says %.4f", i, p[i], bars[i])
			}
		}
		for i, tm := range got.Terms {
			c := int(tm.Class)
			if tm.Z != z[c] {
				t.Errorf("term %d: z_%d = %v, the logits say %v", i, c, tm.Z, z[c])
			}
			if math.Abs(tm.Sum+tm.B-tm.Z) > 1e-4*(1+math.Abs(tm.Z)) {
				t.Errorf("digit %d: Σ x⊙θ = %v plus b = %v is not z = %v", c, tm.Sum, tm.B, tm.Z)
			}
			if math.Abs(tm.P-bars[c]) > 1e-4 {
				t.Errorf("digit %d: p = %v beside its sum, %v on its bar", c, tm.P, bars[c])
			}
			if i > 0 && tm.Z > got.Terms[i-1].Z {
				t.Errorf("the terms are not the most probable first: %+v", got.Terms)
			}
			if got.Drawn[i] == 0 {
				t.Errorf("the contribution image of digit %d is blank", c)
			}
		}
		if strconv.Itoa(int(got.Terms[0].Class)) != d {
			t.Errorf("the first term is digit %v, the prediction %s", got.Terms[0].Class, d)
		}
		shot(t, ctx, "contributions")
		if dir := os.Getenv("CLASSROOM_SHOTS"); dir != "" {
			if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
				os.WriteFile(filepath.Join(dir, "full.png"), png, 0o644)
			}
		}
	})
}

func slicesMax(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}

// evaluatedLog records every Evaluated event the worker sends the page.
const evaluatedLog = `(() => {
  const W = globalThis.Worker;
  const log = (globalThis.softmaxEvaluated = []);
  globalThis.Worker = class extends W {
    constructor(...a) {
      super(...a);
      this.addEventListener("message", (e) => {
        try { const env = JSON.parse(e.data.env); if (env.type === "evaluated") log.push(env.body); } catch (err) {}
      });
    }
  };
})();`

// atDone, installed in the page, records what the status bar and the
// confusion matrix show at the first moment #status reads done.
const atDone = `(() => {
  const rec = (globalThis.softmaxAtDone = []);
  const status = document.getElementById("status");
  let last = status.getAttribute("data-state");
  const read = () => ({
    accuracy: document.getElementById("test-accuracy").getAttribute("data-value"),
    likelihood: document.getElementById("likelihood").getAttribute("data-value"),
    confusion: [...document.querySelectorAll("#confusion [data-count]")].map(e => e.getAttribute("data-count")).join(","),
  });
  new MutationObserver(() => {
    const s = status.getAttribute("data-state");
    if (s === "done" && last !== "done") rec.push(read());
    last = s;
  }).observe(status, {attributes: true, attributeFilter: ["data-state"]});
  globalThis.softmaxShown = read;
  return true;
})()`

// TestDoneMeansDone: with the main thread slowed six times, the first
// moment #status reads done it already shows the final model's test
// accuracy, likelihood and confusion matrix, those of the worker's last
// evaluation.
func TestDoneMeansDone(t *testing.T) {
	needBrowser(t)
	ctx := openWith(t, 4*time.Minute, startServer(t).URL, evaluatedLog)
	if _, err := eval[bool](ctx, atDone); err != nil {
		t.Fatal(err)
	}
	throttleCPU(t, ctx, 6)
	type shown struct{ Accuracy, Likelihood, Confusion string }
	for run := 1; run <= 2; run++ {
		trainRun(t, ctx, 120*time.Second)
		time.Sleep(time.Second) // anything late has landed by now
		var at []shown
		s, _ := eval[string](ctx, `JSON.stringify(softmaxAtDone)`)
		json.Unmarshal([]byte(s), &at)
		if len(at) != run {
			t.Fatalf("run %d: %d moments of done recorded", run, len(at))
		}
		var later shown
		s, _ = eval[string](ctx, `JSON.stringify(softmaxShown())`)
		json.Unmarshal([]byte(s), &later)
		var evals []struct {
			Run, Step  int
			Accuracy   float64
			Likelihood float64
			Confusion  [10][10]int
		}
		s, _ = eval[string](ctx, `JSON.stringify(softmaxEvaluated)`)
		json.Unmarshal([]byte(s), &evals)
		if len(evals) == 0 {
			t.Fatal("no Evaluated event seen")
		}
		last := evals[len(evals)-1]
		var cells []string
		for _, row := range last.Confusion {
			for _, n := range row {
				cells = append(cells, strconv.Itoa(n))
			}
		}
		want := shown{strconv.FormatFloat(last.Accuracy, 'f', 4, 64), strconv.FormatFloat(last.Likelihood, 'g', -1, 64), strings.Join(cells, ",")}
		t.Logf("run %d: at done %+v; the worker's last evaluation (run %d, step %d) %+v", run, at[run-1].Accuracy+" "+at[run-1].Likelihood, last.Run, last.Step, want.Accuracy+" "+want.Likelihood)
		if at[run-1] != want {
			t.Errorf("run %d: at the moment of done the page showed %+v, the final model's numbers are %+v", run, at[run-1], want)
		}
		if later != want {
			t.Errorf("run %d: a second later the page shows %+v, want %+v", run, later, want)
		}
		if l := last.Likelihood; !(l > 0 && l <= 1) {
			t.Errorf("likelihood value %v, want one in (0, 1]", l)
		}
		setField(t, ctx, "epochs", "3") // a second run, of another length
	}
}
