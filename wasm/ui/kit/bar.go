package kit

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Bar is one class's probability as a bar: the digit, a track filled to
// p, and value, p as people read it. Its class is "bar"; callers add
// theirs ("top", "true") and their data attributes.
func Bar(digit int, p float32, value string) app.HTMLDiv {
	return app.Div().Class("bar").Attr("data-digit", digit).Body(
		app.Span().Class("bar-label").Text(strconv.Itoa(digit)),
		app.Span().Class("bar-track").Body(
			app.Span().Class("bar-fill").Style("width", strconv.FormatFloat(100*float64(p), 'f', 1, 64)+"%"),
		),
		app.Span().Class("bar-value").Text(value),
	)
}
