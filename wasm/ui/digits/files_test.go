package digits

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/modelfile"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/files"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/link"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// testModel is a model of random weights.
func testModel() *softmax.Model[float32] {
	rng := rand.New(rand.NewPCG(1, 2))
	m := &softmax.Model[float32]{D: dataset.Pixels, W: make([]float32, 10*dataset.Pixels), B: make([]float32, 10)}
	for i := range m.W {
		m.W[i] = float32(rng.NormFloat64())
	}
	for i := range m.B {
		m.B[i] = float32(rng.NormFloat64())
	}
	return m
}

// modelFile is m's JSON file, trained with deskew.
func modelFile(t testing.TB, m *softmax.Model[float32], deskew bool) []byte {
	t.Helper()
	b, _, _, err := files.EncodeModel(m, modelfile.Info{Method: "sgd", Deskew: deskew, Saved: "2026-01-02T03:04:05Z"}, "json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// file is a file a person chose, of the bytes b, read as the browser
// would (or not, with err); reads counts the reads.
func file(name string, b []byte, err error, reads *int) browser.File {
	return browser.File{Name: name, Size: int64(len(b)), Read: func(done func([]byte, error)) {
		*reads++
		done(b, err)
	}}
}

func TestAModelFileIsLoadedAndKept(t *testing.T) {
	r := ready(t)
	m := testModel()
	reads := 0
	r.run(func(ctx app.Context) {
		store.UploadModel.Post(ctx, file("mine.json", modelFile(t, m, false), nil, &reads))
	})
	use, ok := find[protocol.UseModel](r.sent())
	if !ok || reads != 1 || use.Config.Deskew || !slicesEqual(use.W, m.W) {
		t.Fatalf("the model's file sent %v (read %d times), deskew %v", ok, reads, use.Config.Deskew)
	}
	f := r.o.st.Files
	if f.ModelKind != "loaded" || !strings.Contains(i18n.EN.M(f.ModelStatus), "mine.json") || !f.Loading {
		t.Errorf("status %q (%s), loading %v", i18n.EN.M(f.ModelStatus), f.ModelKind, f.Loading)
	}
	// The worker makes it run 1's model, at step 0: kept though it took
	// no step, with the link's settings and language.
	r.event(protocol.Progress{Run: 1, State: "paused", Step: 0, PerEpoch: 1000},
		protocol.Weights{Run: 1, Step: 0, Key: true, D: m.D, W: m.W, B: m.B})
	rec := r.host.kept[keptStorageKey]
	k, err := files.ReadKept(rec)
	if err != nil {
		t.Fatalf("the model was not kept whole: %v", err)
	}
	kept, err := k.File()
	if err != nil || !slicesEqual(kept.Model.W, m.W) {
		t.Errorf("the kept model reads back as %v", err)
	}
	if set, notes := link.Parse(k.Settings, map[string]int{"default": 1000}); len(notes) != 0 || set.Lang != i18n.EN || set.Train.Fields.LR != "0.5" {
		t.Errorf("kept with the link %q", k.Settings)
	}
	if download(t, r, "json"); !slicesEqual(decodeModel(t, r.host.downloads["softmax-model.json"]).W, m.W) {
		t.Error("the model saved is not the one loaded")
	}
}

func download(t testing.TB, r *testRoom, kind string) {
	t.Helper()
	r.run(func(ctx app.Context) { store.DownloadModel.Post(ctx, kind) })
}

func decodeModel(t testing.TB, b []byte) *softmax.Model[float32] {
	t.Helper()
	f, err := modelfile.Decode(b, dataset.Pixels)
	if err != nil {
		t.Fatalf("the file saved does not read back: %v", err)
	}
	return f.Model
}

func slicesEqual(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestABadFileIsRefusedAndChangesNothing: a file that is not a model, is
// too large (never read), is cut short, or that the browser cannot read
// is refused with its name and why, for a model and for my digits alike;
// nothing is sent and nothing changes.
func TestABadFileIsRefusedAndChangesNothing(t *testing.T) {
	good := modelFile(t, testModel(), true)
	tests := []struct {
		name   string
		bytes  []byte
		size   int64 // 0: the bytes'
		err    error
		digits bool
		kind   string
		read   bool
	}{
		{"garbage.json", []byte("not a model"), 0, nil, false, "format", true},
		{"cut.json", good[:len(good)/2], 0, nil, false, "truncated", true},
		{"huge.json", []byte("{}"), 1 << 30, nil, false, "tooLarge", false},
		{"locked.json", nil, 0, errors.New("NotReadableError"), false, "read", true},
		{"garbage.digits.mnpk", []byte("not digits"), 0, nil, true, "format", true},
		{"huge.digits.mnpk", []byte("x"), modelfile.MaxDigitsBytes + 1, nil, true, "tooLarge", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ready(t)
			before := r.o.st.Files
			reads := 0
			f := file(tt.name, tt.bytes, tt.err, &reads)
			if tt.size != 0 {
				f.Size = tt.size
			}
			action := store.UploadModel
			if tt.digits {
				action = store.UploadDigits
			}
			r.run(func(ctx app.Context) { action.Post(ctx, f) })
			status, kind := r.o.st.Files.ModelStatus, r.o.st.Files.ModelKind
			if tt.digits {
				status, kind = r.o.st.Files.DigitsStatus, r.o.st.Files.DigitsKind
			}
			if kind != tt.kind || !strings.Contains(i18n.EN.M(status), tt.name) || !strings.Contains(i18n.EN.M(status), "Nothing was changed") {
				t.Errorf("status %q, kind %q, want %q", i18n.EN.M(status), kind, tt.kind)
			}
			if (reads > 0) != tt.read {
				t.Errorf("read %d times", reads)
			}
			if got := r.sent(); len(got) != 0 {
				t.Errorf("a refused file sent %s", names(got))
			}
			if after := r.o.st.Files; after.Restored != before.Restored || len(after.Digits.Labels) != 0 || after.Loading || r.o.st.Model != nil {
				t.Error("a refused file changed the model or my digits")
			}
		})
	}
}

// drawn is a digit drawn and labelled y.
func drawn(y uint8) store.MyDigit {
	px := make([]byte, dataset.Pixels)
	px[400+int(y)] = 255
	return store.MyDigit{Label: y, Pixels: px}
}

func TestMyDigitsAreAddedRemovedKeptAndMixedIn(t *testing.T) {
	r := ready(t)
	for _, y := range []uint8{3, 7, 1} {
		r.run(func(ctx app.Context) { store.AddDigit.Post(ctx, drawn(y)) })
	}
	got := r.sent()
	md, ok := last[protocol.MyDigits](got)
	if !ok || string(md.Labels) != "\x03\x07\x01" || len(md.Pixels) != 3*dataset.Pixels {
		t.Fatalf("sent %s, the last my digits %v", names(got), md.Labels)
	}
	kept, err := files.DecodeDigits(r.host.kept[digitsStorageKey])
	if err != nil || string(kept.Labels) != "\x03\x07\x01" {
		t.Errorf("kept %v (%v)", kept.Labels, err)
	}
	r.run(func(ctx app.Context) { store.RemoveDigit.Post(ctx, 1) })
	if f := r.o.st.Files; string(f.Digits.Labels) != "\x03\x01" || f.DigitsVersion != 4 || !bytes.Equal(f.Digits.Pixels[dataset.Pixels:], drawn(1).Pixels) {
		t.Errorf("after removing the 7: %v (version %d)", f.Digits.Labels, f.DigitsVersion)
	}
	r.run(func(ctx app.Context) { store.MyDigitsRate.Post(ctx, "0.5") })
	r.run(func(ctx app.Context) { store.MyDigitsRate.Post(ctx, "0.3") }) // not offered
	if r.host.kept[rateStorageKey] != "0.5" {
		t.Errorf("the share kept is %q", r.host.kept[rateStorageKey])
	}
	if c := r.train(1); c.MyDigitsRate != 0.5 {
		t.Errorf("a run mixes in a share of %v, want 0.5", c.MyDigitsRate)
	}
	r.run(func(ctx app.Context) { store.DownloadDigits.Post(ctx) })
	set, err := modelfile.DecodeDigits(r.host.downloads["my"+modelfile.DigitsExt])
	if err != nil || len(set.Labels) != 2 {
		t.Errorf("my digits saved read back as %v (%v)", set, err)
	}
	r.run(func(ctx app.Context) { store.RemoveDigit.Post(ctx, -1) })
	if f := r.o.st.Files; len(f.Digits.Labels) != 0 || f.Share() != 0 {
		t.Errorf("after clearing: %d digits, share %v", len(f.Digits.Labels), f.Share())
	}
}

func TestMyDigitsRefusals(t *testing.T) {
	t.Run("nothing drawn", func(t *testing.T) {
		r := ready(t)
		r.run(func(ctx app.Context) { store.AddDigit.Post(ctx, store.MyDigit{Label: 255}) })
		if f := r.o.st.Files; f.DigitsKind != "noInk" || len(f.Digits.Labels) != 0 || len(r.sent()) != 0 {
			t.Errorf("kind %q, %d digits", f.DigitsKind, len(f.Digits.Labels))
		}
	})
	t.Run("as many as a file holds", func(t *testing.T) {
		r := ready(t)
		full := protocol.Samples{Labels: make([]uint8, modelfile.MaxDigits), Pixels: make([]byte, modelfile.MaxDigits*dataset.Pixels)}
		r.o.st.Files.SetDigits(full)
		r.run(func(ctx app.Context) { store.AddDigit.Post(ctx, drawn(2)) })
		if f := r.o.st.Files; f.DigitsKind != "full" || len(f.Digits.Labels) != modelfile.MaxDigits {
			t.Errorf("kind %q, %d digits", f.DigitsKind, len(f.Digits.Labels))
		}
	})
	t.Run("storage that refuses keeps them in the page", func(t *testing.T) {
		r := ready(t)
		r.host.full = true
		r.run(func(ctx app.Context) { store.AddDigit.Post(ctx, drawn(4)) })
		if f := r.o.st.Files; f.DigitsKind != "notKept" || len(f.Digits.Labels) != 1 {
			t.Errorf("kind %q, %d digits", f.DigitsKind, len(f.Digits.Labels))
		}
	})
	t.Run("a browser that takes no download", func(t *testing.T) {
		r := ready(t)
		r.host.noSave = true
		r.run(func(ctx app.Context) { store.AddDigit.Post(ctx, drawn(4)) })
		r.run(func(ctx app.Context) { store.DownloadDigits.Post(ctx) })
		if f := r.o.st.Files; f.DigitsKind != "download" {
			t.Errorf("kind %q", f.DigitsKind)
		}
	})
	t.Run("a file of my digits replaces them", func(t *testing.T) {
		r := ready(t)
		set, err := modelfile.NewDigits([]uint8{5, 6}, append(drawn(5).Pixels, drawn(6).Pixels...))
		var b bytes.Buffer
		if err == nil {
			err = modelfile.EncodeDigits(&b, set)
		}
		if err != nil {
			t.Fatal(err)
		}
		reads := 0
		r.run(func(ctx app.Context) { store.UploadDigits.Post(ctx, file("ours.digits.mnpk", b.Bytes(), nil, &reads)) })
		if f := r.o.st.Files; f.DigitsKind != "loaded" || string(f.Digits.Labels) != "\x05\x06" {
			t.Errorf("kind %q, digits %v", f.DigitsKind, f.Digits.Labels)
		}
	})
}

// keptHost is a browser that kept m with the link settings.
func keptHost(t testing.TB, m *softmax.Model[float32], settings string) *fakeHost {
	t.Helper()
	rec, err := files.EncodeKept(modelFile(t, m, true), settings)
	if err != nil {
		t.Fatal(err)
	}
	h := newHost()
	h.kept[keptStorageKey] = rec
	return h
}

// TestTheKeptModelComesBackAndCanBeForgotten: what the browser kept is
// used once the data are in, with its settings for a page opened without
// a link; it is not kept again unchanged; forgetting it drops it and
// starts afresh, and the model forgotten is never kept again.
func TestTheKeptModelComesBackAndCanBeForgotten(t *testing.T) {
	m := testModel()
	h := keptHost(t, m, "lr=0.125&lang=en")
	boot := readBoot(h, nil)
	set, whole := boot.KeptSettings(boot.LinkPacks())
	if !whole || set.Train.Fields.LR != "0.125" || set.Lang != i18n.EN {
		t.Errorf("the kept settings: %+v (whole %v)", set.Train.Fields, whole)
	}
	r := newRoom(t, defaults(), h)
	r.manifest(testManifest)
	r.event(protocol.Loaded{Name: "default", Train: 1000, Test: 200})
	use, ok := find[protocol.UseModel](r.sent())
	if !ok || !use.Config.Deskew || !slicesEqual(use.W, m.W) {
		t.Fatalf("the kept model was not used: %v", ok)
	}
	if f := r.o.st.Files; !f.Restored || f.ModelKind != "restored" {
		t.Errorf("restored %v, status %q", f.Restored, f.ModelKind)
	}
	rec := h.kept[keptStorageKey]
	r.event(protocol.Progress{Run: 1, State: "paused", Step: 0, PerEpoch: 1000},
		protocol.Weights{Run: 1, Step: 0, Key: true, D: m.D, W: m.W, B: m.B})
	if h.kept[keptStorageKey] != rec {
		t.Error("the model restored was kept again unchanged")
	}
	r.run(store.ForgetModel.Post)
	if h.kept[keptStorageKey] != "" || r.o.st.Files.ModelKind != "forgotten" || r.o.st.Files.Restored {
		t.Errorf("forgetting left %q, status %q", h.kept[keptStorageKey], r.o.st.Files.ModelKind)
	}
	if _, ok := find[protocol.Reset](r.sent()); !ok {
		t.Error("forgetting started no fresh run")
	}
	r.event(protocol.Progress{Run: 1, State: "done", Step: 30, PerEpoch: 1000},
		protocol.Weights{Run: 1, Step: 30, D: m.D, W: m.W, B: m.B}, protocol.Evaluated{Run: 1, Step: 30, Accuracy: 0.5})
	if h.kept[keptStorageKey] != "" {
		t.Error("the model forgotten was kept again")
	}
}

func TestWhatTheBrowserKeptBadlyIsDropped(t *testing.T) {
	h := newHost()
	h.kept[keptStorageKey] = "v2:cut"
	h.kept[digitsStorageKey] = "!!!"
	h.kept[rateStorageKey] = "0.7"
	b := readBoot(h, nil)
	if b.files.ModelKind != "corrupt" || b.files.DigitsKind != "corrupt" || b.files.Restoring != nil || b.files.Rate != store.DefaultMyDigitsRate {
		t.Errorf("model %q, digits %q, rate %q", b.files.ModelKind, b.files.DigitsKind, b.files.Rate)
	}
	if h.kept[keptStorageKey] != "" || h.kept[digitsStorageKey] != "" {
		t.Error("a record that cannot be read was left to fail again")
	}
	if _, whole := b.KeptSettings(b.LinkPacks()); whole {
		t.Error("settings came of a record that cannot be read")
	}
	t.Run("a kept model that cannot be decoded", func(t *testing.T) {
		rec, err := files.EncodeKept([]byte(`{"not":"a model"}`), "")
		if err != nil {
			t.Fatal(err)
		}
		h := newHost()
		h.kept[keptStorageKey] = rec
		r := newRoom(t, defaults(), h)
		r.manifest(testManifest)
		r.event(protocol.Loaded{Name: "default", Train: 1000, Test: 200})
		if _, ok := find[protocol.UseModel](r.sent()); ok || r.o.st.Files.ModelKind != "corrupt" || h.kept[keptStorageKey] != "" {
			t.Errorf("status %q, kept %q", r.o.st.Files.ModelKind, h.kept[keptStorageKey])
		}
	})
}

// TestStorageThatRefusesSaysSoOnce: a model the browser will not keep
// stays in the page, and the status says so until a keep succeeds.
func TestStorageThatRefusesSaysSoOnce(t *testing.T) {
	r := ready(t)
	r.host.full = true
	r.train(1)
	r.done(1, 50, 0.8)
	if f := r.o.st.Files; f.ModelKind != "notKept" {
		t.Fatalf("status %q", f.ModelKind)
	}
	r.host.full = false
	r.train(2)
	r.done(2, 50, 0.85)
	if f := r.o.st.Files; f.ModelKind != "" || r.host.kept[keptStorageKey] == "" {
		t.Errorf("status %q once storage takes it", f.ModelKind)
	}
	r.host.noSave = true
	download(t, r, "npz")
	if f := r.o.st.Files; f.ModelKind != "download" {
		t.Errorf("a refused download: %q", f.ModelKind)
	}
}

// TestALegacyRecordIsReadAndReplaced: version 1's two keys are read, and
// dropped once a record is kept.
func TestALegacyRecordIsReadAndReplaced(t *testing.T) {
	h := newHost()
	h.kept[files.LegacyModelKey] = string(modelFile(t, testModel(), false))
	h.kept[files.LegacySettingsKey] = "lr=0.25"
	r := newRoom(t, defaults(), h)
	if !r.o.st.Files.Legacy {
		t.Fatal("version 1's keys were not read")
	}
	r.manifest(testManifest)
	r.event(protocol.Loaded{Name: "default", Train: 1000, Test: 200})
	r.train(1)
	r.done(1, 50, 0.8)
	if h.kept[files.LegacyModelKey] != "" || h.kept[keptStorageKey] == "" || r.o.st.Files.Legacy {
		t.Error("version 1's keys outlived a record kept")
	}
	if r.o.st.Files.FileRun != 1 {
		t.Errorf("the model from the browser is run %d's", r.o.st.Files.FileRun)
	}
}

// TestAKeepIsWrittenAStepAtATime: the model a run ends with is kept a
// class at a time, each step in a task of its own, the record stored
// only once whole; the page leaving halfway keeps the model at once, and
// a model forgotten halfway is not kept.
func TestAKeepIsWrittenAStepAtATime(t *testing.T) {
	m := testModel()
	end := func(r *testRoom, step int) {
		r.event(protocol.Progress{Run: 1, State: "done", Step: step, PerEpoch: 1000},
			protocol.Weights{Run: 1, Step: step, Key: true, D: m.D, W: m.W, B: m.B}, protocol.Evaluated{Run: 1, Step: step, Accuracy: 0.5})
	}
	keptModel := func(r *testRoom) *softmax.Model[float32] {
		t.Helper()
		k, err := files.ReadKept(r.host.kept[keptStorageKey])
		if err != nil {
			t.Fatalf("the record kept does not read back: %v", err)
		}
		f, err := k.File()
		if err != nil {
			t.Fatalf("the model kept does not read back: %v", err)
		}
		return f.Model
	}

	r := ready(t)
	steps, storedEarly := 0, false
	r.o.files.keepStepped = func() {
		steps++
		storedEarly = storedEarly || r.host.kept[keptStorageKey] != ""
	}
	end(r, 30)
	if steps != softmax.K || storedEarly || !slicesEqual(keptModel(r).W, m.W) {
		t.Errorf("kept in %d steps before the last (want %d), stored before whole: %v", steps, softmax.K, storedEarly)
	}

	r = ready(t)
	r.o.files.keepStepped = func() {
		if steps++; steps == 3 {
			r.o.files.keepNow() // the page leaves
		}
	}
	steps = 0
	end(r, 30)
	if steps != 3 || !slicesEqual(keptModel(r).W, m.W) {
		t.Errorf("the page left after step 3: %d steps, the model kept whole: %v", steps, r.host.kept[keptStorageKey] != "")
	}

	// A model that comes to rest while a keep is under way (Step pressed
	// as the run ended) is kept after it.
	next := m.Clone()
	next.W[0], next.B[0] = 42, -42
	r = ready(t)
	r.o.files.keepStepped = func() {
		if steps++; steps == 3 {
			r.worker().events(protocol.Progress{Run: 1, State: "done", Step: 31, PerEpoch: 1000})
			r.worker().events(protocol.Weights{Run: 1, Step: 31, Key: true, D: next.D, W: next.W, B: next.B})
		}
	}
	steps = 0
	end(r, 30)
	if got := keptModel(r); !slicesEqual(got.W, next.W) || !slicesEqual(got.B, next.B) {
		t.Errorf("a model that came to rest during a keep was not kept after it (%d steps in all)", steps)
	}

	r = ready(t)
	r.o.files.keepStepped = func() {
		if steps++; steps == 3 {
			r.o.files.forget()
		}
	}
	steps = 0
	end(r, 30)
	if steps != 3 || r.host.kept[keptStorageKey] != "" || r.o.st.Files.ModelKind != "forgotten" {
		t.Errorf("forgotten after step 3: %d steps, kept %q, status %q", steps, r.host.kept[keptStorageKey], r.o.st.Files.ModelKind)
	}
	r.o.files.keepStepped = nil
	r.run(func(ctx app.Context) { r.o.files.keepSoon(ctx) })
	if r.host.kept[keptStorageKey] != "" {
		t.Error("the model forgotten was kept by the next keep")
	}
}
