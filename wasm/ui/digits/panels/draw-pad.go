package panels

import (
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
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
	pen     kit.Pen
	strokes int // strokes drawn and classified, for tests to wait on
	pix     []byte
	preview []byte
	expl    predict.Explanation // why the model reads the drawing so
	explV   int
}

func (d *DrawPad) OnMount(ctx app.Context) {
	d.cls = predict.NewClassifier()
	d.pen = kit.Pen{Size: padSize, Stroke: padStroke}
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
	d.pen.Down(ctx.JSSrc(), e.Value)
	d.classify(ctx.JSSrc())
}

func (d *DrawPad) onMove(ctx app.Context, e app.Event) {
	if !d.pen.Move(ctx.JSSrc(), e.Value) {
		ctx.PreventUpdate()
		return
	}
	e.PreventDefault()
	d.classify(ctx.JSSrc())
}

func (d *DrawPad) onUp(ctx app.Context, e app.Event) {
	if !d.pen.Up() {
		ctx.PreventUpdate()
		return
	}
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
