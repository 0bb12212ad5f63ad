package ui

import (
	"softmaxdemo/core/dataset"
	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// trainPanel holds the training controls. It validates what is typed as
// it is typed, shows the reason next to a refused field, and posts an
// action only when every field is accepted.
type trainPanel struct {
	app.Compo

	IStatus  string
	ITrainN  int
	IPacks   []dataset.PackInfo
	IDataset string

	f    fields // what is typed now, read from each input event
	init fields // what the inputs were rendered with, which never changes
	err  fieldErrors
}

func newTrainPanel() *trainPanel {
	return &trainPanel{f: defaultFields(), init: defaultFields()}
}

func (p *trainPanel) Status(v string) *trainPanel { p.IStatus = v; return p }
func (p *trainPanel) TrainN(v int) *trainPanel    { p.ITrainN = v; return p }
func (p *trainPanel) Packs(v []dataset.PackInfo) *trainPanel {
	p.IPacks = v
	return p
}
func (p *trainPanel) Dataset(v string) *trainPanel { p.IDataset = v; return p }

func (p *trainPanel) Render() app.UI {
	busy := p.IStatus == stateTraining
	noData := p.IStatus == stateLoading || p.ITrainN == 0
	return app.Section().Class("panel controls").Aria("label", "Training controls").Body(
		app.H2().Text("Train"),
		app.Div().Class("field").Body(
			app.Label().For("preset").Text("Way of descending"),
			app.Select().ID("preset").Disabled(busy).OnChange(p.onPreset).Body(
				app.Range(presets).Slice(func(i int) app.UI {
					return app.Option().Value(presets[i].Name).Text(presets[i].Title)
				}),
			),
		),
		p.field("lr", "Learning rate α", p.init.LR, p.err.LR, "decimal", func(v string) { p.f.LR = v }),
		p.field("batch", "Batch size B", p.init.Batch, p.err.Batch, "numeric", func(v string) { p.f.Batch = v }),
		p.field("l2", "L2 strength λ", p.init.L2, p.err.L2, "decimal", func(v string) { p.f.L2 = v }),
		p.field("epochs", "Epochs", p.init.Epochs, p.err.Epochs, "numeric", func(v string) { p.f.Epochs = v }),
		p.field("seed", "Seed", p.init.Seed, p.err.Seed, "numeric", func(v string) { p.f.Seed = v }),
		p.field("decay", "α × after each epoch", p.init.Decay, p.err.Decay, "decimal", func(v string) { p.f.Decay = v }),
		app.Div().Class("field").Body(
			app.Label().For("init").Text("Start θ from"),
			app.Select().ID("init").Disabled(busy).OnChange(func(ctx app.Context, e app.Event) {
				p.f.Init = ctx.JSSrc().Get("value").String()
			}).Body(
				app.Option().Value("zeros").Text("zeros").Selected(p.init.Init == "zeros"),
				app.Option().Value("normal").Text("random, N(0, 1)").Selected(p.init.Init == "normal"),
			),
		),
		app.Div().Class("field check").Body(
			app.Input().ID("pin").Type("checkbox").Checked(p.init.Pin).Disabled(busy).
				OnChange(func(ctx app.Context, e app.Event) { p.f.Pin = ctx.JSSrc().Get("checked").Bool() }),
			app.Label().For("pin").Title("Subtracting one vector from every θ_j changes no prediction; fixing θ_0 = 0 removes that redundancy, as L2 does.").
				Text("Pin digit 0's θ at zero"),
		),
		app.Div().Class("field").Body(
			app.Label().For("dataset").Text("Data"),
			app.Select().ID("dataset").Disabled(busy || len(p.IPacks) < 2).OnChange(p.onDataset).Body(
				app.Range(p.IPacks).Slice(func(i int) app.UI {
					pk := p.IPacks[i]
					return app.Option().Value(pk.Name).Text(pk.Title).Selected(pk.Name == p.IDataset)
				}),
			),
		),
		app.Div().Class("buttons").Body(
			app.Button().ID("train").Class("primary").Text("Train").Disabled(busy || noData).OnClick(p.onTrain),
			app.Button().ID("pause").Text("Pause").Disabled(!busy).OnClick(p.onPause),
			app.Button().ID("step").Text("Step").Title("one minibatch").Disabled(busy || noData).OnClick(p.onStep),
			app.Button().ID("reset").Text("Reset").Disabled(noData).OnClick(p.onReset),
		),
	)
}

// field renders one labelled input with its inline error. The input's
// value is rendered once and then left to the person: go-app renders on the
// next frame, and writing the typed text back then would undo keystrokes
// typed in between (on a slow machine, "1000" could become "100").
func (p *trainPanel) field(id, label, value, reason, mode string, set func(string)) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		app.Input().ID(id).Type("text").Attr("inputmode", mode).Attr("autocomplete", "off").Value(value).
			Aria("invalid", reason != "").Aria("describedby", id+"-error").
			OnInput(func(ctx app.Context, e app.Event) {
				set(ctx.JSSrc().Get("value").String())
				_, p.err = parseConfig(p.f, p.maxBatch())
			}),
		app.Div().ID(id+"-error").Class("field-error").Aria("live", "polite").Text(reason),
	)
}

func (p *trainPanel) maxBatch() int {
	if p.ITrainN > 0 {
		return p.ITrainN
	}
	return 60000
}

// config validates every field and returns the configuration, or false
// with the reasons shown.
func (p *trainPanel) config() (protocol.Config, bool) {
	cfg, e := parseConfig(p.f, p.maxBatch())
	p.err = e
	return cfg, e.ok()
}

func (p *trainPanel) onTrain(ctx app.Context, e app.Event) {
	if c, ok := p.config(); ok {
		ctx.NewActionWithValue(actionTrain, c)
	}
}

func (p *trainPanel) onStep(ctx app.Context, e app.Event) {
	if c, ok := p.config(); ok {
		ctx.NewActionWithValue(actionStep, c)
	}
}

func (p *trainPanel) onReset(ctx app.Context, e app.Event) {
	if c, ok := p.config(); ok {
		ctx.NewActionWithValue(actionReset, c)
	}
}

func (p *trainPanel) onPause(ctx app.Context, e app.Event) {
	ctx.NewAction(actionPause)
}

// onPreset fills every field from the chosen preset, in the page and in
// the inputs themselves (they are not re-rendered, see field).
func (p *trainPanel) onPreset(ctx app.Context, e app.Event) {
	name := ctx.JSSrc().Get("value").String()
	for _, pr := range presets {
		if pr.Name != name {
			continue
		}
		pin := p.f.Pin // a preset is a way of descending; pinning is a separate choice
		p.f = pr.Fields(p.maxBatch())
		p.f.Pin = pin
		for id, v := range map[string]string{"lr": p.f.LR, "batch": p.f.Batch, "l2": p.f.L2, "epochs": p.f.Epochs, "seed": p.f.Seed, "decay": p.f.Decay, "init": p.f.Init} {
			if in := app.Window().GetElementByID(id); in.Truthy() {
				in.Set("value", v)
			}
		}
		_, p.err = parseConfig(p.f, p.maxBatch())
	}
}

func (p *trainPanel) onDataset(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionDataset, ctx.JSSrc().Get("value").String())
}
