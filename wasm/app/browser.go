//go:build js && wasm

package main

import (
	"runtime/debug"
	"syscall/js"

	"softmaxdemo/wasm/ui"
	"softmaxdemo/wasm/worker"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// main runs the page, or, in a Web Worker, the training worker, one of
// its helpers or the plane's worker (wasm/worker): the page hands its
// workers this same program
// (web/worker.js), so a first visit downloads and compiles one program
// instead of two (0.8 MB less with brotli than a separate worker program). The static-site generator is left
// out of this build (main.go), which keeps app.wasm 0.5 MB smaller.
func main() {
	if js.Global().Get("document").IsUndefined() {
		switch js.Global().Get("softmaxRole").String() {
		case "helper":
			worker.HelpMain() // a helper of the training worker's pool; never returns
		case "plane":
			worker.PlaneMain() // the plane's worker; never returns
		}
		worker.Main() // never returns
	}
	// The page's heap is small (2-3 MB live) but it allocates steadily
	// while rendering progress, and in WebAssembly a whole GC cycle
	// (marking, then sweeping) runs inside one JavaScript task: collecting
	// less often keeps those tasks out of most frames, and the page
	// collects at rest besides (wasm/ui/digits/collect.go), so that a run
	// starts with the whole of this headroom. The default 100 once the
	// page is ready shortens the cycles of long full-batch runs, but starts
	// one at once, during the first seconds of training
	// (docs/decisions/0005-gogc-400.md).
	debug.SetGCPercent(400)
	ui.Routes()
	app.RunWhenOnBrowser() // runs the page and never returns
}
