package panels

import (
	"fmt"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/kit/kittest"
	"softmaxdemo/wasm/ui/predict"

	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// testImage returns 784 grey levels with a stroke and some noise.
func testImage(r *rand.Rand) []byte {
	px := make([]byte, dataset.Pixels)
	for row := 5; row < 23; row++ {
		px[row*28+10+r.IntN(6)] = byte(100 + r.IntN(156))
	}
	for range 30 {
		px[r.IntN(dataset.Pixels)] = byte(1 + r.IntN(255))
	}
	return px
}

// attrOf returns the value of the first attribute name in html.
func attrOf(t *testing.T, html, name string) string {
	t.Helper()
	m := regexp.MustCompile(` ` + regexp.QuoteMeta(name) + `="([^"]*)"`).FindStringSubmatch(html)
	if m == nil {
		t.Fatalf("no %s in %.300s", name, html)
	}
	return m[1]
}

// TestInspectorShowsCoresNumbers: the inspector shows, to the bit, the
// numbers train.Inspect computes natively for the same image, model, α
// and λ, and says where the image came from.
func TestInspectorShowsCoresNumbers(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	m := softmax.New[float32](dataset.Pixels)
	m.InitNormal(r, 0.01)
	e := &predict.Example{Source: predict.SourceGallery, Index: 3, Label: 7, Pixels: testImage(r)}
	for _, l := range i18n.Langs {
		html := kittest.Render(t, &Inspector{ILang: l, IModel: m, IExample: e, IRate: 0.5, IL2: 1e-4})
		set := dataset.NewSet(1, 200)
		set.Append(7, e.Pixels)
		index, value := softmax.FromSet[float32](set).Example(0)
		want, err := train.Inspect(m, index, value, 7, 0.5, softmax.Objective{Lambda: 1e-4})
		if err != nil {
			t.Fatal(err)
		}
		if got := attrOf(t, html, "data-state"); got != "filled" {
			t.Fatalf("%s: state %q", l, got)
		}
		checks := []struct{ name, want string }{
			{"data-p", kit.ExactList(want.P[:])},
			{"data-p-after", kit.ExactList(want.PAfter[:])},
			{"data-loss", strconv.FormatFloat(want.Loss, 'g', -1, 64)},
			{"data-loss-after", strconv.FormatFloat(want.LossAfter, 'g', -1, 64)},
			{"data-label", "7"},
			{"data-after", kit.Checksum(want.After)},
		}
		for _, c := range checks {
			if got := attrOf(t, html, c.name); got != c.want {
				t.Errorf("%s: %s = %q, want %q", l, c.name, got, c.want)
			}
		}
		for k := range softmax.K {
			for _, s := range []string{fmtLogit(want.Z[k]), fmtLogit(want.Shifted[k]), kit.Prob(want.P[k]), kit.Prob(want.Diff[k])} {
				if !strings.Contains(html, ">"+s+"<") {
					t.Errorf("%s: class %d: %q is not shown", l, k, s)
				}
			}
		}
		if !strings.Contains(html, l.T("inspect.from.gallery")) || !strings.Contains(html, i18n.Loss(want.Loss)) {
			t.Errorf("%s: the source or the loss is missing", l)
		}
	}
	t.Run("without a model it says to train first", func(t *testing.T) {
		html := kittest.Render(t, &Inspector{ILang: i18n.EN, IExample: e, IRate: 0.5})
		if attrOf(t, html, "data-state") != "noModel" || !strings.Contains(html, "Train, or take one step") {
			t.Error(html)
		}
	})
}

// TestGalleryClickFindsTheSample: a point of the gallery's canvas maps to
// the sample drawn there.
func TestGalleryClickFindsTheSample(t *testing.T) {
	labels := []uint8{0, 0, 1, 2, 2, 2, 9}
	lay := layoutGallery(labels)
	for i := range labels {
		fx := (float64(lay.Col[i]*galleryCellW) + 10) / float64(lay.Width())
		fy := (float64(lay.Row[i]*galleryCellH) + 10) / float64(lay.Height())
		if got := lay.at(fx, fy); got != i {
			t.Errorf("sample %d is found as %d", i, got)
		}
	}
	if got := lay.at(0.99, 0.99); got != -1 {
		t.Errorf("an empty cell gives sample %d", got)
	}
}

// TestConfusionCellsOpenTheirImages: each of the 100 cells carries its
// true and predicted digit (the counts are written into them in the
// browser: TestConfusionCellsShowTheirCounts); the list of a cell's images
// has one child per image carrying its digits and probability, and says
// when it was capped.
func TestConfusionCellsOpenTheirImages(t *testing.T) {
	ev := &protocol.Evaluated{Epoch: 3}
	ev.Confusion[4][9] = 70
	ev.Confusion[4][4] = 180
	ex := &protocol.Examples{Run: 1, True: 4, Predicted: 9, Count: 70, Index: []int{5, 8}, Pixels: make([]byte, 2*784), Probs: make([]float32, 20)}
	ex.Probs[9], ex.Probs[19] = 0.75, 0.5
	html := kittest.Render(t, &Confusion{ILang: i18n.EN, IEval: ev, IExamples: ex})
	cells := regexp.MustCompile(`<td [^>]*>`).FindAllString(html, -1)
	if len(cells) != 100 {
		t.Fatalf("%d cells: %s", len(cells), html)
	}
	for i, c := range cells {
		y, p := i/10, i%10
		want := []string{fmt.Sprintf(`data-true="%d"`, y), fmt.Sprintf(`data-predicted="%d"`, p), map[bool]string{false: `class="cell"`, true: `class="cell diag"`}[y == p]}
		for _, a := range want {
			if !strings.Contains(c, a) {
				t.Errorf("cell %d lacks %s: %s", i, a, c)
			}
		}
	}
	list := html[strings.Index(html, `id="confusion-examples"`):]
	if n := strings.Count(list, `class="cell-example"`); n != 2 {
		t.Errorf("%d images listed, want 2", n)
	}
	buttons := strings.Split(list, "<button")[1:]
	for k, p := range []string{"0.75", "0.5"} {
		if k >= len(buttons) {
			break
		}
		for _, a := range []string{`data-true="4"`, `data-predicted="9"`, `data-p="` + p + `"`} {
			if !strings.Contains(buttons[k], a) {
				t.Errorf("image %d lacks %s: %s", k, a, buttons[k])
			}
		}
	}
	if !strings.Contains(html, "the first 2 are shown") {
		t.Error("the cap is not said")
	}
}

// TestStoreTakesTheInspectorsEvents: a picked training image becomes the
// inspected one; a cell's images from an older run are dropped.
func TestStoreTakesTheInspectorsEvents(t *testing.T) {
	s := store.New()
	s.Run, s.Applied = 2, 3
	s.Apply(protocol.Picked{Index: 12, Label: 5, Pixels: make([]byte, 784)})
	if s.Inspect == nil || s.Inspect.Source != predict.SourceTrain || s.Inspect.Index != 12 || s.Inspect.Label != 5 || s.Applied != 0 {
		t.Errorf("after Picked: %+v, applied %d", s.Inspect, s.Applied)
	}
	s.Apply(protocol.Examples{Run: 1, True: 3, Predicted: 5, Count: 4})
	if s.CellExamples != nil {
		t.Error("a cell from run 1 is shown in run 2")
	}
	s.Apply(protocol.Examples{Run: 2, True: 3, Predicted: 5, Count: 4})
	if s.CellExamples == nil || s.CellExamples.Count != 4 {
		t.Error("the cell's images are not shown")
	}
}
