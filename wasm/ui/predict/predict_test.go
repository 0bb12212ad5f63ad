package predict

import (
	"sync"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

var (
	modelOnce sync.Once
	model     *softmax.Model[float32]
)

// trainedModel trains the page's default configuration on the committed
// pack, natively, once per test binary.
func trainedModel(t *testing.T) *softmax.Model[float32] {
	t.Helper()
	modelOnce.Do(func() {
		p := datasettest.Default(t)
		tr, err := train.New(softmax.FromSet[float32](p.Train), dataset.Pixels, train.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		for tr.Stopped() == train.Running {
			tr.Step()
		}
		model = tr.Model()
	})
	if model == nil {
		t.Fatal("no model")
	}
	return model
}

// stroke paints a thick line from (x0, y0) to (x1, y1) into an RGBA canvas
// with ink in the alpha channel, as the draw pad does.
func stroke(rgba []byte, w int, x0, y0, x1, y1, width float64) {
	h := len(rgba) / 4 / w
	steps := 200
	for s := 0; s <= steps; s++ {
		t := float64(s) / float64(steps)
		cx, cy := x0+(x1-x0)*t, y0+(y1-y0)*t
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
				if dx*dx+dy*dy <= width*width/4 {
					rgba[4*(y*w+x)+3] = 255
				}
			}
		}
	}
}

func TestClassifyDrawnDigits(t *testing.T) {
	m := trainedModel(t)
	const w = 280
	tests := []struct {
		name string
		draw func(rgba []byte)
		want int
	}{
		{"a vertical stroke is a 1", func(rgba []byte) { stroke(rgba, w, 140, 40, 140, 240, 20) }, 1},
		{"a slanted stroke is a 1", func(rgba []byte) { stroke(rgba, w, 160, 40, 120, 240, 20) }, 1},
		{"a closed loop is a 0", func(rgba []byte) {
			for _, seg := range [][4]float64{{140, 40, 200, 90}, {200, 90, 200, 190}, {200, 190, 140, 240}, {140, 240, 80, 190}, {80, 190, 80, 90}, {80, 90, 140, 40}} {
				stroke(rgba, w, seg[0], seg[1], seg[2], seg[3], 20)
			}
		}, 0},
		{"a seven is a 7", func(rgba []byte) {
			stroke(rgba, w, 70, 50, 210, 50, 20)
			stroke(rgba, w, 210, 50, 120, 240, 20)
		}, 7},
	}
	c := NewClassifier()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rgba := make([]byte, 4*w*w)
			tt.draw(rgba)
			p, err := c.Classify(rgba, w, w, m)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Ink || !p.Ready || p.Digit != tt.want {
				t.Errorf("prediction %+v, want digit %d", p, tt.want)
			}
			sum := float32(0)
			for _, v := range p.Probs {
				sum += v
			}
			if sum < 0.999 || sum > 1.001 {
				t.Errorf("probabilities sum to %v", sum)
			}
		})
	}
}

func TestClassifyWithoutInkOrModel(t *testing.T) {
	c := NewClassifier()
	p, err := c.Classify(make([]byte, 4*280*280), 280, 280, trainedModel(t))
	if err != nil || p.Ink {
		t.Errorf("an empty canvas: %+v, %v", p, err)
	}
	rgba := make([]byte, 4*280*280)
	stroke(rgba, 280, 140, 40, 140, 240, 20)
	if p, err := c.Classify(rgba, 280, 280, nil); err != nil || !p.Ink || p.Ready {
		t.Errorf("no model yet: %+v, %v", p, err)
	}
	if _, err := c.Classify(rgba[:100], 280, 280, nil); err == nil {
		t.Error("a short buffer was accepted")
	}
}
