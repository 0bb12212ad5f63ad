package planepanel

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The plane and the loss surface answer a keyboard as they answer a
// pointer (regions-canvas.go, surface-canvas.go). Each is a focusable element (role application, so that a
// screen reader passes the arrow keys on), named by what it shows and
// what its keys do. On the plane the arrow keys move a cursor, drawn on
// #plane-points while the plane has the keyboard's focus; Enter (or the
// space bar) adds a point of the chosen class there, Delete (or
// Backspace) removes the point under it. On the surface the arrow keys
// move the paths' start: the paths follow each press, as they follow a
// drag, and the whole scene is computed once the key is let go. Shift
// makes a step four times longer. A line read out politely says where the
// cursor is, what the model predicts there and which point is under it
// (#plane-cursor), or where the start is (#plane-start).

// claimKeys makes the keys the plane and the surface take theirs alone:
// once, for the document, a listener cancels their default action (a
// scroll, a click) as the key goes down. go-app runs an element's handlers
// later, on its own goroutine, too late to cancel anything; and the
// lesson's keys (browser.OnKey) leave an event whose default was
// cancelled alone, so an arrow on the plane moves its cursor, not the
// chapter.
func claimKeys() {
	if claimed || !app.IsClient {
		return
	}
	claimed = true
	app.Window().Get("document").Call("addEventListener", "keydown", app.FuncOf(func(_ app.Value, args []app.Value) any {
		e := args[0]
		if e.Get("ctrlKey").Bool() || e.Get("altKey").Bool() || e.Get("metaKey").Bool() {
			return nil
		}
		key := e.Get("key").String()
		switch e.Get("target").Get("id").String() {
		case "plane-keys":
			switch key {
			case "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Enter", " ", "Delete", "Backspace":
				e.Call("preventDefault")
			}
		case "plane-surface-keys":
			switch key {
			case "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown":
				e.Call("preventDefault")
			}
		}
		return nil
	}))
}

// claimed is whether claimKeys has listened.
var claimed bool

// cursorStep is a step of the plane's cursor, in the plane's units (the
// view is 2·plane.Extent wide: 32 steps across).
const cursorStep = 0.25

// arrow returns the step an arrow key asks for, in units of a step, and
// whether the key is an arrow key; Shift makes it four.
func arrow(e app.Event) (d [2]float64, ok bool) {
	n := 1.0
	if e.Get("shiftKey").Bool() {
		n = 4
	}
	switch e.Get("key").String() {
	case "ArrowLeft":
		return [2]float64{-n, 0}, true
	case "ArrowRight":
		return [2]float64{n, 0}, true
	case "ArrowUp":
		return [2]float64{0, n}, true
	case "ArrowDown":
		return [2]float64{0, -n}, true
	}
	return d, false
}

// cssPoint returns the pointer event's position in the element's CSS
// pixels, and the element's CSS size.
func cssPoint(el app.Value, e app.Event) (x, y, w, h float64) {
	r := el.Call("getBoundingClientRect")
	w, h = r.Get("width").Float(), r.Get("height").Float()
	return e.Get("clientX").Float() - r.Get("left").Float(), e.Get("clientY").Float() - r.Get("top").Float(), w, h
}
