package paint

import (
	"encoding/binary"
	"math"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"softmaxdemo/wasm/ui/chart"
)

// The few canvas calls the components share. They go through go-app's
// app.Value, so this file compiles natively (where they do nothing).

// Size is a canvas's fitted size (fitCanvas): width, height and
// device pixel ratio, zero until measured. Measuring reads the layout,
// which forces one, so it is done again only after Reset: on mount, on a
// resize, or when the canvas's shape changes.
type Size [3]float64

// Reset forgets the measured size, so the next Context measures again.
func (s *Size) Reset() { *s = Size{} }

// Context returns the 2D context of the canvas with the given id and its
// fitted size, measuring it first if need be; the context is falsy if the
// canvas is not in the page.
func (s *Size) Context(id string) (c app.Value, w, h, ratio float64) {
	canvas, c := Context2D(id)
	if !c.Truthy() {
		return c, 0, 0, 0
	}
	if s[0] == 0 {
		s[0], s[1], s[2] = fitCanvas(canvas)
	}
	return c, s[0], s[1], s[2]
}

// Context2D returns the 2D drawing context of the canvas with the given id,
// or a falsy value if the canvas is not in the page.
func Context2D(id string) (canvas, ctx app.Value) {
	canvas = app.Window().GetElementByID(id)
	if !canvas.Truthy() {
		return canvas, canvas
	}
	return canvas, canvas.Call("getContext", "2d")
}

// Helpers returns web/plot.js's softmaxCanvas object.
func Helpers() app.Value { return app.Window().Get("softmaxCanvas") }

// jsBytes is one Uint8Array reused for every copy from Go, grown as needed:
// allocating typed arrays per draw is what made drawing slow.
var jsBytes app.Value

func bytesToJS(b []byte) app.Value {
	if jsBytes == nil || jsBytes.Length() < len(b) {
		jsBytes = app.Window().Get("Uint8Array").New(max(len(b), 1<<16))
	}
	app.CopyBytesToJS(jsBytes, b)
	return jsBytes
}

// PutRGBA copies w×h RGBA pixels into the canvas's context at (x, y).
func PutRGBA(ctx app.Value, rgba []byte, w, h, x, y int) {
	if !ctx.Truthy() {
		return
	}
	Helpers().Call("image", ctx, bytesToJS(rgba), w, h, x, y)
}

// PutScaled draws w×h RGBA pixels stretched smoothly over W×H pixels of
// the canvas's context, from its top left.
func PutScaled(ctx app.Value, rgba []byte, w, h int, W, H float64) {
	if !ctx.Truthy() {
		return
	}
	Helpers().Call("scaled", ctx, bytesToJS(rgba), w, h, W, H)
}

// Points packs canvas points as little-endian float32 pairs into buf and
// returns a Float32Array view of them in JavaScript.
func Points(buf *[]byte, pts []chart.Pt) app.Value {
	b := (*buf)[:0]
	for _, p := range pts {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(p.X)))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(p.Y)))
	}
	*buf = b
	u8 := bytesToJS(b)
	return app.Window().Get("Float32Array").New(u8.Get("buffer"), 0, 2*len(pts))
}

// fitCanvas sizes the canvas's backing store to its displayed size times
// the device pixel ratio, so lines and labels stay sharp on a projector or
// a phone, and returns the size and the ratio.
func fitCanvas(canvas app.Value) (w, h, ratio float64) {
	ratio = app.Window().Get("devicePixelRatio").Float()
	if ratio < 1 || math.IsNaN(ratio) {
		ratio = 1
	}
	cw, ch := canvas.Get("clientWidth").Float(), canvas.Get("clientHeight").Float()
	w, h = math.Round(cw*ratio), math.Round(ch*ratio)
	if canvas.Get("width").Float() != w {
		canvas.Set("width", w)
	}
	if canvas.Get("height").Float() != h {
		canvas.Set("height", h)
	}
	return w, h, ratio
}
