package ui

import (
	"bytes"
	"softmaxdemo/core/dataset"
	"softmaxdemo/core/modelfile"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/browser"
	"softmaxdemo/wasm/ui/files"
	"softmaxdemo/wasm/ui/i18n"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// My digits on the page: added from the draw pad, loaded from a file,
// kept in the browser's storage, saved, and sent to the worker to be
// mixed into every batch.

// loadDigits decodes a my-digits file; its digits replace my digits.
func (p *page) loadDigits(b []byte, name string, refuse func(error)) {
	set, err := modelfile.DecodeDigits(b)
	if err != nil {
		refuse(err)
		return
	}
	labels, pixels := modelfile.DigitsPixels(set)
	p.setMyDigits(protocol.Samples{Labels: labels, Pixels: pixels})
	p.files.digitsStatus, p.files.digitsKind = i18n.Text("myDigits.loaded", len(labels), name), "loaded"
}

func (p *page) onAddDigit(ctx app.Context, a app.Action) {
	d, ok := a.Value.(myDigit)
	f := &p.files
	switch {
	case !ok:
		return
	case d.Label > 9 || len(d.Pixels) != dataset.Pixels:
		f.digitsStatus, f.digitsKind = i18n.Text("myDigits.noInk"), "noInk"
		return
	case len(f.myDigits.Labels) >= modelfile.MaxDigits:
		f.digitsStatus, f.digitsKind = i18n.Text("myDigits.full", modelfile.MaxDigits), "full"
		return
	}
	m := protocol.Samples{
		Labels: append(append([]uint8(nil), f.myDigits.Labels...), d.Label),
		Pixels: append(append([]byte(nil), f.myDigits.Pixels...), d.Pixels...),
	}
	f.digitsStatus, f.digitsKind = i18n.Msg{}, ""
	p.setMyDigits(m)
}

func (p *page) onRemoveDigit(ctx app.Context, a app.Action) {
	i, ok := a.Value.(int)
	f := &p.files
	if !ok || i >= len(f.myDigits.Labels) {
		return
	}
	m := protocol.Samples{}
	if i >= 0 {
		m.Labels = append(append([]uint8(nil), f.myDigits.Labels[:i]...), f.myDigits.Labels[i+1:]...)
		m.Pixels = append(append([]byte(nil), f.myDigits.Pixels[:i*dataset.Pixels]...), f.myDigits.Pixels[(i+1)*dataset.Pixels:]...)
	}
	f.digitsStatus, f.digitsKind = i18n.Msg{}, ""
	p.setMyDigits(m)
}

// setMyDigits replaces my digits, tells the worker and keeps them.
func (p *page) setMyDigits(m protocol.Samples) {
	f := &p.files
	f.myDigits = m
	f.myDigitsVersion++
	p.sendMyDigits()
	s, err := files.EncodeDigits(m)
	if err == nil && !browser.StorageSet(digitsStorageKey, s) {
		f.digitsStatus, f.digitsKind = i18n.Text("myDigits.notKept"), "notKept"
	}
}

func (p *page) sendMyDigits() {
	p.send(protocol.MyDigits{Labels: p.files.myDigits.Labels, Pixels: p.files.myDigits.Pixels})
}

// myDigitsShare is Config.MyDigitsRate: the chosen share of each batch, when
// there are my digits to mix in.
func (p *page) myDigitsShare() float64 {
	if len(p.files.myDigits.Labels) == 0 {
		return 0
	}
	r, _ := parseMyDigitsRate(p.files.myDigitsRate)
	return r
}

func (p *page) onDownloadDigits(ctx app.Context, a app.Action) {
	f := &p.files
	set, err := modelfile.NewDigits(f.myDigits.Labels, f.myDigits.Pixels)
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
