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
	// Starting up allocates about 15 MB (go-app's init, the first render,
	// the gallery's data) over a live heap of 2-3 MB: collecting rarely
	// then saves start-up time. Once the page is ready it collects at the
	// default pace. In WebAssembly a whole GC cycle (marking, then
	// sweeping) runs inside one JavaScript task, and its length grows with
	// the heap: at GOGC=400, a cycle that fell into training was a task of
	// 59-83 ms, about one per 9 s of a full-batch run; at 100 there were
	// none of 50 ms or more (TestNoLongTasksWhileTraining).
	debug.SetGCPercent(400)
	ui.AfterReady = func() { debug.SetGCPercent(100) }
	ui.Routes()
	app.RunWhenOnBrowser() // runs the page and never returns
}
