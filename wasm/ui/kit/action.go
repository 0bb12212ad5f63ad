package kit

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Action is an action whose payload type is part of its declaration: a
// room declares its actions as Action values, panels Post them, and the
// owner Handles them with a function of the payload's type. Handle holds
// the only type assertion; a payload of another type (which Post cannot
// send) is dropped.
type Action[T any] struct{ Name string }

// Post posts the action with v, for whoever handles it.
func (a Action[T]) Post(ctx app.Context, v T) { ctx.NewActionWithValue(a.Name, v) }

// Handle calls f with each payload posted as a, on go-app's goroutine, for
// as long as the component whose context is ctx is mounted.
func (a Action[T]) Handle(ctx app.Context, f func(app.Context, T)) {
	ctx.Handle(a.Name, func(ctx app.Context, x app.Action) {
		if v, ok := x.Value.(T); ok {
			f(ctx, v)
		}
	})
}

// Signal is an action without a payload.
type Signal struct{ Name string }

// Post posts the signal.
func (s Signal) Post(ctx app.Context) { ctx.NewAction(s.Name) }

// Handle calls f each time s is posted, as Action.Handle does.
func (s Signal) Handle(ctx app.Context, f func(app.Context)) {
	ctx.Handle(s.Name, func(ctx app.Context, _ app.Action) { f(ctx) })
}
