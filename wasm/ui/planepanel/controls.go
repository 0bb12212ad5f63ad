package planepanel

import (
	"slices"
	"strconv"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/planepanel/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// dataKeys are the catalog keys of the data sets' names.
var dataKeys = map[string]string{"blobs": "plane.data.blobs", "overlap": "plane.data.overlap",
	"separable": "plane.data.separable", "ring": "plane.data.ring"}

// controls renders the data, the model's options, the step size and the
// buttons of the plane s.
func controls(l i18n.Lang, s store.Snapshot) app.UI {
	t, set := l.T, s.Settings
	return app.Div().Class("plane-controls").Body(
		choice("plane-data", t("plane.data"), plane.DataSets, s.Name, func(v string) string { return t(dataKeys[v]) },
			func(ctx app.Context, v string) { chooseData.Post(ctx, v) }),
		kChoice(l, s.Data.K),
		classChoice(l, s.Data.K, s.Add),
		check("plane-bias", "bias", set.Bias, t("plane.bias"), t("plane.biasWhy")),
		check("plane-pin", "pin", set.Pin, t("plane.pin"), t("plane.pinWhy")),
		rateField(l, s.Fields),
		alphaMax(l, s.Scene, set.Rate, false),
		number(l, s.Fields, "plane-l2", store.L2, t("plane.l2"), s.Fields.L2Err),
		number(l, s.Fields, "plane-batch", store.Batch, t("plane.batch"), s.Fields.BatchErr),
		trainButtons(l, s),
		psiButton(l, "plane.psi"),
		psiResult(l, s.Psi, false),
	)
}

// kChoice chooses K, the number of classes (#plane-k), k chosen.
func kChoice(l i18n.Lang, k int) app.UI {
	return choice("plane-k", l.T("plane.k"), []string{"2", "3", "4", "5"}, strconv.Itoa(k), func(v string) string {
		if v == "2" {
			return l.T("plane.k2")
		}
		return l.T("plane.kN", whole(v))
	}, func(ctx app.Context, v string) { chooseK.Post(ctx, whole(v)) })
}

// classChoice chooses the class a click adds (#plane-add-class) among k, add
// chosen.
func classChoice(l i18n.Lang, k, add int) app.UI {
	return choice("plane-add-class", l.T("plane.class"), classNames(k), strconv.Itoa(add), func(v string) string {
		return l.T("plane.classN", whole(v))
	}, func(ctx app.Context, v string) { chooseClass.Post(ctx, whole(v)) })
}

// rateField is α (#plane-lr).
func rateField(l i18n.Lang, f store.Fields) app.UI {
	return number(l, f, "plane-lr", store.LR, l.T("plane.lr"), f.LRErr)
}

// number is the number field id for store's field name of f, labelled
// label, with reason when it is refused (number-field.go).
func number(l i18n.Lang, f store.Fields, id, name, label string, reason i18n.Msg) app.UI {
	return &numberField{ILang: l, IID: id, IName: name, ILabel: label, IValue: f.Text(name), IReason: reason}
}

// trainButtons are Train or Pause (#plane-train) and θ = 0 (#plane-reset)
// of the plane s.
func trainButtons(l i18n.Lang, s store.Snapshot) app.UI {
	t := l.T
	training := s.State == store.Training
	trainKey := map[bool]string{false: "plane.train", true: "plane.pause"}[training]
	return app.Div().Class("buttons").Body(
		app.Button().ID("plane-train").Class("primary").Title(t("plane.trainWhy")).Text(t(trainKey)).
			Disabled(!training && !s.Refused.IsZero()).OnClick(func(ctx app.Context, e app.Event) { toggleTrain.Post(ctx) }),
		app.Button().ID("plane-reset").Title(t("plane.resetWhy")).Text(t("plane.reset")).
			OnClick(func(ctx app.Context, e app.Event) { restart.Post(ctx) }),
	)
}

// psiButton adds the same ψ to every θ_c (#plane-psi), saying so in the
// words of key.
func psiButton(l i18n.Lang, key string) app.UI {
	return app.Button().ID("plane-psi").Class("plane-psi").Title(kit.Plain(l.T("plane.psiWhy"))).Body(kit.Rich(l.T(key))...).
		OnClick(func(ctx app.Context, e app.Event) { AddPsi.Post(ctx) })
}

// classNames are the classes of k, as a choice's values.
func classNames(k int) []string {
	out := make([]string, k)
	for c := range k {
		out[c] = strconv.Itoa(c)
	}
	return out
}

// choice is a labelled select of values, the one chosen selected; a
// choice of one of them calls pick with it.
func choice(id, label string, values []string, chosen string, text func(string) string, pick func(app.Context, string)) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		app.Select().ID(id).OnChange(func(ctx app.Context, e app.Event) {
			if v := ctx.JSSrc().Get("value").String(); slices.Contains(values, v) {
				pick(ctx, v)
			}
		}).Body(app.Range(values).Slice(func(i int) app.UI {
			return app.Option().Value(values[i]).Text(text(values[i])).Selected(values[i] == chosen)
		})),
	)
}

// whole is a choice's value as a whole number.
func whole(v string) int {
	n, _ := strconv.Atoi(v)
	return n
}

// putBack shows v again in the select id, whose choice was refused: the
// room renders the value in force, which go-app sees as no change.
func putBack(id string, v int) {
	if el := app.Window().GetElementByID(id); el.Truthy() {
		el.Set("value", strconv.Itoa(v))
	}
}

// check is a labelled checkbox for the option name of the settings.
func check(id, name string, on bool, label, why string) app.UI {
	return app.Div().Class("field check").Body(
		app.Input().ID(id).Type("checkbox").Checked(on).OnChange(func(ctx app.Context, e app.Event) {
			setOption.Post(ctx, option{Name: name, On: ctx.JSSrc().Get("checked").Bool()})
		}),
		app.Label().For(id).Title(why).Text(label),
	)
}
