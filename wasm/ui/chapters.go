package ui

import (
	"slices"

	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits"
	"softmaxdemo/wasm/ui/lesson"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The page shows one chapter of the lesson at a time, or the whole
// instrument (chapter 0). Every change of chapter is a history entry, so
// Back returns to the chapter before, and the link in the address bar
// (and its QR code) opens the same chapter with the same settings.

// viewStorageKey keeps the view a bare link opens: "full" once the person
// left the lesson for the whole instrument, else the lesson.
const viewStorageKey = "softmax:view"

// bareView is the chapter a link without settings opens: the lesson's
// first, unless this browser last left the lesson for the whole
// instrument. The lesson is the default because a bare link is what a
// student opens first: the page then tells its story from the beginning,
// and the static page already shows that chapter while the program loads.
// The whole instrument is one press away and, once chosen, remembered.
func bareView() int {
	if browser.StorageGet(viewStorageKey) == "full" {
		return 0
	}
	return 1
}

// onLessonToggle enters the lesson at its first chapter, or leaves it
// for the whole instrument with the current model and runs.
func (p *page) onLessonToggle(ctx app.Context, e app.Event) {
	p.leaveClass(ctx)
	if p.chapter > 0 {
		p.goChapter(ctx, 0)
	} else {
		p.goChapter(ctx, 1)
	}
}

// goChapter shows chapter n (0: the whole instrument) as a new history
// entry, with the settings the chapter needs.
func (p *page) goChapter(ctx app.Context, n int) {
	if n == p.chapter || n < 0 || n > len(lesson.Chapters) {
		return
	}
	part := p.digits.View().Settings()
	part.Fields = lesson.Apply(n, part.Fields)
	p.pushNext = true
	p.moveTo(ctx, n, part)
}

// moveTo makes chapter the page's and part the digits room's settings, as
// a change of chapter does: it never asks, as a followed link may; a run
// in training that cannot go on with the chapter's settings pauses. The
// link is written once the room has its settings (digits.LinkChanged),
// as a new history entry if pushNext is set.
func (p *page) moveTo(ctx app.Context, chapter int, part digits.Settings) {
	from := p.chapter
	v := p.digits.View()
	if v.Training() && !v.SameRun(part) {
		digits.Pause.Post(ctx)
	}
	p.asking = nil
	p.chapter = chapter
	if now := v.Settings(); part.Fields != now.Fields || part.Dataset != now.Dataset {
		digits.Apply.Post(ctx, part)
	} else {
		p.writeLink()
	}
	if (from == 0) != (chapter == 0) {
		browser.StorageSet(viewStorageKey, map[bool]string{true: "full", false: "lesson"}[chapter == 0])
	}
	p.enteredChapter(ctx)
}

// enteredChapter does what showing a chapter needs: its chart axes, an
// image for the inspector, the title, and the focus on its title.
func (p *page) enteredChapter(ctx app.Context) {
	p.showLang()
	if p.chapter < 1 {
		ctx.Defer(func(app.Context) { browser.Focus("lesson-toggle") })
		return
	}
	c := lesson.Chapters[p.chapter-1]
	digits.Show.Post(ctx, digits.Shown{Axes: c.Axes, Inspect: slices.Contains(c.Panels, lesson.Inspector)})
	ctx.Defer(func(app.Context) {
		browser.Focus("chapter-title")
		// For tools/browsertest's benchmark: the first frame that shows it.
		browser.MarkNextFrame("softmax:lesson-shown")
	})
}
