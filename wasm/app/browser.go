//go:build js && wasm

package main

import (
	"runtime/debug"

	"softmaxdemo/wasm/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// main runs the page. The static-site generator is left out of this build
// (native.go), which keeps app.wasm 0.5 MB smaller.
func main() {
	// The page's heap is small (a few MB) but it allocates steadily while
	// rendering progress; collecting less often keeps each GC pause out of
	// the frames that draw training progress.
	debug.SetGCPercent(400)
	ui.Routes()
	app.RunWhenOnBrowser() // runs the page and never returns
}
