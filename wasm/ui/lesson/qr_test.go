package lesson

import (
	"image"
	"image/color"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// rasterise draws QR's SVG (its viewBox and its path of M x y h w v1 h-w z
// runs) at scale pixels a module, as a browser would.
func rasterise(t *testing.T, svg string, scale int) image.Image {
	t.Helper()
	box := regexp.MustCompile(`viewBox="0 0 (\d+) (\d+)"`).FindStringSubmatch(svg)
	if box == nil {
		t.Fatalf("no viewBox in %.80s", svg)
	}
	n, _ := strconv.Atoi(box[1])
	img := image.NewGray(image.Rect(0, 0, n*scale, n*scale))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for _, m := range regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-(\d+)z`).FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		w, _ := strconv.Atoi(m[3])
		for py := y * scale; py < (y+1)*scale; py++ {
			for px := x * scale; px < (x+w)*scale; px++ {
				img.SetGray(px, py, color.Gray{})
			}
		}
	}
	return img
}

// TestQRDecodes: a decoder that is not the encoder (gozxing) reads back
// what QR encoded, for links as long as the page's.
func TestQRDecodes(t *testing.T) {
	for _, text := range []string{
		"http://127.0.0.1:8080/#lesson=1",
		"http://127.0.0.1:41923/#method=sgd&lr=0.5&batch=100&l2=0.0001&epochs=5&seed=1&decay=1&init=zeros&pin=0&deskew=1&iters=20&gtol=1e-05&cg=250&pace=50&data=default&lesson=6&lang=zh",
		"https://example.github.io/softmax/#" + strings.Repeat("lr=0.5&", 60) + "lesson=8",
	} {
		svg, err := QR(text)
		if err != nil {
			t.Fatal(err)
		}
		bmp, err := gozxing.NewBinaryBitmapFromImage(rasterise(t, svg, 4))
		if err != nil {
			t.Fatal(err)
		}
		got, err := qrcode.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
		if err != nil {
			t.Fatalf("%d characters: %v", len(text), err)
		}
		if got.GetText() != text {
			t.Errorf("decoded %q, want %q", got.GetText(), text)
		}
		t.Logf("%d characters: %s", len(text), regexp.MustCompile(`viewBox="[^"]*"`).FindString(svg))
	}
	if _, err := QR(strings.Repeat("x", 5000)); err == nil {
		t.Error("a text too long for any QR code was encoded")
	}
}
