package panels

import (
	"strconv"

	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Scrub is the slider under the loss chart (#scrub) that rewinds a run:
// one position per keyframe the run kept (store/scrub.go), the live model
// last while the run is the current one. Moving it, with the pointer or
// the ← → keys (a range input's own: the lesson's arrow keys leave an
// input's alone), posts ActionScrub, and every view moves to that θ.
// #scrub carries data-step, the step shown, and data-run, data-index,
// data-count and data-live (at the current run's live end) for tests.
type Scrub struct {
	app.Compo

	ILang   i18n.Lang
	IView   store.ScrubView
	IBranch bool // Train starts a branch from the keyframe shown

	set    [3]int   // the run, position and positions the input's value was last set for
	listen app.Func // the input's listener (OnMount)
	input  app.Value
}

// NewScrub returns the slider; the loss chart holds one, and a lesson's
// chapter may show one alone.
func NewScrub() *Scrub { return &Scrub{} }

// View sets what the slider shows, and whether Train now branches.
func (s *Scrub) View(l i18n.Lang, v store.ScrubView, branch bool) *Scrub {
	s.ILang, s.IView, s.IBranch = l, v, branch
	return s
}

func (s *Scrub) Render() app.UI {
	l, v := s.ILang, s.IView
	n := len(v.Steps)
	step, text, value := "", l.T("scrub.none"), l.T("scrub.none")
	live := v.AtEnd
	if n > 0 {
		st := v.Steps[v.Index]
		step, text = strconv.Itoa(st), l.T("scrub.step", st)
		value = l.T("scrub.valueFrame", st, v.Run)
		if live {
			text, value = l.T("scrub.live", st), l.T("scrub.valueLive", st, v.Run)
		}
	}
	return app.Div().ID("scrub").Class("scrub").Attr("data-step", step).Attr("data-run", v.Run).
		Attr("data-index", v.Index).Attr("data-count", n).Attr("data-live", live).Body(
		app.Label().For("scrub-range").Class("scrub-label").Text(l.T("scrub.label")),
		app.Div().Class("scrub-row").Body(
			app.Input().ID("scrub-range").Type("range").Min(0).Max(max(n-1, 0)).Step(1).Value(v.Index).
				Disabled(n < 2).Aria("valuetext", value).Aria("describedby", "scrub-note"),
			app.Output().ID("scrub-step").For("scrub-range").Class("scrub-step").Text(text),
		),
		app.P().ID("scrub-note").Class("note").Body(kit.Rich(s.note())...),
	)
}

// note says what the slider does, or, on a keyframe Train branches from,
// that Train starts a branch there.
func (s *Scrub) note() string {
	if v := s.IView; s.IBranch && len(v.Steps) > 0 {
		return s.ILang.T("scrub.trainFrom", v.Steps[v.Index])
	}
	return s.ILang.T("scrub.note")
}

// OnUpdate sets the input's value once its bounds are set: go-app sets an
// element's attributes in no fixed order, and a value set before a larger
// max would be clamped. It does so only when the position or the positions
// changed: a render for something else (a worker's event) between a move
// of the slider and its handler, which reads the value later, on go-app's
// goroutine, must not put the slider back.
func (s *Scrub) OnUpdate(ctx app.Context) {
	v := s.IView
	at := [3]int{v.Run, v.Index, len(v.Steps)}
	if at == s.set {
		return
	}
	s.set = at
	ctx.Defer(func(app.Context) {
		if in := app.Window().GetElementByID("scrub-range"); in.Truthy() && in.Get("value").String() != strconv.Itoa(at[1]) {
			in.Set("value", at[1])
		}
	})
}

// OnMount listens to the input's moves itself. A go-app handler reads the
// event later, on go-app's goroutine, after any render already due, which
// may have moved the slider again (a run's new keyframe); the listener
// reads the position as the event comes, against the positions the page
// shows, and posts where it was moved.
func (s *Scrub) OnMount(ctx app.Context) {
	ctx.Defer(func(ctx app.Context) {
		s.input = app.Window().GetElementByID("scrub-range")
		if !s.input.Truthy() {
			return
		}
		s.listen = app.FuncOf(func(this app.Value, _ []app.Value) any {
			if to, ok := scrubTo(s.IView, this.Get("value").String()); ok {
				ctx.Dispatch(func(ctx app.Context) { store.ScrubTo.Post(ctx, to) })
			}
			return nil
		})
		s.input.Call("addEventListener", "input", s.listen)
	})
}

func (s *Scrub) OnDismount() {
	if s.listen != nil {
		s.input.Call("removeEventListener", "input", s.listen)
		s.listen.Release()
		s.listen = nil
	}
}

// scrubTo is where a move of the slider showing v to position value goes:
// a keyframe of its run, or the current run's live end.
func scrubTo(v store.ScrubView, value string) (store.Scrub, bool) {
	i, err := strconv.Atoi(value)
	if err != nil || i < 0 || i >= len(v.Steps) {
		return store.Scrub{}, false
	}
	to := store.Scrub{Run: v.Run}
	if i < len(v.Steps)-1 || !v.Current {
		to.Back, to.Step = true, v.Steps[i]
	}
	return to, true
}
