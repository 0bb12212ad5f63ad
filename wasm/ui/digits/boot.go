package digits

import (
	"encoding/json"

	"softmaxdemo/core/dataset"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/files"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/link"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

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
	rateStorageKey   = "softmax:myDigitsRate" // one of store.MyDigitsRates
)

// Boot is what the page finds as it starts, before its first render: the
// list of packs web/boot.js fetched, and what the browser kept (the model
// with its settings, my digits and their share). ReadBoot reads it; its
// zero value is a page that found nothing, as natively.
type Boot struct {
	manifest []byte      // the manifest web/boot.js fetched, nil if none
	files    store.Files // what was kept, and what was wrong with it
}

// ReadBoot reads, in the browser, the list of packs web/boot.js fetched
// and what h kept: my digits and their share now, the model once the
// data are in. A kept record or digits that cannot be read are dropped,
// with a note. Natively there is nothing to read.
func ReadBoot(h Host) Boot {
	if !app.IsClient {
		return readBoot(nil, nil)
	}
	return readBoot(h, browser.BootManifest())
}

// readBoot is ReadBoot of what h kept (nothing for nil) and the manifest
// web/boot.js fetched (nil if none).
func readBoot(h Host, manifest []byte) Boot {
	b := Boot{manifest: manifest, files: store.Files{Rate: store.DefaultMyDigitsRate}}
	if h == nil {
		return b
	}
	f := &b.files
	if r := h.Get(rateStorageKey); r != "" {
		f.SetRate(r)
	}
	if s := h.Get(digitsStorageKey); s != "" {
		if got, err := files.DecodeDigits(s); err == nil {
			f.SetDigits(got)
		} else {
			h.Set(digitsStorageKey, "")
			f.DigitsSaid(i18n.Text("myDigits.corrupt", err.Error()), "corrupt")
		}
	}
	if s := h.Get(keptStorageKey); s != "" {
		k, err := files.ReadKept(s)
		if err != nil {
			// A record cut short, or of a version this page does not
			// read: dropped, with a note; the page starts afresh.
			h.Set(keptStorageKey, "")
			f.ModelSaid(i18n.Text("model.corrupt", err.Error()), "corrupt")
			return b
		}
		f.Restoring = k
	} else if m := h.Get(files.LegacyModelKey); m != "" {
		// Version 1 kept the model and its settings under two keys.
		f.Restoring = &files.Kept{Version: 1, Model: []byte(m), Settings: h.Get(files.LegacySettingsKey)}
		f.Legacy = true
	}
	return b
}

// LinkPacks maps each pack a link may name to its training images: the
// manifest's, or, before it is read, the two the site can have.
func (b Boot) LinkPacks() map[string]int { return linkPacks(nil, b.manifest) }

// linkPacks is LinkPacks of the packs the manifest offers, or of the
// manifest web/boot.js fetched before it is read.
func linkPacks(offered []dataset.PackInfo, booted []byte) map[string]int {
	if len(offered) == 0 && booted != nil {
		var man dataset.Manifest
		if json.Unmarshal(booted, &man) == nil { // unreadable: the two the site can have
			offered = man.Packs
		}
	}
	packs := map[string]int{}
	for _, pk := range offered {
		packs[pk.Name] = pk.Train
	}
	if len(packs) == 0 {
		packs["default"], packs["full"] = 0, 0
	}
	return packs
}

// KeptSettings returns the settings kept with the model, for a page
// opened without a link of its own, and whether they are whole: a link
// the page reads without a notice.
func (b Boot) KeptSettings(packs map[string]int) (link.Settings, bool) {
	k := b.files.Restoring
	if k == nil || k.Settings == "" {
		return link.Settings{}, false
	}
	set, notes := link.Parse(k.Settings, packs)
	return set, len(notes) == 0
}
