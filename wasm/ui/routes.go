// Package ui is the page: a thin composition of three rooms, the digits
// instrument (package digits), the lesson (lessonview) and the plane
// (planepanel), under a header, a footer and the page's link. It is the
// only package that knows all three: what one room asks of another comes
// here as an action, and goes on from here as an action to the room
// concerned. It also keeps
// what belongs to the page as a whole: the link and its history, the
// language, present mode, and whether the lesson or the whole instrument
// is shown. It compiles natively, so its logic is tested without a
// browser; the browser tests live in tools/browsertest.
package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"softmaxdemo/wasm/ui/i18n"
)

// Routes registers every route of the site. Both lives of wasm/app call
// it: the browser to run the page, and the native build to write the
// static site.
func Routes() {
	app.Route("/", func() app.Composer { return newPage() })
}

// CacheableResources are the files the service worker keeps so the page
// works offline after the first visit, besides go-app's own.
var CacheableResources = []string{
	"/web/worker.js",
	"/web/kernels.wasm",
	"/web/data/manifest.json",
	"/web/data/default.mnpk",
	"/web/icon.svg", // the favicon; go-app lists the PNG icons itself
}

// Handler describes the site. version names the service worker's cache:
// a new version makes returning visitors fetch the new files.
func Handler(version string) *app.Handler {
	return &app.Handler{
		// index.html is written in i18n.Default; the page sets the title in
		// the person's language as it starts (page.showLang). The web
		// manifest has one description, so it carries both languages.
		Name:            i18n.Default.T("app.name"),
		ShortName:       "Softmax",
		Title:           i18n.Default.T("app.title"),
		Description:     i18n.ZH.T("app.description") + " / " + i18n.EN.T("app.description"),
		Author:          "The softmax demo authors",
		Keywords:        []string{"softmax regression", "Softmax 回归", "logistic regression", "MNIST", "gradient descent", "梯度下降", "WebAssembly", "Go"},
		Lang:            i18n.Default.Tag(),
		BackgroundColor: "#ffffff",
		ThemeColor:      "#2166ac",
		LoadingLabel:    i18n.ZH.T("app.loading") + " / " + i18n.EN.T("app.loading") + " {progress}%",
		Icon: app.Icon{
			Default:  "/web/icon-192.png",
			Large:    "/web/icon-512.png",
			Maskable: "/web/icon-512.png",
			SVG:      "/web/icon.svg",
		},
		Styles:             []string{"/web/app.css"},
		Scripts:            []string{"/web/boot.js", "/web/plot.js"},
		CacheableResources: CacheableResources,
		Version:            version,
	}
}
