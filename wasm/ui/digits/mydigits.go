package digits

import (
	"bytes"
	"softmaxdemo/core/dataset"
	"softmaxdemo/core/modelfile"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/digits/files"
	"softmaxdemo/wasm/ui/digits/panels"
	"softmaxdemo/wasm/ui/i18n"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// My digits on the page: added from the draw pad, loaded from a file,
// kept in the browser's storage, saved, and sent to the worker to be
// mixed into every batch.

// loadDigits decodes a my-digits file; its digits replace my digits.
func (d *Instrument) loadDigits(b []byte, name string, refuse func(error)) {
	set, err := modelfile.DecodeDigits(b)
	if err != nil {
		refuse(err)
		return
	}
	labels, pixels := modelfile.DigitsPixels(set)
	d.setMyDigits(protocol.Samples{Labels: labels, Pixels: pixels})
	d.files.digitsStatus, d.files.digitsKind = i18n.Text("myDigits.loaded", len(labels), name), "loaded"
}

func (d *Instrument) onAddDigit(ctx app.Context, a app.Action) {
	dg, ok := a.Value.(panels.MyDigit)
	f := &d.files
	switch {
	case !ok:
		return
	case dg.Label > 9 || len(dg.Pixels) != dataset.Pixels:
		f.digitsStatus, f.digitsKind = i18n.Text("myDigits.noInk"), "noInk"
		return
	case len(f.digits.Labels) >= modelfile.MaxDigits:
		f.digitsStatus, f.digitsKind = i18n.Text("myDigits.full", modelfile.MaxDigits), "full"
		return
	}
	m := protocol.Samples{
		Labels: append(append([]uint8(nil), f.digits.Labels...), dg.Label),
		Pixels: append(append([]byte(nil), f.digits.Pixels...), dg.Pixels...),
	}
	f.digitsStatus, f.digitsKind = i18n.Msg{}, ""
	d.setMyDigits(m)
}

func (d *Instrument) onRemoveDigit(ctx app.Context, a app.Action) {
	i, ok := a.Value.(int)
	f := &d.files
	if !ok || i >= len(f.digits.Labels) {
		return
	}
	m := protocol.Samples{}
	if i >= 0 {
		m.Labels = append(append([]uint8(nil), f.digits.Labels[:i]...), f.digits.Labels[i+1:]...)
		m.Pixels = append(append([]byte(nil), f.digits.Pixels[:i*dataset.Pixels]...), f.digits.Pixels[(i+1)*dataset.Pixels:]...)
	}
	f.digitsStatus, f.digitsKind = i18n.Msg{}, ""
	d.setMyDigits(m)
}

// setMyDigits replaces my digits, tells the worker and keeps them.
func (d *Instrument) setMyDigits(m protocol.Samples) {
	f := &d.files
	f.digits = m
	f.myDigitsVersion++
	d.sendMyDigits()
	s, err := files.EncodeDigits(m)
	if err == nil && !browser.StorageSet(digitsStorageKey, s) {
		f.digitsStatus, f.digitsKind = i18n.Text("myDigits.notKept"), "notKept"
	}
}

func (d *Instrument) sendMyDigits() {
	d.send(protocol.MyDigits{Labels: d.files.digits.Labels, Pixels: d.files.digits.Pixels})
}

// myDigitsShare is Config.MyDigitsRate: the chosen share of each batch, when
// there are my digits to mix in.
func (d *Instrument) myDigitsShare() float64 {
	if len(d.files.digits.Labels) == 0 {
		return 0
	}
	r, _ := panels.ParseMyDigitsRate(d.files.myDigitsRate)
	return r
}

func (d *Instrument) onDownloadDigits(ctx app.Context, a app.Action) {
	f := &d.files
	set, err := modelfile.NewDigits(f.digits.Labels, f.digits.Pixels)
	var buf bytes.Buffer
	if err == nil {
		err = modelfile.EncodeDigits(&buf, set)
	}
	if err != nil {
		f.digitsStatus, f.digitsKind = i18n.Text("myDigits.cannotSave", err.Error()), files.ErrKind(err)
		return
	}
	if !browser.Download("my"+modelfile.DigitsExt, "application/octet-stream", buf.Bytes()) {
		f.digitsStatus, f.digitsKind = i18n.Text("file.noDownload"), "download"
	}
}
