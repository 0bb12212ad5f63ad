package classroom

import (
	"strconv"

	"softmaxdemo/core/class"
	"softmaxdemo/core/digit"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/paint"
	"softmaxdemo/wasm/ui/predict"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Pad sizes: the backing pixels, and the stroke, as the draw pad's.
const (
	padSize   = 280
	padStroke = 20
)

// drawn is a phone's drawing with its label, to send.
type drawn struct {
	Label  uint8
	Pixels [class.Pixels]byte
}

// sendDrawing is the pad's: a drawing to send to the class.
var sendDrawing = kit.Action[drawn]{Name: "class/send-drawing"}

// pad is a phone's pad (#class-pad): a digit drawn with a finger, a pen
// or a mouse, preprocessed as the draw pad preprocesses my digits (not
// straightened: the run straightens them if it reads straightened
// digits), read by the model the phone shows (the projector's), labelled
// (#class-label-0 … 9) and sent (#class-send).
type pad struct {
	app.Compo

	ILang   i18n.Lang
	IModel  *softmax.Model[float32]
	ISent   int    // drawings this phone sent and the class took
	IMax    int    // drawings a phone may send, 0 if not said
	IState  string // "", "sending" or "sent"
	IReason string // why the last one was refused, if it was

	cls   *predict.Classifier
	pred  predict.Prediction
	pix   []byte
	pen   kit.Pen
	label int // the label chosen, −1 for none
	ink   bool
}

func (p *pad) OnMount(ctx app.Context) {
	p.cls = predict.NewClassifier()
	p.pen = kit.Pen{Size: padSize, Stroke: padStroke}
	p.pix = make([]byte, 4*padSize*padSize)
	p.label = -1
}

func (p *pad) OnUpdate(ctx app.Context) {
	if p.cls != nil && p.ink {
		p.pred = p.cls.Predict(true, p.IModel)
	}
}

func (p *pad) Render() app.UI {
	l := p.ILang
	read := ""
	if p.ink && p.pred.Ready {
		read = l.T("class.padReads", p.pred.Digit, int(100*p.pred.Probs[p.pred.Digit]+0.5))
	}
	left := ""
	if p.IMax > 0 {
		left = l.T("class.padLeft", p.ISent, p.IMax)
	}
	status := ""
	switch {
	case p.IReason != "":
		status = l.T("class.refused", p.IReason)
	case p.IState == "sending":
		status = l.T("class.padSending")
	case p.IState == "sent":
		status = l.T("class.padSent")
	}
	return app.Section().ID("class-pad-panel").Class("panel class-pad").Aria("label", l.T("class.padTitle")).Body(
		app.H2().Text(l.T("class.padTitle")),
		app.P().Class("note").Text(l.T("class.padSay")),
		app.Div().Class("draw-row").Body(
			app.Div().Class("pad-wrap").Body(
				app.Canvas().ID("class-pad").Width(padSize).Height(padSize).Attr("role", "img").
					Aria("label", l.T("draw.pad")).Attr("data-ink", p.ink).Attr("data-read", map[bool]int{true: p.pred.Digit, false: -1}[p.ink && p.pred.Ready]).
					On("pointerdown", p.onDown).
					On("pointermove", p.onMove).
					On("pointerup", p.onUp).
					On("pointercancel", p.onUp).
					On("lostpointercapture", p.onUp),
				app.Button().ID("class-clear").Text(l.T("button.clear")).OnClick(func(ctx app.Context, e app.Event) { p.clear() }),
			),
			app.Div().Class("label-buttons").Attr("role", "group").Aria("label", l.T("class.padLabel")).Body(
				app.Span().Class("note").Text(l.T("class.padLabel")),
				app.Range(make([]struct{}, 10)).Slice(func(i int) app.UI {
					return app.Button().ID("class-label-"+strconv.Itoa(i)).Text(strconv.Itoa(i)).
						Aria("pressed", strconv.FormatBool(p.label == i)).
						OnClick(func(ctx app.Context, e app.Event) { p.label = i })
				}),
			),
		),
		app.P().Class("class-read").Attr("role", "status").Text(read),
		app.Button().ID("class-send").Text(l.T("class.padSend")).Disabled(!p.ink || p.label < 0 || p.IMax > 0 && p.ISent >= p.IMax).
			Attr("data-state", p.IState).OnClick(p.onSend),
		app.P().Class("note").Attr("role", "status").Text(status+" "+left),
	)
}

func (p *pad) onDown(ctx app.Context, e app.Event) {
	e.PreventDefault()
	p.pen.Down(ctx.JSSrc(), e.Value)
	p.read(ctx.JSSrc())
}

func (p *pad) onMove(ctx app.Context, e app.Event) {
	if !p.pen.Move(ctx.JSSrc(), e.Value) {
		ctx.PreventUpdate()
		return
	}
	e.PreventDefault()
	p.read(ctx.JSSrc())
}

func (p *pad) onUp(ctx app.Context, e app.Event) {
	if !p.pen.Up() {
		ctx.PreventUpdate()
		return
	}
	p.read(ctx.JSSrc())
}

func (p *pad) onSend(ctx app.Context, e app.Event) {
	if !p.ink || p.label < 0 {
		return
	}
	d := drawn{Label: uint8(p.label)}
	pre := digit.Preprocessor{Ink: digit.InkAlpha}
	info, err := pre.FromRGBA(&d.Pixels, p.pix, padSize, padSize)
	if err != nil || !info.OK {
		return
	}
	sendDrawing.Post(ctx, d)
	p.clear()
}

// clear empties the pad, for the next digit.
func (p *pad) clear() {
	_, c := paint.Context2D("class-pad")
	if c.Truthy() {
		c.Call("clearRect", 0, 0, padSize, padSize)
	}
	clear(p.pix)
	p.ink, p.label, p.pred = false, -1, predict.Prediction{}
}

// read reads the pad's pixels and what the model makes of them.
func (p *pad) read(canvas app.Value) {
	data := canvas.Call("getContext", "2d").Call("getImageData", 0, 0, padSize, padSize).Get("data")
	if app.CopyBytesToGo(p.pix, data) != len(p.pix) {
		return
	}
	pr, err := p.cls.Classify(p.pix, padSize, padSize, p.IModel)
	if err != nil {
		return
	}
	p.pred, p.ink = pr, pr.Ink
}
