package kit

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Pen draws strokes on a square canvas of Size backing pixels with
// pointer events (a mouse, a finger, a pen), Stroke pixels wide with
// round ends, as MNIST's strokes are to its digits: the draw pad's and a
// phone's pad in a class. Its zero value with Size and Stroke set is
// ready.
type Pen struct {
	Size, Stroke float64

	drawing bool
	pointer int
	lastX   float64
	lastY   float64
}

// Down starts a stroke at the pointerdown event e on canvas, which holds
// the pointer until it is let go.
func (p *Pen) Down(canvas, e app.Value) {
	p.pointer = e.Get("pointerId").Int()
	canvas.Call("setPointerCapture", p.pointer)
	p.drawing = true
	p.lastX, p.lastY = p.point(canvas, e)
	p.segment(canvas, p.lastX, p.lastY, p.lastX, p.lastY)
}

// Move draws the stroke on to the pointermove event e (and the events
// the browser coalesced into it), and reports whether it drew: not for
// a pointer that is not drawing.
func (p *Pen) Move(canvas, e app.Value) bool {
	if !p.drawing || e.Get("pointerId").Int() != p.pointer {
		return false
	}
	var events app.Value
	n := 0
	if e.Get("getCoalescedEvents").Truthy() {
		events = e.Call("getCoalescedEvents")
		n = events.Length()
	}
	if n == 0 {
		p.to(canvas, e)
	}
	for i := range n {
		p.to(canvas, events.Index(i))
	}
	return true
}

// Up ends the stroke, and reports whether one was being drawn.
func (p *Pen) Up() bool {
	was := p.drawing
	p.drawing = false
	return was
}

func (p *Pen) to(canvas, e app.Value) {
	x, y := p.point(canvas, e)
	p.segment(canvas, p.lastX, p.lastY, x, y)
	p.lastX, p.lastY = x, y
}

// point maps a pointer event to the canvas's backing pixels, whatever
// its size on screen.
func (p *Pen) point(canvas, e app.Value) (x, y float64) {
	r := canvas.Call("getBoundingClientRect")
	w, h := r.Get("width").Float(), r.Get("height").Float()
	if w <= 0 || h <= 0 {
		return 0, 0
	}
	return (e.Get("clientX").Float() - r.Get("left").Float()) * p.Size / w, (e.Get("clientY").Float() - r.Get("top").Float()) * p.Size / h
}

// segment draws one piece of a stroke with round ends.
func (p *Pen) segment(canvas app.Value, x0, y0, x1, y1 float64) {
	c := canvas.Call("getContext", "2d")
	c.Set("strokeStyle", "#111")
	c.Set("lineWidth", p.Stroke)
	c.Set("lineCap", "round")
	c.Set("lineJoin", "round")
	c.Call("beginPath")
	c.Call("moveTo", x0, y0)
	c.Call("lineTo", x1, y1)
	c.Call("stroke")
}
