package browsertest

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/mathml"
)

// TestHandChapterPitsYourLineAgainstDescent: the hand chapter's plane
// starts from the line of θ₁ = (−2, 2) on two overlapping classes;
// θ₁ typed by hand changes data-theta and data-loss to J as core
// computes it natively; the question's answer waits for gradient descent
// from that line to end, and then says whether J went down, with J by
// hand and J at the end as #plane-status showed them, and the run's
// steps. The chapter fits a projector's screen before and after.
func TestHandChapterPitsYourLineAgainstDescent(t *testing.T) {
	ctx := openChapter(t, "hand", "&lang=en&pace=full")
	d, err := plane.Generate("overlap", 2, planeSeed)
	if err != nil {
		t.Fatal(err)
	}
	s := plane.Defaults()
	waitAttr(t, ctx, 20*time.Second, "#plane-status", "data-theta", is("0,-2,0,2,0,0"))
	checkLoss(t, ctx, d, s, "the start line, θ₁ = (−2, 2)")
	fitsScreen(t, ctx, "before its question")

	setField(t, ctx, thetaID(1, "1"), "-1.5")
	waitTheta(t, ctx, 2, thetaIndex(1, "1", 2), -1.5)
	setField(t, ctx, thetaID(1, "2"), "-0.5")
	waitTheta(t, ctx, 2, thetaIndex(1, "2", 2), -0.5)
	checkLoss(t, ctx, d, s, "θ₁ = (−1.5, −0.5) by hand")
	from, _ := strconv.ParseFloat(attr(t, ctx, "#plane-status", "data-loss"), 64)
	steps0, _ := strconv.Atoi(attr(t, ctx, "#plane-status", "data-steps"))
	if right := attr(t, ctx, "[data-predict]", "data-right"); right != "-1" {
		t.Errorf("before gradient descent ran, the question knows its answer: %s", right)
	}

	if _, err := eval[bool](ctx, `document.querySelector("[data-predict='hand'] [data-choice='0']").click(), true`); err != nil {
		t.Fatal(err)
	}
	waitVisible(t, ctx, "[data-predict] [data-answer]")
	right := waitAttr(t, ctx, 60*time.Second, "[data-predict]", "data-right", func(v string) bool { return v != "-1" })
	state := attr(t, ctx, "#plane-status", "data-state")
	to, _ := strconv.ParseFloat(attr(t, ctx, "#plane-status", "data-loss"), 64)
	steps, _ := strconv.Atoi(attr(t, ctx, "#plane-status", "data-steps"))
	checkLoss(t, ctx, d, s, "after gradient descent from the line by hand")
	answer, _ := eval[string](ctx, `document.querySelector("[data-predict] [data-answer]").textContent`)
	t.Logf("J by hand %v, after %d steps %v (%s): %s", from, steps-steps0, to, state, answer)
	if state == "training" || !(to < from) || right != "0" {
		t.Errorf("gradient descent from J = %v: state %s, J = %v, the question's right choice %s", from, state, to, right)
	}
	for _, want := range []string{mathml.Number(from, 4), mathml.Number(to, 4), strconv.Itoa(steps-steps0) + " steps", "Right."} {
		if !strings.Contains(answer, want) {
			t.Errorf("the answer %q does not say %q", answer, want)
		}
	}
	formulas, _ := eval[string](ctx, `document.querySelector("#lesson .formulas").textContent`)
	if !strings.Contains(formulas, mathml.Number(to, 4)) {
		t.Errorf("the formulas %q do not give J after descent", formulas)
	}
	fitsScreen(t, ctx, "after its question")
	shot(t, ctx, "lesson-hand-answered")
}

// TestHandQuestionAnsweredAtOnce: the hand chapter's question answered
// the moment the chapter opens, coming from the model chapter, whose
// plane shows other data, still runs gradient descent from the chapter's
// line θ₁ = (−2, 2): the answer comes, gives that line's J as core
// computes it, and says descent found a lower one.
func TestHandQuestionAnsweredAtOnce(t *testing.T) {
	ctx := openChapter(t, "model", "&lang=en&pace=full")
	waitAttr(t, ctx, 20*time.Second, "#plane-status", "data-theta", func(v string) bool { return v != "" })
	gotoChapter(t, ctx, chapterOf(t, "hand"))
	if !eventually(10*time.Second, func() bool {
		ok, _ := eval[bool](ctx, `(() => { const b = document.querySelector("[data-predict='hand'] [data-choice='0']"); if (!b) return false; b.click(); return true; })()`)
		return ok
	}) {
		t.Fatalf("the hand chapter's question has no choice to click; page says %s", pageText(ctx))
	}
	right := waitAttr(t, ctx, 60*time.Second, "[data-predict]", "data-right", func(v string) bool { return v != "-1" })
	d, err := plane.Generate("overlap", 2, planeSeed)
	if err != nil {
		t.Fatal(err)
	}
	line := softmax.NewClasses[float64](2, 2)
	line.W[1], line.W[3] = -2, 2
	want := mathml.Number(nativeJ(d, plane.Defaults(), line), 4)
	answer, _ := eval[string](ctx, `document.querySelector("[data-predict] [data-answer]").textContent`)
	if right != "0" || !strings.Contains(answer, "J = "+want+";") {
		t.Errorf("answered at once: right choice %s, the answer %q; the line's J is %s", right, answer, want)
	}
}

// openChapter opens the chapter named id, with more settings, in a
// fresh browser on a projector's 1280×720.
func openChapter(t *testing.T, id, more string) context.Context {
	t.Helper()
	needBrowser(t)
	srv := startServer(t)
	n := chapterOf(t, id)
	ctx := openOnScreen(t, lessonURL(srv, n, more), 3*time.Minute, 1280, 720, false)
	waitChapter(t, ctx, n)
	return ctx
}

// fitsScreen checks that nothing of the chapter reaches past the window.
func fitsScreen(t *testing.T, ctx context.Context, when string) {
	t.Helper()
	var out []string
	var err error
	eventually(2*time.Second, func() bool { out, err = eval[[]string](ctx, overflow); return err == nil && len(out) == 0 })
	if err != nil || len(out) > 0 {
		t.Errorf("the chapter %s does not fit: %v %v", when, out, err)
	}
}

// TestModelChapterRewindsTheTemplates: in the model chapter, after a run,
// the slider is beside the templates; moved back to step 8 it shows the
// templates as the native run has them after 8 steps, and the chapter
// still fits a projector's screen.
func TestModelChapterRewindsTheTemplates(t *testing.T) {
	ctx := openChapter(t, "model", "&lang=en&pace=full&epochs=1")
	click(t, ctx, "lesson-train")
	waitState(t, ctx, 60*time.Second, "done")
	c, tc := defaultRun(1)
	steps := protocol.KeyframesOf(c, 10000).Steps(100)
	waitAttr(t, ctx, 20*time.Second, "#scrub", "data-count", is(strconv.Itoa(len(steps))))
	fitsScreen(t, ctx, "with the slider, after a run")
	models := nativeModels(t, datasettest.Default(t), tc, nil, []int{8, 100})
	waitAttr(t, ctx, 10*time.Second, "#weights", "data-checksum", is(kit.Checksum(models[100])))
	scrubTo(t, ctx, slices.Index(steps, 8))
	waitAttr(t, ctx, 10*time.Second, "#scrub", "data-step", is("8"))
	waitAttr(t, ctx, 10*time.Second, "#weights", "data-checksum", is(kit.Checksum(models[8])))
	fitsScreen(t, ctx, "rewound to step 8")
	shot(t, ctx, "lesson-model-rewound")
}
