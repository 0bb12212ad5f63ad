package panels

import (
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/params"

	"softmaxdemo/wasm/ui/i18n"

	"math"
	"slices"

	"softmaxdemo/core/dataset"
	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TrainPanel holds the training controls. It validates what is typed as
// it is typed, shows the reason next to a refused field, and posts an
// action only when every field is accepted. Whenever every field is
// accepted it also posts store.ActionSettings, so the page's link follows.
type TrainPanel struct {
	app.Compo

	ILang    i18n.Lang
	IStatus  string
	ITrainN  int
	IPacks   []dataset.PackInfo
	IDataset string
	IInit    params.Fields // the fields to start with: the link's, or the defaults
	// ILink and ILinkVersion are the fields of a link followed in the
	// open page: when the version changes, they replace what is typed.
	ILink        params.Fields
	ILinkVersion int
	// ICurvature is the worker's latest λ_max of the Hessian, for the
	// ceiling on α shown under it (#alpha-max); nil before the first.
	ICurvature *protocol.CurvatureIs

	f         params.Fields // what is typed now, read from each input event
	init      params.Fields // what the inputs were rendered with, which never changes
	err       params.Errors
	seeded    bool // f and init were taken from IInit
	folded    bool // the settings are folded away (on a phone, at first)
	shownOpen bool // whether the settings were last rendered open
	linked    int  // the ILinkVersion whose fields the inputs show
}

func NewTrainPanel() *TrainPanel {
	return &TrainPanel{IInit: params.Defaults()}
}

// Init sets the fields the panel starts with; later changes are ignored,
// since from then on the fields are the person's.
func (p *TrainPanel) Init(f params.Fields) *TrainPanel { p.IInit = f; return p }
func (p *TrainPanel) Lang(l i18n.Lang) *TrainPanel     { p.ILang = l; return p }

// Link sets the fields of a link followed in the open page; they replace
// the typed ones once for each new version.
func (p *TrainPanel) Link(f params.Fields, version int) *TrainPanel {
	p.ILink, p.ILinkVersion = f, version
	return p
}

// OnUpdate takes a followed link's fields: they become what is typed and
// what the inputs show.
func (p *TrainPanel) OnUpdate(ctx app.Context) {
	if p.ILinkVersion == p.linked {
		return
	}
	p.linked = p.ILinkVersion
	p.f, p.init = p.ILink, p.ILink
	_, p.err = params.Check(p.f, p.maxBatch()).Result()
	f := p.f
	ctx.Defer(func(app.Context) { showFields(f) })
}

// seed takes the starting fields, once.
func (p *TrainPanel) seed() {
	if !p.seeded {
		p.f, p.init, p.seeded = p.IInit, p.IInit, true
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

func (p *TrainPanel) Status(v string) *TrainPanel { p.IStatus = v; return p }
func (p *TrainPanel) TrainN(v int) *TrainPanel    { p.ITrainN = v; return p }
func (p *TrainPanel) Packs(v []dataset.PackInfo) *TrainPanel {
	p.IPacks = v
	return p
}
func (p *TrainPanel) Dataset(v string) *TrainPanel { p.IDataset = v; return p }
func (p *TrainPanel) Curvature(c *protocol.CurvatureIs) *TrainPanel {
	p.ICurvature = c
	return p
}

func (p *TrainPanel) Render() app.UI {
	p.seed()
	l := p.ILang
	busy := p.IStatus == store.StatusTraining
	noData := p.IStatus == store.StatusLoading || p.ITrainN == 0
	p.shownOpen = !p.folded || !p.err.OK() // a refused field is never hidden
	return app.Section().Class("panel controls").Attr("data-method", p.f.Method).Aria("label", l.T("train.region")).Body(
		app.H2().Text(l.T("train.title")),
		app.Div().Class("buttons").Body(
			app.Button().ID("train").Class("primary").Text(l.T("button.train")).Disabled(busy || noData).OnClick(p.onTrain),
			app.Button().ID("pause").Text(l.T("button.pause")).Disabled(!busy).OnClick(p.onPause),
			app.Button().ID("step").Text(l.T("button.step")).Title(l.T("button.stepWhy")).Disabled(busy || noData).OnClick(p.onStep),
			app.Button().ID("reset").Text(l.T("button.reset")).Disabled(noData).OnClick(p.onReset),
		),
		// The pace stays in view: a teacher changes it during a run.
		app.Div().Class("field pace-field").Body(
			app.Label().For("pace").Text(l.T("train.pace")),
			app.Select().ID("pace").Title(l.T("train.paceWhy")).OnChange(func(ctx app.Context, e app.Event) {
				v := ctx.JSSrc().Get("value").String()
				if _, ok := params.PaceRate(v); ok {
					p.f.Pace = v
					ctx.NewActionWithValue(store.ActionPace, v)
					p.changed(ctx)
				}
			}).Body(
				app.Range(params.Paces).Slice(func(i int) app.UI {
					return app.Option().Value(params.Paces[i]).Text(l.T("pace." + params.Paces[i])).Selected(params.Paces[i] == p.init.Pace)
				}),
			),
		),
		app.Details().Class("settings").Open(p.shownOpen).OnToggle(p.onToggle).Body(
			app.Summary().Text(l.T("train.settings")),
			app.Div().Class("field").Body(
				app.Label().For("preset").Text(l.T("train.preset")),
				app.Select().ID("preset").Disabled(busy).OnChange(p.onPreset).Body(
					app.Range(params.Presets).Slice(func(i int) app.UI {
						return app.Option().Value(params.Presets[i].Name).Text(l.T("preset." + params.Presets[i].Name))
					}),
				),
			),
			app.Div().Class("field").Body(
				app.Label().For("method").Text(l.T("train.method")),
				app.Select().ID("method").Disabled(busy).OnChange(func(ctx app.Context, e app.Event) {
					if v := ctx.JSSrc().Get("value").String(); slices.Contains(params.Methods, v) {
						p.f.Method = v
						_, p.err = params.Check(p.f, p.maxBatch()).Result()
						p.changed(ctx)
					}
				}).Body(
					app.Range(params.Methods).Slice(func(i int) app.UI {
						return app.Option().Value(params.Methods[i]).Text(l.T("method." + params.Methods[i])).Selected(params.Methods[i] == p.init.Method)
					}),
				),
			),
			p.field("lr", "descent", l.T("train.lr"), p.init.LR, p.err.LR, "decimal", func(v string) { p.f.LR = v }),
			p.alphaMax(),
			p.field("batch", "sgd", l.T("train.batch"), p.init.Batch, p.err.Batch, "numeric", func(v string) { p.f.Batch = v }),
			p.field("l2", "", l.T("train.l2"), p.init.L2, p.err.L2, "decimal", func(v string) { p.f.L2 = v }),
			p.field("epochs", "descent", l.T("train.epochs"), p.init.Epochs, p.err.Epochs, "numeric", func(v string) { p.f.Epochs = v }),
			p.field("newton-iters", "newton", l.T("train.newtonIters"), p.init.NewtonIters, p.err.NewtonIters, "numeric", func(v string) { p.f.NewtonIters = v }),
			p.field("grad-tol", "newton", l.T("train.gradTol"), p.init.GradTol, p.err.GradTol, "decimal", func(v string) { p.f.GradTol = v }),
			p.field("cg-steps", "newton", l.T("train.cgSteps"), p.init.CGSteps, p.err.CGSteps, "numeric", func(v string) { p.f.CGSteps = v }),
			p.field("seed", "descent", l.T("train.seed"), p.init.Seed, p.err.Seed, "numeric", func(v string) { p.f.Seed = v }),
			p.field("decay", "descent", l.T("train.decay"), p.init.Decay, p.err.Decay, "decimal", func(v string) { p.f.Decay = v }),
			app.Div().Class("field only-descent").Body(
				app.Label().For("init").Text(l.T("train.init")),
				app.Select().ID("init").Disabled(busy).OnChange(func(ctx app.Context, e app.Event) {
					p.f.Init = ctx.JSSrc().Get("value").String()
					p.changed(ctx)
				}).Body(
					app.Option().Value("zeros").Text(l.T("train.initZeros")).Selected(p.init.Init == "zeros"),
					app.Option().Value("normal").Text(l.T("train.initNormal")).Selected(p.init.Init == "normal"),
				),
			),
			p.check("pin", p.init.Pin, busy, l.T("train.pin"), kit.Plain(l.T("train.pinWhy")), func(v bool) { p.f.Pin = v }),
			p.check("deskew", p.init.Deskew, busy, l.T("train.deskew"), l.T("train.deskewWhy"), func(v bool) { p.f.Deskew = v }),
			app.Div().Class("field").Body(
				app.Label().For("dataset").Text(l.T("train.data")),
				app.Select().ID("dataset").Disabled(busy || len(p.IPacks) < 2).OnChange(p.onDataset).Body(
					app.Range(p.IPacks).Slice(func(i int) app.UI {
						pk := p.IPacks[i]
						return app.Option().Value(pk.Name).Text(l.T("data.title", i18n.Count(pk.Train), i18n.Count(pk.Test))).Selected(pk.Name == p.IDataset)
					}),
				),
			),
		),
	)
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
	cfg, _ := params.Check(p.f, p.maxBatch()).Result()
	regime, text := alphaNote(l, c, cfg.LearningRate, cfg.BatchSize, p.maxBatch(), p.f.Method)
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

// changed posts the fields for the page's link when all of them are
// accepted; while one is refused the link keeps the last accepted ones.
func (p *TrainPanel) changed(ctx app.Context) {
	if _, e := params.Check(p.f, p.maxBatch()).Result(); e.OK() {
		ctx.NewActionWithValue(store.ActionSettings, p.f)
	}
}

// field renders one labelled input with its inline error. The input's
// value is rendered once and then left to the person: go-app renders on the
// next frame, and writing the typed text back then would undo keystrokes
// typed in between (on a slow machine, "1000" could become "100").
// only names the methods the field is for (see app.css): "descent" for
// SGD and gradient descent, "sgd" for minibatches only, "newton", or ""
// for all.
func (p *TrainPanel) field(id, only, label, value string, reason i18n.Msg, mode string, set func(string)) app.UI {
	cls := "field"
	if only != "" {
		cls += " only-" + only
	}
	return app.Div().Class(cls).Body(
		app.Label().For(id).Text(label),
		app.Input().ID(id).Type("text").Attr("inputmode", mode).Attr("autocomplete", "off").Value(value).
			Aria("invalid", !reason.IsZero()).Aria("describedby", id+"-error").
			OnInput(func(ctx app.Context, e app.Event) {
				set(ctx.JSSrc().Get("value").String())
				_, p.err = params.Check(p.f, p.maxBatch()).Result()
				p.changed(ctx)
			}),
		app.Div().ID(id+"-error").Class("field-error").Aria("live", "polite").Text(p.ILang.M(reason)),
	)
}

// check is a checkbox with its label, whose title says why one would tick
// it; a change calls set with the new state.
func (p *TrainPanel) check(id string, on, busy bool, label, why string, set func(bool)) app.UI {
	return app.Div().Class("field check").Body(
		app.Input().ID(id).Type("checkbox").Checked(on).Disabled(busy).
			OnChange(func(ctx app.Context, e app.Event) {
				set(ctx.JSSrc().Get("checked").Bool())
				p.changed(ctx)
			}),
		app.Label().For(id).Title(why).Text(label),
	)
}

func (p *TrainPanel) maxBatch() int {
	if p.ITrainN > 0 {
		return p.ITrainN
	}
	return 60000
}

// config validates every field and returns the configuration, or false
// with the reasons shown.
func (p *TrainPanel) config() (protocol.Config, bool) {
	cfg, e := params.Check(p.f, p.maxBatch()).Result()
	p.err = e
	return cfg, e.OK()
}

func (p *TrainPanel) onTrain(ctx app.Context, e app.Event) {
	if c, ok := p.config(); ok {
		ctx.NewActionWithValue(store.ActionTrain, c)
	}
}

func (p *TrainPanel) onStep(ctx app.Context, e app.Event) {
	if c, ok := p.config(); ok {
		ctx.NewActionWithValue(store.ActionStep, c)
	}
}

func (p *TrainPanel) onReset(ctx app.Context, e app.Event) {
	if c, ok := p.config(); ok {
		ctx.NewActionWithValue(store.ActionReset, c)
	}
}

func (p *TrainPanel) onPause(ctx app.Context, e app.Event) {
	ctx.NewAction(store.ActionPause)
}

// onPreset fills every field from the chosen preset, in the page and in
// the inputs themselves (they are not re-rendered, see field).
func (p *TrainPanel) onPreset(ctx app.Context, e app.Event) {
	name := ctx.JSSrc().Get("value").String()
	for _, pr := range params.Presets {
		if pr.Name != name {
			continue
		}
		pin, deskew, pace := p.f.Pin, p.f.Deskew, p.f.Pace // a preset is a way of descending; these are separate choices
		p.f = pr.Fields(p.maxBatch())
		p.f.Pin, p.f.Pace = pin, pace
		if pr.Name == "lecture" {
			deskew = false // the notes' experiment, on the notes' raw pixels
		}
		p.f.Deskew = deskew
		showFields(p.f)
		_, p.err = params.Check(p.f, p.maxBatch()).Result()
		p.changed(ctx)
	}
}

func (p *TrainPanel) onDataset(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(store.ActionDataset, ctx.JSSrc().Get("value").String())
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
