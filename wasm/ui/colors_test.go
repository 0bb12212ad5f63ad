package ui

import "testing"

func TestDiverging(t *testing.T) {
	tests := []struct {
		name    string
		t       float64
		r, g, b uint8
	}{
		{"zero is white", 0, 255, 255, 255},
		{"one is red", 1, 178, 24, 43},
		{"minus one is blue", -1, 33, 102, 172},
		{"beyond the scale is clamped", 7, 178, 24, 43},
		{"half way is a pale red", 0.5, 217, 140, 149},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, g, b := diverging(tt.t)
			if r != tt.r || g != tt.g || b != tt.b {
				t.Errorf("diverging(%v) = %d,%d,%d; want %d,%d,%d", tt.t, r, g, b, tt.r, tt.g, tt.b)
			}
		})
	}
}

func TestTemplateImage(t *testing.T) {
	w := make([]float32, 7840)
	w[5*10+3] = 2   // pixel 5, class 3: the largest positive weight
	w[6*10+3] = -1  // pixel 6: half as large, negative
	w[5*10+4] = -50 // another class does not change class 3's scale
	dst := make([]byte, 4*784)
	if s := templateImage(dst, w, 3); s != 2 {
		t.Errorf("scale %v, want 2", s)
	}
	if got := dst[4*5 : 4*5+4]; got[0] != 178 || got[3] != 255 {
		t.Errorf("pixel 5 = %v, want full red", got)
	}
	if got := dst[4*6 : 4*6+3]; got[2] <= got[0] {
		t.Errorf("pixel 6 = %v, want bluish", got)
	}
	if got := dst[0:3]; got[0] != 255 || got[1] != 255 || got[2] != 255 {
		t.Errorf("a zero weight is %v, want white", got)
	}
	zero := make([]float32, 7840)
	if s := templateImage(dst, zero, 0); s != 0 || dst[0] != 255 {
		t.Error("an all-zero template is not white")
	}
}
