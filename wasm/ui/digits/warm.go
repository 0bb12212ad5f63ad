package digits

import (
	"time"

	"softmaxdemo/wasm/ui/digits/panels"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// warmEvery spaces the warm-up's steps (panels.WarmSteps), so each is a
// task of its own.
const warmEvery = 25 * time.Millisecond

// warmPage runs the warm-up's steps, warmEvery apart, once, and then
// lets the confusion matrix make its cells, in a task of their own.
func (p *pacer) warmPage(ctx app.Context) {
	steps := panels.WarmSteps()
	ctx.After(time.Duration(len(steps)+1)*warmEvery, func(app.Context) { p.st.ShowCells() })
	for i, step := range steps {
		ctx.After(time.Duration(i+1)*warmEvery, func(ctx app.Context) {
			// Nothing of it is shown, so the page is not rendered after it.
			ctx.PreventUpdate()
			// A warm-up must never cost the page: whatever goes wrong in
			// it is only logged (panels' TestWarmUpRuns runs it natively).
			defer func() {
				if r := recover(); r != nil {
					app.Log("warm-up:", r)
				}
			}()
			if err := step(); err != nil {
				app.Log("warm-up:", err)
			}
		})
	}
}
