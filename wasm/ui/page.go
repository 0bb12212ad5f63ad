package ui

import (
	"strconv"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/classroom"
	"softmaxdemo/wasm/ui/digits"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/lessonview"
	"softmaxdemo/wasm/ui/link"
	"softmaxdemo/wasm/ui/planepanel"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// page is the whole page: the header, the lesson or the whole instrument,
// and the footer. It holds the digits room, whose state outlives the
// choice between the lesson and the instrument, renders its View and
// talks to it by actions, and keeps the page's own state: the language,
// the chapter shown, the link and what it said.
type page struct {
	app.Compo

	digits digits.Room
	plane  *planepanel.Worker // the plane's worker, which outlives the panels that show it
	// planeRun is the plane's run from the line set by hand that the
	// hand chapter's question started, once it ended.
	planeRun lessonview.PlaneRun
	tasks    *kit.Tasks // the page's queue of tasks of their own (kit.Tasks)

	lang    i18n.Lang
	chapter int  // the lesson's chapter, from 1; 0 for the whole instrument
	present bool // larger type for the back of a classroom

	notice     []i18n.Msg     // what a link asked for that could not be done, and so was not
	noticeKept bool           // the notice is a followed link's: refused values kept the page's
	copied     string         // the link as last copied, shown beside the button
	copyByHand bool           // the browser gave the page no clipboard: the link is copied from the field
	written    string         // the fragment the page last wrote (location.hash), which it does not follow
	asking     *link.Settings // a followed link that would replace the run in training, until answered
	pushNext   bool           // writeLink adds a history entry (a change of chapter)
	stopHash   func()         // stops following hashchange

	class    *classroom.Room // the class the page is in, nil for none
	revealed map[string]bool // the questions answered here, by chapter id: revealed to the class
}

func newPage() *page {
	p := &page{lang: i18n.Default, chapter: 1, plane: planepanel.NewWorker()} // chapter 1: what a bare link opens (bareView), and what index.html shows
	p.digits = digits.New(digits.Boot{}, instrumentPart(link.Default()), p.lang, startWorker)
	return p
}

// startWorker starts the digits room's training worker (digits.Start).
func startWorker(url string, events func(protocol.Msg), died func(string)) (digits.Sender, string) {
	w := browser.StartWorker(url, events, died)
	return w, w.Preloaded
}

// OnInit reads the page's link and chooses its language before the first
// render in the browser, so the first frame the person sees already has
// the link's settings and their language. Natively (writing index.html)
// the page keeps its defaults.
func (p *page) OnInit() {
	if !app.IsClient {
		return
	}
	boot := digits.ReadBoot(browser.Host{})
	packs := boot.LinkPacks()
	hash := browser.Fragment()
	p.written = hash
	set, notes := link.Parse(hash, packs)
	bare := hash == ""
	if kept, ok := boot.KeptSettings(packs); ok && bare {
		set = kept // the settings kept with the model, for a page opened without a link
		hash = "#" + link.Encode(kept)
	}
	if bare {
		set.Lesson = bareView()
	}
	p.notice = notes
	p.lang = i18n.Pick(string(set.Lang), browser.StorageGet(browser.LangStorageKey), browser.Languages())
	p.chapter = set.Lesson
	p.digits = digits.New(boot, instrumentPart(set), p.lang, startWorker)
	p.showLang()
	p.openClass()
	if hash != "" || set.Lesson > 0 {
		// A chapter's link is written at once, so that Back from the
		// next chapter returns to it.
		p.writeLink()
	}
	// web/boot.js left the prerendered page out of the layout if it is in
	// the other language (web/app.css). It may come back now: the page
	// renders in the person's language and replaces it within this same
	// task, before the browser draws a frame.
	app.Window().Get("document").Get("documentElement").Call("removeAttribute", "data-lang-pending")
}

func (p *page) OnMount(ctx app.Context) {
	p.tasks = kit.NewTasks(ctx)
	p.handleRooms(ctx)
	if app.IsClient {
		p.stopHash = browser.OnFragmentChange(func() { ctx.Dispatch(p.followLink) })
		// For tools/browsertest's BenchmarkPageReady: when the page started.
		browser.Mark("softmax:mounted")
	}
	p.digits.Mount(ctx, p.tasks)
	p.handleClass(ctx)
}

// OnNav follows a link to the page itself, with a new fragment, that
// go-app navigated to (a click on one, the back button).
func (p *page) OnNav(ctx app.Context) { p.followLink(ctx) }

func (p *page) OnDismount() {
	if p.stopHash != nil {
		p.stopHash()
	}
	p.digits.Dismount()
	if p.class != nil {
		p.class.Dismount()
	}
}

func (p *page) Render() app.UI {
	l, d := p.lang, p.digits.View()
	inLesson := p.chapter > 0
	var body app.UI
	if inLesson {
		body = &lessonview.Lesson{ILang: l, IChapter: p.chapter, IInstrument: p.lessonInstrument(d), IPlane: p.planeRun, ISlots: p.slots(d), IClass: p.lessonClass()}
	} else {
		body = d.Grid(l, planepanel.New().Lang(l).Pace(d.Settings().Fields.Pace).Worker(p.plane))
	}
	return app.Div().Class("page").Class(map[bool]string{true: "present"}[p.present]).Class(map[bool]string{true: "lesson-on"}[inLesson]).Class(map[bool]string{true: "in-class"}[p.class != nil]).Attr("lang", l.Tag()).Body(
		app.Header().Class("top").Body(append(append([]app.UI{
			p.titleRow(),
			app.P().Class("lede").Body(kit.Rich(l.T("app.lede"))...),
			app.If(p.copied != "", func() app.UI {
				return app.P().Class("copied").Body(
					app.Span().ID("copy-link-status").Text(l.T(map[bool]string{false: "link.copied", true: "link.copyByHand"}[p.copyByHand])),
					app.Input().ID("link").Type("text").ReadOnly(true).Value(p.copied).Aria("label", l.T("link.label")),
				)
			}),
		}, d.Header(l)...), p.class.Bar(l, d.Views().Model), p.notices(), p.askLink(), d.Notice(l))...),
		body,
		app.If(p.class != nil, func() app.UI { return app.Div().Class("class-panels").Body(p.classPanels(d)...) }),
		app.Footer().Class("foot").Body(append([]app.UI{app.P().Text(l.T("app.foot"))}, d.Footer(l)...)...),
	)
}

// titleRow is the page's title and its tools: the language, the lesson
// or the whole instrument, present mode, and the link.
func (p *page) titleRow() app.UI {
	l := p.lang
	return app.Div().Class("title-row").Body(
		app.H1().Text(l.T("app.name")),
		app.Div().Class("header-tools").Body(
			app.Label().For("lang").Class("sr-only").Text(l.T("lang.label")),
			app.Select().ID("lang").OnChange(func(ctx app.Context, e app.Event) {
				if l, ok := i18n.Parse(ctx.JSSrc().Get("value").String()); ok {
					p.setLang(ctx, l)
				}
			}).Body(
				app.Range(i18n.Langs).Slice(func(i int) app.UI {
					return app.Option().Value(string(i18n.Langs[i])).Attr("lang", i18n.Langs[i].Tag()).
						Text(l.T("lang." + string(i18n.Langs[i]))).Selected(i18n.Langs[i] == l)
				}),
			),
			app.Button().ID("lesson-toggle").Aria("pressed", strconv.FormatBool(p.chapter > 0)).Title(l.T("lesson.toggleWhy")).Text(l.T("lesson.toggle")).
				OnClick(p.onLessonToggle),
			app.Button().ID("present").Aria("pressed", strconv.FormatBool(p.present)).Title(l.T("button.presentWhy")).Text(l.T("button.present")).
				OnClick(func(ctx app.Context, e app.Event) { p.present = !p.present }),
			app.Button().ID("copy-link").Text(l.T("button.copyLink")).Title(l.T("button.copyLinkWhy")).OnClick(p.onCopyLink),
		),
	)
}

// notices shows what a link asked for that the page could not do, and
// what it did instead. #notice is always in the page, empty when there is
// nothing to say.
func (p *page) notices() app.UI {
	l := p.lang
	if len(p.notice) == 0 {
		return app.Div().ID("notice").Class("notice empty").Attr("role", "status")
	}
	return app.Div().ID("notice").Class("notice").Attr("role", "status").Body(
		app.P().Text(l.T(map[bool]string{false: "link.noticeTitle", true: "link.noticeTitleKept"}[p.noticeKept])),
		app.Ul().Body(app.Range(p.notice).Slice(func(i int) app.UI {
			return app.Li().Text(l.M(p.notice[i]))
		})),
		app.Button().ID("notice-ok").Text(l.T("button.ok")).OnClick(func(ctx app.Context, e app.Event) { p.notice = nil }),
	)
}

// chapterTitle is the document's title in a chapter: the chapter's,
// then the page's.
func (p *page) chapterTitle() string {
	l := p.lang
	if p.chapter < 1 || p.chapter > len(lesson.Chapters) {
		return l.T("app.title")
	}
	c := lesson.Chapters[p.chapter-1]
	return kit.Plain(l.T("lesson."+c.ID+".title")) + " · " + strconv.Itoa(p.chapter) + "/" + strconv.Itoa(len(lesson.Chapters)) + " · " + l.T("app.name")
}

// setLang switches the page's language to l at once: the run, the model
// and every setting stay as they are; only text changes. The choice is
// kept in the browser's storage, in the link, and in the link the digits
// room keeps with its model.
func (p *page) setLang(ctx app.Context, l i18n.Lang) {
	if l == p.lang {
		return
	}
	p.lang = l
	digits.Lang.Post(ctx, l)
	browser.StorageSet(browser.LangStorageKey, string(l))
	p.writeLink()
	p.showLang()
}

// showLang sets the document's language and title, which live outside
// the page's body.
func (p *page) showLang() {
	doc := app.Window().Get("document")
	doc.Set("title", p.chapterTitle())
	doc.Get("documentElement").Call("setAttribute", "lang", p.lang.Tag())
}
