package browsertest

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/core/digit"
	"softmaxdemo/core/metrics"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/session"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/predict"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Rewinding a run with the slider #scrub, and branches: every view moves
// to a keyframe's θ, which is the θ a native run has at that step; the
// slider's end is the live model; Train from a keyframe starts a branch
// whose link, opened in a fresh browser, trains the same θ; and a hundred
// runs with scrubbing leave the page's heap flat.

// defaultRun is the page's default run (α = 0.5, B = 100, λ = 1e-4, seed 1,
// straightened digits) for the given epochs, as the worker configures it.
func defaultRun(epochs int) (protocol.Config, train.Config) {
	c := protocol.Config{LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: epochs, Seed: 1, Deskew: true, Method: "sgd"}
	return c, train.Config{LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: epochs, Seed: 1, InitStd: 1}
}

// nativeModels trains tc on the default pack's straightened training
// images, from the model from if it is not nil, and returns a copy of the
// model at each of steps.
func nativeModels(t *testing.T, pack *dataset.Pack, tc train.Config, from *softmax.Model[float32], steps []int) map[int]*softmax.Model[float32] {
	t.Helper()
	tr, err := train.New(softmax.FromSet[float32](digit.DeskewSet(pack.Train)), dataset.Pixels, tc)
	if err == nil && from != nil {
		err = tr.SetModel(from)
	}
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]*softmax.Model[float32]{}
	for {
		step, _, _ := tr.Progress()
		if slices.Contains(steps, step) {
			out[step] = tr.Model().Clone()
		}
		if step >= slices.Max(steps) || tr.Stopped() != train.Running {
			return out
		}
		tr.Step()
	}
}

// galleryOf predicts the gallery's test images (session.Gallery, as the
// worker picks them) with m, as the gallery writes them into its
// data-predicted.
func galleryOf(test *dataset.Set, m *softmax.Model[float32]) string {
	x := predict.Samples(session.Gallery(test), true)
	var b strings.Builder
	for i := range x.Len() {
		c, _ := m.Predict(x.Example(i))
		b.WriteString(strconv.Itoa(c))
	}
	return b.String()
}

// scrubTo moves the slider to position i, as a drag that stops there does.
func scrubTo(t testing.TB, ctx context.Context, i int) {
	t.Helper()
	js := fmt.Sprintf(`(r => { r.value = %d; r.dispatchEvent(new Event("input", {bubbles: true})); return true; })(document.getElementById("scrub-range"))`, i)
	if _, err := eval[bool](ctx, js); err != nil {
		t.Fatalf("moving the slider to %d: %v", i, err)
	}
}

// arrowKeysStep focuses the slider with key, which brings it to keyframe
// at, and checks that the right arrow moves it to the next keyframe and
// the left arrow back.
func arrowKeysStep(t *testing.T, ctx context.Context, key string, at int) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Focus("#scrub-range"), chromedp.KeyEvent(key)); err != nil {
		t.Fatal(err)
	}
	waitAttr(t, ctx, 10*time.Second, "#scrub", "data-step", is(strconv.Itoa(at)))
	press(t, ctx, kb.ArrowRight)
	waitAttr(t, ctx, 10*time.Second, "#scrub", "data-step", is(strconv.Itoa(at+1)))
	press(t, ctx, kb.ArrowLeft)
	waitAttr(t, ctx, 10*time.Second, "#scrub", "data-step", is(strconv.Itoa(at)))
}

// confusionCounts reads the confusion matrix's hundred counts.
func confusionCounts(t testing.TB, ctx context.Context) [10][10]int {
	t.Helper()
	m, err := eval[[][]int](ctx, `(() => {
		const m = Array.from({length: 10}, () => Array(10).fill(0));
		for (const td of document.querySelectorAll("#confusion td[data-true]")) m[+td.dataset.true][+td.dataset.predicted] = +(td.dataset.count || 0);
		return m;
	})()`)
	if err != nil || len(m) != 10 {
		t.Fatalf("reading the confusion matrix: %v", err)
	}
	var out [10][10]int
	for y := range 10 {
		copy(out[y][:], m[y])
	}
	return out
}

// disabled reports whether the control id is disabled.
func disabled(t testing.TB, ctx context.Context, id string) bool {
	t.Helper()
	v, err := eval[bool](ctx, fmt.Sprintf(`!!(document.getElementById(%q)||{}).disabled`, id))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// drawnProbabilities reads the drawing's ten probabilities.
func drawnProbabilities(t testing.TB, ctx context.Context) []string {
	t.Helper()
	p, err := eval[[]string](ctx, `[...document.querySelectorAll("#probabilities [data-p]")].map(e => e.dataset.p)`)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestScrubMovesEveryView: after a run of two epochs, the slider offers
// the run's keyframes (0, 1, 2, 4, …, the epochs' ends) with the live model
// last. Moved to one, the templates hold the θ a native run of core/train
// has at that step, bit for bit; the confusion matrix, the test accuracy
// and the gallery are that θ's on the test images, as core/metrics counts
// them; the chart marks the step; the drawing is read by that θ (at step
// 0, all zeros: every digit equally likely). The ← → keys move one
// keyframe. The slider's end is the live model, which is the native run's
// last θ.
func TestScrubMovesEveryView(t *testing.T) {
	needBrowser(t)
	ctx := openReady(t, startServer(t).URL+"#lang=en&pace=full&epochs=2")
	if !disabled(t, ctx, "scrub-range") {
		t.Error("before any run the slider is not disabled")
	}
	trainRun(t, ctx, 2*time.Minute)
	c, tc := defaultRun(2)
	steps := protocol.KeyframesOf(c, 10000).Steps(200) // 0, 1, 2, 4, …, 128, 200
	waitAttr(t, ctx, 20*time.Second, "#scrub", "data-count", is(strconv.Itoa(len(steps))))
	if live, step := attr(t, ctx, "#scrub", "data-live"), attr(t, ctx, "#scrub", "data-step"); live != "true" || step != "200" {
		t.Errorf("after the run the slider stands at step %s, live %s; want the live end at 200", step, live)
	}
	liveSum, liveAcc := attr(t, ctx, "#weights", "data-checksum"), attr(t, ctx, "#test-accuracy", "data-value")

	pack := datasettest.Default(t)
	models := nativeModels(t, pack, tc, nil, steps)
	test := softmax.FromSet[float32](digit.DeskewSet(pack.Test))
	if want := kit.Checksum(models[200]); liveSum != want {
		t.Errorf("the live model's checksum %s, the native run's %s", liveSum, want)
	}
	drawn(t, ctx, strokeSeven...)
	liveProbs := drawnProbabilities(t, ctx)

	for _, step := range []int{8, 100, 0} {
		t.Run(fmt.Sprintf("at step %d", step), func(t *testing.T) {
			scrubTo(t, ctx, slices.Index(steps, step))
			s := strconv.Itoa(step)
			waitAttr(t, ctx, 10*time.Second, "#scrub", "data-step", is(s))
			if v := attr(t, ctx, "#scrub", "data-live"); v != "false" {
				t.Errorf("on a keyframe, data-live is %s", v)
			}
			m := models[step]
			waitAttr(t, ctx, 10*time.Second, "#weights", "data-checksum", is(kit.Checksum(m)))
			res := metrics.Evaluate(m, test)
			waitAttr(t, ctx, 30*time.Second, "#confusion", "data-step", is(s))
			if got := confusionCounts(t, ctx); got != res.Confusion {
				t.Errorf("the confusion matrix\n%v\nwant core/metrics'\n%v", got, res.Confusion)
			}
			waitAttr(t, ctx, 10*time.Second, "#test-accuracy", "data-value", is(strconv.FormatFloat(res.Accuracy(), 'f', 4, 64)))
			if got := attr(t, ctx, "#loss-chart", "data-mark"); got != s {
				t.Errorf("the chart marks step %q", got)
			}
			waitAttr(t, ctx, 10*time.Second, "#gallery", "data-predicted", is(galleryOf(pack.Test, m)))
			probs := drawnProbabilities(t, ctx)
			if step == 0 {
				for _, p := range probs {
					if p != probs[0] {
						t.Errorf("at θ = 0 the drawing's probabilities are %v, want all equal", probs)
						break
					}
				}
			} else if slices.Equal(probs, liveProbs) {
				t.Errorf("the drawing's probabilities %v are the live model's", probs)
			}
			if st := attr(t, ctx, "#status", "data-state"); st != "done" {
				t.Errorf("scrubbing a finished run made it %s", st)
			}
		})
	}

	t.Run("the arrow keys move one keyframe", func(t *testing.T) {
		arrowKeysStep(t, ctx, kb.ArrowRight, 1)
		waitAttr(t, ctx, 10*time.Second, "#weights", "data-checksum", is(kit.Checksum(models[1])))
	})

	t.Run("the end is the live model", func(t *testing.T) {
		scrubTo(t, ctx, len(steps)-1)
		waitAttr(t, ctx, 10*time.Second, "#scrub", "data-live", is("true"))
		waitAttr(t, ctx, 10*time.Second, "#weights", "data-checksum", is(liveSum))
		waitAttr(t, ctx, 10*time.Second, "#test-accuracy", "data-value", is(liveAcc))
		waitAttr(t, ctx, 10*time.Second, "#confusion", "data-step", is("200"))
		if got := attr(t, ctx, "#loss-chart", "data-mark"); got != "" {
			t.Errorf("at the live end the chart marks step %q", got)
		}
		if p := drawnProbabilities(t, ctx); !slices.Equal(p, liveProbs) {
			t.Errorf("the drawing's probabilities %v, the live model's %v", p, liveProbs)
		}
	})

	t.Run("a run with one keyframe has a disabled slider", func(t *testing.T) {
		resetRun(t, ctx)
		waitAttr(t, ctx, 10*time.Second, "#scrub", "data-count", is("1"))
		if !disabled(t, ctx, "scrub-range") {
			t.Error("the slider of a run at step 0 is not disabled")
		}
	})
}

// TestScrubWhileTrainingPauses: the slider follows the live end while the
// run trains; moved back, it pauses the run (the views stay on the
// keyframe); back at its end, Train goes on with the same run.
func TestScrubWhileTrainingPauses(t *testing.T) {
	needBrowser(t)
	ctx := openReady(t, startServer(t).URL+"#lang=en&pace=50&epochs=20")
	click(t, ctx, "train")
	waitState(t, ctx, 30*time.Second, "training")
	var step string
	if !eventually(60*time.Second, func() bool {
		step = attr(t, ctx, "#scrub", "data-step")
		n, _ := strconv.Atoi(step)
		return n > 70 && attr(t, ctx, "#scrub", "data-live") == "true"
	}) {
		t.Fatalf("the slider does not follow the run: at step %s; page says: %s", step, pageText(ctx))
	}
	run := attr(t, ctx, "#status", "data-run")
	scrubTo(t, ctx, 4) // step 8
	waitState(t, ctx, 30*time.Second, "paused")
	waitAttr(t, ctx, 10*time.Second, "#scrub", "data-step", is("8"))
	if v := attr(t, ctx, "#scrub", "data-live"); v != "false" {
		t.Errorf("the slider went back to the live end (data-live %s)", v)
	}
	count, _ := strconv.Atoi(attr(t, ctx, "#scrub", "data-count"))
	scrubTo(t, ctx, count-1)
	waitAttr(t, ctx, 10*time.Second, "#scrub", "data-live", is("true"))
	paused := attr(t, ctx, "#status", "data-step")
	click(t, ctx, "train")
	waitState(t, ctx, 30*time.Second, "training")
	stepAdvances(t, ctx, run)
	if r := attr(t, ctx, "#status", "data-run"); r != run {
		t.Errorf("Train at the slider's end started run %s, not run %s going on from step %s", r, run, paused)
	}
	click(t, ctx, "pause")
	waitState(t, ctx, 30*time.Second, "paused")
}

// TestScrubKeysInTheLesson: in a chapter that shows the chart, the arrow
// keys on the slider move the slider, not the chapter.
func TestScrubKeysInTheLesson(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	n := 1 + slices.IndexFunc(lesson.Chapters, func(c lesson.Chapter) bool { return c.ID == "descent" })
	ctx := lessonBrowser(t, 3*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate(lessonURL(srv, n, "&lang=en&pace=full&epochs=2"))); err != nil {
		t.Fatal(err)
	}
	waitChapter(t, ctx, n)
	if !eventually(60*time.Second, func() bool { return !disabled(t, ctx, "lesson-train") }) {
		t.Fatalf("the lesson's Train stays disabled; page says: %s", pageText(ctx))
	}
	click(t, ctx, "lesson-train")
	waitAttr(t, ctx, 60*time.Second, "#scrub", "data-count", func(v string) bool { c, _ := strconv.Atoi(v); return c >= 5 })
	arrowKeysStep(t, ctx, kb.Home, 0)
	waitChapter(t, ctx, n)
}

// TestBranchFromAKeyframe: with the slider on a keyframe, Train starts a
// run from its θ with the Train panel's settings, named as a branch of the
// run at that step; its θ is core/train's from the native keyframe with
// those settings, bit for bit; and its link, opened in a fresh browser,
// trains the first run to that step, takes the keyframe and trains the
// branch to the same θ.
func TestBranchFromAKeyframe(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := openReady(t, srv.URL+"#lang=en&pace=full&epochs=2")
	trainRun(t, ctx, 2*time.Minute)
	c, tc := defaultRun(2)
	steps := protocol.KeyframesOf(c, 10000).Steps(200)
	scrubTo(t, ctx, slices.Index(steps, 8))
	waitAttr(t, ctx, 10*time.Second, "#scrub", "data-step", is("8"))
	setField(t, ctx, "lr", "0.1")
	setField(t, ctx, "batch", "50")
	setField(t, ctx, "epochs", "1")
	setField(t, ctx, "seed", "3")
	trainRun(t, ctx, 2*time.Minute)

	branch := "#runs > li:first-child"
	if from, at := attr(t, ctx, branch, "data-from-run"), attr(t, ctx, branch, "data-from-step"); from != "1" || at != "8" {
		t.Errorf("the new run is a branch of run %q at step %q, want run 1 at step 8", from, at)
	}
	if label, _ := eval[string](ctx, `document.querySelector("#runs > li:first-child .run-label").textContent`); !strings.HasPrefix(label, "Branch of run 1 at step 8: ") {
		t.Errorf("the branch is named %q", label)
	}
	pack := datasettest.Default(t)
	at8 := nativeModels(t, pack, tc, nil, []int{8})[8]
	btc := train.Config{LearningRate: 0.1, BatchSize: 50, L2: 1e-4, Epochs: 1, Seed: 3, InitStd: 1}
	want := kit.Checksum(nativeModels(t, pack, btc, at8, []int{200})[200])
	if got := attr(t, ctx, "#weights", "data-checksum"); got != want {
		t.Errorf("the branch's θ after 200 steps has checksum %s, core/train's from the keyframe %s", got, want)
	}
	hash, err := eval[string](ctx, `location.hash`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(hash, "#from=method%3Dsgd%26lr%3D0.5%26batch%3D100%26") || !strings.Contains(hash, "&at=8&method=sgd&lr=0.1&batch=50&") {
		t.Errorf("the branch's link is %q", hash)
	}

	t.Run("its link in a fresh browser trains the same θ", func(t *testing.T) {
		fresh := openReady(t, strings.TrimSuffix(srv.URL, "/")+"/"+hash)
		waitAttr(t, fresh, 3*time.Minute, "#runs > li:first-child", "data-from-step", is("8"))
		waitAttr(t, fresh, 3*time.Minute, "#status", "data-state", is("done"))
		if got := attr(t, fresh, "#weights", "data-checksum"); got != want {
			t.Errorf("the link's branch has checksum %s, want %s", got, want)
		}
		if from := attr(t, fresh, "#runs > li:first-child", "data-from-run"); from != "1" {
			t.Errorf("the link's branch descends from run %s", from)
		}
		if h, _ := eval[string](fresh, `location.hash`); h != hash {
			t.Errorf("the fresh page's link is %q, want %q", h, hash)
		}
	})
}

// TestScrubMemoryStaysFlat: a hundred runs, each scrubbed to a keyframe
// whose numbers the worker measures, every tenth a branch from it, leave
// the page's heap, as measured when each run comes to rest, within 8 MB of
// where it was after the first; no more than two runs in #runs keep their
// keyframes.
func TestScrubMemoryStaysFlat(t *testing.T) {
	needBrowser(t)
	ctx := newBrowser(t, 30*time.Minute)
	ctx = navigateReady(t, ctx, startServer(t).URL+"#lang=en&pace=full&epochs=1")
	const runs, limit = 100, 8e6
	var first heaps
	start := time.Now()
	for i := 1; i <= runs; i++ {
		trainRun(t, ctx, 60*time.Second) // a branch from step 4 after every ninth
		h := readHeaps(t, ctx)
		if i == 1 {
			first = h
		}
		if i == 1 || i%10 == 0 {
			t.Logf("run %d: %v", i, h)
		}
		if kept, _ := eval[int](ctx, `[...document.querySelectorAll("#runs > li")].filter(li => +li.dataset.keyframes > 0).length`); kept > 2 {
			t.Fatalf("after run %d, %d runs keep their keyframes", i, kept)
		}
		scrubTo(t, ctx, 3) // step 4
		waitAttr(t, ctx, 30*time.Second, "#confusion", "data-step", is("4"))
		if i%10 != 9 {
			count, _ := strconv.Atoi(attr(t, ctx, "#scrub", "data-count"))
			scrubTo(t, ctx, count-1) // back to the end: Train starts a new run
			waitAttr(t, ctx, 10*time.Second, "#scrub", "data-live", is("true"))
		}
	}
	t.Logf("%d runs in %v", runs, time.Since(start).Round(time.Second))
	if branches, _ := eval[int](ctx, `document.querySelectorAll("#runs > li[data-from-step='4']").length`); branches == 0 {
		t.Error("no branch is left in #runs")
	}
	last := readHeaps(t, ctx)
	if grew := float64(last.Page) - float64(first.Page); grew > limit {
		t.Errorf("the page's heap grew by %.1f MB, from %.1f to %.1f MB", grew/1e6, float64(first.Page)/1e6, float64(last.Page)/1e6)
	}
}
