package classroom

import (
	"softmaxdemo/core/class"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/i18n"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Bar is #class: the page's part in the class (data-role), where it
// stands (data-state), how many phones joined (data-students, on the
// projector) and the checksum of the θ the page shows, m (data-theta,
// the same function on every page); on a phone that looks around alone,
// #class-rejoin. Nil if the page is in no class.
func (r *Room) Bar(l i18n.Lang, m *softmax.Model[float32]) app.UI {
	if r == nil || r.o.dead && !r.o.gotHello {
		return nil
	}
	o := r.o
	st := o.st
	phase := st.Phase()
	role := st.Role
	if role == "" {
		role = class.RoleStudent
		if o.key != "" {
			role = class.RolePresenter
		}
	}
	var text string
	switch {
	case st.Refused != nil && st.Refused.Code == class.CodeFull:
		text = l.T("class.full")
	case phase == PhaseReconnecting && st.Gone:
		text = l.T("class.gone")
	case phase == PhaseReconnecting:
		text = l.T("class.connecting")
	case role == class.RolePresenter:
		text = l.T("class.presenting", st.Joined)
	case phase == PhaseAlone:
		text = l.T("class.alone")
	case phase == PhaseWaiting:
		text = l.T("class.waiting")
	default:
		text = l.T("class.following")
	}
	bar := app.Div().ID("class").Class("class-bar").Attr("data-role", role).Attr("data-state", phase).
		Attr("data-theta", o.checksum(m)).Attr("role", "status")
	if role == class.RolePresenter {
		bar = bar.Attr("data-students", st.Joined)
	}
	return bar.Body(
		app.Span().Class("class-text").Text(text),
		app.If(st.Refused != nil && st.Refused.Code != class.CodeFull, func() app.UI {
			return app.Span().Class("class-refused").Text(l.T("class.refused", st.Refused.Message))
		}),
		app.If(role == class.RoleStudent && phase == PhaseAlone, func() app.UI {
			return app.Button().ID("class-rejoin").Text(l.T("class.rejoin")).OnClick(func(ctx app.Context, e app.Event) { rejoin.Post(ctx) })
		}),
	)
}
