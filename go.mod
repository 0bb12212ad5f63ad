module softmaxdemo

go 1.26

require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/makiuchi-d/gozxing v0.1.1
	github.com/maxence-charriere/go-app/v10 v10.1.11
	rsc.io/qr v0.2.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/google/uuid v1.6.0 // indirect
	golang.org/x/text v0.3.7 // indirect
	golang.org/x/xerrors v0.0.0-20200804184101-5ec99f83aff1 // indirect
)

// go-app v10.1.11 with its server-side files kept out of the WebAssembly
// build: third_party/go-app/README.md says what the patch changes and why.
replace github.com/maxence-charriere/go-app/v10 => ./third_party/go-app/module
