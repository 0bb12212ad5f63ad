package panels

import (
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// ModelFiles is the panel that keeps the model: save it as JSON or as a
// NumPy .npz, load one (or drop a file on the page), and, when the page
// restored the model it kept in the browser, start afresh.
type ModelFiles struct {
	app.Compo

	ILang     i18n.Lang
	IHasModel bool
	IStatus   i18n.Msg // what happened last, shown in #model-status
	IKind     string   // its kind, in data-kind: "loaded", "restored", or an error kind (files.ErrKind)
	IRestored bool     // the model shown was restored from the browser's storage
}

func (m *ModelFiles) Render() app.UI {
	l := m.ILang
	return app.Section().Class("panel model-files").Aria("label", l.T("model.region")).Body(
		app.H2().Text(l.T("model.title")),
		app.P().Class("note").Text(l.T("model.note")),
		app.Div().Class("buttons").Body(
			app.Button().ID("download-model").Text(l.T("model.saveJSON")).Title(l.T("model.saveJSONWhy")).Disabled(!m.IHasModel).
				OnClick(func(ctx app.Context, e app.Event) { store.DownloadModel.Post(ctx, "json") }),
			app.Button().ID("download-npz").Text(l.T("model.saveNPZ")).Title(l.T("model.saveNPZWhy")).Disabled(!m.IHasModel).
				OnClick(func(ctx app.Context, e app.Event) { store.DownloadModel.Post(ctx, "npz") }),
			app.Input().ID("upload-model").Type("file").Class("sr-only").Accept(".json,.npz").OnChange(onFileChosen(store.UploadModel)),
			app.Label().For("upload-model").Class("file-button").Text(l.T("model.load")),
		),
		app.P().ID("model-status").Class("note file-status").Attr("data-kind", m.IKind).Attr("role", "status").Text(l.M(m.IStatus)),
		app.If(m.IRestored, func() app.UI {
			return app.Button().ID("forget-model").Text(l.T("model.forget")).Title(l.T("model.forgetWhy")).
				OnClick(func(ctx app.Context, e app.Event) { store.ForgetModel.Post(ctx) })
		}),
	)
}

// onFileChosen posts the chosen file with action, and empties the input
// so that choosing the same file again loads it again.
func onFileChosen(action kit.Action[browser.File]) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		in := ctx.JSSrc()
		files := in.Get("files")
		if !files.Truthy() || files.Length() == 0 {
			return
		}
		f := files.Index(0)
		in.Set("value", "")
		action.Post(ctx, browser.FileOf(f))
	}
}
