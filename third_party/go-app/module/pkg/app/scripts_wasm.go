package app

const (
	// The default template used to generate app-worker.js.
	DefaultAppWorkerJS = ""

	appJS  = ""
	appCSS = ""
)
