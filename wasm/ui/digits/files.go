package digits

import (
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/files"
	"softmaxdemo/wasm/ui/digits/panels"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/link"

	"softmaxdemo/wasm/ui/params"

	"softmaxdemo/wasm/ui/i18n"

	"fmt"
	"strings"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/modelfile"
	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The model and my digits as files, kept in the browser's storage across
// reloads.
// Every call into the browser that can throw goes through web/boot.js's
// helpers (softmaxDownload, softmaxReadFile, softmaxOnDrop, softmaxStore).

// Where the browser's storage keeps what survives a reload.
//
// The model and the settings it was trained with are one record under one
// key (files.Kept), written by one setItem: a second tab that keeps its
// model at the same moment leaves its whole record or none of it, never
// its model beside this tab's settings. My digits and their share are
// each whole in their own key.
const (
	keptStorageKey   = "softmax:kept"         // the model and its settings, files.EncodeKept
	digitsStorageKey = "softmax:digits"       // my digits, as their file in base64
	rateStorageKey   = "softmax:myDigitsRate" // one of myDigitsRates
)

// fileState is what the page knows about files and my digits.
type fileState struct {
	modelStatus i18n.Msg
	modelKind   string
	restored    bool            // the model shown came from the browser's storage
	restoring   *files.Kept     // the kept record, whose model is used once the data are loaded
	legacy      bool            // it was version 1's two keys, dropped once a record is kept
	restoredSum string          // its checksum: not kept again unchanged
	forgotSum   string          // the model "start afresh" forgot: never kept again
	kept        string          // checksum and accuracy of the model last kept
	loading     bool            // a model from a file was sent to the worker
	fileRun     int             // the run that holds it: kept though it took no step
	fileInfo    *modelfile.Info // how it was trained, if its file said

	digits          protocol.Samples // my digits: labels and 784 grey levels each
	myDigitsVersion int
	myDigitsRate    string
	digitsStatus    i18n.Msg
	digitsKind      string

	drop app.Func

	keepPending bool // keeping is scheduled in a task of its own
}

// initFiles reads what the browser kept: my digits and their rate now,
// the model once the data are loaded. Natively it does nothing.
func (d *Instrument) initFiles() {
	f := &d.files
	f.myDigitsRate = panels.DefaultMyDigitsRate
	if r := browser.StorageGet(rateStorageKey); r != "" {
		if _, ok := panels.ParseMyDigitsRate(r); ok {
			f.myDigitsRate = r
		}
	}
	if s := browser.StorageGet(digitsStorageKey); s != "" {
		if got, err := files.DecodeDigits(s); err == nil {
			f.digits = got
			f.myDigitsVersion++
		} else {
			browser.StorageSet(digitsStorageKey, "")
			f.digitsStatus, f.digitsKind = i18n.Text("myDigits.corrupt", err.Error()), "corrupt"
		}
	}
	if s := browser.StorageGet(keptStorageKey); s != "" {
		k, err := files.ReadKept(s)
		if err != nil {
			// A record cut short, or of a version this page does not
			// read: dropped, with a note; the page starts afresh.
			browser.StorageSet(keptStorageKey, "")
			f.modelStatus, f.modelKind = i18n.Text("model.corrupt", err.Error()), "corrupt"
			return
		}
		f.restoring = k
	} else if m := browser.StorageGet(files.LegacyModelKey); m != "" {
		// Version 1 kept the model and its settings under two keys.
		f.restoring = &files.Kept{Version: 1, Model: []byte(m), Settings: browser.StorageGet(files.LegacySettingsKey)}
		f.legacy = true
	}
}

// handleFiles registers the files' actions and takes files dropped on the
// page.
func (d *Instrument) handleFiles(ctx app.Context) {
	ctx.Handle(store.ActionDownloadModel, d.onDownloadModel)
	ctx.Handle(store.ActionUploadModel, func(ctx app.Context, a app.Action) {
		if f, ok := a.Value.(app.Value); ok {
			d.readFile(ctx, f, false)
		}
	})
	ctx.Handle(store.ActionForgetModel, d.onForgetModel)
	ctx.Handle(store.ActionAddDigit, d.onAddDigit)
	ctx.Handle(store.ActionRemoveDigit, d.onRemoveDigit)
	ctx.Handle(store.ActionMyDigitsRate, func(ctx app.Context, a app.Action) {
		if v, ok := a.Value.(string); ok {
			if _, ok := panels.ParseMyDigitsRate(v); ok {
				d.files.myDigitsRate = v
				browser.StorageSet(rateStorageKey, v)
			}
		}
	})
	ctx.Handle(store.ActionDownloadDigits, d.onDownloadDigits)
	ctx.Handle(store.ActionUploadDigits, func(ctx app.Context, a app.Action) {
		if f, ok := a.Value.(app.Value); ok {
			d.readFile(ctx, f, true)
		}
	})
	if h := app.Window().Get("softmaxOnDrop"); app.IsClient && h.Type() == app.TypeFunction && d.files.drop == nil {
		d.files.drop = app.FuncOf(func(this app.Value, args []app.Value) any {
			f := args[0]
			digits := strings.HasSuffix(strings.ToLower(f.Get("name").String()), modelfile.DigitsExt)
			ctx.Dispatch(func(ctx app.Context) { d.readFile(ctx, f, digits) })
			return nil
		})
		h.Invoke(d.files.drop)
	}
}

// filesEvent follows worker events: once data are loaded it sends my
// digits and uses the kept model; when a run rests it keeps the model
// straight after, in a task of its own (keepSoon).
func (d *Instrument) filesEvent(ctx app.Context, m protocol.Msg) {
	f := &d.files
	switch m.(type) {
	case protocol.Loaded:
		if len(f.digits.Labels) > 0 {
			d.sendMyDigits()
		}
		if k := f.restoring; k != nil {
			f.restoring = nil
			d.restore(k)
		}
	case protocol.Progress, protocol.Evaluated, protocol.Weights:
		if w, ok := m.(protocol.Weights); ok && f.loading {
			f.loading, f.fileRun = false, w.Run
		}
		if (d.st.Status == store.StatusDone || d.st.Status == store.StatusPaused) && d.st.Model != nil {
			d.keepSoon(ctx)
		}
	}
}

// restore uses the model kept in the browser's storage; a kept model that
// cannot be read is dropped, with a note.
func (d *Instrument) restore(k *files.Kept) {
	f := &d.files
	file, err := k.File()
	if err != nil {
		d.dropKept()
		f.modelStatus, f.modelKind = i18n.Text("model.corrupt", err.Error()), "corrupt"
		return
	}
	f.restored, f.restoredSum = true, kit.Checksum(file.Model)
	saved := file.Info.Saved
	if t, err := time.Parse(time.RFC3339, saved); err == nil {
		saved = t.Local().Format("2006-01-02 15:04")
	}
	f.modelStatus, f.modelKind = i18n.Text("model.restored", saved), "restored"
	d.useModel(file)
	browser.Mark("softmax:restored")
}

// useModel makes a decoded model the current one: a new run in the
// worker, with the Train panel's settings (straightened or not as the
// model was trained, when its file says), which training continues from.
func (d *Instrument) useModel(file *modelfile.File) {
	cfg, _ := params.Check(d.fields, d.st.TrainN).Result()
	if file.Format == "json" && file.Version >= 2 {
		cfg.Deskew = file.Info.Deskew
	}
	cfg.MyDigitsRate = d.myDigitsShare()
	d.st.Asked(cfg, true)
	d.files.loading, d.files.fileInfo = true, nil
	if file.Format == "json" && file.Version >= 2 {
		info := file.Info
		d.files.fileInfo = &info
	}
	d.send(protocol.UseModel{Config: cfg, D: file.Model.D, W: file.Model.W, B: file.Model.B})
}

// keepAfter is how long keeping waits after the event that asks for it.
// Encoding and storing the model takes 8-30 ms on the main thread; done in
// the task that also renders the end of a run (the final confusion
// matrix, gallery and templates), it made that task longer than 50 ms.
// Waiting a few milliseconds puts it in a task of its own, gathers the
// Progress, Weights and Evaluated that end a run into one keep, and still
// keeps the model well before a person can close the page after Pause.
const keepAfter = 30 * time.Millisecond

// keepSoon schedules keepModel once, in a task of its own.
func (d *Instrument) keepSoon(ctx app.Context) {
	if d.files.keepPending {
		return
	}
	d.files.keepPending = true
	ctx.After(keepAfter, func(app.Context) {
		d.files.keepPending = false
		if (d.st.Status == store.StatusDone || d.st.Status == store.StatusPaused) && d.st.Model != nil {
			d.keepModel() // about 10 ms in Chromium here (performance.measure "softmax:keep")
		}
	})
}

// keepBeforeLeaving keeps the model now, in the page's own goroutine,
// and returns once it is kept: a page reloaded or closed within keepAfter
// of the end of a run would otherwise leave without it. The pagehide
// handler that calls it holds the browser until it returns, and the
// dispatch it waits for needs no JavaScript event, only go-app's loop.
func (d *Instrument) keepBeforeLeaving(ctx app.Context) {
	done := make(chan struct{})
	ctx.Dispatch(func(app.Context) {
		defer close(done)
		if d.files.keepPending && (d.st.Status == store.StatusDone || d.st.Status == store.StatusPaused) && d.st.Model != nil {
			d.keepModel()
		}
	})
	<-done
}

// keepModel stores the current model and the settings, unless they are
// what is stored already; it says so if the browser would not keep them.
func (d *Instrument) keepModel() {
	f := &d.files
	sum := kit.Checksum(d.st.Model)
	key := fmt.Sprintf("%s/%v", sum, d.st.TestAccuracy())
	if key == f.kept || sum == f.restoredSum || sum == f.forgotSum || (d.st.Progress.Step == 0 && d.st.Run != f.fileRun) {
		return // kept already, forgotten, or a model that has not learnt anything
	}
	f.kept = key
	defer browser.Measure("softmax:keep")() // how long keeping takes
	b, _, _, err := files.EncodeModel(d.st.Model, d.info(), "json")
	if err != nil {
		return // a diverged model: nothing worth keeping
	}
	settings := d.page.Link()
	settings.Lesson = 0 // where the lesson is belongs to the link, not to the model
	// The model itself is kept: a page opened again goes on from it, not
	// from a branch trained again.
	settings.From = link.Chain{}
	rec, err := files.EncodeKept(b, link.Encode(settings))
	switch {
	case err != nil || !browser.StorageSet(keptStorageKey, rec):
		// Full or turned-off storage: the model stays in the page, and
		// the status says once, until a keep succeeds, that it is not kept.
		f.modelStatus, f.modelKind = i18n.Text("model.notKept"), "notKept"
	default:
		if f.modelKind == "notKept" {
			f.modelStatus, f.modelKind = i18n.Msg{}, ""
		}
		if f.legacy {
			f.legacy = false
			browser.StorageSet(files.LegacyModelKey, "")
			browser.StorageSet(files.LegacySettingsKey, "")
		}
	}
}

// dropKept forgets the kept record, and version 1's two keys.
func (d *Instrument) dropKept() {
	browser.StorageSet(keptStorageKey, "")
	browser.StorageSet(files.LegacyModelKey, "")
	browser.StorageSet(files.LegacySettingsKey, "")
	d.files.legacy = false
}

// info is how the current model was trained, for its file: as its own
// file said, for a model loaded or restored that has not trained since.
func (d *Instrument) info() modelfile.Info {
	if f := &d.files; f.fileInfo != nil && d.st.Run == f.fileRun && d.st.Progress.Step == 0 {
		return *f.fileInfo
	}
	pack := d.st.Dataset
	if pk, ok := d.manifest.Find(pack); ok {
		pack = pk.File
	}
	return files.ModelInfo(d.st.Current(), d.st.Progress, d.st.Eval, pack, len(d.files.digits.Labels), time.Now())
}

func (d *Instrument) onDownloadModel(ctx app.Context, a app.Action) {
	kind, _ := a.Value.(string)
	if d.st.Model == nil {
		return
	}
	b, name, mime, err := files.EncodeModel(d.st.Model, d.info(), kind)
	if err != nil {
		d.files.modelStatus, d.files.modelKind = i18n.Text("model.cannotSave", err.Error()), files.ErrKind(err)
		return
	}
	if !browser.Download(name, mime, b) {
		d.files.modelStatus, d.files.modelKind = i18n.Text("file.noDownload"), "download"
	}
}

func (d *Instrument) onForgetModel(ctx app.Context, a app.Action) {
	d.dropKept()
	f := &d.files
	// The worker may still send the model being forgotten (the kept model
	// it was given once the data were in, say): those events must not
	// keep it again.
	f.forgotSum = f.restoredSum
	if d.st.Model != nil {
		f.forgotSum = kit.Checksum(d.st.Model)
	}
	f.restored, f.kept = false, ""
	f.modelStatus, f.modelKind = i18n.Text("model.forgotten"), "forgotten"
	cfg, _ := params.Check(d.fields, d.st.TrainN).Result()
	d.onReset(ctx, app.Action{Value: cfg})
}

// readFile checks a File's size, reads it and loads it as a model, or as
// my digits. A file that is refused changes nothing; the message says why.
func (d *Instrument) readFile(ctx app.Context, file app.Value, digits bool) {
	name := params.Quote(file.Get("name").String())
	refuse := func(err error) {
		kind := files.ErrKind(err)
		m := i18n.Text("file.refused", name, i18n.Text(files.ErrText[kind]), err.Error())
		if digits {
			d.files.digitsStatus, d.files.digitsKind = m, kind
		} else {
			d.files.modelStatus, d.files.modelKind = m, kind
		}
	}
	size := int64(file.Get("size").Float())
	limit := func(n int64) error { return modelfile.CheckSize(n) }
	if digits {
		limit = func(n int64) error {
			if n > modelfile.MaxDigitsBytes {
				return fmt.Errorf("%w: the file is %d bytes, more than the limit of %d for my digits", modelfile.ErrTooLarge, n, modelfile.MaxDigitsBytes)
			}
			return nil
		}
	}
	if err := limit(size); err != nil {
		refuse(err) // refused by its size: never read
		return
	}
	promise := app.Window().Get("softmaxReadFile")
	if promise.Type() != app.TypeFunction {
		return
	}
	var done app.Func
	done = app.FuncOf(func(this app.Value, args []app.Value) any {
		done.Release()
		r := args[0]
		var b []byte
		var err error
		if e := r.Get("error"); e.Truthy() {
			err = fmt.Errorf("the browser could not read the file: %s", e.String())
		} else {
			u8 := r.Get("bytes")
			b = make([]byte, u8.Length())
			app.CopyBytesToGo(b, u8)
		}
		ctx.Dispatch(func(ctx app.Context) {
			switch {
			case err != nil:
				refuse(err)
			case digits:
				d.loadDigits(b, name, refuse)
			default:
				d.loadModel(b, name, refuse)
			}
		})
		return nil
	})
	promise.Invoke(file).Call("then", done)
}

// loadModel decodes a model file and makes it the current model.
func (d *Instrument) loadModel(b []byte, name string, refuse func(error)) {
	file, err := modelfile.Decode(b, dataset.Pixels)
	if err != nil {
		refuse(err)
		return
	}
	d.files.restored, d.files.restoredSum, d.files.forgotSum = false, "", "" // a file chosen is kept, even the one forgotten
	d.files.modelStatus, d.files.modelKind = i18n.Text("model.loaded", name), "loaded"
	d.useModel(file)
}
