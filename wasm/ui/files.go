package ui

import (
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/files"
	"softmaxdemo/wasm/ui/link"
	"softmaxdemo/wasm/ui/store"

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

	myDigits        protocol.Samples // my digits: labels and 784 grey levels each
	myDigitsVersion int
	myDigitsRate    string
	digitsStatus    i18n.Msg
	digitsKind      string

	drop app.Func

	keepPending bool // keeping is scheduled in a task of its own
}

// initFiles reads what the browser kept: my digits and their rate now,
// the model once the data are loaded. Natively it does nothing.
func (p *page) initFiles() {
	f := &p.files
	f.myDigitsRate = defaultMyDigitsRate
	if r := browser.StorageGet(rateStorageKey); r != "" {
		if _, ok := parseMyDigitsRate(r); ok {
			f.myDigitsRate = r
		}
	}
	if s := browser.StorageGet(digitsStorageKey); s != "" {
		if d, err := files.DecodeDigits(s); err == nil {
			f.myDigits = d
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

// keptSettings returns the settings kept with the model, for a page
// opened without a link of its own.
func (p *page) keptSettings(packs map[string]int) (link.Settings, bool) {
	k := p.files.restoring
	if k == nil || k.Settings == "" {
		return link.Settings{}, false
	}
	set, notes := link.Parse(k.Settings, packs)
	return set, len(notes) == 0
}

// handleFiles registers the files' actions and takes files dropped on the
// page.
func (p *page) handleFiles(ctx app.Context) {
	ctx.Handle(store.ActionDownloadModel, p.onDownloadModel)
	ctx.Handle(store.ActionUploadModel, func(ctx app.Context, a app.Action) {
		if f, ok := a.Value.(app.Value); ok {
			p.readFile(ctx, f, false)
		}
	})
	ctx.Handle(store.ActionForgetModel, p.onForgetModel)
	ctx.Handle(store.ActionAddDigit, p.onAddDigit)
	ctx.Handle(store.ActionRemoveDigit, p.onRemoveDigit)
	ctx.Handle(store.ActionMyDigitsRate, func(ctx app.Context, a app.Action) {
		if v, ok := a.Value.(string); ok {
			if _, ok := parseMyDigitsRate(v); ok {
				p.files.myDigitsRate = v
				browser.StorageSet(rateStorageKey, v)
			}
		}
	})
	ctx.Handle(store.ActionDownloadDigits, p.onDownloadDigits)
	ctx.Handle(store.ActionUploadDigits, func(ctx app.Context, a app.Action) {
		if f, ok := a.Value.(app.Value); ok {
			p.readFile(ctx, f, true)
		}
	})
	if h := app.Window().Get("softmaxOnDrop"); app.IsClient && h.Type() == app.TypeFunction && p.files.drop == nil {
		p.files.drop = app.FuncOf(func(this app.Value, args []app.Value) any {
			f := args[0]
			digits := strings.HasSuffix(strings.ToLower(f.Get("name").String()), modelfile.DigitsExt)
			ctx.Dispatch(func(ctx app.Context) { p.readFile(ctx, f, digits) })
			return nil
		})
		h.Invoke(p.files.drop)
	}
}

// filesEvent follows worker events: once data are loaded it sends my
// digits and uses the kept model; when a run rests it keeps the model
// straight after, in a task of its own (keepSoon).
func (p *page) filesEvent(ctx app.Context, m protocol.Msg) {
	f := &p.files
	switch m.(type) {
	case protocol.Loaded:
		if len(f.myDigits.Labels) > 0 {
			p.sendMyDigits()
		}
		if k := f.restoring; k != nil {
			f.restoring = nil
			p.restore(k)
		}
	case protocol.Progress, protocol.Evaluated, protocol.Weights:
		if w, ok := m.(protocol.Weights); ok && f.loading {
			f.loading, f.fileRun = false, w.Run
		}
		if (p.st.Status == store.StatusDone || p.st.Status == store.StatusPaused) && p.st.Model != nil {
			p.keepSoon(ctx)
		}
	}
}

// restore uses the model kept in the browser's storage; a kept model that
// cannot be read is dropped, with a note.
func (p *page) restore(k *files.Kept) {
	f := &p.files
	file, err := k.File()
	if err != nil {
		p.dropKept()
		f.modelStatus, f.modelKind = i18n.Text("model.corrupt", err.Error()), "corrupt"
		return
	}
	f.restored, f.restoredSum = true, files.Checksum(file.Model)
	saved := file.Info.Saved
	if t, err := time.Parse(time.RFC3339, saved); err == nil {
		saved = t.Local().Format("2006-01-02 15:04")
	}
	f.modelStatus, f.modelKind = i18n.Text("model.restored", saved), "restored"
	p.useModel(file)
	app.Window().Get("performance").Call("mark", "softmax:restored")
}

// useModel makes a decoded model the current one: a new run in the
// worker, with the Train panel's settings (straightened or not as the
// model was trained, when its file says), which training continues from.
func (p *page) useModel(file *modelfile.File) {
	cfg, _ := params.Parse(p.link.Fields, p.st.TrainN)
	if file.Format == "json" && file.Version >= 2 {
		cfg.Deskew = file.Info.Deskew
	}
	cfg.MyDigitsRate = p.myDigitsShare()
	p.st.Err = nil
	p.st.Pending = cfg
	p.files.loading, p.files.fileInfo = true, nil
	if file.Format == "json" && file.Version >= 2 {
		info := file.Info
		p.files.fileInfo = &info
	}
	p.send(protocol.UseModel{Config: cfg, D: file.Model.D, W: file.Model.W, B: file.Model.B})
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
func (p *page) keepSoon(ctx app.Context) {
	if p.files.keepPending {
		return
	}
	p.files.keepPending = true
	ctx.After(keepAfter, func(app.Context) {
		p.files.keepPending = false
		if (p.st.Status == store.StatusDone || p.st.Status == store.StatusPaused) && p.st.Model != nil {
			p.keepModel() // about 10 ms in Chromium here (performance.measure "softmax:keep")
		}
	})
}

// keepBeforeLeaving keeps the model now, in the page's own goroutine,
// and returns once it is kept: a page reloaded or closed within keepAfter
// of the end of a run would otherwise leave without it. The pagehide
// handler that calls it holds the browser until it returns, and the
// dispatch it waits for needs no JavaScript event, only go-app's loop.
func (p *page) keepBeforeLeaving(ctx app.Context) {
	done := make(chan struct{})
	ctx.Dispatch(func(app.Context) {
		defer close(done)
		if p.files.keepPending && (p.st.Status == store.StatusDone || p.st.Status == store.StatusPaused) && p.st.Model != nil {
			p.keepModel()
		}
	})
	<-done
}

// keepModel stores the current model and the settings, unless they are
// what is stored already; it says so if the browser would not keep them.
func (p *page) keepModel() {
	f := &p.files
	sum := files.Checksum(p.st.Model)
	key := fmt.Sprintf("%s/%v", sum, p.st.TestAccuracy())
	if key == f.kept || sum == f.restoredSum || sum == f.forgotSum || (p.st.Progress.Step == 0 && p.st.Run != f.fileRun) {
		return // kept already, forgotten, or a model that has not learnt anything
	}
	f.kept = key
	defer browser.Measure("softmax:keep")() // how long keeping takes
	b, _, _, err := files.EncodeModel(p.st.Model, p.info(), "json")
	if err != nil {
		return // a diverged model: nothing worth keeping
	}
	settings := p.link
	settings.Lesson = 0 // where the lesson is belongs to the link, not to the model
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
func (p *page) dropKept() {
	browser.StorageSet(keptStorageKey, "")
	browser.StorageSet(files.LegacyModelKey, "")
	browser.StorageSet(files.LegacySettingsKey, "")
	p.files.legacy = false
}

// info is how the current model was trained, for its file: as its own
// file said, for a model loaded or restored that has not trained since.
func (p *page) info() modelfile.Info {
	if f := &p.files; f.fileInfo != nil && p.st.Run == f.fileRun && p.st.Progress.Step == 0 {
		return *f.fileInfo
	}
	pack := p.st.Dataset
	if pk, ok := p.manifest.Find(pack); ok {
		pack = pk.File
	}
	return files.ModelInfo(p.st.Current(), p.st.Progress, p.st.Eval, pack, len(p.files.myDigits.Labels), time.Now())
}

func (p *page) onDownloadModel(ctx app.Context, a app.Action) {
	kind, _ := a.Value.(string)
	if p.st.Model == nil {
		return
	}
	b, name, mime, err := files.EncodeModel(p.st.Model, p.info(), kind)
	if err != nil {
		p.files.modelStatus, p.files.modelKind = i18n.Text("model.cannotSave", err.Error()), files.ErrKind(err)
		return
	}
	if !browser.Download(name, mime, b) {
		p.files.modelStatus, p.files.modelKind = i18n.Text("file.noDownload"), "download"
	}
}

func (p *page) onForgetModel(ctx app.Context, a app.Action) {
	p.dropKept()
	f := &p.files
	// The worker may still send the model being forgotten (the kept model
	// it was given once the data were in, say): those events must not
	// keep it again.
	f.forgotSum = f.restoredSum
	if p.st.Model != nil {
		f.forgotSum = files.Checksum(p.st.Model)
	}
	f.restored, f.kept = false, ""
	f.modelStatus, f.modelKind = i18n.Text("model.forgotten"), "forgotten"
	cfg, _ := params.Parse(p.link.Fields, p.st.TrainN)
	p.onReset(ctx, app.Action{Value: cfg})
}

// readFile checks a File's size, reads it and loads it as a model, or as
// my digits. A file that is refused changes nothing; the message says why.
func (p *page) readFile(ctx app.Context, file app.Value, digits bool) {
	name := params.Quote(file.Get("name").String())
	refuse := func(err error) {
		kind := files.ErrKind(err)
		m := i18n.Text("file.refused", name, i18n.Text(files.ErrText[kind]), err.Error())
		if digits {
			p.files.digitsStatus, p.files.digitsKind = m, kind
		} else {
			p.files.modelStatus, p.files.modelKind = m, kind
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
				p.loadDigits(b, name, refuse)
			default:
				p.loadModel(b, name, refuse)
			}
		})
		return nil
	})
	promise.Invoke(file).Call("then", done)
}

// loadModel decodes a model file and makes it the current model.
func (p *page) loadModel(b []byte, name string, refuse func(error)) {
	file, err := modelfile.Decode(b, dataset.Pixels)
	if err != nil {
		refuse(err)
		return
	}
	p.files.restored, p.files.restoredSum, p.files.forgotSum = false, "", "" // a file chosen is kept, even the one forgotten
	p.files.modelStatus, p.files.modelKind = i18n.Text("model.loaded", name), "loaded"
	p.useModel(file)
}

// filesUI is the files' two panels.
func (p *page) filesUI() app.UI {
	s, f := p.st, &p.files
	rate := f.myDigitsRate
	if rate == "" {
		rate = defaultMyDigitsRate // natively, in index.html
	}
	return app.Div().Class("files").Body(
		&myDigits{ILang: s.Lang, IDigits: f.myDigits, IModel: s.Model, IDeskew: s.ModelDeskew(), IVersion: f.myDigitsVersion,
			IRate: rate, IStatus: f.digitsStatus, IKind: f.digitsKind},
		&modelFiles{ILang: s.Lang, IHasModel: s.Model != nil, IStatus: f.modelStatus, IKind: f.modelKind, IRestored: f.restored},
	)
}
