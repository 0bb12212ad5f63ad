package ui

import (
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
	l, ok := a.Value.(i18n.Lang)
	if !ok || l == p.st.Lang {
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

// writeLink puts the settings into the page's link without adding a
// history entry.
func (p *page) writeLink() {
	p.link.Dataset = p.st.Dataset
	if p.link.Dataset == "" {
		p.link.Dataset = "default"
	}
	if p.wantData != "" {
		p.link.Dataset = p.wantData
	}
	p.link.Lang = p.st.Lang
	browser.ReplaceFragment(link.Encode(p.link))
}

// showLang sets the document's language and title, which live outside
// the page's body.
func (p *page) showLang() {
	l := p.st.Lang
	doc := app.Window().Get("document")
	doc.Set("title", l.T("app.title"))
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
