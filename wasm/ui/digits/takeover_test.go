package digits

import (
	"strings"
	"testing"
	"time"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
)

// snapshot has the worker send run's whole state at step.
func (r *testRoom) snapshot(run, step int) {
	r.event(protocol.Snapshot{Run: run, Step: step, Epoch: 0, State: []byte{byte(step)}})
}

// die has the latest worker die for the reason detail, as its error
// event says.
func (r *testRoom) die(detail string) {
	r.worker().died(detail)
	r.e.ConsumeAll()
}

// TestADeadWorkerIsReplacedAndTheRunGoesOn: a worker that dies mid-run is
// replaced by one that loads the same pack and resumes the run from the
// latest snapshot, training on; the dead one's late events are dropped.
func TestADeadWorkerIsReplacedAndTheRunGoesOn(t *testing.T) {
	r := ready(t)
	c := r.train(1)
	r.snapshot(1, 20)
	r.event(protocol.Progress{Run: 1, State: "training", Step: 25, PerEpoch: 1000, Losses: []protocol.Point{{Step: 25, Loss: 1}}})
	dead := r.worker()
	r.die("out of memory")
	if !dead.gone || len(r.workers) != 2 {
		t.Fatalf("the dead worker is terminated (%v), %d workers started", dead.gone, len(r.workers))
	}
	s := r.o.st
	if load, ok := find[protocol.Load](r.sent()); !ok || load.Name != "default" || s.Status != store.StatusLoading {
		t.Errorf("the new worker was asked for %+v, status %s", load, s.Status)
	}
	if !strings.Contains(i18n.EN.M(s.WorkerNotice), "step 20") || s.Replaced != 1 || s.ResumedFrom != 20 {
		t.Errorf("notice %q, replaced %d, from %d", i18n.EN.M(s.WorkerNotice), s.Replaced, s.ResumedFrom)
	}
	dead.events(protocol.Progress{Run: 1, State: "training", Step: 99, PerEpoch: 1000})
	r.e.ConsumeAll()
	if s.Progress.Step == 99 {
		t.Error("a late event of the dead worker was shown")
	}
	r.event(protocol.Loaded{Name: "default", Train: 1000, Test: 200})
	got := r.sent()
	resume, ok := find[protocol.Resume](got)
	if !ok || resume.Run != 1 || resume.Config != c || len(resume.State) != 1 || resume.State[0] != 20 {
		t.Fatalf("the new worker was sent %s: %+v", names(got), resume)
	}
	if tr, ok := last[protocol.Train](got); !ok || tr.Config != c {
		t.Errorf("the run was not trained on: %s", names(got))
	}
	if s.Replacing || s.Run != 1 || s.Worker.Takeover != nil {
		t.Errorf("after the takeover: replacing %v, run %d", s.Replacing, s.Run)
	}
	r.run(store.WorkerNoticeOK.Post)
	if !s.WorkerNotice.IsZero() {
		t.Error("the notice stays after OK")
	}
}

// TestASilentWorkerIsReplaced: a worker silent for silentAfter while the
// page is visible has died; one that speaks has not.
func TestASilentWorkerIsReplaced(t *testing.T) {
	r := ready(t)
	r.worker().silent = silentAfter - time.Millisecond
	r.o.c.watch(r.ctx)
	r.e.ConsumeAll()
	if len(r.workers) != 1 {
		t.Fatal("a worker that spoke in time was replaced")
	}
	r.worker().silent = silentAfter + time.Millisecond
	r.o.c.watch(r.ctx)
	r.e.ConsumeAll()
	if len(r.workers) != 2 || !strings.Contains(i18n.EN.M(r.o.st.WorkerNotice), "nothing for 3 seconds") {
		t.Errorf("%d workers, notice %q", len(r.workers), i18n.EN.M(r.o.st.WorkerNotice))
	}
	t.Run("not while it loads a pack or forms the Hessian", func(t *testing.T) {
		r := ready(t)
		r.run(ComputeHessian.Post)
		r.worker().silent = time.Minute
		r.o.c.watch(r.ctx)
		if len(r.workers) != 1 || r.worker().silent != 0 {
			t.Error("a worker busy with the Hessian was taken for dead")
		}
	})
}

// TestWorkersThatKeepDyingOfferRestart: MaxTakeovers workers dying in a
// row without a newer snapshot, or a worker that never loaded a pack,
// stop the replacing: an error offers Restart, which starts afresh.
func TestWorkersThatKeepDyingOfferRestart(t *testing.T) {
	r := ready(t)
	r.train(1)
	r.snapshot(1, 10)
	for i := range store.MaxTakeovers {
		r.die("crash")
		if len(r.workers) != i+2 {
			t.Fatalf("death %d: %d workers", i+1, len(r.workers))
		}
	}
	r.die("crash")
	s := r.o.st
	if len(r.workers) != store.MaxTakeovers+1 || s.Status != store.StatusError || s.Err == nil || s.Err.Action != store.RecoverRestart {
		t.Fatalf("after %d deaths: %d workers, status %s, error %+v", store.MaxTakeovers+1, len(r.workers), s.Status, s.Err)
	}
	r.run(store.Restart.Post)
	if len(r.workers) != store.MaxTakeovers+2 || s.Worker.Takeovers != 0 || s.Status != store.StatusLoading {
		t.Errorf("Restart: %d workers, %d takeovers, status %s", len(r.workers), s.Worker.Takeovers, s.Status)
	}
	if _, ok := find[protocol.Load](r.sent()); !ok {
		t.Error("the restarted worker was not asked for the pack")
	}

	t.Run("a worker that never loaded a pack", func(t *testing.T) {
		r := newRoom(t, defaults(), newHost())
		r.manifest(testManifest)
		r.die("broken build")
		if s := r.o.st; len(r.workers) != 1 || s.Err == nil || s.Err.Action != store.RecoverRestart {
			t.Errorf("%d workers, error %+v", len(r.workers), s.Err)
		}
	})
	t.Run("a newer snapshot counts as the run going on", func(t *testing.T) {
		r := ready(t)
		r.train(1)
		for step := range store.MaxTakeovers + 2 {
			r.snapshot(1, 10+step)
			r.die("crash")
			r.event(protocol.Loaded{Name: "default", Train: 1000, Test: 200})
		}
		if s := r.o.st; s.Err != nil || s.Replaced != store.MaxTakeovers+2 {
			t.Errorf("error %+v after %d takeovers that went on", s.Err, s.Replaced)
		}
	})
}
