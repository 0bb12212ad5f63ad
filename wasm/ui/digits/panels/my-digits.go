package panels

import (
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/paint"
	"softmaxdemo/wasm/ui/predict"

	"strconv"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/digit"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// MyDigits shows the digits a person taught the model, each with its
// label and what the current model reads, removable; the share of each
// batch they take; and their file.
type MyDigits struct {
	app.Compo

	ILang    i18n.Lang
	IDigits  protocol.Samples // labels and pixels, in the order added
	IModel   *softmax.Model[float32]
	IDeskew  bool
	IVersion int    // grows when the digits change
	IRate    string // one of store.MyDigitsRates
	IStatus  i18n.Msg
	IKind    string

	preds []int
	rgba  []byte
}

func (d *MyDigits) OnMount(ctx app.Context)  { ctx.Defer(func(app.Context) { d.draw() }) }
func (d *MyDigits) OnUpdate(ctx app.Context) { ctx.Defer(func(app.Context) { d.draw() }) }

// predict reads every digit with the current model, straightened first
// when the model reads straightened digits (-1: no model).
func (d *MyDigits) predict() {
	n := len(d.IDigits.Labels)
	d.preds = d.preds[:0]
	if n == 0 {
		return
	}
	if d.IModel == nil || d.IModel.D != dataset.Pixels {
		for range n {
			d.preds = append(d.preds, -1)
		}
		return
	}
	x := predict.Samples(d.IDigits, d.IDeskew)
	for i := range n {
		c, _ := d.IModel.Predict(x.Example(i))
		d.preds = append(d.preds, c)
	}
}

func (d *MyDigits) Render() app.UI {
	d.predict()
	l := d.ILang
	right := 0
	for i, p := range d.preds {
		if p == int(d.IDigits.Labels[i]) {
			right++
		}
	}
	n := len(d.IDigits.Labels)
	summary := l.T("myDigits.empty")
	if n > 0 {
		summary = l.T("myDigits.count", n, right)
	}
	return app.Section().Class("panel my-digits-panel").Aria("label", l.T("myDigits.title")).Body(
		app.H2().Text(l.T("myDigits.title")),
		app.P().Class("note").Text(l.T("myDigits.note")),
		d.rateField(),
		app.P().ID("my-digits-summary").Class("note").Text(summary),
		app.Div().ID("my-digits").Class("my-digits").Attr("data-count", n).Attr("data-right", right).Body(
			app.Range(d.preds).Slice(d.digit),
		),
		d.buttons(n),
		app.P().ID("digits-status").Class("note file-status").Attr("data-kind", d.IKind).Attr("role", "status").Text(l.M(d.IStatus)),
	)
}

// rateField chooses the share of each batch my digits take.
func (d *MyDigits) rateField() app.UI {
	l := d.ILang
	return app.Div().Class("field").Body(
		app.Label().For("my-digits-rate").Text(l.T("myDigits.rate")),
		app.Select().ID("my-digits-rate").Title(l.T("myDigits.rateWhy")).OnChange(func(ctx app.Context, e app.Event) {
			if v := ctx.JSSrc().Get("value").String(); v != d.IRate {
				store.MyDigitsRate.Post(ctx, v)
			}
		}).Body(
			app.Range(store.MyDigitsRates).Slice(func(i int) app.UI {
				r, _ := store.ParseMyDigitsRate(store.MyDigitsRates[i])
				t := l.T("myDigits.rateOff")
				if r > 0 {
					t = l.T("myDigits.ratePart", fmtPercentShort(r))
				}
				return app.Option().Value(store.MyDigitsRates[i]).Text(t).Selected(store.MyDigitsRates[i] == d.IRate)
			}),
		),
	)
}

// digit is my digit i, with its label, what the model reads, and its
// button to remove it.
func (d *MyDigits) digit(i int) app.UI {
	l := d.ILang
	y, p := int(d.IDigits.Labels[i]), d.preds[i]
	cls := "my-digit"
	caption := strconv.Itoa(y)
	if p >= 0 {
		caption = l.T("myDigits.readAs", y, p)
		if p != y {
			cls += " misread"
		}
	}
	return app.Figure().Class(cls).Attr("data-label", y).Attr("data-predicted", p).Body(
		app.Canvas().ID("my-digit-"+strconv.Itoa(i)).Width(digit.Side).Height(digit.Side).Class("pixelated").Attr("role", "img").
			Aria("label", caption),
		app.FigCaption().Text(caption),
		app.Button().Class("my-digit-remove").Text("×").Title(l.T("myDigits.remove")).Aria("label", l.T("myDigits.remove")).
			OnClick(func(ctx app.Context, e app.Event) { store.RemoveDigit.Post(ctx, i) }),
	)
}

// buttons save, load and clear the n digits.
func (d *MyDigits) buttons(n int) app.UI {
	l := d.ILang
	return app.Div().Class("buttons").Body(
		app.Button().ID("download-digits").Text(l.T("myDigits.save")).Disabled(n == 0).
			OnClick(func(ctx app.Context, e app.Event) { store.DownloadDigits.Post(ctx) }),
		app.Input().ID("upload-digits").Type("file").Class("sr-only").Accept(".mnpk").OnChange(onFileChosen(store.UploadDigits)),
		app.Label().For("upload-digits").Class("file-button").Text(l.T("myDigits.load")),
		app.Button().ID("clear-digits").Text(l.T("myDigits.clear")).Disabled(n == 0).
			OnClick(func(ctx app.Context, e app.Event) { store.RemoveDigit.Post(ctx, -1) }),
	)
}

// draw paints each thumbnail, dark ink on white, as the gallery does.
func (d *MyDigits) draw() {
	if len(d.rgba) != 4*digit.Pixels {
		d.rgba = make([]byte, 4*digit.Pixels)
	}
	for i := range d.IDigits.Labels {
		_, c := paint.Context2D("my-digit-" + strconv.Itoa(i))
		paint.GreyImage(d.rgba, d.IDigits.Pixels[i*digit.Pixels:(i+1)*digit.Pixels])
		paint.PutRGBA(c, d.rgba, digit.Side, digit.Side, 0, 0)
	}
}

// fmtPercentShort formats a fraction as a whole percentage: 5%, 50%.
func fmtPercentShort(v float64) string { return strconv.FormatFloat(100*v, 'f', -1, 64) + "%" }

// labelButtons are the "this is a 7" buttons under the draw pad: each
// adds the drawing, preprocessed as MNIST was made but not straightened
// (the worker straightens my digits itself for runs that need it), to my
// digits with its label.
type labelButtons struct {
	app.Compo

	ILang i18n.Lang
}

func (b *labelButtons) Render() app.UI {
	l := b.ILang
	return app.Div().Class("label-buttons").Aria("label", l.T("myDigits.teach")).Body(
		app.Span().Class("note").Text(l.T("myDigits.teach")),
		app.Range(make([]struct{}, 10)).Slice(func(i int) app.UI {
			return app.Button().ID("label-" + strconv.Itoa(i)).Text(strconv.Itoa(i)).Title(l.T("myDigits.thisIs", i)).
				OnClick(func(ctx app.Context, e app.Event) { b.onLabel(ctx, i) })
		}),
	)
}

// onLabel reads the pad and posts the drawing as digit y.
func (b *labelButtons) onLabel(ctx app.Context, y int) {
	canvas, c := paint.Context2D("draw-pad")
	if !c.Truthy() {
		return
	}
	data := c.Call("getImageData", 0, 0, padSize, padSize).Get("data")
	pix := make([]byte, 4*padSize*padSize)
	if app.CopyBytesToGo(pix, data) != len(pix) || !canvas.Truthy() {
		return
	}
	img, ok := rawDigit(pix)
	if !ok {
		store.AddDigit.Post(ctx, store.MyDigit{Label: 255}) // nothing drawn
		return
	}
	store.AddDigit.Post(ctx, store.MyDigit{Label: uint8(y), Pixels: img})
}

// rawDigit preprocesses the pad's RGBA pixels (ink in alpha) as the draw
// pad does, without straightening, and reports whether there was ink.
func rawDigit(rgba []byte) ([]byte, bool) {
	pre := digit.Preprocessor{Ink: digit.InkAlpha}
	var img [digit.Pixels]uint8
	info, err := pre.FromRGBA(&img, rgba, padSize, padSize)
	if err != nil || !info.OK {
		return nil, false
	}
	return img[:], true
}
