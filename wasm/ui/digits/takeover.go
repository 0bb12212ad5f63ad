package digits

import (
	"strconv"
	"time"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A training worker may die mid-run: the browser reclaims its memory, a
// phone puts the tab to sleep, an error stops it. The page notices (an
// error event, or silence: the worker sends a Heartbeat every second),
// starts a new worker on the same pack (the program comes from the page,
// the pack from the HTTP or service worker's cache), and the run goes on
// from the worker's latest Snapshot without a click, bit for bit as if
// nothing had happened; WorkerNotice says so. A run without a snapshot
// (none yet, or a Newton run) starts again.

// watchEvery is how often the page looks for a silent worker, and
// silentAfter how long a silence means it died: with heartbeats every
// second, a death is noticed within silentAfter + watchEvery = 3.5 s.
const (
	watchEvery  = 500 * time.Millisecond
	silentAfter = 3 * time.Second
)

// watchWorker looks every watchEvery for a worker that has gone silent
// (watch), for as long as the page lives.
func (c *conn) watchWorker(ctx app.Context) {
	ctx.After(watchEvery, func(ctx app.Context) {
		c.watchWorker(ctx)
		ctx.PreventUpdate()
		c.watch(ctx)
	})
}

// watch replaces the worker if it has been silent for silentAfter. A
// hidden tab's timers are slowed by the browser, so silence counts only
// while the page is visible; nor while the worker is legitimately busy in
// one piece (loading a pack, forming the Hessian) or has shown an error.
func (c *conn) watch(ctx app.Context) {
	w := c.w
	if w == nil {
		return
	}
	switch c.st.Status {
	case store.StatusReady, store.StatusTraining, store.StatusPaused, store.StatusDone:
	default:
		w.Heard()
		return
	}
	if c.st.HessianBusy || browser.Hidden() {
		w.Heard()
		return
	}
	if w.Silent() > silentAfter {
		c.died(ctx, i18n.Text("worker.silent", strconv.Itoa(int(silentAfter/time.Second))))
		ctx.Update()
	}
}

// died replaces a worker that died for the reason detail, and has
// the new one take over its run, or shows an error with Restart
// (store.WorkerDied says which).
func (c *conn) died(ctx app.Context, detail i18n.Msg) {
	if c.w == nil || !c.st.WorkerDied(detail) {
		return
	}
	c.w.Terminate()
	c.w = nil
	c.ensureWorker(ctx)
	c.load(ctx, c.st.Dataset)
}

// takeOver hands a new worker, once it has loaded the pack, the run it
// takes over (after my digits, which filesEvent sends on Loaded).
func (c *conn) takeOver(m protocol.Msg) {
	job := c.st.TakeOver(m)
	if job == nil {
		return
	}
	if job.Snap != nil {
		c.send(protocol.Resume{Config: job.Cfg, Run: job.Snap.Run, State: job.Snap.State})
	}
	if job.Train {
		c.send(protocol.Train{Config: job.Cfg})
	}
}
