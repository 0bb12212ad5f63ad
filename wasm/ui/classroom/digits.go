package classroom

import (
	"slices"
	"strconv"
	"time"

	"softmaxdemo/core/class"
	"softmaxdemo/core/digit"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/predict"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The class's digits on the projector: their actions.
var (
	removeDrawing = kit.Action[uint32]{Name: "class/remove-drawing"}
	openCell      = kit.Action[[2]int]{Name: "class/open-cell"} // true, predicted; {-1, -1} for all
	trainOnThem   = kit.Signal{Name: "class/train-on"}
	uploadDigits  = kit.Action[[]byte]{Name: "class/upload-digits"}
)

// TrainOn is what the room asks of the page: make the class's digits my
// digits, to train on (the instrument's my digits, at most
// modelfile.MaxDigits of them, the latest).
var TrainOn = kit.Action[protocol.Samples]{Name: "class/train-on-digits"}

// reading is the class's digits as a model reads them.
type reading struct {
	model     *softmax.Model[float32]
	deskew    bool
	version   int
	predicted []int // by drawing, in the order of State.Digits
	confusion [10][10]int
	right     int
	at        time.Time // when it was read
}

// readEvery is at most how often the drawings are read again while the
// model changes (a run training): reading 5,000 of them takes tens of
// milliseconds, too long for every frame of a run.
const readEvery = time.Second

// read returns the drawings as m reads them (straightened first if
// deskew), computed once per model and list, and at most once a
// readEvery while only the model changes: the page renders again once
// the reading may be late.
func (o *owner) read(m *softmax.Model[float32], deskew bool) *reading {
	r := &o.reading
	same := r.deskew == deskew && r.version == o.st.DigitsVersion && r.predicted != nil
	if same && r.model == m {
		return r
	}
	if same && r.model != nil && m != nil && time.Since(r.at) < readEvery {
		if !o.rereading {
			o.rereading = true
			o.after(readEvery, func(app.Context) { o.rereading = false })
		}
		return r
	}
	*r = reading{model: m, deskew: deskew, version: o.st.DigitsVersion, predicted: make([]int, len(o.st.Digits)), at: time.Now()}
	cls := predict.NewClassifier()
	var straight [digit.Pixels]uint8
	for i, d := range o.st.Digits {
		cls.Image = d.Pixels
		if deskew {
			digit.Deskew(&straight, &d.Pixels)
			cls.Image = straight
		}
		p := -1
		if pr := cls.Predict(true, m); pr.Ready {
			p = pr.Digit
			r.confusion[d.Label][p]++
			if p == int(d.Label) {
				r.right++
			}
		}
		r.predicted[i] = p
	}
	return r
}

// Digits is #class-digits, on the projector: the class's drawings as
// m (the model the projector shows, reading straightened digits if
// deskew) reads them: how many, the accuracy, the confusion matrix whose
// cells open their drawings, each drawing with what the model read and a
// button to remove it; training on them; their downloads. testAccuracy
// is the accuracy on MNIST's test set shown now. Nil unless the page
// presents.
func (r *Room) Digits(l i18n.Lang, m *softmax.Model[float32], deskew bool, testAccuracy float64) app.UI {
	if r == nil || r.o.st.Role != class.RolePresenter {
		return nil
	}
	o := r.o
	st := o.st
	rd := o.read(m, deskew)
	n := len(st.Digits)
	acc := -1.0
	if n > 0 && m != nil {
		acc = float64(rd.right) / float64(n)
	}
	if o.before != nil && o.before.test < 0 {
		o.before.test = testAccuracy
	}
	cell := st.Cell
	shown := make([]int, 0, n)
	for i := n - 1; i >= 0 && len(shown) < maxShown; i-- {
		if cell[0] < 0 || int(st.Digits[i].Label) == cell[0] && rd.predicted[i] == cell[1] {
			shown = append(shown, i)
		}
	}
	accText := "—"
	if acc >= 0 {
		accText = pct(acc)
	}
	return app.Section().ID("class-digits").Class("panel class-digits").Attr("data-count", n).Attr("data-accuracy", strconv.FormatFloat(acc, 'g', -1, 64)).
		Aria("label", l.T("class.digitsTitle")).Body(
		app.H2().Text(l.T("class.digitsTitle")),
		app.P().Attr("role", "status").Text(l.T("class.digitsSay", n, accText)),
		app.If(st.Fault != "", func() app.UI {
			return app.P().ID("class-fault").Class("class-refused").Attr("role", "alert").Text(l.T("class.fault", st.Fault))
		}),
		app.If(o.before != nil, func() app.UI {
			b := o.before
			return app.P().ID("class-trained").Text(l.T("class.trainedSay", pct(b.test), pct(testAccuracy), pct(b.class), accText))
		}),
		app.Div().Class("class-tools").Body(
			app.Button().ID("class-train").Text(l.T("class.trainOn")).Disabled(n == 0).
				OnClick(func(ctx app.Context, e app.Event) { trainOnThem.Post(ctx) }),
			app.A().ID("class-download-npz").Href(o.path("/class/digits.npz", nil)).Attr("download", "class-digits.npz").Text(l.T("class.downloadNpz")),
			app.A().ID("class-download-idx").Href(o.path("/class/digits-images-idx3-ubyte", nil)).Attr("download", "class-digits-images-idx3-ubyte").Text(l.T("class.downloadIdx")),
			app.A().ID("class-download-labels").Href(o.path("/class/digits-labels-idx1-ubyte", nil)).Attr("download", "class-digits-labels-idx1-ubyte").Text(l.T("class.downloadLabels")),
			app.Label().For("class-upload").Text(l.T("class.upload")),
			app.Input().ID("class-upload").Type("file").Accept(".npz").OnChange(o.onUpload),
		),
		app.Table().ID("class-confusion").Class("confusion small").Body(
			app.Caption().Text(l.T("class.confusion")),
			app.Range(make([]struct{}, 10)).Slice(func(t int) app.UI {
				return app.Tr().Body(
					app.Th().Attr("scope", "row").Text(t),
					app.Range(make([]struct{}, 10)).Slice(func(p int) app.UI {
						c := rd.confusion[t][p]
						cls := map[bool]string{true: "diag", false: ""}[t == p]
						if c == 0 {
							return app.Td().Class(cls).Attr("data-true", t).Attr("data-predicted", p).Attr("data-count", 0)
						}
						return app.Td().Class(cls).Attr("data-true", t).Attr("data-predicted", p).Attr("data-count", c).Body(
							app.Button().Aria("pressed", strconv.FormatBool(cell == [2]int{t, p})).Text(c).
								Title(l.T("class.cell", c, t, p)).
								OnClick(func(ctx app.Context, e app.Event) { openCell.Post(ctx, [2]int{t, p}) }, app.EventScope(t, p)),
						)
					}),
				)
			}),
		),
		app.If(cell[0] >= 0, func() app.UI {
			return app.Button().ID("class-all").Text(l.T("class.all")).OnClick(func(ctx app.Context, e app.Event) { openCell.Post(ctx, [2]int{-1, -1}) })
		}),
		app.Ul().ID("class-drawings").Class("class-drawings").Attr("data-cell", map[bool]string{true: "", false: strconv.Itoa(cell[0]) + "," + strconv.Itoa(cell[1])}[cell[0] < 0]).Body(
			app.Range(shown).Slice(func(k int) app.UI {
				i := shown[k]
				d := st.Digits[i]
				num := strconv.FormatUint(uint64(d.N), 10)
				return app.Li().Attr("data-n", d.N).Attr("data-label", d.Label).Attr("data-predicted", rd.predicted[i]).Body(
					&kit.GreyCanvas{IID: "class-drawing-" + num, IPixels: d.Pixels[:], IW: digit.Side, IH: digit.Side,
						ILabel: l.T("class.drawing", d.Label, rd.predicted[i])},
					app.Span().Text(l.T("class.drawingSay", d.Label, rd.predicted[i])),
					app.Button().Attr("data-remove", d.N).Text(l.T("class.remove")).Aria("label", l.T("class.removeWhy", num)).
						OnClick(func(ctx app.Context, e app.Event) { removeDrawing.Post(ctx, d.N) }, app.EventScope(d.N)),
				)
			}),
		),
	)
}

// maxShown is how many drawings #class-drawings shows at once, the
// latest first.
const maxShown = 60

// pct is a fraction as a percentage with one decimal.
func pct(v float64) string {
	if v < 0 {
		return "—"
	}
	return strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
}

// before is what the class's digits were read as when the teacher
// trained on them: MNIST's test accuracy (−1 until the page says it) and
// the class's.
type before struct{ test, class float64 }

// samples returns the class's digits as my digits: the latest
// modelfile.MaxDigits of them.
func (s *State) samples(most int) protocol.Samples {
	ds := s.Digits[max(0, len(s.Digits)-most):]
	out := protocol.Samples{Labels: make([]uint8, len(ds)), Pixels: make([]byte, 0, len(ds)*class.Pixels)}
	for i, d := range ds {
		out.Labels[i] = d.Label
		out.Pixels = append(out.Pixels, d.Pixels[:]...)
	}
	return out
}

// addDigits adds drawings to the list, in their numbers' order, once
// each.
func (s *State) addDigits(ds ...*class.Digit) {
	for _, d := range ds {
		i, found := slices.BinarySearchFunc(s.Digits, d.N, func(e *class.Digit, n uint32) int { return int(int64(e.N) - int64(n)) })
		if found {
			continue
		}
		s.Digits = slices.Insert(s.Digits, i, d)
	}
	s.DigitsVersion++
}

// removeDigit removes drawing n from the list.
func (s *State) removeDigit(n uint32) {
	s.Digits = slices.DeleteFunc(s.Digits, func(d *class.Digit) bool { return d.N == n })
	s.DigitsVersion++
}
