package panels

import (
	"softmaxdemo/wasm/ui/i18n"

	"strings"
	"testing"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

func TestLayoutGallery(t *testing.T) {
	l := layoutGallery([]uint8{0, 0, 1, 3, 3, 3})
	if l.Cols != 10 || l.Rows != 3 {
		t.Errorf("%d×%d cells, want 10×3", l.Cols, l.Rows)
	}
	wantCol, wantRow := []int{0, 0, 1, 3, 3, 3}, []int{0, 1, 0, 0, 1, 2}
	for i := range wantCol {
		if l.Col[i] != wantCol[i] || l.Row[i] != wantRow[i] {
			t.Errorf("sample %d in cell (%d, %d), want (%d, %d)", i, l.Col[i], l.Row[i], wantCol[i], wantRow[i])
		}
	}
	if e := layoutGallery(nil); e.Rows != galleryMinRow || e.Width() != 10*galleryCellW {
		t.Errorf("empty Gallery %d rows, %d wide: it would change size when the samples come", e.Rows, e.Width())
	}
}

// TestGallerySheet: each image lands in its own cell, dark ink on white,
// and nothing is drawn between cells.
func TestGallerySheet(t *testing.T) {
	labels := []uint8{2, 2}
	px := make([]byte, 2*784)
	px[0] = 255          // image 0, pixel (0, 0): full ink
	px[784+28*27+27] = 1 // image 1, pixel (27, 27): a trace of ink
	l := layoutGallery(labels)
	rgba := l.sheetRGBA(px)
	w := l.Width()
	at := func(x, y int) []byte { return rgba[4*(y*w+x) : 4*(y*w+x)+4] }
	x0 := 2*galleryCellW + galleryPad
	if got := at(x0, galleryPad); string(got) != string([]byte{0, 0, 0, 255}) {
		t.Errorf("image 0's inked pixel is %v, want opaque black", got)
	}
	if got := at(x0+1, galleryPad); string(got) != string([]byte{255, 255, 255, 255}) {
		t.Errorf("image 0's blank pixel is %v, want opaque white", got)
	}
	if got := at(x0+27, galleryCellH+galleryPad+27); string(got) != string([]byte{254, 254, 254, 255}) {
		t.Errorf("image 1's last pixel is %v, want 254 grey: not in the second row?", got)
	}
	if got := at(x0-1, galleryPad); got[3] != 0 {
		t.Errorf("the margin is %v, want transparent", got)
	}
}

func TestGalleryWords(t *testing.T) {
	labels := []uint8{0, 1, 7}
	preds := []int{0, 7, 7}
	if got := misread(labels, preds); len(got) != 1 || got[0] != 1 {
		t.Errorf("misread %v, want [1]", got)
	}
	if got := misread(labels, []int{-1, -1, -1}); len(got) != 0 {
		t.Errorf("no model, yet misread %v", got)
	}
	if got := predictedText([]int{0, -1, 7}); got != "0·7" {
		t.Errorf("predictedText %q", got)
	}
	g := &Gallery{ILang: i18n.EN, ISamples: protocol.Samples{Labels: labels, Pixels: make([]byte, 3*784)}, IModel: softmax.New[float32](784)}
	g.preds = preds
	if got := g.summary(misread(labels, preds)); !strings.Contains(got, "1 of 3 test digits misread: a 1 read as 7") {
		t.Errorf("summary %q", got)
	}
	g.ILang = i18n.ZH
	if got := g.summary(misread(labels, preds)); got != "1 个（共 3 个）测试数字认错了：把 1 认成了 7。" {
		t.Errorf("summary in Chinese %q", got)
	}
}
