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
	// The page's heap is small (2-3 MB live) but it allocates steadily
	// while rendering progress, and in WebAssembly a whole GC cycle
	// (marking, then sweeping) runs inside one JavaScript task: collecting
	// less often keeps those tasks out of most frames. Switching to the
	// default 100 once the page was ready shortened the cycles of long
	// full-batch runs, but started one at once, during the first seconds
	// of training: docs/BENCHMARKS.md.
	debug.SetGCPercent(400)
	ui.Routes()
	app.RunWhenOnBrowser() // runs the page and never returns
}
