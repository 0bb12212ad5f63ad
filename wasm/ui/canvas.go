package ui

import (
	"math"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The few canvas calls the components share. They go through go-app's
// app.Value, so this file compiles natively (where they do nothing).

// context2D returns the 2D drawing context of the canvas with the given id,
// or a falsy value if the canvas is not in the page.
func context2D(id string) (canvas, ctx app.Value) {
	canvas = app.Window().GetElementByID(id)
	if !canvas.Truthy() {
		return canvas, canvas
	}
	return canvas, canvas.Call("getContext", "2d")
}

// putRGBA copies w×h RGBA pixels into the canvas's context at (x, y).
func putRGBA(ctx app.Value, rgba []byte, w, h, x, y int) {
	if !ctx.Truthy() {
		return
	}
	arr := app.Window().Get("Uint8ClampedArray").New(len(rgba))
	app.CopyBytesToJS(arr, rgba)
	img := app.Window().Get("ImageData").New(arr, w, h)
	ctx.Call("putImageData", img, x, y)
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
