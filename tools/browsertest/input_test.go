package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// rect is an element's box in viewport CSS pixels.
type rect struct{ Left, Top, Width, Height float64 }

// viewRect scrolls the element id into view and returns its box: the
// border box, or with inside the box within its border (a canvas's
// pixels).
func viewRect(tb testing.TB, ctx context.Context, id string, inside bool) rect {
	tb.Helper()
	s, err := eval[string](ctx, fmt.Sprintf(`(() => { const c = document.getElementById(%q);
		c.scrollIntoView({block: "center"}); const r = c.getBoundingClientRect();
		return JSON.stringify(%t ? {Left: r.left + c.clientLeft, Top: r.top + c.clientTop, Width: c.clientWidth, Height: c.clientHeight}
			: {Left: r.left, Top: r.top, Width: r.width, Height: r.height}); })()`, id, inside))
	if err != nil {
		tb.Fatal(err)
	}
	var r rect
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		tb.Fatal(err)
	}
	return r
}

// padRect scrolls the draw pad into view and returns its box.
func padRect(t *testing.T, ctx context.Context) rect { return viewRect(t, ctx, "draw-pad", false) }

// path interpolates a polyline given in pad pixels (0..280) into points
// about 4 pad pixels apart, as a hand moving over the pad would produce.
func path(points ...[2]float64) [][2]float64 {
	out := [][2]float64{points[0]}
	for i := 1; i < len(points); i++ {
		a, b := points[i-1], points[i]
		n := int(math.Max(1, math.Hypot(b[0]-a[0], b[1]-a[1])/4))
		for s := 1; s <= n; s++ {
			f := float64(s) / float64(n)
			out = append(out, [2]float64{a[0] + (b[0]-a[0])*f, a[1] + (b[1]-a[1])*f})
		}
	}
	return out
}

// drawWithMouse presses the left button at the first point, moves through
// the rest with the button held, and releases: real input events through
// the DevTools protocol, which the page receives as pointer events.
func drawWithMouse(t *testing.T, ctx context.Context, strokes ...[][2]float64) {
	t.Helper()
	r := padRect(t, ctx)
	at := func(p [2]float64) (float64, float64) {
		return r.Left + p[0]*r.Width/280, r.Top + p[1]*r.Height/280
	}
	held := func(p *input.DispatchMouseEventParams) {
		p.Button, p.Buttons, p.ClickCount = input.MouseButtonLeft, 1, 1
	}
	for _, s := range strokes {
		x, y := at(s[0])
		actions := []chromedp.Action[chromedp.Void]{
			chromedp.MouseEvent(chromedp.MouseMoved, x, y),
			chromedp.MouseEvent(chromedp.MousePressed, x, y, held),
		}
		for _, p := range s[1:] {
			x, y = at(p)
			actions = append(actions, chromedp.MouseEvent(chromedp.MouseMoved, x, y, held))
		}
		actions = append(actions, chromedp.MouseEvent(chromedp.MouseReleased, x, y, held))
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("drawing with the mouse: %v", err)
		}
	}
}

// drawWithFinger does the same with touch events, as a finger on a tablet.
func drawWithFinger(t *testing.T, ctx context.Context, strokes ...[][2]float64) {
	t.Helper()
	drawWithFingerOn(t, ctx, "draw-pad", strokes...)
}

// drawWithFingerOn draws with a finger on the 280×280 pad whose canvas
// has the id.
func drawWithFingerOn(t *testing.T, ctx context.Context, id string, strokes ...[][2]float64) {
	t.Helper()
	if err := send(ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 5}); err != nil {
		t.Fatalf("enabling touch: %v", err)
	}
	r := viewRect(t, ctx, id, false)
	touch := func(typ input.DispatchTouchEventType, p *[2]float64) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			params := input.DispatchTouchEventParams{Type: typ, TouchPoints: []*input.TouchPoint{}}
			if p != nil {
				params.TouchPoints = append(params.TouchPoints, &input.TouchPoint{X: r.Left + p[0]*r.Width/280, Y: r.Top + p[1]*r.Height/280})
			}
			_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, params)
			return err
		})
	}
	for _, s := range strokes {
		actions := []chromedp.Action[chromedp.Void]{touch(input.DispatchTouchEventTypeTouchStart, &s[0])}
		for i := range s[1:] {
			actions = append(actions, touch(input.DispatchTouchEventTypeTouchMove, &s[i+1]))
		}
		actions = append(actions, touch(input.DispatchTouchEventTypeTouchEnd, nil))
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("drawing with a finger: %v", err)
		}
	}
}

// prediction returns the predicted digit and the ten probabilities shown.
func prediction(t *testing.T, ctx context.Context) (string, [10]float64) {
	t.Helper()
	s, err := eval[string](ctx, `JSON.stringify({d: document.getElementById("prediction").getAttribute("data-digit"),
		p: [...document.querySelectorAll("#probabilities [data-p]")].map(e => parseFloat(e.getAttribute("data-p")))})`)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		D string
		P []float64
	}
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	var p [10]float64
	if len(v.P) != 10 {
		t.Fatalf("%d probability bars, want 10", len(v.P))
	}
	copy(p[:], v.P)
	return v.D, p
}

// digits to draw, in pad pixels (280×280).
var (
	strokeOne   = [][][2]float64{path([2]float64{140, 40}, [2]float64{140, 240})}
	strokeZero  = [][][2]float64{path([2]float64{140, 40}, [2]float64{195, 80}, [2]float64{205, 150}, [2]float64{190, 215}, [2]float64{140, 245}, [2]float64{90, 215}, [2]float64{75, 150}, [2]float64{85, 80}, [2]float64{140, 40})}
	strokeSeven = [][][2]float64{path([2]float64{70, 50}, [2]float64{210, 50}, [2]float64{120, 245})}
	strokeFour  = [][][2]float64{path([2]float64{110, 40}, [2]float64{80, 150}, [2]float64{200, 150}), path([2]float64{170, 60}, [2]float64{170, 245})}
)

func clearPad(t *testing.T, ctx context.Context) {
	t.Helper()
	click(t, ctx, "clear")
	var d string
	if !eventually(30*time.Second, func() bool { d, _ = prediction(t, ctx); return d == "" }) {
		t.Fatalf("after Clear the prediction is %q", d)
	}
}

// drawn draws strokes with the mouse and waits until the page has
// classified the whole drawing: #draw-pad counts the strokes it has
// classified, and shows the prediction in the same update.
func drawn(t *testing.T, ctx context.Context, strokes ...[][2]float64) (string, [10]float64) {
	t.Helper()
	before, _ := strconv.Atoi(attr(t, ctx, "#draw-pad", "data-strokes"))
	drawWithMouse(t, ctx, strokes...)
	want := strconv.Itoa(before + len(strokes))
	if !eventually(30*time.Second, func() bool { return attr(t, ctx, "#draw-pad", "data-strokes") == want }) {
		t.Fatalf("the pad counts %s strokes classified, want %s", attr(t, ctx, "#draw-pad", "data-strokes"), want)
	}
	return prediction(t, ctx)
}

func checkDrawn(t *testing.T, ctx context.Context, name, want string) {
	t.Helper()
	var got string
	var p [10]float64
	eventually(30*time.Second, func() bool { got, p = prediction(t, ctx); return got == want })
	sum := 0.0
	for _, v := range p {
		sum += v
	}
	if math.Abs(sum-1) > 0.01 {
		t.Errorf("%s: probabilities %v sum to %v", name, p, sum)
	}
	if got != want {
		t.Errorf("%s drawn: the page reads %q (probabilities %v), want %s", name, got, fmt.Sprint(p), want)
	}
}
