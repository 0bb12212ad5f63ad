package ui

import (
	"slices"

	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/link"

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
	set := p.Link()
	set.Lesson = n
	set.Train = set.Train.With(lesson.Apply(n, set.Train.Fields))
	p.pushNext = true
	p.moveTo(ctx, set)
}

// moveTo makes set the page's settings and chapter, as a change of
// chapter does: it never asks, as a followed link may; a run in
// training that cannot go on with the chapter's settings pauses.
func (p *page) moveTo(ctx app.Context, set link.Settings) {
	from := p.chapter
	d := p.digits
	part := instrumentPart(set)
	if p.training() && !d.SameRun(part) {
		d.Pause()
	}
	p.asking = nil
	p.chapter = set.Lesson
	if now := d.Settings(); part.Fields != now.Fields || part.Dataset != now.Dataset {
		d.Apply(ctx, part)
	} else {
		p.writeLink()
	}
	p.pushNext = false
	if (from == 0) != (set.Lesson == 0) {
		browser.StorageSet(viewStorageKey, map[bool]string{true: "full", false: "lesson"}[set.Lesson == 0])
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
	p.digits.Show(c.Axes, slices.Contains(c.Panels, lesson.Inspector))
	ctx.Defer(func(app.Context) {
		browser.Focus("chapter-title")
		// For tools/browsertest's benchmark: the first frame that shows it.
		browser.MarkNextFrame("softmax:lesson-shown")
	})
}
