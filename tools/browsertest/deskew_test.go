package browsertest

import (
	"math"
	"testing"
	"time"
)

// slant shears strokes by deg degrees about the pad's middle row, the top
// leaning right, as slanted handwriting does.
func slant(deg float64, strokes [][][2]float64) [][][2]float64 {
	k := math.Tan(deg * math.Pi / 180)
	out := make([][][2]float64, len(strokes))
	for i, s := range strokes {
		for _, p := range s {
			out[i] = append(out[i], [2]float64{p[0] + k*(140-p[1]), p[1]})
		}
	}
	return out
}

// More digits to draw, in pad pixels (280×280), upright.
var (
	strokeTwo   = [][][2]float64{path([2]float64{80, 80}, [2]float64{110, 45}, [2]float64{170, 45}, [2]float64{195, 80}, [2]float64{180, 125}, [2]float64{80, 240}, [2]float64{210, 240})}
	strokeThree = [][][2]float64{path([2]float64{80, 55}, [2]float64{180, 50}, [2]float64{200, 90}, [2]float64{140, 135}, [2]float64{200, 175}, [2]float64{190, 230}, [2]float64{80, 240})}
	strokeFive  = [][][2]float64{path([2]float64{195, 45}, [2]float64{95, 45}, [2]float64{85, 135}, [2]float64{170, 125}, [2]float64{200, 180}, [2]float64{170, 235}, [2]float64{80, 235})}
	strokeSix   = [][][2]float64{path([2]float64{180, 45}, [2]float64{110, 100}, [2]float64{85, 180}, [2]float64{110, 235}, [2]float64{170, 235}, [2]float64{195, 190}, [2]float64{165, 145}, [2]float64{95, 165})}
	strokeNine  = [][][2]float64{path([2]float64{190, 95}, [2]float64{160, 45}, [2]float64{105, 50}, [2]float64{85, 100}, [2]float64{120, 140}, [2]float64{190, 95}), path([2]float64{190, 95}, [2]float64{180, 245})}
)

// TestSlantedDigitsAreStraightened: digits slanted by 15 to 25 degrees,
// drawn with the mouse, are read correctly by a model trained with
// "straighten slanted digits" on (the default); the preview shows them
// upright. The same strokes read by a model trained on raw pixels are
// logged, for docs/BENCHMARKS.md.
func TestSlantedDigitsAreStraightened(t *testing.T) {
	ctx := openPage(t)
	if on, _ := eval[bool](ctx, `document.getElementById("deskew").checked`); !on {
		t.Fatal("straightening is not on by default")
	}
	tests := []struct {
		name    string
		strokes [][][2]float64
		want    string
	}{
		{"a one slanted 25°", slant(25, strokeOne), "1"},
		{"a seven slanted 20°", slant(20, strokeSeven), "7"},
		{"a four slanted 15°", slant(15, strokeFour), "4"},
		{"a zero slanted 20°", slant(20, strokeZero), "0"},
		{"a one slanted 15°", slant(15, strokeOne), "1"},
		{"a seven slanted 25°", slant(25, strokeSeven), "7"},
		{"a two slanted 25°", slant(25, strokeTwo), "2"},
		{"a three slanted 20°", slant(20, strokeThree), "3"},
		{"a five slanted 25°", slant(25, strokeFive), "5"},
		{"a six slanted 20°", slant(20, strokeSix), "6"},
		{"a nine slanted 25°", slant(25, strokeNine), "9"},
		{"a four slanted 25°", slant(25, strokeFour), "4"},
	}
	trainDefault(t, ctx)
	for _, tt := range tests {
		t.Run(tt.name+", straightened", func(t *testing.T) {
			clearPad(t, ctx)
			drawWithMouse(t, ctx, tt.strokes...)
			checkDrawn(t, ctx, tt.name, tt.want)
		})
	}
	// The raw model, for comparison: logged, not asserted.
	click(t, ctx, "deskew")
	trainDefault(t, ctx)
	if on, _ := eval[bool](ctx, `document.getElementById("deskew").checked`); on {
		t.Fatal("the checkbox did not turn straightening off")
	}
	misread := 0
	for _, tt := range tests {
		clearPad(t, ctx)
		drawWithMouse(t, ctx, tt.strokes...)
		var got string
		eventually(3*time.Second, func() bool { got, _ = prediction(t, ctx); return got == tt.want })
		if got != tt.want {
			misread++
			t.Logf("raw pixels: %s read as %s", tt.name, got)
		}
	}
	t.Logf("the raw model misreads %d of %d slanted digits; straightened, none", misread, len(tests))
}
