package panels

import (
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/params"

	"softmaxdemo/wasm/ui/i18n"

	"math"

	"softmaxdemo/core/dataset"
	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TrainPanel holds the training controls. It shows the fields as typed
// and the reason beside each refused one (ISettings, which the room checks
// as each is typed), and posts each change (store.Edit) and each press;
// the room trains only with fields that all pass. Its own state is what
// its inputs were rendered with and whether its settings are folded.
type TrainPanel struct {
	app.Compo

	ILang     i18n.Lang
	ISettings params.Settings // the fields as typed, checked
	// IVersion grows when the fields come from elsewhere than a person
	// typing them (a link, a chapter, a preset): they then replace what
	// the inputs show.
	IVersion int
	IStatus  string
	ITrainN  int
	IPacks   []dataset.PackInfo
	IDataset string
	// ICurvature is the worker's latest λ_max of the Hessian, for the
	// ceiling on α shown under it (#alpha-max); nil before the first.
	ICurvature *protocol.CurvatureIs

	init      params.Fields // what the inputs were rendered with, which a person's typing never changes
	shown     int           // the IVersion whose fields the inputs show
	seeded    bool          // init was taken from ISettings
	folded    bool          // the settings are folded away (on a phone, at first)
	shownOpen bool          // whether the settings were last rendered open
}

// NewTrainPanel returns the Train panel, whose fields Settings sets.
func NewTrainPanel() *TrainPanel { return &TrainPanel{} }

// Lang sets the panel's language.
func (p *TrainPanel) Lang(l i18n.Lang) *TrainPanel { p.ILang = l; return p }

// Settings sets the fields as typed and their version.
func (p *TrainPanel) Settings(s params.Settings, version int) *TrainPanel {
	p.ISettings, p.IVersion = s, version
	return p
}

// Status sets the room's state (store.StatusTraining, ...).
func (p *TrainPanel) Status(v string) *TrainPanel { p.IStatus = v; return p }

// TrainN sets the training images loaded, 0 before the data are in.
func (p *TrainPanel) TrainN(v int) *TrainPanel { p.ITrainN = v; return p }

// seed takes the fields the inputs start with, once.
func (p *TrainPanel) seed() {
	if !p.seeded {
		p.init, p.shown, p.seeded = p.ISettings.Fields, p.IVersion, true
	}
}

func (p *TrainPanel) OnInit() { p.seed() }

// OnMount folds the settings away on a narrow screen, so that a phone
// shows Train and the draw pad without scrolling; they stay open on a wide
// one (and in the prerendered page).
func (p *TrainPanel) OnMount(ctx app.Context) {
	if app.IsClient {
		narrow := app.Window().Call("matchMedia", narrowScreen).Get("matches").Bool()
		ctx.Dispatch(func(app.Context) { p.folded = narrow })
	}
}

// OnUpdate takes fields that came from elsewhere than the inputs: they
// become what the inputs show.
func (p *TrainPanel) OnUpdate(ctx app.Context) {
	if p.IVersion == p.shown {
		return
	}
	p.shown, p.init = p.IVersion, p.ISettings.Fields
	f := p.init
	ctx.Defer(func(app.Context) { showFields(f) })
}

// narrowScreen is web/app.css's query for a phone's layout.
const narrowScreen = "(max-width: 760px)"

// onToggle follows the person opening or folding the settings. The
// browser also fires toggle when the page itself opens or folds them (and
// when it creates them open): those say what was rendered, and are ignored.
func (p *TrainPanel) onToggle(ctx app.Context, e app.Event) {
	open := ctx.JSSrc().Get("open").Bool()
	if open == p.shownOpen {
		ctx.PreventUpdate()
		return
	}
	p.folded = !open
}

func (p *TrainPanel) Render() app.UI {
	p.seed()
	l := p.ILang
	busy := p.IStatus == store.StatusTraining
	p.shownOpen = !p.folded || !p.ISettings.OK() // a refused field is never hidden
	settings := append([]app.UI{
		app.Summary().Text(l.T("train.settings")),
		p.choice("preset", "field", l.T("train.preset"), busy, func(ctx app.Context, v string) { store.Preset.Post(ctx, v) },
			app.Range(params.Presets).Slice(func(i int) app.UI {
				return app.Option().Value(params.Presets[i].Name).Text(l.T("preset." + params.Presets[i].Name))
			})),
		p.choice("method", "field", l.T("train.method"), busy, p.edit("method"),
			app.Range(params.Methods).Slice(func(i int) app.UI {
				return app.Option().Value(params.Methods[i]).Text(l.T("method." + params.Methods[i])).Selected(params.Methods[i] == p.init.Method)
			})),
	}, p.textFields()...)
	settings = append(settings,
		p.choice("init", "field only-descent", l.T("train.init"), busy, p.edit("init"),
			app.Option().Value("zeros").Text(l.T("train.initZeros")).Selected(p.init.Init == "zeros"),
			app.Option().Value("normal").Text(l.T("train.initNormal")).Selected(p.init.Init == "normal")),
		p.check("pin", p.init.Pin, busy, l.T("train.pin"), kit.Plain(l.T("train.pinWhy"))),
		p.check("deskew", p.init.Deskew, busy, l.T("train.deskew"), l.T("train.deskewWhy")),
		p.choice("dataset", "field", l.T("train.data"), busy || len(p.IPacks) < 2, func(ctx app.Context, v string) { store.Dataset.Post(ctx, v) },
			app.Range(p.IPacks).Slice(func(i int) app.UI {
				pk := p.IPacks[i]
				return app.Option().Value(pk.Name).Text(l.T("data.title", i18n.Count(pk.Train), i18n.Count(pk.Test))).Selected(pk.Name == p.IDataset)
			})),
	)
	return app.Section().Class("panel controls").Attr("data-method", p.ISettings.Fields.Method).Aria("label", l.T("train.region")).Body(
		app.H2().Text(l.T("train.title")),
		p.buttons(busy),
		p.paceField(),
		app.Details().Class("settings").Open(p.shownOpen).OnToggle(p.onToggle).Body(settings...),
	)
}

// buttons are Train, Pause, Step and Reset, each enabled when it can do
// something.
func (p *TrainPanel) buttons(busy bool) app.UI {
	l := p.ILang
	noData := p.IStatus == store.StatusLoading || p.ITrainN == 0
	return app.Div().Class("buttons").Body(
		app.Button().ID("train").Class("primary").Text(l.T("button.train")).Disabled(busy || noData).OnClick(post(store.Train)),
		app.Button().ID("pause").Text(l.T("button.pause")).Disabled(!busy).OnClick(post(store.Pause)),
		app.Button().ID("step").Text(l.T("button.step")).Title(l.T("button.stepWhy")).Disabled(busy || noData).OnClick(post(store.Step)),
		app.Button().ID("reset").Text(l.T("button.reset")).Disabled(noData).OnClick(post(store.Reset)),
	)
}

// paceField chooses the pace; it stays in view: a teacher changes it
// during a run.
func (p *TrainPanel) paceField() app.UI {
	l := p.ILang
	return app.Div().Class("field pace-field").Body(
		app.Label().For("pace").Text(l.T("train.pace")),
		app.Select().ID("pace").Title(l.T("train.paceWhy")).OnChange(p.onSelect(p.edit("pace"))).Body(
			app.Range(params.Paces).Slice(func(i int) app.UI {
				return app.Option().Value(params.Paces[i]).Text(l.T("pace." + params.Paces[i])).Selected(params.Paces[i] == p.init.Pace)
			}),
		),
	)
}

// textFields are the fields of a number, each with its inline reason,
// and the ceiling on α under α.
func (p *TrainPanel) textFields() []app.UI {
	l, e, f := p.ILang, p.ISettings.Errors, p.init
	return []app.UI{
		p.field("lr", "descent", l.T("train.lr"), f.LR, e.LR, "decimal"),
		p.alphaMax(),
		p.field("batch", "sgd", l.T("train.batch"), f.Batch, e.Batch, "numeric"),
		p.field("l2", "", l.T("train.l2"), f.L2, e.L2, "decimal"),
		p.field("epochs", "descent", l.T("train.epochs"), f.Epochs, e.Epochs, "numeric"),
		p.field("newton-iters", "newton", l.T("train.newtonIters"), f.NewtonIters, e.NewtonIters, "numeric"),
		p.field("grad-tol", "newton", l.T("train.gradTol"), f.GradTol, e.GradTol, "decimal"),
		p.field("cg-steps", "newton", l.T("train.cgSteps"), f.CGSteps, e.CGSteps, "numeric"),
		p.field("seed", "descent", l.T("train.seed"), f.Seed, e.Seed, "numeric"),
		p.field("decay", "descent", l.T("train.decay"), f.Decay, e.Decay, "decimal"),
	}
}

// alphaMax shows 2/λ_max under α, and what it means for the α and the
// method in the fields (alphaNote). Its data-value is 2/λ_max (0 before
// the worker has measured it, or when H is zero), data-l2 the λ it was
// measured with, data-regime the note's case.
func (p *TrainPanel) alphaMax() app.UI {
	l, c := p.ILang, p.ICurvature
	if c == nil || c.AlphaMax <= 0 {
		return app.P().ID("alpha-max").Class("field-note only-descent").Attr("data-value", 0)
	}
	cfg := p.ISettings.Config
	regime, text := alphaNote(l, c, cfg.LearningRate, cfg.BatchSize, p.ISettings.M, p.ISettings.Fields.Method)
	return app.P().ID("alpha-max").Class("field-note only-descent").
		Attr("data-value", kit.Exact64(c.AlphaMax)).Attr("data-l2", kit.Exact64(c.L2)).Attr("data-lambda-max", kit.Exact64(c.LambdaMax)).
		Attr("data-regime", regime).Title(kit.Plain(l.T("train.alphaMaxWhy"))).
		Body(kit.Rich(text)...)
}

// The cases of the α note, as #alpha-max's data-regime.
const (
	alphaBelow = "below" // α ≤ 2/λ_max
	alphaAbove = "above" // 2/λ_max < α ≤ alphaFarAbove × 2/λ_max
	alphaFar   = "far"   // beyond
	alphaNone  = ""      // α not a number yet
)

// alphaFarAbove is how many times 2/λ_max α may be before the note warns
// that the loss will jump. J is not a quadratic: its curvature falls as
// the model grows sure, and cross-entropy's gradient is bounded, so above
// 2/λ_max full-batch descent wobbles rather than diverges. On the default
// pack from θ = 0 (λ_max ≈ 4.2), at 1.5× the loss fell with small bumps
// and the test accuracy dipped; at 2.1× it rose from 1.28 to 2.05 before
// falling; at 5× and 10× to 12 and 24 (docs/decisions/0029-what-alpha-does-above-two-over-lambda-max.md).
const alphaFarAbove = 2

// alphaNote says what 2/λ_max means for α = lr and the method: where
// full-batch descent on J's quadratic model at the current weights starts
// to overshoot, whether α is below, a little above or far above it, and,
// for minibatches (B < m), that each step's curvature is its batch's, so
// the figure is a guide.
func alphaNote(l i18n.Lang, c *protocol.CurvatureIs, lr float64, batch, m int, method string) (regime, text string) {
	text = l.T("train.alphaMax", i18n.Sig3(c.AlphaMax), i18n.Sig3(c.LambdaMax))
	switch r := lr / c.AlphaMax; {
	case !(lr > 0) || math.IsInf(lr, 0):
		regime = alphaNone
	case r <= 1:
		regime, text = alphaBelow, text+" "+l.T("train.alphaBelow", i18n.Sig3(lr))
	case r <= alphaFarAbove:
		regime, text = alphaAbove, text+" "+l.T("train.alphaAbove", i18n.Sig3(lr))
	default:
		regime, text = alphaFar, text+" "+l.T("train.alphaFar", i18n.Sig3(lr), i18n.Sig3(r))
	}
	if method == "sgd" && batch > 0 && batch < m {
		text += " " + l.T("train.alphaBatch", batch)
	}
	return regime, text
}

// edit returns what a change of the input id posts: the change, which
// the room checks.
func (p *TrainPanel) edit(id string) func(app.Context, string) {
	return func(ctx app.Context, v string) { store.Edit.Post(ctx, params.Edit{Field: id, Text: v}) }
}

// onSelect returns the handler of a choice's change, which calls do with
// the value chosen.
func (p *TrainPanel) onSelect(do func(app.Context, string)) app.EventHandler {
	return func(ctx app.Context, e app.Event) { do(ctx, ctx.JSSrc().Get("value").String()) }
}

// choice is a labelled drop-down of the options, of the class cls (see
// field), which calls do with each choice.
func (p *TrainPanel) choice(id, cls, label string, disabled bool, do func(app.Context, string), options ...app.UI) app.UI {
	return app.Div().Class(cls).Body(
		app.Label().For(id).Text(label),
		app.Select().ID(id).Disabled(disabled).OnChange(p.onSelect(do)).Body(options...),
	)
}

// field renders one labelled input with its inline reason. The input's
// value is rendered once and then left to the person: go-app renders on
// the next frame, and writing the typed text back then would undo
// keystrokes typed in between (on a slow machine, "1000" could become
// "100"). only names the methods the field is for (see app.css):
// "descent" for SGD and gradient descent, "sgd" for minibatches only,
// "newton", or "" for all.
func (p *TrainPanel) field(id, only, label, value string, reason i18n.Msg, mode string) app.UI {
	cls := "field"
	if only != "" {
		cls += " only-" + only
	}
	edit := p.edit(id)
	return app.Div().Class(cls).Body(
		app.Label().For(id).Text(label),
		app.Input().ID(id).Type("text").Attr("inputmode", mode).Attr("autocomplete", "off").Value(value).
			Aria("invalid", !reason.IsZero()).Aria("describedby", id+"-error").
			OnInput(func(ctx app.Context, e app.Event) { edit(ctx, ctx.JSSrc().Get("value").String()) }),
		app.Div().ID(id+"-error").Class("field-error").Aria("live", "polite").Text(p.ILang.M(reason)),
	)
}

// check is a checkbox with its label, whose title says why one would tick
// it.
func (p *TrainPanel) check(id string, on, busy bool, label, why string) app.UI {
	return app.Div().Class("field check").Body(
		app.Input().ID(id).Type("checkbox").Checked(on).Disabled(busy).
			OnChange(func(ctx app.Context, e app.Event) {
				store.Edit.Post(ctx, params.Edit{Field: id, On: ctx.JSSrc().Get("checked").Bool()})
			}),
		app.Label().For(id).Title(why).Text(label),
	)
}

// showFields puts f into the inputs themselves, which are rendered once
// and then left to the person (see field).
func showFields(f params.Fields) {
	for id, v := range map[string]string{"method": f.Method, "lr": f.LR, "batch": f.Batch, "l2": f.L2, "epochs": f.Epochs, "seed": f.Seed, "decay": f.Decay, "init": f.Init,
		"newton-iters": f.NewtonIters, "grad-tol": f.GradTol, "cg-steps": f.CGSteps, "pace": f.Pace} {
		if in := app.Window().GetElementByID(id); in.Truthy() {
			in.Set("value", v)
		}
	}
	for id, v := range map[string]bool{"pin": f.Pin, "deskew": f.Deskew} {
		if in := app.Window().GetElementByID(id); in.Truthy() {
			in.Set("checked", v)
		}
	}
}
