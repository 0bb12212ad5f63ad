package planepanel

import (
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/planepanel/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// numberField is one of the plane's number fields (α, λ or B): a
// labelled text field with its reason when it is refused. What is typed
// is the field's own: it shows it from the keystroke on, until the owner
// has taken it (IValue says it too), so that a render before the owner
// takes it keeps what was typed; the owner's value shows otherwise (α set
// by the page).
type numberField struct {
	app.Compo

	ILang   i18n.Lang
	IID     string
	IName   string // store.LR, store.L2 or store.Batch
	ILabel  string
	IValue  string // the field's text as the owner has it
	IReason i18n.Msg

	typed   string // what was typed last, until the owner has it
	pending bool
}

// OnUpdate forgets what was typed once the owner has it.
func (f *numberField) OnUpdate(ctx app.Context) {
	if f.pending && f.IValue == f.typed {
		f.pending = false
	}
}

// Render shows the field.
func (f *numberField) Render() app.UI {
	value := f.IValue
	if f.pending {
		value = f.typed
	}
	return app.Div().Class("field").Body(
		app.Label().For(f.IID).Text(f.ILabel),
		app.Input().ID(f.IID).Type("text").Attr("inputmode", "decimal").Attr("autocomplete", "off").Value(value).
			Aria("invalid", !f.IReason.IsZero()).Aria("describedby", f.IID+"-error").OnInput(f.onInput),
		app.Div().ID(f.IID+"-error").Class("field-error").Aria("live", "polite").Text(f.ILang.M(f.IReason)),
	)
}

// onInput posts what is typed.
func (f *numberField) onInput(ctx app.Context, e app.Event) {
	f.typed = ctx.JSSrc().Get("value").String()
	f.pending = f.typed != f.IValue
	typeNumber.Post(ctx, store.Typing{Field: f.IName, Value: f.typed})
}
