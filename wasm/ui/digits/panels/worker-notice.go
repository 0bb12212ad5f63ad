package panels

import (
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// WorkerNotice says what happened to the last training worker that
// died, until the person dismisses it. #worker-notice is always in the
// page: data-replaced counts the workers replaced, data-from is the step
// the last one's run went on from, data-snapshot the step of the latest
// snapshot kept (0: none).
type WorkerNotice struct {
	app.Compo

	ILang     i18n.Lang
	INotice   i18n.Msg // zero: nothing to say
	IReplaced int
	IFrom     int
	ISnapshot int
}

func (w *WorkerNotice) Render() app.UI {
	l := w.ILang
	div := app.Div().ID("worker-notice").Attr("role", "status").Attr("data-replaced", w.IReplaced).
		Attr("data-from", w.IFrom).Attr("data-snapshot", w.ISnapshot)
	if w.INotice.IsZero() {
		return div.Class("notice empty")
	}
	return div.Class("notice").Body(
		app.P().Text(l.M(w.INotice)),
		app.Button().ID("worker-notice-ok").Text(l.T("button.ok")).OnClick(func(ctx app.Context, e app.Event) {
			store.WorkerNoticeOK.Post(ctx)
		}),
	)
}
