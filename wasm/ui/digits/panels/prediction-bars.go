package panels

import (
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/predict"

	"fmt"
	"strconv"

	"softmaxdemo/core/softmax"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// predictionBars shows the predicted digit and the ten probabilities h(x)
// as bars. #prediction carries data-digit ("" when there is nothing to
// classify) and each bar carries data-p.
type predictionBars struct {
	app.Compo

	ILang i18n.Lang
	IPred predict.Prediction
}

func newPredictionBars() *predictionBars { return &predictionBars{} }

func (b *predictionBars) Prediction(l i18n.Lang, p predict.Prediction) *predictionBars {
	b.ILang, b.IPred = l, p
	return b
}

func (b *predictionBars) Render() app.UI {
	p, l := b.IPred, b.ILang
	digitAttr, big, note := "", "?", l.T("predict.draw")
	switch {
	case p.Ink && !p.Ready:
		note = l.T("predict.untrained")
	case p.Ink:
		digitAttr, big = strconv.Itoa(p.Digit), strconv.Itoa(p.Digit)
		note = l.T("predict.sure", fmt.Sprintf("%.0f%%", 100*p.Probs[p.Digit]))
	}
	return app.Div().Class("prediction-box").Body(
		app.Div().ID("prediction").Class("prediction").Attr("data-digit", digitAttr).Attr("aria-live", "polite").Body(
			app.Span().Class("digit").Text(big),
			app.Span().Class("note").Text(note),
		),
		app.Div().ID("probabilities").Class("bars").Aria("label", l.T("predict.bars")).Body(
			app.Range(make([]struct{}, softmax.K)).Slice(func(c int) app.UI {
				v := float32(0)
				if p.Ink && p.Ready {
					v = p.Probs[c]
				}
				top := p.Ink && p.Ready && c == p.Digit
				return kit.Bar(c, v, fmt.Sprintf("%.0f%%", 100*v)).Class(map[bool]string{true: "top"}[top]).
					Attr("data-p", strconv.FormatFloat(float64(v), 'f', 4, 32))
			}),
		),
	)
}
