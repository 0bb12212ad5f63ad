package panels

import (
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/paint"
	"softmaxdemo/wasm/ui/predict"

	"fmt"
	"strconv"
	"strings"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Gallery shows test digits with the current model's predictions; the
// mistakes are marked. The page classifies them itself from the latest
// weights (60 images: microseconds).
//
// It is one canvas, one column per digit and one row per image of it: the
// images are laid out once on an offscreen sheet, and each draw scales the
// sheet and writes the predictions over it: sixty small canvases, one per
// image, would make the task that first shows "ready" twice as long
// (docs/decisions/0006-gallery-one-canvas.md).
type Gallery struct {
	app.Compo

	ITasks   *kit.Tasks // the page's queue: each redraw is a task of its own
	ILang    i18n.Lang
	ISamples protocol.Samples
	IModel   *softmax.Model[float32] // the model at the latest evaluation
	IDeskew  bool                    // the model reads straightened digits

	deskewed bool // sparse holds the straightened samples

	preds  []int                      // -1 before there is a model
	sparse *softmax.Examples[float32] // the samples as model input, built once
	lay    galleryLayout
	sheet  app.Value // the offscreen canvas of lay's images; nil until drawn
	size   paint.Size
	queued bool // a redraw is queued (kit.Tasks.DrawLater)
}

func (g *Gallery) OnMount(ctx app.Context) {
	g.predict()
	ctx.Defer(func(app.Context) { g.size.Reset(); g.draw() })
}

func (g *Gallery) OnUpdate(ctx app.Context) {
	g.predict()
	g.ITasks.DrawLater(ctx, g, &g.queued, g.draw)
}

// OnResize measures the canvas again, as LossPlot does.
func (g *Gallery) OnResize(ctx app.Context) {
	ctx.Defer(func(app.Context) { g.size.Reset(); g.draw() })
}

func (g *Gallery) predict() {
	n := len(g.ISamples.Labels)
	if g.sparse == nil || g.sparse.Len() != n || g.deskewed != g.IDeskew {
		g.sparse, g.deskewed = predict.Samples(g.ISamples, g.IDeskew), g.IDeskew
		lay := layoutGallery(g.ISamples.Labels)
		if lay.Rows != g.lay.Rows {
			g.size.Reset() // the canvas's height changes
		}
		g.lay, g.sheet = lay, nil
	}
	g.preds = g.preds[:0]
	for i := range n {
		if g.IModel == nil || g.IModel.D != 784 {
			g.preds = append(g.preds, -1)
			continue
		}
		c, _ := g.IModel.Predict(g.sparse.Example(i))
		g.preds = append(g.preds, c)
	}
}

func (g *Gallery) Render() app.UI {
	wrong := misread(g.ISamples.Labels, g.preds)
	l := g.ILang
	note := l.T("gallery.note")
	switch {
	case len(g.preds) == 0:
		note = l.T("gallery.loading")
	case g.IModel != nil:
		note = l.T("gallery.misread", len(wrong), len(g.preds))
	}
	if g.lay.Cols == 0 {
		g.lay = layoutGallery(nil) // before the first predict
	}
	return app.Section().Class("panel gallery-panel").Aria("label", l.T("gallery.region")).Body(
		app.H2().Text(l.T("gallery.title")),
		app.P().ID("gallery-note").Class("note").Text(note),
		app.Canvas().ID("gallery").Class("gallery").
			Style("aspect-ratio", fmt.Sprintf("%d / %d", g.lay.Width(), g.lay.Height())).
			Attr("role", "img").Aria("label", g.summary(wrong)).
			Attr("data-samples", len(g.preds)).Attr("data-misread", len(wrong)).
			Attr("data-predicted", predictedText(g.preds)).
			OnClick(g.onClick),
	)
}

// summary describes the gallery in words for screen readers.
func (g *Gallery) summary(wrong []int) string {
	n, l := len(g.preds), g.ILang
	if n == 0 {
		return l.T("gallery.none")
	}
	if g.IModel == nil {
		return l.T("gallery.unclassified", n)
	}
	if len(wrong) == 0 {
		return l.T("gallery.allRight", n)
	}
	parts := make([]string, len(wrong))
	for k, i := range wrong {
		parts[k] = l.T("gallery.readAs", g.ISamples.Labels[i], g.preds[i])
	}
	return l.T("gallery.misreadList", len(wrong), n, strings.Join(parts, l.T("list.sep")))
}

// misread returns the indices of the predictions that differ from the labels.
func misread(labels []uint8, preds []int) []int {
	var out []int
	for i, p := range preds {
		if p >= 0 && p != int(labels[i]) {
			out = append(out, i)
		}
	}
	return out
}

// predictedText is the predictions as a string of digits, "·" for none,
// for tests to read.
func predictedText(preds []int) string {
	var b strings.Builder
	for _, p := range preds {
		if p < 0 {
			b.WriteString("·")
		} else {
			b.WriteString(strconv.Itoa(p))
		}
	}
	return b.String()
}

// The sheet's geometry, in image pixels: each cell holds a 28×28 image with
// a margin around it and room for the prediction below.
const (
	galleryPad    = 4
	galleryLabel  = 14
	galleryCellW  = 28 + 2*galleryPad
	galleryCellH  = 28 + 2*galleryPad + galleryLabel
	galleryMinRow = 6 // rows shown before the samples arrive, so nothing moves
)

// galleryLayout places sample i in column Col[i] (its digit) and row Row[i]
// (how many of that digit came before it).
type galleryLayout struct {
	Col, Row   []int
	Cols, Rows int
}

func layoutGallery(labels []uint8) galleryLayout {
	l := galleryLayout{Cols: softmax.K, Rows: galleryMinRow}
	if len(labels) > 0 {
		l.Rows = 1
	}
	var count [256]int
	for _, y := range labels {
		l.Col = append(l.Col, int(y)%softmax.K)
		l.Row = append(l.Row, count[y])
		count[y]++
		l.Rows = max(l.Rows, count[y])
	}
	return l
}

func (l galleryLayout) Width() int  { return l.Cols * galleryCellW }
func (l galleryLayout) Height() int { return l.Rows * galleryCellH }

// sheetRGBA returns the sheet's pixels: each image in its cell, transparent
// elsewhere.
func (l galleryLayout) sheetRGBA(pixels []byte) []byte {
	w := l.Width()
	rgba := make([]byte, 4*w*l.Height())
	img := make([]byte, 4*784)
	for i := range l.Col {
		paint.GreyImage(img, pixels[784*i:784*(i+1)])
		x0, y0 := l.Col[i]*galleryCellW+galleryPad, l.Row[i]*galleryCellH+galleryPad
		for y := range 28 {
			copy(rgba[4*((y0+y)*w+x0):], img[4*28*y:4*28*(y+1)])
		}
	}
	return rgba
}

func (g *Gallery) draw() {
	c, w, h, ratio := g.size.Context("gallery")
	if !c.Truthy() {
		return
	}
	c.Call("clearRect", 0, 0, w, h)
	n := len(g.lay.Col)
	if n == 0 || w == 0 {
		return
	}
	if g.sheet == nil {
		g.sheet = app.Window().Get("document").Call("createElement", "canvas")
		g.sheet.Set("width", g.lay.Width())
		g.sheet.Set("height", g.lay.Height())
		paint.PutRGBA(g.sheet.Call("getContext", "2d"), g.lay.sheetRGBA(g.ISamples.Pixels), g.lay.Width(), g.lay.Height(), 0, 0)
	}
	s := w / float64(g.lay.Width())
	cell := func(i int) (x, y float64) {
		return float64(g.lay.Col[i]*galleryCellW) * s, float64(g.lay.Row[i]*galleryCellH) * s
	}
	wrong := misread(g.ISamples.Labels, g.preds)
	c.Set("fillStyle", paint.Str(paint.WrongFill))
	for _, i := range wrong {
		x, y := cell(i)
		c.Call("fillRect", x+s, y+s, (galleryCellW-2)*s, (galleryCellH-2)*s)
	}
	c.Set("imageSmoothingEnabled", false)
	c.Call("drawImage", g.sheet, 0, 0, w, float64(g.lay.Height())*s)
	c.Set("strokeStyle", paint.Str(paint.Wrong))
	c.Set("lineWidth", 2*ratio)
	for _, i := range wrong {
		x, y := cell(i)
		c.Call("strokeRect", x+s, y+s, (galleryCellW-2)*s, (galleryCellH-2)*s)
	}
	c.Set("font", fmt.Sprintf("700 %.0fpx system-ui, sans-serif", 11*s))
	c.Set("textAlign", paint.Str("center"))
	c.Set("textBaseline", paint.Str("middle"))
	ink, red := paint.Str(paint.Ink), paint.Str(paint.Wrong)
	for i, p := range g.preds {
		if p < 0 {
			continue
		}
		if p == int(g.ISamples.Labels[i]) {
			c.Set("fillStyle", ink)
		} else {
			c.Set("fillStyle", red)
		}
		x, y := cell(i)
		c.Call("fillText", paint.Str(strconv.Itoa(p)), x+galleryCellW*s/2, y+(28+2*galleryPad+galleryLabel/2-1)*s)
	}
}

// onClick opens the clicked test digit in the inspector.
func (g *Gallery) onClick(ctx app.Context, e app.Event) {
	el := ctx.JSSrc()
	w, h := el.Get("clientWidth").Float(), el.Get("clientHeight").Float()
	i := g.lay.at(e.Get("offsetX").Float()/w, e.Get("offsetY").Float()/h)
	if i < 0 || dataset.Pixels*(i+1) > len(g.ISamples.Pixels) {
		return
	}
	browser.Mark("softmax:inspect-click")
	store.Inspect.Post(ctx, predict.Example{Source: predict.SourceGallery, Index: i, Label: g.ISamples.Labels[i],
		Pixels: g.ISamples.Pixels[dataset.Pixels*i : dataset.Pixels*(i+1)]})
}

// at returns the sample at the fractions (fx, fy) of the sheet's width and
// height, or -1 if there is none there.
func (l galleryLayout) at(fx, fy float64) int {
	if fx < 0 || fy < 0 || fx >= 1 || fy >= 1 {
		return -1
	}
	col, row := int(fx*float64(l.Width()))/galleryCellW, int(fy*float64(l.Height()))/galleryCellH
	for i := range l.Col {
		if l.Col[i] == col && l.Row[i] == row {
			return i
		}
	}
	return -1
}
