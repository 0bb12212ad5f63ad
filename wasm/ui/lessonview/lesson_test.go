package lessonview

import (
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit/kittest"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/params"
	"softmaxdemo/wasm/ui/predict"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// instrument returns what a trained instrument would show: a random
// model, twenty test digits of random ink, and an inspected image.
func instrument() Instrument {
	r := rand.New(rand.NewPCG(1, 2))
	m := softmax.New[float32](784)
	for i := range m.W {
		m.W[i] = float32(r.NormFloat64()) * 0.05
	}
	var s protocol.Samples
	for i := range 20 {
		s.Labels = append(s.Labels, uint8(i%10))
		img := make([]byte, 784)
		for j := range img {
			if r.IntN(5) == 0 {
				img[j] = uint8(r.IntN(256))
			}
		}
		s.Pixels = append(s.Pixels, img...)
	}
	return Instrument{TrainN: 10000, TestN: 2000, Settings: params.Check(params.Defaults(), 10000), Model: m, Samples: s, Loss: math.NaN(),
		ContinueL2: 0, InspectRate: 0.01, Status: i18n.Text("status.done"),
		Inspect: &predict.Example{Source: predict.SourceTrain, Label: 3, Pixels: s.Pixels[3*784 : 4*784]}}
}

// at returns the lesson at the chapter named id, showing in.
func at(t *testing.T, id string, in Instrument) *Lesson {
	t.Helper()
	n, ok := lesson.Find(id)
	if !ok {
		t.Fatalf("no chapter %q", id)
	}
	return &Lesson{ILang: i18n.EN, IChapter: n, IInstrument: in}
}

// TestAnswersRunTheTablesDemonstrations: a choice is taken once, and
// returns its chapter's demonstration from the table; the update question
// keeps p_y before and after the inspector's step, and its answer says
// whether p_y rose.
func TestAnswersRunTheTablesDemonstrations(t *testing.T) {
	v := at(t, "descent", instrument())
	d, ok := v.answer("descent", 1)
	if !ok || d.Run == nil || d.Plane != lesson.PlaneAlphaAbove {
		t.Fatalf("the descent question's demonstration: %+v, %v", d, ok)
	}
	if f := d.Run(10000); f.Batch != "10000" || f.LR != "5" || f.Pace != "10" {
		t.Errorf("the descent demonstration runs %+v", f)
	}
	if _, again := v.answer("descent", 2); again || v.answers["descent"] != 1 {
		t.Error("a second choice was taken")
	}
	if _, ok := v.answer("model", 0); ok {
		t.Error("a chapter without a question took an answer")
	}

	u := at(t, "update", instrument())
	d, ok = u.answer("update", 0)
	if !ok || !d.Step {
		t.Fatalf("the update question does not make the step: %+v", d)
	}
	live := u.live()
	if u.stepped[0] != live.PBefore || u.stepped[1] != live.PAfter || math.IsNaN(live.PBefore) {
		t.Errorf("p_y kept %v, the inspector says %v → %v", u.stepped, live.PBefore, live.PAfter)
	}
	html := kittest.Render(t, u)
	right := map[bool]string{true: "0", false: "1"}[live.PAfter > live.PBefore]
	if tag := regexp.MustCompile(`<[^>]* data-predict="update"[^>]*>`).FindString(html); !strings.Contains(tag, `data-state="answered"`) || !strings.Contains(tag, `data-right="`+right+`"`) {
		t.Errorf("the update question is not answered, or its right choice is not %s", right)
	}

	none := instrument()
	none.Inspect = nil
	if d, _ := at(t, "update", none).answer("update", 0); d.Step {
		t.Error("a step was asked with no image to step on")
	}
}

// TestPsiChangesNoProbabilityOfTheDigitShown: ψ added to the model
// changes the digit's probabilities by rounding only, ‖θ‖² by what the
// formula says, and undoing it gives back the model before, bit for bit.
func TestPsiChangesNoProbabilityOfTheDigitShown(t *testing.T) {
	in := instrument()
	v := at(t, "redundancy", in)
	after := v.addPsi()
	if after == nil || v.psi == nil {
		t.Fatal("no ψ was added")
	}
	if e := v.psi.effect; e.MaxDP > lesson.MaxDPRounding || e.DNorm == 0 {
		t.Errorf("ψ changed p by %g and ‖θ‖² by %g", e.MaxDP, e.DNorm)
	}
	html := kittest.Render(t, v)
	if tag := regexp.MustCompile(`<[^>]* id="psi-result"[^>]*>`).FindString(html); !strings.Contains(tag, `data-state="added"`) {
		t.Error("#psi-result does not say ψ was added")
	}
	before := v.undoPsi()
	if before == nil || kitSum(before) != kitSum(in.Model) || v.undoPsi() != nil {
		t.Error("undo does not give back the model before ψ, once")
	}
	pinned := in
	pinned.Pinned = true
	if at(t, "redundancy", pinned).addPsi() != nil {
		t.Error("ψ was added with θ_0 pinned")
	}
}

func kitSum(m *softmax.Model[float32]) float64 {
	s := 0.0
	for _, w := range m.W {
		s += float64(w)
	}
	return s
}

// TestChaptersShowWhatTheirRowSays: the run bar, the straightening
// choice, the page's panels (slots) and the question come from each
// chapter's row.
func TestChaptersShowWhatTheirRowSays(t *testing.T) {
	for n, c := range lesson.Chapters {
		v := &Lesson{ILang: i18n.ZH, IChapter: n + 1, IInstrument: instrument(), ISlots: map[lesson.Panel]app.UI{}}
		for _, k := range append(append([]lesson.Panel(nil), c.Panels...), c.Under...) {
			v.ISlots[k] = app.Div().ID("slot-" + string(k))
		}
		ids := kittest.IDs(kittest.Render(t, v))
		if bar := ids["lesson-train"] == 1; bar != (c.Bar != lesson.NoBar) {
			t.Errorf("%s: the run bar is shown: %v", c.ID, bar)
		}
		if deskew := ids["lesson-deskew"] == 1; deskew != (c.Bar == lesson.DeskewBar) {
			t.Errorf("%s: the straightening choice is shown: %v", c.ID, deskew)
		}
		for _, k := range append(append([]lesson.Panel(nil), c.Panels...), c.Under...) {
			own := k == lesson.Digit || k == lesson.Example || k == lesson.Descent || k == lesson.PsiShift
			if got := ids["slot-"+string(k)]; got != map[bool]int{true: 0, false: 1}[own] {
				t.Errorf("%s: the page's panel %s is there %d times", c.ID, k, got)
			}
		}
		if c.Question != nil && ids["predict-q-"+c.ID] != 1 {
			t.Errorf("%s: no question", c.ID)
		}
	}
}
