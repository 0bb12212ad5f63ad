package panels

import (
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit/kittest"

	"html"
	"math"
	"strings"
	"testing"

	"softmaxdemo/core/softmax"
)

func TestPixelWeights(t *testing.T) {
	m := softmax.New[float32](784)
	for i := range m.W {
		m.W[i] = float32(i)
	}
	theta := make([]float32, 784)
	j := 28*14 + 9
	w := pixelWeights(m.W, j)
	for c := range softmax.K {
		// θ_{c,j} as the notes index it: row c of θ, column j.
		if want := m.Theta(theta, c)[j]; w[c] != want {
			t.Errorf("weight of pixel %d for class %d = %v, want θ_{c,j} = %v", j, c, w[c], want)
		}
	}
}

func TestPixelAt(t *testing.T) {
	tests := []struct {
		name       string
		x, y, w, h float64
		want       int
		ok         bool
	}{
		{"the top left corner is pixel 0", 0, 0, 112, 112, 0, true},
		{"the middle of row 14, column 9", 9.5 * 4, 14.5 * 4, 112, 112, 28*14 + 9, true},
		{"the last pixel", 111.9, 111.9, 112, 112, 783, true},
		{"a non-square box scales each axis", 27.9 * 10, 0.5 * 5, 280, 140, 27, true},
		{"off the right edge", 112, 5, 112, 112, -1, false},
		{"above the image", 5, -1, 112, 112, -1, false},
		{"an image not laid out", 0, 0, 0, 0, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := pixelAt(tt.x, tt.y, tt.w, tt.h); got != tt.want || ok != tt.ok {
				t.Errorf("pixelAt(%v, %v, %v, %v) = %d, %v; want %d, %v", tt.x, tt.y, tt.w, tt.h, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestStatusBarShowsTheLikelihood(t *testing.T) {
	bar := func(l i18n.Lang, v float64) string {
		return kittest.Render(t, NewStatusBar().With(l, store.StatusDone, i18n.Text("status.done"), 5, 5, 1, 1000, 0.95).Likelihood(v))
	}
	for _, l := range i18n.Langs {
		h := bar(l, 0.8370092118187908)
		for _, want := range []string{`id="likelihood"`, `data-value="0.8370092118187908"`, `>0.837<`, `aria-describedby="likelihood-why"`, html.EscapeString(l.T("stat.likelihoodWhy"))} {
			if !strings.Contains(h, want) {
				t.Errorf("%s: the status bar lacks %q", l, want)
			}
		}
	}
	h := bar(i18n.EN, math.NaN())
	i := strings.Index(h, `id="likelihood"`)
	span := h[strings.LastIndex(h[:i], "<span"):]
	span = span[:strings.Index(span, "</span>")]
	if strings.Contains(h, "NaN") || !strings.HasSuffix(span, ">–") {
		t.Errorf("before the first evaluation the likelihood shows: %s", span)
	}
}

func TestFmtWeight(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{{0.12345, "+0.123"}, {-1.5, "−1.5"}, {0, "+0"}, {-0.000123456, "−0.000123"}, {12.5, "+12.5"}} {
		if got := i18n.Weight(tt.v); got != tt.want {
			t.Errorf("fmtWeight(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
