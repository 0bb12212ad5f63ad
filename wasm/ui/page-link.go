package ui

import (
	"slices"

	"softmaxdemo/core/dataset"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/link"
	"softmaxdemo/wasm/ui/params"
	"softmaxdemo/wasm/ui/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The page's link, language and clipboard: the settings follow the Train
// panel into the link, and the language switch changes only text.

// onSettings follows the Train panel's accepted fields in the link.
func (p *page) onSettings(ctx app.Context, a app.Action) {
	if f, ok := a.Value.(params.Fields); ok {
		p.link.Fields = f
		p.writeLink()
		p.askCurvature() // λ, the pinning or the images may have changed
	}
}

func (p *page) onLangChange(ctx app.Context, e app.Event) {
	if l, ok := i18n.Parse(ctx.JSSrc().Get("value").String()); ok {
		ctx.NewActionWithValue(store.ActionLang, l)
	}
}

// onLang switches the page's language at once: the run, the model and
// every setting stay as they are; only text changes. The choice is kept
// in the browser's storage and in the link.
func (p *page) onLang(ctx app.Context, a app.Action) {
	if l, ok := a.Value.(i18n.Lang); ok {
		p.setLang(l)
	}
}

// setLang switches the page's language to l (see onLang).
func (p *page) setLang(l i18n.Lang) {
	if l == p.st.Lang {
		return
	}
	p.st.Lang = l
	p.st.ChartVersion++ // the chart's canvas text is drawn, not rendered
	browser.StorageSet(browser.LangStorageKey, string(l))
	p.link.Lang = l
	p.writeLink()
	p.showLang()
}

// onCopyLink copies the page's link to the clipboard and shows it, so it
// can also be copied by hand where the clipboard is not available.
func (p *page) onCopyLink(ctx app.Context, a app.Action) {
	p.writeLink()
	href := app.Window().Get("location").Get("href").String()
	p.copied = href
	browser.CopyText(href)
}

// writeLink puts the settings into the page's link, as a new history
// entry if pushNext is set (a change of chapter), else in place.
func (p *page) writeLink() {
	p.link.Dataset = p.st.Dataset
	if p.link.Dataset == "" {
		p.link.Dataset = "default"
	}
	if p.wantData != "" {
		p.link.Dataset = p.wantData
	}
	p.link.Lang = p.st.Lang
	if p.pushNext {
		browser.PushFragment(link.Encode(p.link))
		p.pushNext = false
	} else {
		browser.ReplaceFragment(link.Encode(p.link))
	}
	p.written = browser.Fragment() // as the browser spells it
}

// showLang sets the document's language and title, which live outside
// the page's body.
func (p *page) showLang() {
	l := p.st.Lang
	doc := app.Window().Get("document")
	doc.Set("title", p.chapterTitle())
	root := doc.Get("documentElement")
	root.Call("setAttribute", "lang", htmlLang(l))
}

// htmlLang is the BCP 47 tag of l for lang attributes.
func htmlLang(l i18n.Lang) string {
	if l == i18n.ZH {
		return "zh-CN"
	}
	return "en"
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
	set, notes := link.ParseOver(hash, p.link, p.linkPacks())
	p.st.Notice, p.noticeKept = notes, true
	if set.Lang != "" {
		p.setLang(set.Lang)
	}
	set.Lang = p.st.Lang
	if set.Lesson != p.link.Lesson {
		// Back, Forward or a link to another chapter: the chapter comes
		// with the settings its link recorded, without asking.
		p.moveTo(ctx, set)
		return
	}
	if p.st.Status == store.StatusTraining && !p.sameRun(set) {
		p.asking = &set
		ctx.Defer(func(app.Context) { focus("link-keep") })
		return
	}
	p.asking = nil
	p.applyLink(ctx, set)
}

// sameRun reports whether the run in training could go on with set.
func (p *page) sameRun(set link.Settings) bool {
	return set.Dataset == p.linkData() && params.SameRun(p.st.Pending, set.Fields, p.st.TrainN)
}

// linkData is the data the page's link names: the loaded pack, or the
// one a link asked for and the page has yet to find.
func (p *page) linkData() string {
	switch {
	case p.wantData != "":
		return p.wantData
	case p.st.Dataset != "":
		return p.st.Dataset
	}
	return "default"
}

// linkPacks maps each pack a link may name to its training images: the
// manifest's, or, before it is read, the two the site can have.
func (p *page) linkPacks() map[string]int {
	packs := map[string]int{}
	for _, pk := range p.manifest.Packs {
		packs[pk.Name] = pk.Train
	}
	if len(packs) == 0 {
		packs["default"], packs["full"] = 0, 0
	}
	return packs
}

// applyLink makes set the page's settings: the Train panel shows its
// fields, a run in training takes its α and λ at once, the worker its
// pace, and its data load if they differ.
func (p *page) applyLink(ctx app.Context, set link.Settings) {
	old := p.link.Fields
	p.link.Fields = set.Fields
	p.linkVersion++
	if set.Fields.Pace != old.Pace {
		p.sendPace()
	}
	if set.Workers != p.link.Workers {
		p.link.Workers = set.Workers
		p.sendWorkers() // the run goes on: the number of workers changes no result
	}
	if set.Dataset != p.linkData() {
		p.switchData(ctx, set.Dataset)
	} else if p.st.Status == store.StatusTraining {
		if c, e := params.Parse(set.Fields, p.st.TrainN); e.OK() && (c.LearningRate != p.st.Pending.LearningRate || c.L2 != p.st.Pending.L2) {
			c.MyDigitsRate = p.myDigitsShare()
			p.st.Pending = c
			p.send(protocol.Train{Config: c}) // the worker keeps the run, with the new α and λ
		}
	}
	p.writeLink()
}

// switchData loads the pack name if it is on the server, or waits for it
// to be found (probe) as a fresh load does.
func (p *page) switchData(ctx app.Context, name string) {
	if p.worker != nil && slices.ContainsFunc(p.st.Packs, func(pk dataset.PackInfo) bool { return pk.Name == name }) {
		p.wantData = ""
		p.send(protocol.Pause{})
		p.load(ctx, name)
		return
	}
	p.wantData = name
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
		p.send(protocol.Pause{})
		p.applyLink(ctx, *set)
	} else {
		p.writeLink()
	}
	ctx.Defer(func(app.Context) { focus("train") })
}

// askLink asks whether a followed link may replace the run in training:
// an in-page dialog that names what happens either way.
func (p *page) askLink() app.UI {
	l := p.st.Lang
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

// focus moves the keyboard focus to the element with the id, if any.
func focus(id string) {
	if el := app.Window().GetElementByID(id); el.Truthy() {
		el.Call("focus")
	}
}
