package digits

import (
	"time"

	"softmaxdemo/wasm/protocol"
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
func (d *Instrument) watchWorker(ctx app.Context) {
	ctx.After(watchEvery, func(ctx app.Context) {
		d.watchWorker(ctx)
		ctx.PreventUpdate()
		w := d.worker
		if w == nil {
			return
		}
		switch d.st.Status {
		case store.StatusReady, store.StatusTraining, store.StatusPaused, store.StatusDone:
		default:
			w.Heard()
			return
		}
		if d.st.HessianBusy || app.Window().Get("document").Get("visibilityState").String() == "hidden" {
			w.Heard()
			return
		}
		if w.Silent() > silentAfter {
			d.workerDied(ctx, i18n.Text("worker.silent", int(silentAfter/time.Second)))
			ctx.Update()
		}
	})
}

// workerDied replaces a worker that died for the reason detail, and has
// the new one take over its run. A worker that never loaded a pack (a
// broken build), or too many deaths in a row, are shown as an error with
// Restart instead.
func (d *Instrument) workerDied(ctx app.Context, detail i18n.Msg) {
	if d.worker == nil {
		return
	}
	if (d.st.TrainN == 0 && !d.st.Replacing) || d.takeovers >= maxTakeovers {
		d.st.Crashed(detail)
		return
	}
	d.takeovers++
	job := &takeover{cfg: d.st.Pending, train: d.st.Status == store.StatusTraining}
	if prev := d.takeover; prev != nil {
		job.cfg, job.train = prev.cfg, prev.train // it died while taking over
	}
	d.worker.Terminate()
	d.worker = nil
	job.snap = d.st.WorkerReplaced(detail)
	d.st.Asked(job.cfg, false)
	d.takeover = job
	d.ensureWorker(ctx)
	d.load(ctx, d.st.Dataset)
}

// takeoverEvent hands a new worker, once it has loaded the pack, the run
// it takes over (after my digits, which filesEvent sends on Loaded), and
// counts a newer Snapshot as the run going on.
func (d *Instrument) takeoverEvent(m protocol.Msg) {
	switch m := m.(type) {
	case protocol.Snapshot:
		if job := d.takeover; job == nil || job.snap == nil || m.Step > job.snap.Step {
			d.takeovers = 0
		}
	case protocol.Loaded:
		job := d.takeover
		if job == nil {
			return
		}
		d.takeover = nil
		d.st.TookOver()
		if job.snap != nil {
			d.send(protocol.Resume{Config: job.cfg, Run: job.snap.Run, State: job.snap.State})
		}
		if job.train {
			d.send(protocol.Train{Config: job.cfg})
		}
	}
}
