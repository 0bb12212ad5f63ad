package digits

import (
	"bytes"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/modelfile"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/digits/files"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// My digits on the page: added from the draw pad, loaded from a file,
// kept in the browser's storage, saved, and sent to the worker to be
// mixed into every batch.

// loadDigits decodes a my-digits file; its digits replace my digits.
func (k *keeper) loadDigits(b []byte, name string, refuse func(error)) {
	set, err := modelfile.DecodeDigits(b)
	if err != nil {
		refuse(err)
		return
	}
	labels, pixels := modelfile.DigitsPixels(set)
	k.setMyDigits(protocol.Samples{Labels: labels, Pixels: pixels})
	k.st.Files.DigitsSaid(i18n.Text("myDigits.loaded", len(labels), name), "loaded")
}

// addDigit adds a drawing to my digits, unless nothing was drawn or
// there are as many as a file holds.
func (k *keeper) addDigit(_ app.Context, dg store.MyDigit) {
	f := &k.st.Files
	switch {
	case dg.Label > 9 || len(dg.Pixels) != dataset.Pixels:
		f.DigitsSaid(i18n.Text("myDigits.noInk"), "noInk")
		return
	case len(f.Digits.Labels) >= modelfile.MaxDigits:
		f.DigitsSaid(i18n.Text("myDigits.full", modelfile.MaxDigits), "full")
		return
	}
	m := protocol.Samples{
		Labels: append(append([]uint8(nil), f.Digits.Labels...), dg.Label),
		Pixels: append(append([]byte(nil), f.Digits.Pixels...), dg.Pixels...),
	}
	f.DigitsSaid(i18n.Msg{}, "")
	k.setMyDigits(m)
}

// removeDigit removes my digit i, or all of them for -1.
func (k *keeper) removeDigit(_ app.Context, i int) {
	f := &k.st.Files
	if i >= len(f.Digits.Labels) {
		return
	}
	m := protocol.Samples{}
	if i >= 0 {
		m.Labels = append(append([]uint8(nil), f.Digits.Labels[:i]...), f.Digits.Labels[i+1:]...)
		m.Pixels = append(append([]byte(nil), f.Digits.Pixels[:i*dataset.Pixels]...), f.Digits.Pixels[(i+1)*dataset.Pixels:]...)
	}
	f.DigitsSaid(i18n.Msg{}, "")
	k.setMyDigits(m)
}

// myDigitsRate makes r my digits' share of each batch, and keeps it.
func (k *keeper) myDigitsRate(_ app.Context, r string) {
	if k.st.Files.SetRate(r) {
		k.host.Set(rateStorageKey, r)
	}
}

// setClassDigits makes the drawings my digits (SetMyDigits): the
// latest modelfile.MaxDigits of them.
func (k *keeper) setClassDigits(_ app.Context, m protocol.Samples) {
	n := len(m.Labels)
	if n == 0 || len(m.Pixels) != n*dataset.Pixels {
		return
	}
	if n > modelfile.MaxDigits {
		m.Labels, m.Pixels = m.Labels[n-modelfile.MaxDigits:], m.Pixels[(n-modelfile.MaxDigits)*dataset.Pixels:]
	}
	k.st.Files.DigitsSaid(i18n.Msg{}, "")
	k.setMyDigits(m)
}

// setMyDigits replaces my digits, tells the worker and keeps them.
func (k *keeper) setMyDigits(m protocol.Samples) {
	f := &k.st.Files
	f.SetDigits(m)
	k.sendMyDigits()
	s, err := files.EncodeDigits(m)
	if err == nil && !k.host.Set(digitsStorageKey, s) {
		f.DigitsSaid(i18n.Text("myDigits.notKept"), "notKept")
	}
}

// sendMyDigits sends my digits to the worker, to mix into every batch.
func (k *keeper) sendMyDigits() { k.c.send(protocol.MyDigits(k.st.Files.Digits)) }

// downloadDigits saves my digits as a file.
func (k *keeper) downloadDigits(app.Context) {
	f := &k.st.Files
	set, err := modelfile.NewDigits(f.Digits.Labels, f.Digits.Pixels)
	var buf bytes.Buffer
	if err == nil {
		err = modelfile.EncodeDigits(&buf, set)
	}
	if err != nil {
		f.DigitsSaid(i18n.Text("myDigits.cannotSave", err.Error()), files.ErrKind(err))
		return
	}
	if !k.host.Download("my"+modelfile.DigitsExt, "application/octet-stream", buf.Bytes()) {
		f.DigitsSaid(i18n.Text("file.noDownload"), "download")
	}
}
