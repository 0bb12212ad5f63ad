package digits

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit/kittest"
	"softmaxdemo/wasm/ui/link"
	"softmaxdemo/wasm/ui/params"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The room's owner, tested natively through its actions: a fake worker
// records the commands the owner sends and feeds it events, as the
// browser's worker would; a fake host stands for the browser's storage
// and downloads.

// fakeWorker is a training worker that records what it is sent.
type fakeWorker struct {
	sent   []protocol.Msg
	silent time.Duration
	gone   bool  // terminated
	refuse error // what Send returns, if not nil
	events func(protocol.Msg)
	died   func(string)
}

func (w *fakeWorker) Send(m protocol.Msg) error {
	if w.refuse != nil {
		return w.refuse
	}
	w.sent = append(w.sent, m)
	return nil
}

func (w *fakeWorker) Terminate()            { w.gone = true }
func (w *fakeWorker) Silent() time.Duration { return w.silent }
func (w *fakeWorker) Heard()                { w.silent = 0 }

// fakeHost is the browser's storage, which may be full, and its
// downloads, which may be refused.
type fakeHost struct {
	kept      map[string]string
	full      bool // storage refuses every write
	downloads map[string][]byte
	noSave    bool // the browser takes no download
}

func newHost() *fakeHost { return &fakeHost{kept: map[string]string{}, downloads: map[string][]byte{}} }

func (h *fakeHost) Get(key string) string { return h.kept[key] }

func (h *fakeHost) Set(key, value string) bool {
	if h.full {
		return false
	}
	h.kept[key] = value
	return true
}

func (h *fakeHost) Download(name, mime string, b []byte) bool {
	if h.noSave {
		return false
	}
	h.downloads[name] = b
	return true
}

// testRoom is the owner mounted in go-app's test engine, with its
// workers, its host, and what it told the page.
type testRoom struct {
	t       testing.TB
	e       app.TestEngine
	ctx     app.Context
	o       *owner
	workers []*fakeWorker // every worker started, the latest last
	host    *fakeHost
	links   int        // LinkChanged posted
	notices []i18n.Msg // Notice posted
}

// testManifest offers two packs: 1,000 training images and 60,000.
const testManifest = `{"version":1,"packs":[` +
	`{"name":"default","file":"default.mnpk","train":1000,"test":200,"bytes":1000},` +
	`{"name":"full","file":"full.mnpk","train":60000,"test":10000,"bytes":60000}]}`

// newRoom mounts a room with the settings set and what the browser kept
// (host), as the page does, and handles what it tells the page.
func newRoom(t testing.TB, set Settings, host *fakeHost) *testRoom {
	t.Helper()
	e, ctx := kittest.Context(t)
	r := &testRoom{t: t, e: e, ctx: ctx, host: host}
	start := func(url string, events func(protocol.Msg), died func(string)) (Sender, string) {
		w := &fakeWorker{events: events, died: died}
		r.workers = append(r.workers, w)
		return w, ""
	}
	r.o = New(readBoot(host, nil), set, i18n.EN, start).(*owner)
	r.o.files.host = host
	r.o.c.fetch = func(string) ([]byte, error) { return []byte(testManifest), nil }
	r.o.Mount(ctx, nil)
	LinkChanged.Handle(ctx, func(app.Context) { r.links++ })
	Notice.Handle(ctx, func(_ app.Context, m i18n.Msg) { r.notices = append(r.notices, m) })
	return r
}

// defaults are the settings of a page opened without a link.
func defaults() Settings { return Settings{Fields: params.Defaults(), Dataset: "default"} }

// ready is a room whose worker has read the manifest and loaded the
// default pack of 1,000 training images.
func ready(t testing.TB) *testRoom {
	t.Helper()
	r := newRoom(t, defaults(), newHost())
	r.manifest(testManifest)
	r.event(protocol.Loaded{Name: "default", Train: 1000, Test: 200})
	r.sent() // what a start sends is another test's
	return r
}

// manifest hands the owner the list of packs web/boot.js fetched.
func (r *testRoom) manifest(m string) {
	r.o.c.onManifest(r.ctx, []byte(m), nil)
	r.e.ConsumeAll()
}

// worker is the latest worker started.
func (r *testRoom) worker() *fakeWorker {
	r.t.Helper()
	if len(r.workers) == 0 {
		r.t.Fatal("no worker was started")
	}
	return r.workers[len(r.workers)-1]
}

// event feeds the latest worker's events to the owner, and runs what
// they make it do.
func (r *testRoom) event(ms ...protocol.Msg) {
	for _, m := range ms {
		r.worker().events(m)
	}
	r.e.ConsumeAll()
}

// run does what posts actions, and runs them.
func (r *testRoom) run(post func(ctx app.Context)) {
	post(r.ctx)
	r.e.ConsumeAll()
}

// sent returns the commands sent to the latest worker since the last
// call, and forgets them.
func (r *testRoom) sent() []protocol.Msg {
	w := r.worker()
	m := w.sent
	w.sent = nil
	return m
}

// names are the message names of ms, in order.
func names(ms []protocol.Msg) string {
	var out []string
	for _, m := range ms {
		out = append(out, strings.TrimPrefix(fmt.Sprintf("%T", m), "protocol."))
	}
	return strings.Join(out, " ")
}

// find returns the first command of type T in ms.
func find[T protocol.Msg](ms []protocol.Msg) (T, bool) {
	for _, m := range ms {
		if v, ok := m.(T); ok {
			return v, true
		}
	}
	var zero T
	return zero, false
}

// last returns the last command of type T in ms.
func last[T protocol.Msg](ms []protocol.Msg) (T, bool) {
	for i := len(ms) - 1; i >= 0; i-- {
		if v, ok := ms[i].(T); ok {
			return v, true
		}
	}
	var zero T
	return zero, false
}

// train starts a run with the Train panel's fields and has the worker
// say it is training: its first Progress and step-0 keyframe.
func (r *testRoom) train(run int) protocol.Config {
	r.t.Helper()
	r.run(store.Train.Post)
	c, ok := find[protocol.Train](r.sent())
	if !ok {
		r.t.Fatal("Train sent no Train")
	}
	r.event(protocol.Weights{Run: run, Step: 0, Key: true, D: 784, W: make([]float32, 7840), B: make([]float32, 10)},
		protocol.Progress{Run: run, State: "training", Step: 1, PerEpoch: 1000, Losses: []protocol.Point{{Step: 1, Loss: 2}}})
	return c.Config
}

// done has the worker end run at step: Progress, Weights, Evaluated.
func (r *testRoom) done(run, step int, acc float64) {
	r.event(protocol.Progress{Run: run, State: "done", Step: step, PerEpoch: 1000, Losses: []protocol.Point{{Step: step, Loss: 0.3}}},
		protocol.Weights{Run: run, Step: step, Key: true, D: 784, W: make([]float32, 7840), B: make([]float32, 10)},
		protocol.Evaluated{Run: run, Step: step, Epoch: 5, Accuracy: acc})
}

func TestStartLoadsTheDefaultPack(t *testing.T) {
	r := newRoom(t, defaults(), newHost())
	r.manifest(testManifest)
	load, ok := find[protocol.Load](r.sent())
	if !ok || load.Name != "default" || !strings.HasSuffix(load.URL, "/web/data/default.mnpk") || r.o.st.Status != store.StatusLoading {
		t.Fatalf("the start sent %+v (%v), status %s", load, ok, r.o.st.Status)
	}
	r.event(protocol.Loaded{Name: "default", Train: 1000, Test: 200})
	got := r.sent()
	if names(got) != "Curvature Warm Pace Workers" {
		t.Errorf("once ready the page sent %s, want Curvature Warm Pace Workers", names(got))
	}
	if p, _ := find[protocol.Pace](got); p.StepsPerSecond != 50 {
		t.Errorf("pace %v steps a second, want the default 50", p.StepsPerSecond)
	}
	if s := r.o.st; s.Status != store.StatusReady || s.Controls.Settings.M != 1000 || !s.Controls.Settings.OK() {
		t.Errorf("ready: status %s, the fields checked for %d images", s.Status, s.Controls.Settings.M)
	}
}

func TestTrainSendsTheFieldsAndShowsTheRun(t *testing.T) {
	r := ready(t)
	c := r.train(1)
	if c.LearningRate != 0.5 || c.BatchSize != 100 || c.Epochs != 5 || !c.Deskew || c.MyDigitsRate != 0 {
		t.Errorf("Train sent %+v, want the default fields", c)
	}
	s := r.o.st
	if s.Status != store.StatusTraining || s.Run != 1 || s.Pending != c {
		t.Errorf("training: status %s, run %d, pending %+v", s.Status, s.Run, s.Pending)
	}
	r.run(store.Pause.Post)
	if names(r.sent()) != "Pause" {
		t.Error("Pause sent no Pause")
	}
	r.event(protocol.Progress{Run: 1, State: "paused", Step: 40, PerEpoch: 1000})
	if s.Status != store.StatusPaused {
		t.Errorf("paused: status %s", s.Status)
	}
	r.run(store.Step.Post)
	if step, ok := find[protocol.Step](r.sent()); !ok || step.Config != c {
		t.Errorf("Step sent %+v", step)
	}
}

// TestANewRunThatEndsAtOnceShowsItsIdWithItsState: a Train after a
// finished run, whose first Progress already says done, never shows the
// new run's id beside the last run's "done" in #status: it shows training
// until the final evaluation says done.
func TestANewRunThatEndsAtOnceShowsItsIdWithItsState(t *testing.T) {
	r := ready(t)
	r.train(1)
	r.done(1, 50, 0.8)
	if s := r.o.st; s.Status != store.StatusDone || s.Progress.Run != 1 {
		t.Fatalf("the first run: %s, run %d", s.Status, s.Progress.Run)
	}
	r.run(store.Train.Post)
	r.event(protocol.Progress{Run: 2, State: "done", Step: 50, PerEpoch: 1000, Losses: []protocol.Point{{Step: 50, Loss: 0.2}}})
	if s := r.o.st; s.Progress.Run != 2 || s.Status != store.StatusTraining {
		t.Errorf("#status shows run %d as %s before its evaluation, want run 2 training", s.Progress.Run, s.Status)
	}
	r.event(protocol.Evaluated{Run: 2, Step: 50, Epoch: 5, Accuracy: 0.85})
	if s := r.o.st; s.Progress.Run != 2 || s.Status != store.StatusDone || s.ViewEval().Accuracy != 0.85 {
		t.Errorf("after its evaluation: run %d %s at %v", s.Progress.Run, s.Status, s.ViewEval())
	}
}

func TestResetStartsAfreshAndKeepsTheRunsBefore(t *testing.T) {
	r := ready(t)
	r.train(1)
	r.done(1, 50, 0.8)
	r.train(2)
	r.run(store.Pause.Post)
	r.event(protocol.Progress{Run: 2, State: "paused", Step: 10, PerEpoch: 1000})
	r.sent()
	r.run(store.Reset.Post)
	if reset, ok := find[protocol.Reset](r.sent()); !ok || reset.Config.LearningRate != 0.5 {
		t.Fatalf("Reset sent %+v", reset)
	}
	if ids := runIDs(r.o.st); ids != "1" {
		t.Errorf("after Reset the chart keeps runs %s, want 1 (the current run goes)", ids)
	}
}

func runIDs(s *store.Store) string {
	var ids []string
	for _, r := range s.Runs {
		ids = append(ids, fmt.Sprint(r.ID))
	}
	return strings.Join(ids, " ")
}

// TestARefusedFieldIsShownAndTrainsNothing: a field typed wrong is
// refused with its reason, in the Train panel's settings; Train, Step and
// Reset then send nothing, and the link keeps the last fields accepted.
func TestARefusedFieldIsShownAndTrainsNothing(t *testing.T) {
	tests := []struct {
		edit   params.Edit
		reason func(params.Errors) i18n.Msg
		want   string
	}{
		{params.Edit{Field: "lr", Text: "abc"}, func(e params.Errors) i18n.Msg { return e.LR }, `"abc" is not a number`},
		{params.Edit{Field: "batch", Text: "1001"}, func(e params.Errors) i18n.Msg { return e.Batch }, "from 1 to 1000 (got 1001)"},
		{params.Edit{Field: "l2", Text: "-1"}, func(e params.Errors) i18n.Msg { return e.L2 }, "at least 0"},
		{params.Edit{Field: "epochs", Text: "0"}, func(e params.Errors) i18n.Msg { return e.Epochs }, "from 1 to 1000"},
		{params.Edit{Field: "decay", Text: "2"}, func(e params.Errors) i18n.Msg { return e.Decay }, "at most 1"},
		{params.Edit{Field: "seed", Text: "1.5"}, func(e params.Errors) i18n.Msg { return e.Seed }, "whole number"},
	}
	for _, tt := range tests {
		t.Run(tt.edit.Field+"="+tt.edit.Text, func(t *testing.T) {
			r := ready(t)
			links := r.links
			r.run(func(ctx app.Context) { store.Edit.Post(ctx, tt.edit) })
			c := r.o.st.Controls
			if got := i18n.EN.M(tt.reason(c.Typed.Errors)); !strings.Contains(got, tt.want) {
				t.Errorf("reason %q, want one containing %q", got, tt.want)
			}
			if c.Typed.OK() || !c.Settings.OK() || c.Settings.Fields != params.Defaults() || r.links != links {
				t.Errorf("a refused field reached the runs' settings (%+v) or the link (%d)", c.Settings.Fields, r.links-links)
			}
			for _, press := range []func(app.Context){store.Train.Post, store.Step.Post, store.Reset.Post} {
				r.run(press)
			}
			if got := r.sent(); len(got) != 0 {
				t.Errorf("refused fields sent %s", names(got))
			}
			r.run(func(ctx app.Context) {
				store.Edit.Post(ctx, params.Edit{Field: tt.edit.Field, Text: params.Defaults().LR})
			})
		})
	}
}

// TestAnEditAcceptedReachesTheLinkAndThePace: an accepted field goes to
// the runs' settings and the link, and λ_max is asked for it; a pace
// applies at once, even beside a refused field.
func TestAnEditAcceptedReachesTheLinkAndThePace(t *testing.T) {
	r := ready(t)
	links := r.links
	r.run(func(ctx app.Context) { store.Edit.Post(ctx, params.Edit{Field: "l2", Text: "0.01"}) })
	if c := r.o.st.Controls.Settings; c.Config.L2 != 0.01 || r.links != links+1 {
		t.Errorf("λ 0.01: settings λ %v, %d links written", c.Config.L2, r.links-links)
	}
	if cv, ok := find[protocol.Curvature](r.sent()); !ok || cv.Config.L2 != 0.01 {
		t.Errorf("λ_max asked for %+v", cv)
	}
	r.run(func(ctx app.Context) { store.Edit.Post(ctx, params.Edit{Field: "lr", Text: "x"}) })
	r.run(func(ctx app.Context) { store.Edit.Post(ctx, params.Edit{Field: "pace", Text: "full"}) })
	if p, ok := find[protocol.Pace](r.sent()); !ok || p.StepsPerSecond != 0 || r.o.st.Controls.Settings.Fields.Pace != "full" {
		t.Errorf("the pace beside a refused α: sent %+v (%v)", p, ok)
	}
	r.run(func(ctx app.Context) { store.Edit.Post(ctx, params.Edit{Field: "method", Text: "adam"}) })
	if m := r.o.st.Controls.Typed.Fields.Method; m != "sgd" {
		t.Errorf("a method the panel does not offer was taken: %q", m)
	}
}

func TestAPresetFillsThePanelAndKeepsThePace(t *testing.T) {
	r := ready(t)
	r.run(func(ctx app.Context) { store.Edit.Post(ctx, params.Edit{Field: "pace", Text: "3"}) })
	v := r.o.st.Controls.Version
	r.run(func(ctx app.Context) { store.Preset.Post(ctx, "full") })
	c := r.o.st.Controls
	if c.Version != v+1 || c.Typed.Fields.Batch != "1000" || c.Typed.Fields.Method != "gd" || c.Typed.Fields.Pace != "3" || !c.Typed.OK() {
		t.Errorf("the full-batch preset on 1,000 images: %+v (version %d, was %d)", c.Typed.Fields, c.Version, v)
	}
	r.run(func(ctx app.Context) { store.Preset.Post(ctx, "lecture") })
	if f := r.o.st.Controls.Settings.Fields; f.Deskew || f.Init != "normal" {
		t.Errorf("the lecture's preset straightens (%v) or starts at %q", f.Deskew, f.Init)
	}
}

// TestALinkAppliedInAnOpenPage: a followed link's settings become the
// panel's, a run in training takes its α at once, and a pack or workers
// of its own are loaded and sent; a pack the manifest lacks is a notice.
func TestALinkAppliedInAnOpenPage(t *testing.T) {
	r := ready(t)
	c := r.train(1)
	f := params.Defaults()
	f.LR = "0.25"
	v := r.o.st.Controls.Version
	r.run(func(ctx app.Context) { Apply.Post(ctx, Settings{Fields: f, Dataset: "default", Workers: 3}) })
	got := r.sent()
	tr, ok := find[protocol.Train](got)
	if !ok || tr.Config.LearningRate != 0.25 || tr.Config.Seed != c.Seed {
		t.Errorf("the run in training was sent %s (%+v)", names(got), tr)
	}
	if w, _ := find[protocol.Workers](got); w.N != 3 {
		t.Errorf("workers %d, want 3", w.N)
	}
	if s := r.o.st.Controls; s.Version != v+1 || s.Typed.Fields.LR != "0.25" {
		t.Errorf("the panel shows %q (version %d)", s.Typed.Fields.LR, s.Version)
	}
	if !r.o.View().SameRun(Settings{Fields: f, Dataset: "default", Workers: 3}) {
		t.Error("the run in training cannot go on with the α it took")
	}
	r.run(func(ctx app.Context) { Apply.Post(ctx, Settings{Fields: f, Dataset: "full", Workers: 3}) })
	if load, ok := find[protocol.Load](r.sent()); !ok || load.Name != "full" || r.o.View().Settings().Dataset != "full" {
		t.Errorf("the full pack was not asked for: %+v", load)
	}

	t.Run("a pack the manifest lacks is a notice", func(t *testing.T) {
		r := newRoom(t, Settings{Fields: params.Defaults(), Dataset: "imagenet"}, newHost())
		if d := r.o.View().Settings().Dataset; d != "imagenet" {
			t.Fatalf("the link's pack is %q until the manifest is read", d)
		}
		r.manifest(testManifest)
		if len(r.notices) != 1 || !strings.Contains(i18n.EN.M(r.notices[0]), "imagenet") {
			t.Errorf("notices %v", r.notices)
		}
		if d := r.o.View().Settings().Dataset; d != "default" {
			t.Errorf("the page's link names %q, want default", d)
		}
	})
}

// TestTheLessonsActions: the lesson's fields, a fresh run, a model to go
// on from, a chapter's axes and the Hessian, as the page posts them.
func TestTheLessonsActions(t *testing.T) {
	r := ready(t)
	f := params.Defaults()
	f.L2 = "0.01"
	r.run(func(ctx app.Context) { Fresh.Post(ctx, f) })
	got := r.sent()
	if names(got) != "Reset Train" {
		t.Errorf("Fresh sent %s", names(got))
	}
	if reset, _ := find[protocol.Reset](got); reset.Config.L2 != 0.01 {
		t.Errorf("Fresh reset with λ %v", reset.Config.L2)
	}
	r.event(protocol.Progress{Run: 1, State: "training", Step: 3, PerEpoch: 1000})
	r.run(ComputeHessian.Post)
	if names(r.sent()) != "Pause Hessian" || !r.o.st.HessianBusy {
		t.Error("the Hessian while training does not pause first")
	}
	r.event(protocol.Weights{Run: 1, Step: 3, D: 784, W: make([]float32, 7840), B: make([]float32, 10)})
	m := r.o.st.Model
	r.run(func(ctx app.Context) { UseModel.Post(ctx, m) })
	if u, ok := find[protocol.UseModel](r.sent()); !ok || u.Config.L2 != 0.01 || len(u.W) != 7840 {
		t.Errorf("UseModel sent %+v", u.Config)
	}
	r.run(func(ctx app.Context) { SetFields.Post(ctx, params.PresetFields("sgd", 1000, "")) })
	if got := r.o.View().Train().Config; got.BatchSize != 1 {
		t.Errorf("the lesson's fields: B = %d", got.BatchSize)
	}
	ax := r.o.st.Axes
	ax.Y = "log"
	r.run(func(ctx app.Context) { Show.Post(ctx, Shown{Axes: &ax, Inspect: true}) })
	if _, ok := find[protocol.PickTrain](r.sent()); !ok || r.o.st.Axes.Y != "log" {
		t.Error("a chapter's axes and inspector image were not set")
	}
}

func TestFailuresAreShown(t *testing.T) {
	t.Run("an unreadable manifest offers Retry", func(t *testing.T) {
		r := newRoom(t, defaults(), newHost())
		r.manifest(`{"packs":`)
		if s := r.o.st; s.Status != store.StatusError || s.Err == nil || s.Err.Action != store.RecoverRetry || len(r.workers) != 0 {
			t.Fatalf("status %s, error %+v, %d workers", s.Status, s.Err, len(r.workers))
		}
		r.run(store.Retry.Post)
		if s := r.o.st; s.Worker.Retries != 1 || s.Err != nil || s.Status != store.StatusLoading || len(r.workers) != 1 {
			t.Errorf("Retry: %d retries, error %+v, status %s, %d workers", s.Worker.Retries, s.Err, s.Status, len(r.workers))
		}
		if load, ok := find[protocol.Load](r.sent()); !ok || !strings.HasSuffix(load.URL, "?retry=1") {
			t.Errorf("the manifest fetched again, the pack was asked for with %+v", load)
		}
	})
	t.Run("a manifest without the default pack", func(t *testing.T) {
		r := newRoom(t, defaults(), newHost())
		r.manifest(`{"packs":[{"name":"full","file":"full.mnpk","train":60000}]}`)
		if s := r.o.st; s.Err == nil || !strings.Contains(i18n.EN.M(s.Err.Message), "no default pack") {
			t.Errorf("error %+v", s.Err)
		}
	})
	t.Run("a command that cannot be sent", func(t *testing.T) {
		r := ready(t)
		r.worker().refuse = errors.New("no postMessage")
		r.run(store.Train.Post)
		if s := r.o.st; s.Err == nil || !strings.Contains(i18n.EN.M(s.Err.Message), "no postMessage") {
			t.Errorf("error %+v", s.Err)
		}
	})
	t.Run("a retry after a bad pack asks past the cache", func(t *testing.T) {
		r := ready(t)
		r.event(protocol.Failed{Message: "checksum", Unloaded: true})
		r.run(store.Retry.Post)
		if load, ok := find[protocol.Load](r.sent()); !ok || !strings.HasSuffix(load.URL, "?retry=1") {
			t.Errorf("Retry sent %+v", load)
		}
	})
	t.Run("a branch of Newton's method is refused", func(t *testing.T) {
		r := ready(t)
		r.train(1)
		r.done(1, 50, 0.8)
		r.run(func(ctx app.Context) { store.ScrubTo.Post(ctx, store.Scrub{Back: true, Step: 0}) })
		r.run(func(ctx app.Context) { store.Edit.Post(ctx, params.Edit{Field: "method", Text: "newton"}) })
		r.sent()
		r.run(store.Train.Post)
		if s := r.o.st; s.Err == nil || !strings.Contains(i18n.EN.M(s.Err.Message), "Newton") || len(r.sent()) != 0 {
			t.Errorf("error %+v", s.Err)
		}
	})
}

// TestScrubRewindsAndBranches: the slider on a keyframe shows it, asks
// for its evaluation once, pauses a run in training, and Train there
// starts a branch from its θ, which the link says.
func TestScrubRewindsAndBranches(t *testing.T) {
	r := ready(t)
	r.train(1)
	r.event(protocol.Weights{Run: 1, Step: 8, Key: true, D: 784, W: make([]float32, 7840), B: make([]float32, 10)},
		protocol.Progress{Run: 1, State: "training", Step: 12, PerEpoch: 1000})
	r.sent()
	r.run(func(ctx app.Context) { store.ScrubTo.Post(ctx, store.Scrub{Back: true, Step: 8}) })
	got := r.sent()
	if names(got) != "Pause EvaluateModel" {
		t.Errorf("the slider moved back while training sent %s", names(got))
	}
	if ev, _ := find[protocol.EvaluateModel](got); ev.Step != 8 || ev.Run != 1 {
		t.Errorf("asked to evaluate %+v", ev)
	}
	if v := r.o.st.Views(); !v.Frame || v.Step != 8 {
		t.Errorf("the views show step %d (keyframe %v)", v.Step, v.Frame)
	}
	r.event(protocol.Progress{Run: 1, State: "paused", Step: 12, PerEpoch: 1000})
	r.sent()
	r.run(func(ctx app.Context) { store.ScrubTo.Post(ctx, store.Scrub{Back: true, Step: 0}) })
	r.run(func(ctx app.Context) { store.ScrubTo.Post(ctx, store.Scrub{Back: true, Step: 8}) })
	if got := r.sent(); names(got) != "EvaluateModel" {
		t.Errorf("back and forth asked %s, want step 0's evaluation only", names(got))
	}
	links := r.links
	r.run(store.Train.Post)
	got = r.sent()
	if names(got) != "UseModel Train" {
		t.Fatalf("Train on a keyframe sent %s", names(got))
	}
	r.event(protocol.Progress{Run: 2, State: "training", Step: 1, PerEpoch: 1000})
	runs := r.o.View().Settings().From.Runs()
	if len(runs) != 1 || runs[0].Step != 8 || r.links == links {
		t.Errorf("the link says the run descends from %+v (%d links)", runs, r.links-links)
	}
	r.run(func(ctx app.Context) { store.SelectRun.Post(ctx, 1) })
	if s := r.o.st; s.Selected != 1 || s.ScrubView().Run != 1 {
		t.Errorf("run 1 selected: %d, slider on %d", s.Selected, s.ScrubView().Run)
	}
}

// TestALinksBranchIsTrainedAgain: a link whose run descends from another
// trains that run to its step at full pace, then its own from there, at
// its pace; a step that is no keyframe is a notice.
func TestALinksBranchIsTrainedAgain(t *testing.T) {
	first := params.Defaults()
	first.Pace = ""
	set := defaults()
	set.From = link.NewChain(link.Branch{Fields: first, Step: 8})
	r := newRoom(t, set, newHost())
	r.manifest(testManifest)
	r.event(protocol.Loaded{Name: "default", Train: 1000, Test: 200})
	got := r.sent()
	if !strings.Contains(names(got), "Pace Reset Train") {
		t.Fatalf("the replay sent %s", names(got))
	}
	if p, _ := last[protocol.Pace](got); p.StepsPerSecond != 0 {
		t.Errorf("the replay trains at %v steps a second, want full pace", p.StepsPerSecond)
	}
	r.event(protocol.Progress{Run: 1, State: "training", Step: 3, PerEpoch: 1000},
		protocol.Weights{Run: 1, Step: 8, Key: true, D: 784, W: make([]float32, 7840), B: make([]float32, 10)},
		protocol.Progress{Run: 1, State: "training", Step: 9, PerEpoch: 1000})
	got = r.sent()
	if !strings.Contains(names(got), "Pause UseModel Pace Train") {
		t.Errorf("at step 8 the replay sent %s", names(got))
	}
	if p, _ := find[protocol.Pace](got); p.StepsPerSecond != 50 {
		t.Errorf("the link's own run trains at %v steps a second, want its 50", p.StepsPerSecond)
	}
	if r.o.st.Replay != nil {
		t.Error("the replay goes on past the link's own run")
	}

	t.Run("a step that is no keyframe", func(t *testing.T) {
		set := defaults()
		set.From = link.NewChain(link.Branch{Fields: first, Step: 7})
		r := newRoom(t, set, newHost())
		r.manifest(testManifest)
		r.event(protocol.Loaded{Name: "default", Train: 1000, Test: 200})
		if len(r.notices) != 1 || !strings.Contains(i18n.EN.M(r.notices[0]), "7") {
			t.Errorf("notices %v", r.notices)
		}
		if _, ok := find[protocol.Reset](r.sent()); ok || r.o.View().Settings().From != (link.Chain{}) {
			t.Error("a branch that cannot be trained again was trained, or stays in the link")
		}
	})
}
