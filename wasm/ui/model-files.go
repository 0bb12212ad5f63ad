package ui

import (
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/store"

	"bytes"
	"errors"
	"time"

	"softmaxdemo/core/modelfile"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// modelFiles is the panel that keeps the model: save it as JSON or as a
// NumPy .npz, load one (or drop a file on the page), and, when the page
// restored the model it kept in the browser, start afresh.
type modelFiles struct {
	app.Compo

	ILang     i18n.Lang
	IHasModel bool
	IStatus   i18n.Msg // what happened last, shown in #model-status
	IKind     string   // its kind, in data-kind: "loaded", "restored", or an error kind (see fileErrKind)
	IRestored bool     // the model shown was restored from the browser's storage
}

func (m *modelFiles) Render() app.UI {
	l := m.ILang
	return app.Section().Class("panel model-files").Aria("label", l.T("model.region")).Body(
		app.H2().Text(l.T("model.title")),
		app.P().Class("note").Text(l.T("model.note")),
		app.Div().Class("buttons").Body(
			app.Button().ID("download-model").Text(l.T("model.saveJSON")).Title(l.T("model.saveJSONWhy")).Disabled(!m.IHasModel).
				OnClick(func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(store.ActionDownloadModel, "json") }),
			app.Button().ID("download-npz").Text(l.T("model.saveNPZ")).Title(l.T("model.saveNPZWhy")).Disabled(!m.IHasModel).
				OnClick(func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(store.ActionDownloadModel, "npz") }),
			app.Input().ID("upload-model").Type("file").Class("sr-only").Accept(".json,.npz").OnChange(onFileChosen(store.ActionUploadModel)),
			app.Label().For("upload-model").Class("file-button").Text(l.T("model.load")),
		),
		app.P().ID("model-status").Class("note file-status").Attr("data-kind", m.IKind).Attr("role", "status").Text(l.M(m.IStatus)),
		app.If(m.IRestored, func() app.UI {
			return app.Button().ID("forget-model").Text(l.T("model.forget")).Title(l.T("model.forgetWhy")).
				OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(store.ActionForgetModel) })
		}),
	)
}

// onFileChosen posts the chosen File (a JavaScript value) with action, and
// empties the input so that choosing the same file again loads it again.
func onFileChosen(action string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		in := ctx.JSSrc()
		files := in.Get("files")
		if !files.Truthy() || files.Length() == 0 {
			return
		}
		f := files.Index(0)
		in.Set("value", "")
		ctx.NewActionWithValue(action, f)
	}
}

// modelInfo is how the current model was trained, for its JSON file:
// the run's settings, how far it went, its latest test accuracy, my
// digits mixed in, and when it was saved.
func modelInfo(r *store.Run, pr protocol.Progress, ev *protocol.Evaluated, dataset string, mine int, saved time.Time) modelfile.Info {
	info := modelfile.Info{Dataset: dataset, Saved: saved.UTC().Format(time.RFC3339)}
	if r != nil {
		c := r.Cfg
		info.Method = r.Method()
		info.LearningRate, info.BatchSize, info.L2, info.Seed, info.Deskew = c.LearningRate, c.BatchSize, c.L2, c.Seed, c.Deskew
		if info.Method == "newton" {
			info.LearningRate, info.BatchSize = 0, 0
		}
		if c.ExtraRate > 0 && mine > 0 {
			info.MyDigits, info.ExtraRate = mine, c.ExtraRate
		}
	}
	info.Epochs, info.Steps = pr.Epoch, pr.Step
	if ev != nil {
		info.TestAccuracy = ev.Accuracy
	}
	return info
}

// encodeModel returns m as a file of the given kind ("json" or "npz"),
// with its name and media type.
func encodeModel(m *softmax.Model[float32], info modelfile.Info, kind string) (b []byte, name, mime string, err error) {
	var buf bytes.Buffer
	if kind == "npz" {
		err = modelfile.EncodeNPZ(&buf, m)
		name, mime = "softmax-model.npz", "application/zip"
	} else {
		err = modelfile.EncodeJSON(&buf, m, info)
		name, mime = "softmax-model.json", "application/json"
	}
	return buf.Bytes(), name, mime, err
}

// fileErrKind names the kind of a file's refusal, for #model-status's
// data-kind and the catalogs' "fileErr."+kind: "format", "version",
// "shape", "dtype", "layout", "notFinite", "tooLarge", "truncated", or
// "read" for anything else (the browser could not read the file).
func fileErrKind(err error) string {
	for _, k := range []struct {
		err  error
		kind string
	}{
		{modelfile.ErrTooLarge, "tooLarge"}, {modelfile.ErrTruncated, "truncated"}, {modelfile.ErrVersion, "version"},
		{modelfile.ErrShape, "shape"}, {modelfile.ErrDType, "dtype"}, {modelfile.ErrLayout, "layout"},
		{modelfile.ErrNotFinite, "notFinite"}, {modelfile.ErrFormat, "format"},
	} {
		if errors.Is(err, k.err) {
			return k.kind
		}
	}
	return "read"
}

// fileErrText is the catalog key of each kind fileErrKind returns.
var fileErrText = map[string]string{
	"format": "fileErr.format", "version": "fileErr.version", "shape": "fileErr.shape",
	"dtype": "fileErr.dtype", "layout": "fileErr.layout", "notFinite": "fileErr.notFinite",
	"tooLarge": "fileErr.tooLarge", "truncated": "fileErr.truncated", "read": "fileErr.read",
}
