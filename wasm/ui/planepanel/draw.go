package planepanel

import (
	"softmaxdemo/wasm/planeimage"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/paint"
	"softmaxdemo/wasm/ui/planeview"

	"fmt"
	"strconv"
	"strings"

	"softmaxdemo/core/plane"
)

// canvas holds the plane's canvases' sizes and buffers, the latest
// frame's image and boundaries, and what needs drawing again.
type canvas struct {
	plane, points, surface paint.Size

	regionsDirty bool // the regions need drawing
	pointsDirty  bool // the points need drawing
	surfaceDirty bool
	draws        int // region drawings so far

	image  []byte    // the regions, imageN×imageN RGBA, as the worker drew them
	imageN int       //
	bounds []float64 // the boundaries: segments of 4 numbers, in the plane's coordinates
	segs   []chart.Pt
	buf    []byte
}

// reset measures the canvases again at the next drawing, and redraws all.
func (c *canvas) reset() {
	c.plane.Reset()
	c.points.Reset()
	c.surface.Reset()
	c.regionsDirty, c.pointsDirty, c.surfaceDirty = true, true, true
}

// regionCell is the size, in canvas pixels, of the cells the regions are
// computed on; the image is stretched smoothly over the canvas and the
// boundaries drawn exactly on top.
const regionCell = 3

// measure tells the worker the regions' image the canvas wants: a cell
// every regionCell pixels, 32 to 256 a side.
func (p *Panel) measure() {
	_, w, _, _ := p.cv.plane.Context("plane")
	if w > 0 {
		p.send(protocol.PlaneGrid{N: min(max(int(w)/regionCell, 32), 256)})
	}
}

func (p *Panel) redraw() {
	p.cv.regionsDirty, p.cv.pointsDirty, p.cv.surfaceDirty = true, true, true
	p.draw()
}

// draw redraws what changed.
func (p *Panel) draw() {
	if p.cv.regionsDirty {
		p.drawRegions()
		p.cv.regionsDirty = false
	}
	if p.cv.pointsDirty {
		p.drawPoints()
		p.cv.pointsDirty = false
	}
	if p.cv.surfaceDirty {
		p.drawSurface()
		p.cv.surfaceDirty = false
	}
}

// drawRegions paints the regions and boundaries of the latest frame on
// #plane, and notes on it (data-drawn-step) the step of the model it
// shows.
func (p *Panel) drawRegions() {
	c, w, h, ratio := p.cv.plane.Context("plane")
	n := p.cv.imageN
	if !c.Truthy() || w == 0 || n == 0 || len(p.cv.image) != 4*n*n {
		return
	}
	paint.PutScaled(c, p.cv.image, n, n, w, h)
	f := planeview.Frame{W: w, H: h}
	segs := p.cv.segs[:0]
	for i := 0; i+3 < len(p.cv.bounds); i += 4 {
		b := p.cv.bounds[i : i+4]
		segs = append(segs, f.ToCanvas([2]float64{b[0], b[1]}), f.ToCanvas([2]float64{b[2], b[3]}))
	}
	p.cv.segs = segs
	paint.Helpers().Call("segments", c, paint.Points(&p.cv.buf, segs), len(segs), planeview.Boundary, 2*ratio)
	p.cv.draws++
	canvas, _ := paint.Context2D("plane")
	canvas.Call("setAttribute", "data-drawn-step", p.st.Steps)
	canvas.Call("setAttribute", "data-draws", p.cv.draws)
}

// drawPoints paints the data's points on #plane-points, above the
// regions, each in its class's colour with a dark ring, and the
// keyboard's cursor.
func (p *Panel) drawPoints() {
	c, w, h, ratio := p.cv.points.Context("plane-points")
	if !c.Truthy() || w == 0 {
		return
	}
	c.Call("clearRect", 0, 0, w, h)
	f := planeview.Frame{W: w, H: h}
	for k := range p.data.K {
		pts := f.Points(p.data, k)
		if len(pts) > 0 {
			paint.Helpers().Call("marks", c, paint.Points(&p.cv.buf, pts), len(pts), classCSS(k), "#111", 4.5*ratio, 1.25*ratio)
		}
	}
	p.drawCursor(c, f, ratio)
}

// drawSurface paints the last scene on #plane-surface: J's bands, its
// contours, the paths, the minimum (+) and the start (○).
func (p *Panel) drawSurface() {
	c, w, h, ratio := p.cv.surface.Context("plane-surface")
	if !c.Truthy() || p.scene == nil || w == 0 {
		return
	}
	s := planeview.LayoutSurface(p.scene, w, h)
	paint.PutScaled(c, s.Shade, plane.GridSize, plane.GridSize, w, h)
	hp := paint.Helpers()
	for _, pts := range s.Contours {
		hp.Call("segments", c, paint.Points(&p.cv.buf, pts), len(pts), planeview.Contour, ratio)
	}
	for m, lines := range s.Paths {
		color := planeview.PathColors[m]
		for _, l := range lines {
			hp.Call("path", c, paint.Points(&p.cv.buf, l), len(l), color, 2.5*ratio)
			if plane.Method(m) == plane.Newton {
				hp.Call("dots", c, paint.Points(&p.cv.buf, l), len(l), color, 3.5*ratio)
			}
		}
		if s.EndsIn[m] {
			hp.Call("marks", c, paint.Points(&p.cv.buf, []chart.Pt{s.Ends[m]}), 1, color, "#fff", 4*ratio, 1.5*ratio)
		}
	}
	if s.HasMin {
		r := 7 * ratio
		cross := []chart.Pt{{X: s.Min.X - r, Y: s.Min.Y}, {X: s.Min.X + r, Y: s.Min.Y}, {X: s.Min.X, Y: s.Min.Y - r}, {X: s.Min.X, Y: s.Min.Y + r}}
		hp.Call("segments", c, paint.Points(&p.cv.buf, cross), len(cross), planeview.MinMark, 2.5*ratio)
	}
	hp.Call("marks", c, paint.Points(&p.cv.buf, []chart.Pt{s.Start}), 1, "rgba(255, 255, 255, 0.6)", planeview.StartMark, 6*ratio, 2*ratio)
}

// classCSS is class c's colour as CSS.
func classCSS(c int) string {
	col := planeimage.Classes[c]
	return fmt.Sprintf("rgb(%d, %d, %d)", col[0], col[1], col[2])
}

// modelText returns the live model's weights and biases, comma-separated
// (#plane-status's data-theta).
func (p *Panel) modelText() string {
	m := p.model
	if m == nil {
		return ""
	}
	var b strings.Builder
	for i, v := range append(append([]float32(nil), m.W...), m.B...) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(float64(v), 'g', -1, 32))
	}
	return b.String()
}

// countsText returns the points of each class, comma-separated
// (#plane-status's data-counts).
func (p *Panel) countsText() string {
	counts := p.data.Counts()
	s := make([]string, p.data.K)
	for c := range s {
		s[c] = strconv.Itoa(counts[c])
	}
	return strings.Join(s, ",")
}
