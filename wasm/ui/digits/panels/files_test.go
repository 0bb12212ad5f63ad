package panels

import (
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit/kittest"

	"strings"
	"testing"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

func TestMyDigitsRatesAsPercent(t *testing.T) {
	if got := fmtPercentShort(0.05); got != "5%" {
		t.Errorf("%q", got)
	}
}

func TestMyDigitsShowLabelsAndReadings(t *testing.T) {
	m := &softmax.Model[float32]{D: 784, W: make([]float32, 7840), B: make([]float32, 10)}
	m.B[3] = 1 // reads everything as a 3
	d := protocol.Samples{Labels: []uint8{3, 7}, Pixels: make([]byte, 2*784)}
	html := kittest.Render(t, &MyDigits{ILang: i18n.EN, IDigits: d, IModel: m, IRate: "0.1"})
	for _, want := range []string{`2 of your digits; the model reads 1 of them right.`, `a 7, read as 3`, `id="my-digits-rate"`} {
		if !strings.Contains(html, want) {
			t.Errorf("my digits lack %q:\n%s", want, html)
		}
	}
	// go-app writes attributes in no fixed order: look at each figure's tag.
	var figures []string
	for _, tag := range strings.Split(html, "<figure")[1:] {
		tag = tag[:strings.Index(tag, ">")]
		figures = append(figures, tag)
	}
	for i, want := range [][2]string{{`data-label="3"`, `data-predicted="3"`}, {`data-label="7"`, `data-predicted="3"`}} {
		if i >= len(figures) || !strings.Contains(figures[i], want[0]) || !strings.Contains(figures[i], want[1]) {
			t.Errorf("digit %d: want %s %s in %q", i, want[0], want[1], figures)
		}
	}
	if html := kittest.Render(t, &MyDigits{ILang: i18n.EN, IRate: "0"}); !strings.Contains(html, "No digits of yours yet.") {
		t.Error("no digits: not said")
	}
}

func TestModelFilesPanel(t *testing.T) {
	html := kittest.Render(t, &ModelFiles{ILang: i18n.EN, IHasModel: true, IStatus: i18n.Text("model.restored", "2026-11-23 17:30"), IKind: "restored", IRestored: true})
	for _, want := range []string{`id="download-model"`, `id="download-npz"`, `id="upload-model"`, `accept=".json,.npz"`,
		`data-kind="restored"`, `Restored the model trained at 2026-11-23 17:30`, `id="forget-model"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the panel lacks %q:\n%s", want, html)
		}
	}
	if html := kittest.Render(t, &ModelFiles{ILang: i18n.EN}); strings.Contains(html, "forget-model") {
		t.Error("start afresh offered without a restored model")
	}
}
