package ui

import (
	"time"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/store"

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

const (
	// watchEvery is how often the page looks for a silent worker, and
	// silentAfter how long a silence means it died: with heartbeats every
	// second, a death is noticed within silentAfter + watchEvery = 3.5 s.
	watchEvery  = 500 * time.Millisecond
	silentAfter = 3 * time.Second
	// maxTakeovers is how many workers in a row may die before one has
	// trained on (sent a newer Snapshot): then the page stops replacing
	// them and offers Restart, rather than loop.
	maxTakeovers = 3
)

// takeover is a new worker's work, taken over from one that died.
type takeover struct {
	snap  *protocol.Snapshot // the state it goes on from; nil: the run starts again
	cfg   protocol.Config    // the run's settings
	train bool               // the run was training: train on once resumed
}

// watchWorker looks every watchEvery for a worker that has gone silent.
// A hidden tab's timers are slowed by the browser, so silence counts only
// while the page is visible; nor while the worker is legitimately busy
// in one piece (loading a pack, forming the Hessian) or has shown an error.
func (p *page) watchWorker(ctx app.Context) {
	ctx.After(watchEvery, func(ctx app.Context) {
		p.watchWorker(ctx)
		ctx.PreventUpdate()
		w := p.worker
		if w == nil {
			return
		}
		switch p.st.Status {
		case store.StatusReady, store.StatusTraining, store.StatusPaused, store.StatusDone:
		default:
			w.Heard()
			return
		}
		if p.st.HessianBusy || app.Window().Get("document").Get("visibilityState").String() == "hidden" {
			w.Heard()
			return
		}
		if w.Silent() > silentAfter {
			p.workerDied(ctx, i18n.Text("worker.silent", int(silentAfter/time.Second)))
			ctx.Update()
		}
	})
}

// workerDied replaces a worker that died for the reason detail, and has
// the new one take over its run. A worker that never loaded a pack (a
// broken build), or too many deaths in a row, are shown as an error with
// Restart instead.
func (p *page) workerDied(ctx app.Context, detail i18n.Msg) {
	if p.worker == nil {
		return
	}
	if (p.st.TrainN == 0 && !p.st.Replacing) || p.takeovers >= maxTakeovers {
		p.st.Crashed(p.st.Lang.M(detail))
		return
	}
	p.takeovers++
	job := &takeover{cfg: p.st.Pending, train: p.st.Status == store.StatusTraining}
	if prev := p.takeover; prev != nil {
		job.cfg, job.train = prev.cfg, prev.train // it died while taking over
	}
	p.worker.Terminate()
	p.worker = nil
	job.snap = p.st.WorkerReplaced(detail)
	p.st.Pending = job.cfg
	p.takeover = job
	p.ensureWorker(ctx)
	p.load(ctx, p.st.Dataset)
}

// takeoverEvent hands a new worker, once it has loaded the pack, the run
// it takes over (after my digits, which filesEvent sends on Loaded), and
// counts a newer Snapshot as the run going on.
func (p *page) takeoverEvent(m protocol.Msg) {
	switch m := m.(type) {
	case protocol.Snapshot:
		if job := p.takeover; job == nil || job.snap == nil || m.Step > job.snap.Step {
			p.takeovers = 0
		}
	case protocol.Loaded:
		job := p.takeover
		if job == nil {
			return
		}
		p.takeover = nil
		p.st.Replacing = false
		if job.snap != nil {
			p.send(protocol.Resume{Config: job.cfg, Run: job.snap.Run, State: job.snap.State})
		}
		if job.train {
			p.send(protocol.Train{Config: job.cfg})
		}
	}
}

// workerNotice says what happened to the last worker that died, until
// the person dismisses it. #worker-notice is always in the page:
// data-replaced counts the workers replaced, data-from is the step the
// last one's run went on from, data-snapshot the step of the latest
// snapshot kept (0: none).
func (p *page) workerNotice() app.UI {
	l, n := p.st.Lang, p.st.WorkerNotice
	snap := 0
	if p.st.Snapshot != nil {
		snap = p.st.Snapshot.Step
	}
	div := app.Div().ID("worker-notice").Attr("role", "status").Attr("data-replaced", p.st.Replaced).
		Attr("data-from", p.st.ResumedFrom).Attr("data-snapshot", snap)
	if n.IsZero() {
		return div.Class("notice empty")
	}
	return div.Class("notice").Body(
		app.P().Text(l.M(n)),
		app.Button().ID("worker-notice-ok").Text(l.T("button.ok")).OnClick(func(ctx app.Context, e app.Event) {
			ctx.NewAction(store.ActionWorkerNoticeOK)
		}),
	)
}
