// Package kittest holds what the page's rooms' tests share: a component
// mounted in go-app's test engine, and the element ids of its HTML.
package kittest

import (
	"regexp"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Render mounts c in go-app's test engine, runs what its mounting
// dispatched, and returns its HTML.
func Render(t testing.TB, c app.Composer) string {
	t.Helper()
	e := app.NewTestEngine()
	if err := e.Load(c); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return app.HTMLString(c)
}

var idAttr = regexp.MustCompile(` id="([^"]+)"`)

// IDs returns how many times each element id occurs in html.
func IDs(html string) map[string]int {
	n := map[string]int{}
	for _, m := range idAttr.FindAllStringSubmatch(html, -1) {
		n[m[1]]++
	}
	return n
}

// host is a component that hands its context to the test that mounted it.
type host struct {
	app.Compo
	ctx app.Context
}

// OnPreRender runs natively, where go-app calls no OnMount: it gives the
// test the context a mounted component has.
func (h *host) OnPreRender(ctx app.Context) { h.ctx = ctx }

func (h *host) Render() app.UI { return app.Div() }

// Context mounts a component in go-app's test engine and returns the
// engine and that component's context, so that a test can register a
// room's handlers on it, post actions and run them (e.ConsumeAll) as the
// browser's page would.
func Context(t testing.TB) (app.TestEngine, app.Context) {
	t.Helper()
	h := &host{}
	e := app.NewTestEngine()
	if err := e.Load(h); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return e, h.ctx
}
