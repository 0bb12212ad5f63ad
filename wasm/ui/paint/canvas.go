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
// or a falsy value if the canvas is not in the page. The canvas and its
// context are kept by id while the canvas stays in the page: a JavaScript
// object that reaches Go is a js.Value with a finalizer, and looking them
// up on every draw (ten templates, the chart, the gallery, many times a
// second while training) made tens of thousands of finalizers for the
// page's garbage collector to run, inside the task that collects.
func Context2D(id string) (canvas, ctx app.Value) {
	if k, ok := contexts[id]; ok && k.canvas.Get("isConnected").Bool() {
		return k.canvas, k.ctx
	}
	canvas = app.Window().GetElementByID(id)
	if !canvas.Truthy() {
		delete(contexts, id)
		return canvas, canvas
	}
	ctx = canvas.Call("getContext", "2d")
	if contexts == nil {
		contexts = map[string]canvasContext{}
	}
	contexts[id] = canvasContext{canvas, ctx}
	return canvas, ctx
}

// contexts are the canvases Context2D found, by id.
var contexts map[string]canvasContext

type canvasContext struct{ canvas, ctx app.Value }

// Helpers returns web/plot.js's softmaxCanvas object, kept once found.
func Helpers() app.Value {
	if helpers == nil || !helpers.Truthy() {
		helpers = app.Window().Get("softmaxCanvas")
	}
	return helpers
}

var helpers app.Value

// jsBytes is one Uint8Array reused for every copy from Go, grown as needed:
// allocating typed arrays per draw is what made drawing slow. jsFloats is
// a Float32Array over the same memory, for Points.
var jsBytes, jsFloats app.Value

func bytesToJS(b []byte) app.Value {
	if jsBytes == nil || jsBytes.Length() < len(b) {
		n := (max(len(b), 1<<16) + 7) &^ 7 // whole float32s for jsFloats
		jsBytes = app.Window().Get("Uint8Array").New(n)
		jsFloats = app.Window().Get("Float32Array").New(jsBytes.Get("buffer"))
	}
	app.CopyBytesToJS(jsBytes, b)
	return jsBytes
}

// Str returns the JavaScript string s, made once and kept: a Go string
// handed to JavaScript becomes a new JavaScript string each time, with a
// finalizer for the garbage collector to run, and the canvas calls that
// repeat the same few strings (colours, alignments, a digit's label) many
// times a frame are cheaper with one kept copy. Only the first maxStrs
// distinct strings are kept; others are made afresh.
func Str(s string) app.Value {
	if v, ok := strs[s]; ok {
		return v
	}
	v := app.ValueOf(s)
	if len(strs) < maxStrs {
		if strs == nil {
			strs = map[string]app.Value{}
		}
		strs[s] = v
	}
	return v
}

const maxStrs = 256

var strs map[string]app.Value

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
// returns a Float32Array whose first 2·len(pts) numbers are them, in
// JavaScript. The array is reused: it holds the points until the next
// call, and web/plot.js's helpers are told how many points to read.
func Points(buf *[]byte, pts []chart.Pt) app.Value {
	b := (*buf)[:0]
	for _, p := range pts {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(p.X)))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(p.Y)))
	}
	*buf = b
	bytesToJS(b)
	return jsFloats
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
