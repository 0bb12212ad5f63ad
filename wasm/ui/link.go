package ui

import (
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits"
	"softmaxdemo/wasm/ui/link"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The page's link: the instrument's settings, the language and the
// chapter, written into the address bar as they change, and followed
// when a link is pasted into the open page or the history moves.

// settings returns the page's settings as its link says them: the
// digits room's, the language and the chapter.
func (p *page) settings() link.Settings {
	v := p.digits.View()
	d := v.Settings()
	return link.Settings{Train: v.Train(), Dataset: d.Dataset, Workers: d.Workers, Lang: p.lang, Lesson: p.chapter, From: d.From}
}

// instrumentPart is the digits room's part of the settings set.
func instrumentPart(set link.Settings) digits.Settings {
	return digits.Settings{Fields: set.Train.Fields, Dataset: set.Dataset, Workers: set.Workers, From: set.From}
}

// writeLink puts the settings into the page's link, as a new history
// entry if pushNext is set (a change of chapter), else in place.
func (p *page) writeLink() {
	if p.pushNext {
		browser.PushFragment(link.Encode(p.settings()))
		p.pushNext = false
	} else {
		browser.ReplaceFragment(link.Encode(p.settings()))
	}
	p.written = browser.Fragment() // as the browser spells it
}

// followLink applies the link in the address bar when it is not the one
// the page wrote: a link pasted into the open page (hashchange) or
// followed inside it (go-app's navigation, OnNav). It applies the link's
// settings, data and language as a fresh load would, over the settings the
// page shows (link.ParseOver), with the same notices. A run in training is
// not replaced without asking: if the link's settings would start a new
// run, the page asks (askLink) and changes nothing else until answered;
// α, λ, the pace and the language apply at once. The page writes its link
// with replaceState, which fires no hashchange, and remembers what it
// wrote, so its own link is never followed back.
func (p *page) followLink(ctx app.Context) {
	hash := browser.Fragment()
	if hash == p.written {
		return
	}
	p.written = hash // the same link arriving twice (popstate, then hashchange) applies once
	v := p.digits.View()
	set, notes := link.ParseOver(hash, p.settings(), v.LinkPacks())
	p.notice, p.noticeKept = notes, true
	if set.Lang != "" {
		p.setLang(ctx, set.Lang)
	}
	set.Lang = p.lang
	if set.Lesson != p.chapter {
		// Back, Forward or a link to another chapter: the chapter comes
		// with the settings its link recorded, without asking.
		p.moveTo(ctx, set.Lesson, instrumentPart(set))
		return
	}
	if v.Training() && !v.SameRun(instrumentPart(set)) {
		p.asking = &set
		ctx.Defer(func(app.Context) { browser.Focus("link-keep") })
		return
	}
	p.asking = nil
	digits.Apply.Post(ctx, instrumentPart(set))
}

// onLinkAnswer is the answer to askLink: apply the link (the run in
// training pauses, and Train starts the new one) or keep the run and
// put its settings back into the address bar.
func (p *page) onLinkAnswer(ctx app.Context, apply bool) {
	set := p.asking
	p.asking = nil
	if set == nil {
		return
	}
	if apply {
		digits.Pause.Post(ctx)
		digits.Apply.Post(ctx, instrumentPart(*set))
	} else {
		p.writeLink()
	}
	ctx.Defer(func(app.Context) { browser.Focus("train") })
}

// askLink asks whether a followed link may replace the run in training:
// an in-page dialog that names what happens either way.
func (p *page) askLink() app.UI {
	l := p.lang
	if p.asking == nil {
		return app.Div().ID("link-ask").Class("link-ask empty")
	}
	return app.Div().ID("link-ask").Class("link-ask").Attr("role", "alertdialog").
		Aria("labelledby", "link-ask-title").Aria("describedby", "link-ask-text").Body(
		app.P().ID("link-ask-title").Class("link-ask-title").Text(l.T("link.askTitle")),
		app.P().ID("link-ask-text").Text(l.T("link.askText")),
		app.Div().Class("buttons").Body(
			app.Button().ID("link-apply").Text(l.T("button.linkApply")).
				OnClick(func(ctx app.Context, e app.Event) { p.onLinkAnswer(ctx, true) }),
			app.Button().ID("link-keep").Class("primary").Text(l.T("button.linkKeep")).
				OnClick(func(ctx app.Context, e app.Event) { p.onLinkAnswer(ctx, false) }),
		),
	)
}

// onCopyLink copies the page's link to the clipboard and shows it, so it
// can also be copied by hand where the clipboard is not available.
func (p *page) onCopyLink(ctx app.Context, e app.Event) {
	p.writeLink()
	href := app.Window().Get("location").Get("href").String()
	p.copied = href
	p.copyByHand = !browser.CopyText(href)
	if p.copyByHand {
		ctx.Defer(func(app.Context) { app.Window().GetElementByID("link").Call("select") })
	}
}
