package panels

import (
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/paint"
	"softmaxdemo/wasm/ui/predict"

	"softmaxdemo/core/digit"
	"softmaxdemo/core/softmax"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// padSize is the draw pad's backing size in pixels; CSS scales it to fit.
// The stroke is as thick, relative to the pad, as MNIST's pen strokes are
// relative to a digit.
const (
	padSize   = 280
	padStroke = 20
)

// DrawPad is the draw pad: pointer events (mouse, touch and pen) draw
// strokes; while a stroke is drawn the canvas is preprocessed the way MNIST
// was made, shown as the model sees it, and classified with the latest
// weights, in the page, so drawing never waits for training.
type DrawPad struct {
	app.Compo

	ILang    i18n.Lang
	IModel   *softmax.Model[float32]
	IDeskew  bool // the model reads straightened digits
	IVersion int

	cls     *predict.Classifier
	pred    predict.Prediction
	drawing bool
	strokes int // strokes drawn and classified, for tests to wait on
	pointer int
	lastX   float64
	lastY   float64
	pix     []byte
	preview []byte
	expl    predict.Explanation // why the model reads the drawing so
	explV   int
}

func (d *DrawPad) OnMount(ctx app.Context) {
	d.cls = predict.NewClassifier()
	d.cls.SetDeskew(d.IDeskew)
	d.pix = make([]byte, 4*padSize*padSize)
	d.preview = make([]byte, 4*digit.Pixels)
	ctx.Defer(func(app.Context) { d.showPreview() })
}

// OnUpdate re-classifies the drawing when new weights arrive, and
// preprocesses it again first when the model reads digits another way
// (straightened or not).
func (d *DrawPad) OnUpdate(ctx app.Context) {
	if d.cls == nil {
		return
	}
	if d.cls.Deskew() != d.IDeskew {
		d.cls.SetDeskew(d.IDeskew)
		if d.pred.Ink {
			if p, err := d.cls.Classify(d.pix, padSize, padSize, d.IModel); err == nil {
				d.pred = p
				d.explainNow()
				ctx.Defer(func(app.Context) { d.showPreview() })
			}
			return
		}
	}
	if d.pred.Ink {
		d.pred = d.cls.Predict(true, d.IModel)
		d.explainNow()
	}
}

func (d *DrawPad) Render() app.UI {
	l := d.ILang
	return app.Section().Class("panel draw").Aria("label", l.T("draw.title")).Body(
		app.H2().Text(l.T("draw.title")),
		app.Div().Class("draw-row").Body(
			app.Div().Class("pad-wrap").Body(
				app.Canvas().ID("draw-pad").Width(padSize).Height(padSize).Attr("role", "img").
					Aria("label", l.T("draw.pad")).Attr("data-strokes", d.strokes).
					On("pointerdown", d.onDown).
					On("pointermove", d.onMove).
					On("pointerup", d.onUp).
					On("pointercancel", d.onUp).
					On("lostpointercapture", d.onUp),
				app.Button().ID("clear").Text(l.T("button.clear")).OnClick(d.onClear),
			),
			&labelButtons{ILang: l},
			app.Div().Class("seen").Body(
				app.Canvas().ID("input-preview").Width(digit.Side).Height(digit.Side).Class("pixelated").Attr("role", "img").
					Aria("label", l.T("draw.previewLabel")),
				app.P().Class("note").Text(l.T(map[bool]string{false: "draw.preview", true: "draw.previewDeskew"}[d.IDeskew])),
			),
			newPredictionBars().Prediction(l, d.pred),
			&contributions{ILang: l, IExplain: &d.expl, IVersion: d.explV},
		),
	)
}

func (d *DrawPad) onDown(ctx app.Context, e app.Event) {
	e.PreventDefault()
	canvas := ctx.JSSrc()
	d.pointer = e.Get("pointerId").Int()
	canvas.Call("setPointerCapture", d.pointer)
	d.drawing = true
	d.lastX, d.lastY = padPoint(canvas, e)
	d.segment(canvas, d.lastX, d.lastY, d.lastX, d.lastY)
	d.classify(canvas)
}

func (d *DrawPad) onMove(ctx app.Context, e app.Event) {
	if !d.drawing || e.Get("pointerId").Int() != d.pointer {
		ctx.PreventUpdate()
		return
	}
	e.PreventDefault()
	canvas := ctx.JSSrc()
	// Coalesced events keep fast strokes smooth where the browser has them.
	var events app.Value
	n := 0
	if e.Get("getCoalescedEvents").Truthy() {
		events = e.Call("getCoalescedEvents")
		n = events.Length()
	}
	if n == 0 {
		x, y := padPoint(canvas, e.Value)
		d.segment(canvas, d.lastX, d.lastY, x, y)
		d.lastX, d.lastY = x, y
	}
	for i := range n {
		x, y := padPoint(canvas, events.Index(i))
		d.segment(canvas, d.lastX, d.lastY, x, y)
		d.lastX, d.lastY = x, y
	}
	d.classify(canvas)
}

func (d *DrawPad) onUp(ctx app.Context, e app.Event) {
	if !d.drawing {
		ctx.PreventUpdate()
		return
	}
	d.drawing = false
	d.classify(ctx.JSSrc())
	d.strokes++
}

func (d *DrawPad) onClear(ctx app.Context, e app.Event) {
	_, c := paint.Context2D("draw-pad")
	if c.Truthy() {
		c.Call("clearRect", 0, 0, padSize, padSize)
	}
	clear(d.pix)
	if d.cls != nil {
		clear(d.cls.Image[:])
	}
	d.pred = predict.Prediction{}
	d.explainNow()
	d.showPreview()
}

// padPoint maps a pointer event to pad pixels, whatever the CSS size.
func padPoint(canvas, e app.Value) (x, y float64) {
	r := canvas.Call("getBoundingClientRect")
	w, h := r.Get("width").Float(), r.Get("height").Float()
	if w <= 0 || h <= 0 {
		return 0, 0
	}
	x = (e.Get("clientX").Float() - r.Get("left").Float()) * padSize / w
	y = (e.Get("clientY").Float() - r.Get("top").Float()) * padSize / h
	return x, y
}

// segment draws one piece of a stroke with round ends.
func (d *DrawPad) segment(canvas app.Value, x0, y0, x1, y1 float64) {
	c := canvas.Call("getContext", "2d")
	c.Set("strokeStyle", "#111")
	c.Set("lineWidth", padStroke)
	c.Set("lineCap", "round")
	c.Set("lineJoin", "round")
	c.Call("beginPath")
	c.Call("moveTo", x0, y0)
	c.Call("lineTo", x1, y1)
	c.Call("stroke")
}

// classify reads the pad's pixels, preprocesses and predicts.
func (d *DrawPad) classify(canvas app.Value) {
	if d.cls == nil {
		return
	}
	data := canvas.Call("getContext", "2d").Call("getImageData", 0, 0, padSize, padSize).Get("data")
	if app.CopyBytesToGo(d.pix, data) != len(d.pix) {
		return
	}
	p, err := d.cls.Classify(d.pix, padSize, padSize, d.IModel)
	if err != nil {
		app.Log("draw pad:", err)
		return
	}
	d.pred = p
	d.explainNow()
	d.showPreview()
}

// explainNow computes the contributions for the drawing as just
// classified (its sparse input is in d.cls).
func (d *DrawPad) explainNow() {
	d.explV++
	d.expl.Ready = false
	if d.pred.Ink && d.pred.Ready {
		d.cls.Explain(&d.expl, d.IModel)
	}
}

// showPreview draws the 28×28 input, dark ink on white, as the gallery.
func (d *DrawPad) showPreview() {
	if d.cls == nil {
		return
	}
	paint.GreyImage(d.preview, d.cls.Image[:])
	_, c := paint.Context2D("input-preview")
	paint.PutRGBA(c, d.preview, digit.Side, digit.Side, 0, 0)
}
