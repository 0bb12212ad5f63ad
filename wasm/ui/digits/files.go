package digits

import (
	"fmt"
	"strings"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/modelfile"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/files"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/link"
	"softmaxdemo/wasm/ui/params"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// keeper is the owner's part that keeps the model and my digits as
// files: it reads the files a person chooses or drops, saves them, keeps
// them in the browser's storage across reloads (boot.go reads them back),
// and hands them to the worker. Every call into the browser that can
// throw goes through web/boot.js's helpers (softmaxDownload,
// softmaxReadFile, softmaxOnDrop, softmaxStore).
type keeper struct {
	st          *store.Store
	c           *conn
	host        Host
	drop        app.Func // takes the files dropped on the page
	keepPending bool     // keeping the model is scheduled or under way
	keeping     *keeping // the keep under way, a class at a time; nil for none
	keepAgain   bool     // a model came to rest while a keep was under way
	// keepStepped, if set, is called on the UI goroutine after each step
	// of a keep (the tests' way in between two steps).
	keepStepped func()
}

// keeping is a keep under way: the model's file, written a step at a
// time, and the link kept with it.
type keeping struct {
	model    *softmax.Model[float32] // a copy of the model at rest
	info     modelfile.Info
	enc      *modelfile.JSONEncoder
	settings string
}

// listenForDrops takes files dropped on the page: a model, or my digits
// by their extension.
func (k *keeper) listenForDrops(ctx app.Context) {
	h := app.Window().Get("softmaxOnDrop")
	if h.Type() != app.TypeFunction || k.drop != nil {
		return
	}
	k.drop = app.FuncOf(func(this app.Value, args []app.Value) any {
		f := browser.FileOf(args[0])
		digits := strings.HasSuffix(strings.ToLower(f.Name), modelfile.DigitsExt)
		ctx.Dispatch(func(ctx app.Context) { k.readFile(ctx, f, digits) })
		return nil
	})
	h.Invoke(k.drop)
}

// filesEvent follows worker events: once data are loaded it sends my
// digits and uses the kept model; when a run rests it keeps the model
// straight after, in a task of its own (keepSoon).
func (k *keeper) filesEvent(ctx app.Context, m protocol.Msg) {
	st := k.st
	switch m := m.(type) {
	case protocol.Loaded:
		if len(st.Files.Digits.Labels) > 0 {
			k.sendMyDigits()
		}
		if rec := st.Files.TakeRestoring(); rec != nil {
			k.restore(rec)
		}
	case protocol.Progress, protocol.Evaluated, protocol.Weights:
		if w, ok := m.(protocol.Weights); ok {
			st.Files.Arrived(w.Run)
		}
		if k.atRest() {
			k.keepSoon(ctx)
		}
	}
}

// atRest reports whether a run has come to rest with a model worth
// keeping.
func (k *keeper) atRest() bool {
	st := k.st
	return (st.Status == store.StatusDone || st.Status == store.StatusPaused) && st.Model != nil
}

// restore uses the model kept in the browser's storage; a kept model that
// cannot be read is dropped, with a note.
func (k *keeper) restore(rec *files.Kept) {
	file, err := rec.File()
	if err != nil {
		k.dropKept()
		k.st.Files.ModelSaid(i18n.Text("model.corrupt", err.Error()), "corrupt")
		return
	}
	saved := file.Info.Saved
	if t, err := time.Parse(time.RFC3339, saved); err == nil {
		saved = t.Local().Format("2006-01-02 15:04")
	}
	k.st.Files.RestoredFrom(kit.Checksum(file.Model), saved)
	k.useFile(file)
	browser.Mark("softmax:restored")
}

// useFile makes a decoded model the current one: a new run in the
// worker, with the Train panel's settings (straightened or not as the
// model was trained, when its file says), which training continues from.
func (k *keeper) useFile(file *modelfile.File) {
	st := k.st
	c := st.RunConfig()
	var info *modelfile.Info
	if file.Format == "json" && file.Version >= 2 {
		c.Deskew = file.Info.Deskew
		i := file.Info
		info = &i
	}
	st.Asked(c, true)
	st.Files.Using(info)
	k.c.send(protocol.UseModel{Config: c, D: file.Model.D, W: file.Model.W, B: file.Model.B})
}

// keepAfter is how long keeping waits after the event that asks for it:
// it gathers the Progress, Weights and Evaluated that end a run into one
// keep, after the frame that shows them.
const keepAfter = 30 * time.Millisecond

// keepStep is the pause between two steps of a keep, in which the browser
// runs the page's frames and events.
const keepStep = time.Millisecond

// keepSoon keeps the model once the run has come to rest, out of the
// page's frames: writing 7,850 parameters as decimal text takes 10-50 ms
// on a slow machine's main thread, longer than a frame, so the file is
// written a class at a time (modelfile.JSONEncoder), each step a task of
// its own that renders nothing ("softmax:keep-step"), and stored once
// whole, in a task that says so ("softmax:keep").
func (k *keeper) keepSoon(ctx app.Context) {
	if k.keepPending {
		k.keepAgain = k.keepAgain || k.keeping != nil
		return
	}
	k.keepPending = true
	ctx.After(keepAfter, func(ctx app.Context) {
		ctx.PreventUpdate()
		p := k.beginKeep()
		if p == nil {
			k.keepPending = false
			return
		}
		k.keeping = p
		k.stepKeep(ctx, p)
	})
}

// stepKeep writes the next part of the keep p, in a task of its own, or
// stores it once whole; a keep cancelled meanwhile stops.
func (k *keeper) stepKeep(ctx app.Context, p *keeping) {
	ctx.After(keepStep, func(ctx app.Context) {
		if k.keeping != p {
			ctx.PreventUpdate()
			return // forgotten meanwhile, or kept as the page left
		}
		end := browser.Measure("softmax:keep-step")
		more := p.enc.Step()
		end()
		if more {
			ctx.PreventUpdate()
			if k.keepStepped != nil {
				k.keepStepped()
			}
			k.stepKeep(ctx, p)
			return
		}
		again := k.keepAgain
		k.keeping, k.keepPending, k.keepAgain = nil, false, false
		k.store(p.enc.Bytes(), p.settings)
		if again {
			k.keepSoon(ctx) // the model that came to rest meanwhile
		}
	})
}

// keepBeforeLeaving keeps the model now, in the page's own goroutine,
// and returns once it is kept: a page reloaded or closed within keepAfter
// of the end of a run, or while a keep is under way, would otherwise
// leave without it. The pagehide handler that calls it holds the browser
// until it returns, and the dispatch it waits for needs no JavaScript
// event, only go-app's loop.
func (k *keeper) keepBeforeLeaving(ctx app.Context) {
	done := make(chan struct{})
	ctx.Dispatch(func(app.Context) {
		defer close(done)
		k.keepNow()
	})
	<-done
}

// keepNow finishes at once the keep under way or scheduled, if any.
func (k *keeper) keepNow() {
	if p := k.keeping; p != nil {
		again := k.keepAgain
		k.cancelKeep()
		k.store(encodeWhole(p.model, p.info), p.settings)
		if again && k.atRest() {
			k.keepModel() // the model that came to rest meanwhile
		}
		return
	}
	if k.keepPending && k.atRest() {
		k.keepModel()
	}
}

// encodeWhole is the model's file, at once.
func encodeWhole(m *softmax.Model[float32], info modelfile.Info) []byte {
	b, _, _, _ := files.EncodeModel(m, info, "json")
	return b
}

// keepModel stores the current model and the settings at once, unless
// they are what is stored already.
func (k *keeper) keepModel() {
	if p := k.beginKeep(); p != nil {
		for p.enc.Step() {
		}
		k.store(p.enc.Bytes(), p.settings)
	}
}

// beginKeep starts keeping the current model and the settings, unless
// the run is not at rest or they are what is stored already: it returns
// the keep, its file's head written, or nil.
func (k *keeper) beginKeep() *keeping {
	st := k.st
	if !k.atRest() || !st.Files.Keeping(kit.Checksum(st.Model), st.TestAccuracy(), st.Progress.Step, st.Run) {
		return nil // kept already, forgotten, or a model that has not learnt anything
	}
	m, info := st.Model.Clone(), k.info()
	enc, err := modelfile.NewJSONEncoder(m, info)
	if err != nil {
		return nil // a diverged model: nothing worth keeping
	}
	// The model itself is kept: a page opened again goes on from it, not
	// from a branch trained again, and where the lesson is belongs to the
	// link, not to the model.
	kept := link.Settings{Train: st.Controls.Settings, Dataset: st.LinkData(), Workers: st.Controls.Workers, Lang: st.Controls.Lang}
	return &keeping{model: m, info: info, enc: enc, settings: link.Encode(kept)}
}

// store writes the kept record of the model's file b and the link
// settings; it says so if the browser would not keep it.
func (k *keeper) store(b []byte, settings string) {
	defer browser.Measure("softmax:keep")() // how long storing takes
	rec, err := files.EncodeKept(b, settings)
	// Full or turned-off storage: the model stays in the page, and the
	// status says once, until a keep succeeds, that it is not kept.
	if k.st.Files.KeptIn(err == nil && k.host.Set(keptStorageKey, rec)) {
		k.host.Set(files.LegacyModelKey, "")
		k.host.Set(files.LegacySettingsKey, "")
	}
}

// cancelKeep ends the keep under way without storing it.
func (k *keeper) cancelKeep() {
	if k.keeping != nil {
		k.keeping, k.keepPending, k.keepAgain = nil, false, false
	}
}

// dropKept forgets the kept record, and version 1's two keys.
func (k *keeper) dropKept() {
	k.cancelKeep()
	k.host.Set(keptStorageKey, "")
	k.host.Set(files.LegacyModelKey, "")
	k.host.Set(files.LegacySettingsKey, "")
	k.st.Files.Dropped()
}

// info is how the current model was trained, for its file: as its own
// file said, for a model loaded or restored that has not trained since.
func (k *keeper) info() modelfile.Info {
	st := k.st
	if f := st.Files; f.FileInfo != nil && st.Run == f.FileRun && st.Progress.Step == 0 {
		return *f.FileInfo
	}
	pack := st.Dataset
	for _, pk := range st.Packs {
		if pk.Name == pack {
			pack = pk.File
		}
	}
	method, c := "", protocol.Config{}
	if r := st.Current(); r != nil {
		method, c = r.Method(), r.Cfg
	}
	return files.ModelInfo(method, c, st.Progress, st.Eval, pack, len(st.Files.Digits.Labels), time.Now())
}

// downloadModel saves the current model as a file of the kind ("json" or
// "npz").
func (k *keeper) downloadModel(_ app.Context, kind string) {
	st := k.st
	if st.Model == nil {
		return
	}
	b, name, mime, err := files.EncodeModel(st.Model, k.info(), kind)
	if err != nil {
		st.Files.ModelSaid(i18n.Text("model.cannotSave", err.Error()), files.ErrKind(err))
		return
	}
	if !k.host.Download(name, mime, b) {
		st.Files.ModelSaid(i18n.Text("file.noDownload"), "download")
	}
}

// forget forgets the kept model: the browser's copy, and the model
// shown, which is never kept again.
func (k *keeper) forget() {
	k.dropKept()
	sum := ""
	if k.st.Model != nil {
		sum = kit.Checksum(k.st.Model)
	}
	k.st.Files.Forgot(sum)
}

// readFile checks a file's size, reads it and loads it as a model, or as
// my digits. A file that is refused changes nothing; the message says why.
func (k *keeper) readFile(ctx app.Context, file browser.File, digits bool) {
	name := params.Quote(file.Name)
	refuse := func(err error) {
		kind := files.ErrKind(err)
		m := i18n.Text("file.refused", name, i18n.Text(files.ErrText[kind]), err.Error())
		if digits {
			k.st.Files.DigitsSaid(m, kind)
		} else {
			k.st.Files.ModelSaid(m, kind)
		}
	}
	if err := sizeLimit(file.Size, digits); err != nil {
		refuse(err) // refused by its size: never read
		return
	}
	file.Read(func(b []byte, err error) {
		ctx.Dispatch(func(ctx app.Context) {
			switch {
			case err != nil:
				refuse(err)
			case digits:
				k.loadDigits(b, name, refuse)
			default:
				k.loadModel(b, name, refuse)
			}
		})
	})
}

// sizeLimit refuses a file of n bytes that is larger than a model file,
// or my digits' file, may be.
func sizeLimit(n int64, digits bool) error {
	if !digits {
		return modelfile.CheckSize(n)
	}
	if n > modelfile.MaxDigitsBytes {
		return fmt.Errorf("%w: the file is %d bytes, more than the limit of %d for my digits", modelfile.ErrTooLarge, n, modelfile.MaxDigitsBytes)
	}
	return nil
}

// loadModel decodes a model file and makes it the current model.
func (k *keeper) loadModel(b []byte, name string, refuse func(error)) {
	file, err := modelfile.Decode(b, dataset.Pixels)
	if err != nil {
		refuse(err)
		return
	}
	k.st.Files.Chosen(name)
	k.useFile(file)
}
