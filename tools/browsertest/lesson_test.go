package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	_ "image/png"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/planeview"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// The lesson (wasm/ui/lessonview): chapters that fit a classroom's
// screen, keys and Back between them, links to a chapter, formulas as
// MathML, questions answered before the page shows, ψ added and undone,
// the QR code of the chapter's link, the first chapter in index.html, and
// no accessibility violation.

// chapterCount is the lesson's number of chapters.
var chapterCount = len(lesson.Chapters)

// lessonURL is the link to chapter n with more settings.
func lessonURL(srv *server, n int, more string) string {
	return strings.TrimSuffix(srv.URL, "/") + "/#lesson=" + strconv.Itoa(n) + more
}

// trainedLesson opens the lesson's chapter 2 with more settings on a w×h
// screen, presses the lesson's Train and waits until the run is done.
func trainedLesson(t *testing.T, srv *server, more string, timeout time.Duration, w, h int64, mobile bool) context.Context {
	t.Helper()
	ctx := openOnScreen(t, lessonURL(srv, 2, more), timeout, w, h, mobile)
	click(t, ctx, "lesson-train")
	waitState(t, ctx, 60*time.Second, "done")
	return ctx
}

// waitChapter waits until the lesson shows chapter n.
func waitChapter(t testing.TB, ctx context.Context, n int) {
	t.Helper()
	var got string
	if !eventually(10*time.Second, func() bool {
		got, _ = eval[string](ctx, `(document.getElementById("lesson")||{dataset:{}}).dataset.chapter || ""`)
		return got == strconv.Itoa(n)
	}) {
		t.Fatalf("the lesson shows chapter %q, want %d; page says: %s", got, n, pageText(ctx))
	}
}

// press sends one key to the page, as a keyboard or a clicker does.
func press(t testing.TB, ctx context.Context, key string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
		t.Fatalf("pressing %q: %v", key, err)
	}
}

// chapterOf is the number (from 1) of the chapter named id.
func chapterOf(t testing.TB, id string) int {
	t.Helper()
	n, ok := lesson.Find(id)
	if !ok {
		t.Fatalf("no chapter %q", id)
	}
	return n
}

// gotoChapter clicks chapter n in the chapter list.
func gotoChapter(t testing.TB, ctx context.Context, n int) {
	t.Helper()
	if _, err := eval[bool](ctx, fmt.Sprintf(`document.querySelector('[data-goto="%d"]').click(), true`, n)); err != nil {
		t.Fatal(err)
	}
	waitChapter(t, ctx, n)
}

// overflow lists what makes the page scroll, or lies outside the screen:
// the document's scroll size, and each of the chapter's parts (its text,
// formulas, question and panels) that reaches past the window's edges.
const overflow = `(() => {
	const W = innerWidth, H = innerHeight, out = [], d = document.documentElement;
	if (d.scrollHeight > H + 1) out.push("the page is " + d.scrollHeight + " px tall");
	if (d.scrollWidth > W + 1) out.push("the page is " + d.scrollWidth + " px wide");
	for (const e of document.querySelectorAll("#lesson .chapter-text > *, #lesson .formulas, #lesson .run-bar, #lesson .chapter-live > *, #lesson .lesson-bar, #lesson .chapter-under > *, #lesson .plane-lesson > *, #lesson .plane-lesson-side > *")) {
		const r = e.getBoundingClientRect();
		if (r.width === 0 && r.height === 0) continue;
		if (r.bottom > H + 1 || r.right > W + 1) out.push((e.id || e.className) + " reaches " + Math.round(r.right) + "×" + Math.round(r.bottom));
	}
	return out;
})()`

// duplicateIDs lists the element ids that occur more than once in the
// page.
const duplicateIDs = `(() => { const n = {}; for (const e of document.querySelectorAll("[id]")) n[e.id] = (n[e.id] || 0) + 1; return Object.keys(n).filter(k => n[k] > 1); })()`

// rawTeX finds TeX-like text in what a person reads.
const rawTeX = `(() => { const m = document.body.innerText.match(/_\{|\^\{|\\[a-zA-Z]+\{/); return m ? m[0] + " in …" + document.body.innerText.slice(Math.max(0, m.index - 40), m.index + 20) : ""; })()`

// formulasOf checks that the chapter's formulas are MathML elements, in
// MathML's namespace, drawn with a size.
const formulasOf = `(() => {
	const f = [...document.querySelectorAll("#lesson .formulas > .formula > *")];
	if (f.length === 0) return "no formula";
	for (const m of f) {
		if (m.localName !== "math" || m.namespaceURI !== "http://www.w3.org/1998/Math/MathML") return "a formula is <" + m.localName + "> in " + m.namespaceURI;
		const r = m.getBoundingClientRect();
		if (r.width < 20 || r.height < 10) return "a formula is drawn " + r.width + "×" + r.height;
	}
	const mi = document.querySelector("#lesson math mi");
	if (mi && mi.namespaceURI !== "http://www.w3.org/1998/Math/MathML") return "<mi> is in " + mi.namespaceURI;
	return "";
})()`

// TestLessonOnAClassroomScreen: at 1280×720 and 1366×768, in both
// languages, with a trained model, every chapter fits the screen without
// scrolling, before and after its question is answered; its formulas are
// MathML and no TeX shows; the focus is on its title; ← → PageUp PageDown
// Home End move between chapters, not while typing in a field; Back
// returns to each chapter before; and a link to a chapter opens it in a
// fresh browser.
func TestLessonOnAClassroomScreen(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	configs := []struct {
		w, h int64
		lang string
		link int // the chapter a fresh browser opens by its link
	}{
		{1280, 720, "zh", 3},
		{1280, 720, "en", 5},
		{1366, 768, "zh", 7},
		{1366, 768, "en", 8},
	}
	for _, c := range configs {
		t.Run(fmt.Sprintf("%dx%d-%s", c.w, c.h, c.lang), func(t *testing.T) {
			ctx := openOnScreen(t, lessonURL(srv, 2, "&epochs=1&pace=full&lang="+c.lang), 5*time.Minute, c.w, c.h, false)
			waitChapter(t, ctx, 2)
			click(t, ctx, "lesson-train")
			waitState(t, ctx, 60*time.Second, "done")
			for n := 1; n <= chapterCount; n++ {
				gotoChapter(t, ctx, n)
				id := lesson.Chapters[n-1].ID
				if v := attr(t, ctx, "#lesson", "data-chapter-id"); v != id {
					t.Errorf("chapter %d is %q, want %q", n, v, id)
				}
				if v := attr(t, ctx, "#lesson", "data-chapters"); v != strconv.Itoa(chapterCount) {
					t.Errorf("data-chapters %q", v)
				}
				if !eventually(5*time.Second, func() bool {
					f, _ := eval[string](ctx, `document.activeElement && document.activeElement.id`)
					return f == "chapter-title"
				}) {
					t.Errorf("chapter %s: the focus is not on its title", id)
				}
				fits := func(when string) {
					// The chart and canvases draw a moment after the chapter.
					fitsScreen(t, ctx, fmt.Sprintf("%s %s at %d×%d", id, when, c.w, c.h))
				}
				fits("before its question")
				if msg, _ := eval[string](ctx, formulasOf); msg != "" {
					t.Errorf("chapter %s: %s", id, msg)
				}
				if msg, _ := eval[string](ctx, rawTeX); msg != "" {
					t.Errorf("chapter %s shows TeX: %s", id, msg)
				}
				if lesson.Chapters[n-1].Question != nil {
					if _, err := eval[bool](ctx, `document.querySelector("[data-predict] [data-choice]").click(), true`); err != nil {
						t.Fatal(err)
					}
					waitVisible(t, ctx, "[data-predict] [data-answer]")
					fits("with its answer")
					if id == "newton" {
						// The answer computes H: its table of eigenvalues,
						// then a run of Newton's method, fit too.
						if !eventually(time.Minute, func() bool {
							n, _ := eval[int](ctx, `document.querySelectorAll("#hessian-eigen tbody tr").length`)
							return n == 3
						}) {
							t.Fatalf("chapter newton: H was not computed; page says %s", pageText(ctx))
						}
						fits("with H computed")
						runs, _ := eval[int](ctx, `document.querySelectorAll("#runs > li").length`)
						click(t, ctx, "newton-run")
						if !eventually(time.Minute, func() bool {
							n, _ := eval[int](ctx, `document.querySelectorAll("#runs > li").length`)
							return n > runs && attr(t, ctx, "#status", "data-state") == "done"
						}) {
							t.Fatalf("chapter newton: Newton's method did not run to the end; page says %s", pageText(ctx))
						}
						fits("after Newton's method ran")
					}
					if lesson.Chapters[n-1].Bar != lesson.NoBar {
						click(t, ctx, "lesson-pause") // the demonstration's run, if any
					}
				}
			}

			// Keys, from chapter 1: each a history entry.
			gotoChapter(t, ctx, 1)
			if _, err := eval[bool](ctx, `document.getElementById("chapter-title").focus(), true`); err != nil {
				t.Fatal(err)
			}
			moves := []struct {
				key  string
				want int
			}{
				{kb.ArrowRight, 2}, {kb.PageDown, 3}, {kb.ArrowLeft, 2}, {kb.PageUp, 1}, {kb.PageUp, 1},
				{kb.End, chapterCount}, {kb.ArrowRight, chapterCount}, {kb.Home, 1},
			}
			for _, m := range moves {
				press(t, ctx, m.key)
				waitChapter(t, ctx, m.want)
			}
			// Back through the history: 1 ← 8 ← 1 ← 2 ← 3 ← 2.
			for _, want := range []int{chapterCount, 1, 2, 3, 2, 1} {
				if _, err := eval[bool](ctx, `history.back(), true`); err != nil {
					t.Fatal(err)
				}
				waitChapter(t, ctx, want)
			}
			// Typing in a field moves no chapter: after → and End in the
			// inspector's α, → on the chapter's title leads to the next
			// chapter (had they moved it, to the last).
			update := chapterOf(t, "update")
			gotoChapter(t, ctx, update)
			click(t, ctx, "inspect-lr")
			press(t, ctx, kb.ArrowRight)
			press(t, ctx, kb.End)
			if _, err := eval[bool](ctx, `document.getElementById("chapter-title").focus(), true`); err != nil {
				t.Fatal(err)
			}
			press(t, ctx, kb.ArrowRight)
			waitChapter(t, ctx, update+1)

			// A link to a chapter, in a fresh browser.
			fresh := openOnScreen(t, lessonURL(srv, c.link, "&lang="+c.lang), 2*time.Minute, c.w, c.h, false)
			waitChapter(t, fresh, c.link)
			if v := attr(t, fresh, "#lesson", "data-chapter-id"); v != lesson.Chapters[c.link-1].ID {
				t.Errorf("the link to chapter %d opened %q", c.link, v)
			}
		})
	}
}

// TestLessonChaptersShowThePlane: at 1280×720, in both languages, the
// model, descent and redundancy chapters show the plane's pictures, live,
// each id once in the page, and still fit the screen. In model, the
// regions stand under the text; trained, each point lies in the region
// of the class predicted for it (pixels read back), and a click adds a
// point. In descent, the surface shows three paths from one start; the
// question's answer sets α above 2/λ_max, where gradient descent zig-zags
// without settling, and an α typed below it converges. In redundancy, the
// plane's model is trained, and its ψ, beside the digits' #psi-add,
// changes no pixel of the regions.
func TestLessonChaptersShowThePlane(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			ctx := openOnScreen(t, lessonURL(srv, 2, "&pace=full&lang="+lang), 4*time.Minute, 1280, 720, false)
			fits := func(when string) {
				t.Helper()
				fitsScreen(t, ctx, when+" at 1280×720")
				if d, _ := eval[[]string](ctx, duplicateIDs); len(d) > 0 {
					t.Errorf("%s: ids more than once: %v", when, d)
				}
			}

			// model
			waitChapter(t, ctx, 2)
			waitPlane(t, ctx, 10*time.Second, "ready")
			d, err := plane.Generate("blobs", 3, planeSeed)
			if err != nil {
				t.Fatal(err)
			}
			if got := attr(t, ctx, "#plane-status", "data-points"); got != strconv.Itoa(len(d.Points)) {
				t.Errorf("the model chapter's plane has %s points, want %d", got, len(d.Points))
			}
			waitAttr(t, ctx, 10*time.Second, "#plane", "data-draws", func(v string) bool { n, _ := strconv.Atoi(v); return n > 0 })
			if under, _ := eval[bool](ctx, `(() => { const t = document.querySelector(".chapter-text").getBoundingClientRect(), p = document.getElementById("plane").getBoundingClientRect(), l = document.querySelector(".chapter-live").getBoundingClientRect();
				return p.width > 100 && p.top >= t.bottom - 1 && p.right <= l.left + 1; })()`); !under {
				t.Error("the regions do not stand under the chapter's text")
			}
			fits("model")
			click(t, ctx, "plane-train")
			waitPlane(t, ctx, time.Minute, "done")
			waitAttr(t, ctx, 10*time.Second, "#plane", "data-drawn-step", is(attr(t, ctx, "#plane-status", "data-steps")))
			checkRegions(t, ctx, d)
			r := viewRect(t, ctx, "plane-points", false)
			at := planeview.Frame{W: r.Width, H: r.Height}.ToCanvas([2]float64{3.6, -3.6})
			if err := chromedp.Do(ctx, chromedp.MouseClickXY(r.Left+at.X, r.Top+at.Y)); err != nil {
				t.Fatal(err)
			}
			waitAttr(t, ctx, 10*time.Second, "#plane-status", "data-points", is(strconv.Itoa(len(d.Points)+1)))
			fits("model, trained")

			// descent
			gotoChapter(t, ctx, chapterOf(t, "descent"))
			waitScene(t, ctx, 0)
			methods, _ := eval[[]string](ctx, `[...document.getElementById("plane-paths").children].map(e => e.dataset.method + ":" + e.dataset.steps)`)
			if len(methods) != 3 || !strings.HasPrefix(methods[0], "gd:") || !strings.HasPrefix(methods[1], "sgd:") || !strings.HasPrefix(methods[2], "newton:") || slices.ContainsFunc(methods, func(m string) bool { return strings.HasSuffix(m, ":0") }) {
				t.Errorf("the paths are %v", methods)
			}
			if k := attr(t, ctx, "#plane-surface", "data-kind"); k != "exact" {
				t.Errorf("the surface is a %q", k)
			}
			ceiling, err := strconv.ParseFloat(attr(t, ctx, "#plane-alpha-max", "data-value"), 64)
			if err != nil || !(ceiling > 0) || attr(t, ctx, "#plane-alpha-max", "data-above") != "no" {
				t.Fatalf("2/λ_max is %q, α above it %q", attr(t, ctx, "#plane-alpha-max", "data-value"), attr(t, ctx, "#plane-alpha-max", "data-above"))
			}
			fits("descent")
			v := sceneVersion(t, ctx)
			if _, err := eval[bool](ctx, `document.querySelector("[data-predict] [data-choice='2']").click(), true`); err != nil {
				t.Fatal(err)
			}
			waitAttr(t, ctx, 20*time.Second, "#plane-alpha-max", "data-above", is("yes"))
			v = waitScene(t, ctx, v)
			lr, _ := eval[string](ctx, `document.getElementById("plane-lr").value`)
			if a, _ := strconv.ParseFloat(lr, 64); math.Abs(a/ceiling-1.5) > 0.01 {
				t.Errorf("the answer set α = %s, 2/λ_max is %g", lr, ceiling)
			}
			steps := pathNumber(t, ctx, "gd", "data-steps")
			if stop, zig := pathAttr(t, ctx, "gd", "data-stop"), pathNumber(t, ctx, "gd", "data-zigzags"); stop != "budget" || zig < steps-5 {
				t.Errorf("α = %s above 2/λ_max: gradient descent %s with %.0f zig-zags in %.0f steps", lr, stop, zig, steps)
			}
			fits("descent, answered")
			click(t, ctx, "lesson-pause") // the digits' demonstration
			setField(t, ctx, "plane-lr", strconv.FormatFloat(ceiling/2, 'g', 4, 64))
			waitScene(t, ctx, v)
			if above, stop := attr(t, ctx, "#plane-alpha-max", "data-above"), pathAttr(t, ctx, "gd", "data-stop"); above != "no" || stop != "converged" {
				t.Errorf("α = 2/λ_max ÷ 2: above %q, gradient descent %s", above, stop)
			}

			// redundancy
			gotoChapter(t, ctx, chapterOf(t, "redundancy"))
			waitPlane(t, ctx, 20*time.Second, "done")
			steps0 := attr(t, ctx, "#plane-status", "data-steps")
			waitAttr(t, ctx, 10*time.Second, "#plane", "data-drawn-step", is(steps0))
			if beside, _ := eval[bool](ctx, `(() => { const a = document.getElementById("psi-add").closest(".panel").getBoundingClientRect(), p = document.getElementById("plane").getBoundingClientRect();
				return p.left >= a.right - 1 && p.top < a.bottom && p.bottom > a.top; })()`); !beside {
				t.Error("the plane's ψ is not beside the digits' #psi-add")
			}
			changed, total, dp, dn := addPsiInPlane(t, ctx)
			if changed > 0 || dp > 1e-5 || dn == 0 {
				t.Errorf("ψ changed %d of %d pixels of the regions, a probability by %.2g, ‖θ‖ by %.3g", changed, total, dp, dn)
			}
			fits("redundancy, ψ added")
		})
	}
}

// waitVisible waits until the element of sel is shown.
func waitVisible(t testing.TB, ctx context.Context, sel string) {
	t.Helper()
	if !eventually(10*time.Second, func() bool {
		v, _ := eval[bool](ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return !!e && !e.hidden && e.checkVisibility(); })()`, sel))
		return v
	}) {
		t.Fatalf("%s is not shown; page says: %s", sel, pageText(ctx))
	}
}

// TestLessonLinks: a bare link opens the first chapter (a first visit);
// the toggle leaves for the full page and comes back; a link to chapter
// 0, 99, "abc" or a name that is no chapter's opens the nearest chapter
// with a notice that names it, and keeps the rest of the link.
func TestLessonLinks(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := lessonBrowser(t, 3*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, 60*time.Second, "ready")
	waitChapter(t, ctx, 1)
	if v := attr(t, ctx, "#lesson", "data-chapter-id"); v != "task" {
		t.Errorf("a bare link opened %q", v)
	}
	click(t, ctx, "lesson-toggle")
	waitVisible(t, ctx, "#train")
	if n, _ := eval[int](ctx, `document.querySelectorAll("#lesson").length`); n != 0 {
		t.Error("the full page still shows the lesson")
	}
	if _, err := eval[bool](ctx, `history.back(), true`); err != nil {
		t.Fatal(err)
	}
	waitChapter(t, ctx, 1)

	tests := []struct {
		value string
		want  int
	}{
		{"0", 1}, {"99", chapterCount}, {"abc", 1}, {"plane", 1}, {"loss", 3},
	}
	for _, tt := range tests {
		t.Run("lesson="+tt.value, func(t *testing.T) {
			if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(strings.TrimSuffix(srv.URL, "/")+"/#lesson="+tt.value+"&lr=0.25&lang=en")); err != nil {
				t.Fatal(err)
			}
			waitState(t, ctx, 60*time.Second, "ready")
			waitChapter(t, ctx, tt.want)
			notice, _ := eval[string](ctx, `document.getElementById("notice").textContent`)
			if named := tt.value != "loss"; named != strings.Contains(notice, "lesson") {
				t.Errorf("the notice says %q", notice)
			}
			if h, _ := eval[string](ctx, `location.hash`); !strings.Contains(h, "lr=0.25") || !strings.Contains(h, "lesson="+strconv.Itoa(tt.want)) {
				t.Errorf("the link is now %q", h)
			}
		})
	}
}

// TestPredictThenReveal: in each chapter that asks, the answer is hidden
// until a choice is made; then it shows, and the chapter's demonstration
// runs: the step applied, a run of full-batch descent, ψ added, H
// computed.
func TestPredictThenReveal(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := trainedLesson(t, srv, "&epochs=1&pace=full&lang=en", 4*time.Minute, 1366, 768, false)
	asked := 0
	for n, c := range lesson.Chapters {
		if c.Question == nil {
			continue
		}
		asked++
		gotoChapter(t, ctx, n+1)
		if c.ID == "update" {
			waitAttr(t, ctx, 20*time.Second, "#inspect", "data-state", is("filled"))
		}
		hidden, err := eval[bool](ctx, `(() => { const a = document.querySelector("[data-predict] [data-answer]"); return a.hidden && !a.checkVisibility(); })()`)
		if err != nil || !hidden {
			t.Errorf("%s: the answer shows before a choice (%v)", c.ID, err)
		}
		if attr(t, ctx, "[data-predict]", "data-predict") != c.ID {
			t.Errorf("%s: the question is %q", c.ID, attr(t, ctx, "[data-predict]", "data-predict"))
		}
		if _, err := eval[bool](ctx, `document.querySelector("[data-predict] [data-choice='1']").click(), true`); err != nil {
			t.Fatal(err)
		}
		waitVisible(t, ctx, "[data-predict] [data-answer]")
		switch c.ID {
		case "update":
			waitAttr(t, ctx, 20*time.Second, "#inspect-applied", "data-applied", is("1"))
		case "descent":
			waitAttr(t, ctx, 30*time.Second, `#runs > [data-method="gd"]`, "data-method", is("gd"))
			click(t, ctx, "lesson-pause")
		case "redundancy":
			waitAttr(t, ctx, 20*time.Second, "#psi-result", "data-state", is("added"))
		case "newton":
			// The lesson shows H's table; its answer says what
			// #hessian-why says beside the instrument.
			waitVisible(t, ctx, "#hessian-eigen")
		}
		answer, _ := eval[string](ctx, `document.querySelector("[data-predict] [data-answer]").textContent`)
		if c.ID == "newton" {
			zero := attr(t, ctx, `#hessian-eigen tr[data-pinned="false"][data-lambda="0.0000"]`, "data-zero")
			if zero == "" || !strings.Contains(answer, zero+" ") {
				t.Errorf("newton: the answer %q does not give the %q zero eigenvalues H's table shows", answer, zero)
			}
		}
		if strings.Contains(answer, "?") || strings.Contains(answer, "%!") {
			t.Errorf("%s: the answer is %q", c.ID, answer)
		}
		t.Logf("%s: %s", c.ID, answer)
	}
	if asked < 3 {
		t.Errorf("%d chapters ask, want at least 3", asked)
	}
}

// probabilities returns the lesson's digit's ten probabilities, exactly
// as the page computed them.
func probabilities(t *testing.T, ctx context.Context) []float64 { return bars(t, ctx, "p") }

// bars returns an attribute (p or z) of the ten bars of the lesson's digit.
func bars(t *testing.T, ctx context.Context, name string) []float64 {
	t.Helper()
	s, err := eval[[]string](ctx, `[...document.querySelectorAll("#lesson-probs [data-p]")].map(e => e.dataset.`+name+`)`)
	if err != nil || len(s) != 10 {
		t.Fatalf("the digit's probabilities: %v, %v", s, err)
	}
	p := make([]float64, 10)
	for i, v := range s {
		p[i], _ = strconv.ParseFloat(v, 64)
	}
	return p
}

// TestPsiChangesNoProbability: in the redundancy chapter, #psi-add adds a
// random ψ to every θ_c of the model trained (with λ > 0); once the
// worker has the new model, the shown digit's probabilities changed by no
// more than float32 rounding, its J by no more than rounding beyond the
// L2 term the page names, and ‖θ‖² changed; Undo restores θ bit for bit.
func TestPsiChangesNoProbability(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := trainedLesson(t, srv, "&epochs=1&pace=full&l2=0.001&lang=en", 3*time.Minute, 1366, 768, false)
	gotoChapter(t, ctx, chapterOf(t, "redundancy"))
	model := waitAttr(t, ctx, 10*time.Second, "#lesson-example", "data-model", func(v string) bool { return v != "" })
	before, zBefore := probabilities(t, ctx), bars(t, ctx, "z")
	click(t, ctx, "psi-add")
	after := waitAttr(t, ctx, 10*time.Second, "#psi-result", "data-model-after", func(v string) bool { return v != "" })
	if after == model {
		t.Fatal("ψ changed nothing")
	}
	waitAttr(t, ctx, 20*time.Second, "#lesson-example", "data-model", is(after)) // the worker's model is θ + ψ
	moved := probabilities(t, ctx)
	// Every score moved by the same ψᵀx, to float32's rounding of scores
	// of a few tens: the probabilities cannot see it.
	z := bars(t, ctx, "z")
	shift := z[0] - zBefore[0]
	for c := range z {
		if d := z[c] - zBefore[c]; math.Abs(d-shift) > 1e-3 {
			t.Errorf("score %d moved by %g, score 0 by %g", c, d, shift)
		}
	}
	worst := 0.0
	for c := range before {
		worst = math.Max(worst, math.Abs(moved[c]-before[c]))
	}
	num := func(name string) float64 {
		v, err := strconv.ParseFloat(attr(t, ctx, "#psi-result", name), 64)
		if err != nil {
			t.Fatalf("#psi-result %s: %v", name, err)
		}
		return v
	}
	if worst > lesson.MaxDPRounding || math.Abs(worst-num("data-max-dp")) > 1.2e-7 {
		t.Errorf("the probabilities changed by %g (the page says %g), want rounding, at most %g", worst, num("data-max-dp"), lesson.MaxDPRounding)
	}
	if num("data-lambda") != 0.001 {
		t.Errorf("ψ's run has λ = %v, want the trained run's 0.001", num("data-lambda"))
	}
	dj, term := num("data-j-after")-num("data-j-before"), num("data-lambda-term")
	if math.Abs(dj-term) > 1e-4 || term == 0 || math.Abs(term-0.001/2*num("data-dnorm")) > 1e-9*math.Abs(term) {
		t.Errorf("J changed by %g, its L2 term by %g, ‖θ‖² by %g", dj, term, num("data-dnorm"))
	}
	if num("data-dnorm") == 0 {
		t.Error("‖θ‖² did not change")
	}
	t.Logf("largest change of a probability %.3g; J %+.6g, of which the L2 term %+.6g; ‖θ‖² %+.6g", worst, dj, term, num("data-dnorm"))

	click(t, ctx, "psi-undo")
	waitAttr(t, ctx, 20*time.Second, "#lesson-example", "data-model", is(model))
	if back := probabilities(t, ctx); fmt.Sprint(back) != fmt.Sprint(before) {
		t.Errorf("after Undo the probabilities are %v, before ψ %v", back, before)
	}
	if v := attr(t, ctx, "#psi-result", "data-state"); v != "undone" {
		t.Errorf("#psi-result says %q", v)
	}
}

// decodeQR reads the QR code in a PNG screenshot, with gozxing (not the
// encoder the page uses).
func decodeQR(t *testing.T, png []byte) string {
	t.Helper()
	img, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		t.Fatal(err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		t.Fatalf("decoding the QR code: %v", err)
	}
	return res.GetText()
}

// TestLessonQRIsTheLink: the QR code, as the screen shows it, decodes to
// the page's link (chapter, settings, language), and follows the chapter.
func TestLessonQRIsTheLink(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := openOnScreen(t, lessonURL(srv, 3, "&lang=zh&seed=7"), 2*time.Minute, 1280, 720, false)
	click(t, ctx, "lesson-qr-show")
	for _, n := range []int{3, 4} {
		waitChapter(t, ctx, n)
		href, _ := eval[string](ctx, `location.href`)
		waitAttr(t, ctx, 5*time.Second, "#lesson-qr", "data-link", is(href))
		png, err := chromedp.Run(ctx, chromedp.Screenshot("#lesson-qr"))
		if err != nil {
			t.Fatal(err)
		}
		if got := decodeQR(t, png); got != href {
			t.Errorf("the QR code reads %q, the link is %q", got, href)
		}
		if !strings.Contains(href, "lesson="+strconv.Itoa(n)) || !strings.Contains(href, "lang=zh") || !strings.Contains(href, "seed=7") {
			t.Errorf("the link %q lacks the chapter, language or seed", href)
		}
		press(t, ctx, kb.ArrowRight)
	}
}

// TestStaticPageCarriesTheFirstChapter: index.html, fetched without
// running anything, holds the first chapter: its name, its text in both
// languages, its formulas and its still picture; in a browser whose
// program never arrives, a reader of English reads the chapter in
// English.
func TestStaticPageCarriesTheFirstChapter(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, s := range []string{`data-chapter-id="task"`, `data-chapter="1"`, "<math", `src="data:image/png;base64,`,
		i18n.ZH.T("lesson.task.title"), i18n.EN.T("lesson.task.title"), i18n.ZH.T("lesson.task.try"), i18n.EN.T("lesson.task.try")} {
		if !bytes.Contains(body, []byte(s)) {
			t.Errorf("index.html lacks %.50q", s)
		}
	}

	ctx := lessonBrowser(t, time.Minute)
	preferLanguage(t, ctx, "en-GB,en")
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		return blockURLs(ctx, tg, "*://*:*/web/app.wasm*")
	}), chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	waitVisible(t, ctx, "#chapter-title-twin")
	if text, _ := eval[string](ctx, `document.querySelector(".twin .chapter-say").innerText`); !strings.HasPrefix(text, "Here is a handwritten digit") {
		t.Errorf("the English reader sees %.60q", text)
	}
	if shown, _ := eval[bool](ctx, `document.getElementById("lesson-digit").checkVisibility({visibilityProperty: true})`); !shown {
		t.Error("the still digit is hidden while the program loads")
	}
}

// TestLessonOnAPhone: at 390×844, every chapter reads top to bottom with
// its live panels, with nothing wider than the phone.
func TestLessonOnAPhone(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := openOnScreen(t, lessonURL(srv, 1, "&lang=en"), 2*time.Minute, 390, 844, true)
	for n := 1; n <= chapterCount; n++ {
		gotoChapter(t, ctx, n)
		wide, err := eval[[]string](ctx, `(() => {
			const w = document.documentElement.clientWidth, out = [];
			for (const e of document.querySelectorAll("body *")) {
				const r = e.getBoundingClientRect();
				// A formula too wide for the phone scrolls in its own box.
				if (r.right > w + 1 && e.checkVisibility() && !e.closest(".formula")) out.push(e.tagName + "#" + e.id + "." + e.className);
			}
			if (document.documentElement.scrollWidth > w) out.push("the page: " + document.documentElement.scrollWidth + " px wide");
			return out.slice(0, 8);
		})()`)
		if err != nil || len(wide) > 0 {
			t.Errorf("chapter %d is wider than the phone: %v %v", n, wide, err)
		}
		order, _ := eval[bool](ctx, `(() => { const t = document.querySelector(".chapter-text").getBoundingClientRect(), l = document.querySelector(".chapter-live").getBoundingClientRect(); return l.top >= t.bottom - 1; })()`)
		if !order {
			t.Errorf("chapter %d: the live panels are not below the text", n)
		}
	}
}

// BenchmarkLessonKey measures the time from a key press (→) to the next
// chapter drawn: from the page's mark when the key asked for a chapter to
// the first frame after the chapter's render (softmax:lesson-shown), by
// the page's clock, over the eight chapters and back.
//
//	go test -run '^$' -bench LessonKey -benchtime 20x ./tools/browsertest/
func BenchmarkLessonKey(b *testing.B) {
	needBrowser(b)
	logCPU(b)
	srv := startServer(b)
	ctx := lessonBrowser(b, 10*time.Minute)
	alone(b, ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(lessonURL(srv, 2, "&epochs=1&pace=full&lang=en"))); err != nil {
		b.Fatal(err)
	}
	waitState(b, ctx, 60*time.Second, "ready")
	if err := chromedp.Do(ctx, chromedp.Click("#lesson-train")); err != nil {
		b.Fatal(err)
	}
	waitState(b, ctx, 60*time.Second, "done")
	var ms []float64
	n := 2
	for b.Loop() {
		key, next := kb.ArrowRight, n+1
		if n == chapterCount {
			key, next = kb.Home, 1
		}
		b.StopTimer()
		eval[bool](ctx, `performance.clearMarks(), true`)
		b.StartTimer()
		if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
			b.Fatal(err)
		}
		waitChapter(b, ctx, next)
		var d float64
		eventually(5*time.Second, func() bool {
			var err error
			d, err = eval[float64](ctx, `(() => { const k = performance.getEntriesByName("softmax:lesson-key").pop(), s = performance.getEntriesByName("softmax:lesson-shown").pop(); return k && s && s.startTime > k.startTime ? s.startTime - k.startTime : 0; })()`)
			return err == nil && d > 0
		})
		b.StopTimer()
		ms = append(ms, d)
		n = next
		b.StartTimer()
	}
	b.ReportMetric(median(ms), "ms/chapter")
	b.ReportMetric(slicesMax(ms), "ms-longest")
}

// BenchmarkFirstChapterNetwork is a first visit of a bare link (the
// lesson's first chapter) on the emulated networks of classroomNetworks,
// through BenchmarkPageReadyNetwork's shaper: the median time until the
// chapter's text is on screen (the Element Timing of its paragraph, by
// the page's clock), the bytes the network had carried by then, and the
// time to ready beside them.
//
//	go test -run '^$' -bench FirstChapterNetwork -benchtime 3x ./tools/browsertest/
func BenchmarkFirstChapterNetwork(b *testing.B) {
	needBrowser(b)
	logCPU(b)
	srv := startServer(b)
	for _, n := range classroomNetworks {
		b.Run(n.name, func(b *testing.B) {
			latency := time.Duration(n.latencyMS * float64(time.Millisecond))
			sh := startShaper(b, srv.URL, latency, n.mbit*1e6/8)
			var text, textBytes, ready, readyBytes []float64
			for b.Loop() {
				b.StopTimer()
				ctx := lessonBrowser(b, 3*time.Minute)
				alone(b, ctx)
				probeReady(b, ctx)
				beforeScripts(b, ctx, `new PerformanceObserver(l => { for (const e of l.getEntries()) if (e.identifier === "chapter" && !globalThis.softmaxChapterAt) globalThis.softmaxChapterAt = e.renderTime || e.loadTime; }).observe({type: "element", buffered: true});`)
				sh.reset()
				b.StartTimer()
				if err := chromedp.Do(ctx, chromedp.Navigate(sh.URL)); err != nil {
					b.Fatal(err)
				}
				waitState(b, ctx, 2*time.Minute, "ready")
				b.StopTimer()
				at := readyTimes(b, ctx)
				chapter, err := eval[float64](ctx, `globalThis.softmaxChapterAt || 0`)
				if err != nil || chapter <= 0 {
					b.Fatalf("the chapter's text was never reported on screen: %v", err)
				}
				origin, _ := eval[float64](ctx, `performance.timeOrigin`)
				wall := func(ms float64) time.Time { return time.UnixMicro(int64((origin + ms) * 1000)) }
				text = append(text, math.Round(chapter))
				textBytes = append(textBytes, float64(sh.sentBy(wall(chapter))))
				ready = append(ready, math.Round(at["ready"]))
				readyBytes = append(readyBytes, float64(sh.sentBy(wall(at["ready"]))))
				closeBrowser(b, ctx)
				b.StartTimer()
			}
			b.ReportMetric(median(text), "ms-to-chapter")
			b.ReportMetric(median(textBytes)/1e3, "kB-to-chapter")
			b.ReportMetric(median(ready), "ms-to-ready")
			b.ReportMetric(median(readyBytes)/1e3, "kB-to-ready")
		})
	}
}

// blockURLs makes the tab fail requests whose URL matches pattern (the
// URLPattern syntax), as a network that never delivers them would.
func blockURLs(ctx context.Context, tg *chromedp.Target, pattern string) error {
	if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
		return err
	}
	_, err := cdp.Call(ctx, tg, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: []*network.BlockPattern{{URLPattern: pattern, Block: true}}})
	return err
}

// median returns the median of v (the mean of the middle two for an even
// count), 0 for none.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// TestFullPageShowsNoTeX: the full page, trained, with a drawing read, the
// inspector filled and H computed, shows
// its formulas as MathML and no TeX, in both languages.
func TestFullPageShowsNoTeX(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := openReady(t, strings.TrimSuffix(srv.URL, "/")+"/#epochs=1&pace=full&lang=en")
	trainDefault(t, ctx)
	drawn(t, ctx, strokeSeven...) // the drawing read, its contributions shown
	click(t, ctx, "inspect-train")
	waitAttr(t, ctx, 20*time.Second, "#inspect", "data-state", is("filled"))
	click(t, ctx, "hessian-show")
	waitVisible(t, ctx, "#hessian-why")
	for _, lang := range []string{"en", "zh"} {
		if _, err := eval[bool](ctx, fmt.Sprintf(`(s => { s.value = %q; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })(document.getElementById("lang"))`, lang)); err != nil {
			t.Fatal(err)
		}
		waitAttr(t, ctx, 5*time.Second, "html", "lang", func(v string) bool { return strings.HasPrefix(v, lang) })
		if msg, _ := eval[string](ctx, rawTeX); msg != "" {
			t.Errorf("%s: the page shows TeX: %s", lang, msg)
		}
		n, err := eval[int](ctx, `(() => { const m = [...document.querySelectorAll("math")]; return m.every(e => e.namespaceURI === "http://www.w3.org/1998/Math/MathML") ? m.length : -1; })()`)
		if err != nil || n < 10 {
			t.Errorf("%s: %d MathML formulas on the full page (%v)", lang, n, err)
		}
	}
}
