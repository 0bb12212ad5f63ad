package planepanel

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// origin is when the clock starts outside a browser.
var origin = time.Now()

// now returns the time in milliseconds: the page's performance.now in
// the browser.
func now() float64 {
	if app.IsClient {
		return app.Window().Get("performance").Call("now").Float()
	}
	return float64(time.Since(origin)) / 1e6
}
