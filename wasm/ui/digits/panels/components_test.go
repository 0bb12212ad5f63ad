package panels

import (
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/digits/store"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit/kittest"
	"softmaxdemo/wasm/ui/params"
	"softmaxdemo/wasm/ui/predict"

	"math"
	"strings"
	"testing"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func TestTrainPanelShowsTheReasonNextToTheField(t *testing.T) {
	f := params.Defaults()
	f.LR, f.Batch = "abc", "20000"
	p := NewTrainPanel().Lang(i18n.EN).Status(store.StatusReady).TrainN(10000).Settings(params.Check(f, 10000), 0)
	html := kittest.Render(t, p)
	for _, want := range []string{
		`&#34;abc&#34; is not a number`,
		`the batch size must be from 1 to 10000 (got 20000)`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the panel does not show %q", want)
		}
	}
	// go-app writes a true boolean attribute bare, a false one as "false".
	if n := strings.Count(html, `aria-invalid="false"`); n != 7 {
		t.Errorf("%d of 9 fields marked valid, want 7", n)
	}
	if err := app.Match(app.Div().ID("l2-error").Class("field-error").Aria("live", "polite").Text(""), p, 0, 3, 6, 2); err != nil {
		// The valid λ field has an empty reason.
		t.Errorf("λ's reason: %v", err)
	}
}

func TestTrainPanelButtonsFollowTheState(t *testing.T) {
	tests := []struct {
		state              string
		trainN             int
		train, pause, step bool // enabled
	}{
		{store.StatusLoading, 0, false, false, false},
		{store.StatusReady, 10000, true, false, true},
		{store.StatusTraining, 10000, false, true, false},
		{store.StatusPaused, 10000, true, false, true},
		{store.StatusDone, 10000, true, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.state, func(t *testing.T) {
			html := kittest.Render(t, NewTrainPanel().Status(tt.state).TrainN(tt.trainN))
			for id, enabled := range map[string]bool{"train": tt.train, "pause": tt.pause, "step": tt.step} {
				i := strings.Index(html, `id="`+id+`"`)
				tag := html[strings.LastIndex(html[:i], "<"):]
				tag = tag[:strings.Index(tag, ">")]
				disabled := strings.Contains(tag, "disabled") && !strings.Contains(tag, `disabled="false"`)
				if disabled == enabled {
					t.Errorf("#%s: %s", id, tag)
				}
			}
		})
	}
}

func TestStatusBarCarriesRawValues(t *testing.T) {
	html := kittest.Render(t, NewStatusBar().With(i18n.EN, store.StatusTraining, i18n.Text("status.training"), 2, 5, 0.4, 523000, 0.917))
	for _, want := range []string{
		`data-state="training"`, `data-value="0.9170"`, `91.7%`, `523k images/s`, `2 of 5`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the status bar lacks %q", want)
		}
	}
	html = kittest.Render(t, NewStatusBar().With(i18n.EN, store.StatusReady, i18n.Text("status.ready", "1", "2"), 0, 0, 0, 0, math.NaN()))
	if strings.Contains(html, `data-value="NaN"`) || strings.Contains(html, "NaN%") {
		t.Errorf("before the first evaluation the accuracy shows: %s", html)
	}
}

func TestPredictionBars(t *testing.T) {
	p := predict.Prediction{Ink: true, Ready: true, Digit: 7}
	p.Probs[7], p.Probs[1] = 0.8, 0.2
	html := kittest.Render(t, newPredictionBars().Prediction(i18n.EN, p))
	if !strings.Contains(html, `data-digit="7"`) || strings.Count(html, "data-p=") != 10 {
		t.Errorf("bars: %s", html)
	}
	if !strings.Contains(html, `data-p="0.8000"`) || !strings.Contains(html, "80% sure") {
		t.Errorf("the top bar is not 0.8: %s", html)
	}
	html = kittest.Render(t, newPredictionBars().Prediction(i18n.EN, predict.Prediction{Ink: true}))
	if !strings.Contains(html, "Train the model first") {
		t.Error("drawing before training does not say to train first")
	}
}

func TestConfusionTable(t *testing.T) {
	e := &protocol.Evaluated{Epoch: 3}
	e.Confusion[4][9] = 12
	e.Confusion[4][4] = 180
	html := kittest.Render(t, NewConfusion().Eval(i18n.EN, e))
	if !strings.Contains(html, "After epoch 3") { // the counts: TestConfusionCellsShowTheirCounts
		t.Errorf("table: %s", html)
	}
	if n := strings.Count(html, "<td"); n != softmax.K*softmax.K {
		t.Errorf("%d cells, want 100", n)
	}
}

func TestLossPlotDescribesWhatItDraws(t *testing.T) {
	losses := []protocol.Point{{Step: 1, Loss: 2.3}, {Step: 50, Loss: 0.7}, {Step: 100, Loss: 0.41}}
	acc := []chart.AccPoint{{Epoch: 1, Step: 100, Acc: 0.905}}
	html := kittest.Render(t, &LossPlot{ILang: i18n.EN, ILosses: losses, IAcc: acc, IVersion: 1})
	for _, want := range []string{`id="loss-chart"`, `data-points="3"`, `data-epochs="1"`,
		"Batch loss 0.410 at step 100. Test accuracy 90.5% after epoch 1."} {
		if !strings.Contains(html, want) {
			t.Errorf("the chart lacks %q:\n%s", want, html)
		}
	}
	if html := kittest.Render(t, &LossPlot{ILang: i18n.EN}); !strings.Contains(html, "No training yet.") {
		t.Error("an empty chart does not say so")
	}
}

// TestKernelTextSaysWhySIMDWasRefused: a worker that refused its SIMD
// kernel says so, with the reason, in both languages; one that never had
// it says only that it trains with Go.
func TestKernelTextSaysWhySIMDWasRefused(t *testing.T) {
	for _, l := range []i18n.Lang{i18n.EN, i18n.ZH} {
		why := "gradient 12 is 0.5, the Go code's 0.25"
		if got := kernelText(l, "go", why); !strings.Contains(got, why) {
			t.Errorf("%v: refused kernel reads %q, without the reason", l, got)
		}
		if got, plain := kernelText(l, "go", ""), l.T("kernel.go"); got != plain {
			t.Errorf("%v: Go kernel reads %q, want %q", l, got, plain)
		}
		if got := kernelText(l, "wasm-simd", ""); got != l.T("kernel.simd") {
			t.Errorf("%v: SIMD kernel reads %q", l, got)
		}
	}
}

func TestRatesAreTheSameInBothLanguages(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{fmtRate(523000), "523k"}, {fmtRate(1.25e6), "1.2M"}, {fmtRate(950), "950"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// TestAlphaNoteSaysWhatAClassWillSee: the note under α says where α
// stands against 2/λ_max, in both languages: below it, a little above
// (the loss usually still falls), far above (the loss jumps), and for
// minibatch SGD that the figure is a guide; not a number, no case.
func TestAlphaNoteSaysWhatAClassWillSee(t *testing.T) {
	c := &protocol.CurvatureIs{LambdaMax: 4.2, AlphaMax: 2 / 4.2}
	for _, tc := range []struct {
		lr           float64
		batch        int
		method       string
		regime, says string
	}{
		{0.4, 10000, "gd", alphaBelow, "is below it"},
		{0.5, 10000, "gd", alphaAbove, "usually still falls"},
		{0.5, 100, "sgd", alphaAbove, "for SGD the figure is a guide"},
		{0.95, 10000, "gd", alphaAbove, "usually still falls"},
		{0.96, 10000, "gd", alphaFar, "is 2.02× it"},
		{math.NaN(), 100, "sgd", alphaNone, "starts to overshoot"},
	} {
		regime, text := alphaNote(i18n.EN, c, tc.lr, tc.batch, 10000, tc.method)
		if regime != tc.regime || !strings.Contains(text, tc.says) {
			t.Errorf("α = %v, B = %d, %s: %q, %q; want %q saying %q", tc.lr, tc.batch, tc.method, regime, text, tc.regime, tc.says)
		}
		if _, zh := alphaNote(i18n.ZH, c, tc.lr, tc.batch, 10000, tc.method); zh == text || strings.Contains(zh, "%!") {
			t.Errorf("α = %v: the Chinese note is %q", tc.lr, zh)
		}
	}
	if _, text := alphaNote(i18n.EN, c, 0.5, 10000, 10000, "sgd"); strings.Contains(text, "minibatch") {
		t.Errorf("SGD with B = m is full-batch descent, and the note says %q", text)
	}
}
