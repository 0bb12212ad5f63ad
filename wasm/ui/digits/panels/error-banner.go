package panels

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
)

// ErrorBanner shows what went wrong and how to recover, with a button for
// the recovery when there is one. #error is always in the page, empty
// when all is well, so tests and screen readers find it in one place.
type ErrorBanner struct {
	app.Compo

	ILang i18n.Lang
	IErr  *store.Error
}

func NewErrorBanner() *ErrorBanner { return &ErrorBanner{} }

func (b *ErrorBanner) Err(l i18n.Lang, e *store.Error) *ErrorBanner {
	b.ILang, b.IErr = l, e
	return b
}

func (b *ErrorBanner) Render() app.UI {
	if b.IErr == nil {
		return app.Div().ID("error").Class("error-banner empty").Attr("role", "alert")
	}
	e, l := b.IErr, b.ILang
	var button app.UI = app.Button().ID("dismiss").Text(l.T("button.dismiss")).OnClick(post(store.Dismiss))
	switch e.Action {
	case store.RecoverRetry:
		button = app.Button().ID("retry").Class("primary").Text(l.T("button.retry")).OnClick(post(store.Retry))
	case store.RecoverRestart:
		button = app.Button().ID("restart").Class("primary").Text(l.T("button.restart")).OnClick(post(store.Restart))
	}
	return app.Div().ID("error").Class("error-banner").Attr("role", "alert").Attr("data-action", e.Action).Body(
		app.P().Class("error-message").Text(capitalise(l.M(e.Message))),
		app.If(!e.Hint.IsZero(), func() app.UI { return app.P().Class("error-hint").Text(capitalise(l.M(e.Hint))) }),
		button,
	)
}

// post returns an event handler that posts s.
func post(s kit.Signal) app.EventHandler {
	return func(ctx app.Context, e app.Event) { s.Post(ctx) }
}

// capitalise upper-cases the first letter of an ASCII message: errors are
// lower case in Go and start a sentence on the page.
func capitalise(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}
