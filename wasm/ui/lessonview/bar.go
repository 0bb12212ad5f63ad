package lessonview

import (
	"strconv"

	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/lesson"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// bar is the lesson's navigation: previous, the chapters (also the
// progress), next, the keys, and the QR code of the chapter's link.
func (v *Lesson) bar(n int) app.UI {
	l := v.ILang
	last := len(lesson.Chapters)
	return app.Nav().Class("lesson-bar").Aria("label", l.T("lesson.chapters")).Body(
		app.Button().ID("lesson-prev").Text("←").Aria("label", l.T("lesson.prev")).Title(l.T("lesson.prev")).Disabled(n <= 1).
			OnClick(goTo(n-1), app.EventScope(n-1)), // go-app keeps a handler made by the same code unless its scope changes
		app.Ol().Class("lesson-list").Body(
			app.Range(lesson.Chapters).Slice(func(i int) app.UI {
				title := kit.Plain(l.T("lesson." + lesson.Chapters[i].ID + ".title"))
				b := app.Button().Attr("data-goto", i+1).Text(strconv.Itoa(i+1)).Title(title).Aria("label", l.T("lesson.chapterLabel", i+1, title)).
					OnClick(goTo(i + 1))
				if i+1 == n {
					b = b.Aria("current", "step")
				}
				cls := ""
				if i+1 <= n {
					cls = "done"
				}
				return app.Li().Class(cls).Body(b)
			}),
		),
		app.Span().ID("lesson-progress").Class("lesson-progress").Text(l.T("lesson.progress", n, last)),
		app.Button().ID("lesson-next").Text("→").Aria("label", l.T("lesson.next")).Title(l.T("lesson.next")).Disabled(n >= last).
			OnClick(goTo(n+1), app.EventScope(n+1)),
		app.Span().Class("lesson-keys").Text(l.T("lesson.keys")),
		app.If(app.IsClient, func() app.UI {
			return app.Button().ID("lesson-qr-show").Class("qr-show").Title(l.T("lesson.qrBig")).Body(
				app.Span().Text(l.T("lesson.qr")),
			).OnClick(func(ctx app.Context, e app.Event) {
				v.qrBig = true
				ctx.Defer(func(app.Context) { browser.Focus("lesson-qr-close") })
			})
		}),
	)
}

// goTo asks the page for chapter n.
func goTo(n int) app.EventHandler {
	return func(ctx app.Context, e app.Event) { Chapter.Post(ctx, n) }
}

// qrOverlay is the QR code of the chapter's link, filling the screen so
// that phones across a room can scan it.
func (v *Lesson) qrOverlay() app.UI {
	l := v.ILang
	if !v.qrBig {
		return app.Div().Class("qr-overlay empty")
	}
	svg := v.qr()
	return app.Div().Class("qr-overlay").Attr("role", "dialog").Aria("modal", "true").Aria("labelledby", "lesson-qr-title").Body(
		app.P().ID("lesson-qr-title").Class("qr-title").Text(l.T("lesson.qr")),
		app.Div().ID("lesson-qr").Class("qr").Attr("role", "img").Aria("label", l.T("lesson.qrLabel", v.qrFor)).
			Attr("data-link", v.qrFor).Body(app.Raw(svg)),
		app.P().Class("qr-link").Text(v.qrFor),
		app.Button().ID("lesson-qr-close").Text(l.T("lesson.qrSmall")).
			OnClick(func(ctx app.Context, e app.Event) {
				v.qrBig = false
				ctx.Defer(func(app.Context) { browser.Focus("lesson-qr-show") })
			}),
	)
}

// qr returns the QR code of the page's link (on a class's projector,
// the students' address with the link's fragment), made again only when
// the link changes.
func (v *Lesson) qr() string {
	href := browser.Href()
	if v.IClass.Address != "" && href != "" {
		href = v.IClass.Address + browser.Fragment() // the class's phones open the students' address
	}
	if href == "" || href == v.qrFor {
		return v.qrSVG
	}
	svg, err := lesson.QR(href)
	if err != nil {
		svg = ""
	}
	v.qrFor, v.qrSVG = href, svg
	return svg
}
