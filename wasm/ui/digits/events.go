package digits

import (
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// onEvent applies a worker event and decides when to render it.
func (o *owner) onEvent(ctx app.Context, m protocol.Msg) {
	st := o.st
	if _, ok := m.(protocol.Snapshot); ok {
		st.Apply(m)
		st.TakeOver(m)
		ctx.PreventUpdate() // kept for a new worker, not shown
		return
	}
	status, err, run := st.Status, st.Err, st.Run
	st.Apply(m)
	o.replayNext(ctx)
	if st.Run != run {
		o.chainChanged(ctx) // a new run, a branch or not: the link says which
	}
	if pr, ok := m.(protocol.Progress); ok && pr.Heap != 0 {
		// The worker measured its heap as a run came to rest: measure
		// the page's beside it, once per run.
		st.PageMeasured(protocol.HeapLive())
	}
	o.files.filesEvent(ctx, m)
	o.c.takeOver(m)
	o.c.askCurvature() // at rest, once per model and settings
	switch m.(type) {
	case protocol.Loaded:
		if m := st.Followed; m != nil {
			if ask := st.Follow(m); ask != nil {
				o.c.send(*ask)
			}
		}
		ctx.Defer(func(ctx app.Context) {
			// What the page's start allocated, once ready is on screen: in
			// a task of its own, even if a run was started at once.
			o.tasks.AfterNextPaint(func() { collectAtRest() })
			o.c.afterReady()
			o.replayWhenReady(ctx)
			if st.PageWarmedUp() {
				o.pace.warmPage(ctx)
			}
		})
	case protocol.Samples:
		// The test images follow Loaded (Samples comes with them): the
		// whole pack is in, and the service worker may fill its cache
		// without downloading the pack a second time beside it.
		browser.PageReady()
	}
	o.pace.awaitEval(ctx)
	if st.Status != store.StatusTraining && st.Status != store.StatusLoading {
		o.pace.collectSoon(ctx)
	}
	o.pace.render(ctx, status != st.Status || err != st.Err)
}
