package browsertest

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"softmaxdemo/wasm/ui/i18n"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// preferLanguage makes the browser prefer the languages in accept (an
// Accept-Language value such as "zh-CN,zh"), as a browser set up in that
// language does: navigator.languages follows.
func preferLanguage(t *testing.T, ctx context.Context, accept string) {
	t.Helper()
	ua, err := eval[string](ctx, `navigator.userAgent`)
	if err != nil {
		t.Fatal(err)
	}
	if err := send(ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: accept}); err != nil {
		t.Fatalf("setting the browser's language to %s: %v", accept, err)
	}
}

// visibleText is what a person can read on the page: the body's rendered
// text and the labels screen readers read, without the language switch
// (which names each language in itself).
const visibleText = `(() => {
	const sw = document.getElementById("lang");
	const hidden = sw ? sw.outerHTML : "";
	let s = document.body.innerText;
	for (const o of (sw ? sw.options : [])) s = s.split(o.text).join(" ");
	for (const e of document.querySelectorAll("[aria-label], [title]")) {
		if (sw && sw.contains(e)) continue;
		s += " " + (e.getAttribute("aria-label") || "") + " " + (e.getAttribute("title") || "");
	}
	return s + " " + document.title;
})()`

// englishWords returns the words of the English catalog that the Chinese
// one does not use itself (names such as MNIST or WebAssembly, which both
// keep), lower case.
func englishWords() map[string]bool {
	zh := map[string]bool{}
	word := regexp.MustCompile(`[A-Za-z]{3,}`)
	for _, v := range i18n.Catalog("zh") {
		for _, w := range word.FindAllString(v, -1) {
			zh[strings.ToLower(w)] = true
		}
	}
	out := map[string]bool{}
	for _, v := range i18n.Catalog("en") {
		v = regexp.MustCompile(`%(\[\d+\])?[-+# 0-9.]*[a-zA-Z]`).ReplaceAllString(v, " ")
		for _, w := range word.FindAllString(v, -1) {
			if w = strings.ToLower(w); !zh[w] {
				out[w] = true
			}
		}
	}
	return out
}

var han = regexp.MustCompile(`\p{Han}`)

// TestChineseBrowserGetsChinese: a browser that prefers Chinese opens the
// page in Chinese, with no English from the English catalog on it;
// switching to English in the middle of a run keeps the run going and
// changes every string, and the choice is remembered.
func TestChineseBrowserGetsChinese(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := newBrowser(t, 4*time.Minute)
	preferLanguage(t, ctx, "zh-CN,zh")
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, 60*time.Second, "ready")
	if l := attr(t, ctx, "#lang", "value"); l != "" {
		t.Logf("#lang value attribute %q", l)
	}
	if v, _ := eval[string](ctx, `document.getElementById("lang").value`); v != "zh" {
		t.Errorf("the language switch shows %q, want zh", v)
	}
	english := englishWords()
	text, err := eval[string](ctx, visibleText)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, w := range regexp.MustCompile(`[A-Za-z]{3,}`).FindAllString(text, -1) {
		if english[strings.ToLower(w)] {
			found = append(found, w)
		}
	}
	if len(found) > 0 {
		t.Errorf("the Chinese page shows English words %v in: %s", found, text)
	}
	if !strings.Contains(text, "准备就绪") || !strings.Contains(text, "学习率 α") {
		t.Errorf("the page does not read as Chinese: %s", text)
	}

	// Switch to English in the middle of a long run.
	setField(t, ctx, "epochs", "400")
	click(t, ctx, "train")
	waitState(t, ctx, 5*time.Second, "training")
	run, step := attr(t, ctx, "#status", "data-run"), attr(t, ctx, "#status", "data-step")
	choose(t, ctx, "lang", "en")
	var en string
	if !eventually(5*time.Second, func() bool {
		en, _ = eval[string](ctx, visibleText)
		return !han.MatchString(en) && strings.Contains(en, "Test accuracy")
	}) {
		t.Errorf("after switching to English the page still shows Chinese: %q", han.FindAllString(en, 20))
	}
	if !eventually(5*time.Second, func() bool { return attr(t, ctx, "#status", "data-step") != step }) {
		t.Error("the run stopped moving when the language changed")
	}
	if s, r := attr(t, ctx, "#status", "data-state"), attr(t, ctx, "#status", "data-run"); s != "training" || r != run {
		t.Errorf("after the switch the status is %s in run %s, want training in run %s", s, r, run)
	}
	if v, _ := eval[string](ctx, `document.getElementById("epochs").value`); v != "400" {
		t.Errorf("the switch changed the typed epochs to %q", v)
	}
	if l, _ := eval[string](ctx, `document.documentElement.lang + " " + document.title`); !strings.HasPrefix(l, "en Softmax regression") {
		t.Errorf("the document's language and title are %q", l)
	}
	click(t, ctx, "pause")
	waitState(t, ctx, 5*time.Second, "paused")

	// The choice is remembered: a reload without lang in the link stays
	// in English, although the browser prefers Chinese. (The paused run's
	// model was kept, so the page comes back with it, paused: "ready" is
	// only the moment between the pack and the kept model.)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, 60*time.Second, "ready", "paused")
	if v, _ := eval[string](ctx, `document.getElementById("lang").value`); v != "en" {
		t.Errorf("after a reload the page speaks %q, want the chosen en", v)
	}
}

// linkFields reads every setting a link carries from the page's controls.
func linkFields(t *testing.T, ctx context.Context) map[string]string {
	t.Helper()
	got, err := eval[map[string]string](ctx, `Object.fromEntries(["method", "lr", "batch", "l2", "epochs", "seed", "decay", "init", "newton-iters", "grad-tol", "cg-steps", "pace", "lang"].map(id => [id, document.getElementById(id).value]).concat(["pin", "deskew"].map(id => [id, document.getElementById(id).checked ? "1" : "0"])))`)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestLinkRoundTrips: a link with every setting fills every control; the
// page's own link (Copy link) is the same link; typing a new value updates
// the link without adding history entries.
func TestLinkRoundTrips(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	const frag = "method=sgd&lr=0.25&batch=50&l2=0.001&epochs=2&seed=7&decay=0.5&init=normal&pin=1&deskew=0&iters=20&gtol=1e-5&cg=250&pace=10&data=default&lang=en"
	ctx := openReady(t, strings.TrimSuffix(srv.URL, "/")+"/#"+frag)
	want := map[string]string{"method": "sgd", "lr": "0.25", "batch": "50", "l2": "0.001", "epochs": "2", "seed": "7", "decay": "0.5", "init": "normal", "pin": "1", "deskew": "0",
		"newton-iters": "20", "grad-tol": "1e-5", "cg-steps": "250", "pace": "10", "lang": "en"}
	if got := linkFields(t, ctx); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the link filled %v, want %v", got, want)
	}
	if n := attr(t, ctx, "#notice", "class"); !strings.Contains(n, "empty") {
		t.Errorf("a valid link gave a notice: %s", pageText(ctx))
	}
	history, _ := eval[int](ctx, `history.length`)
	click(t, ctx, "copy-link")
	var link string
	if !eventually(3*time.Second, func() bool {
		link, _ = eval[string](ctx, `(document.getElementById("link")||{}).value||""`)
		return link != ""
	}) {
		t.Fatal("Copy link shows no link")
	}
	u, err := url.Parse(link)
	if err != nil || u.Fragment != frag {
		t.Errorf("the copied link is %q, want the fragment %q", link, frag)
	}
	setField(t, ctx, "lr", "0.3")
	if !eventually(3*time.Second, func() bool {
		h, _ := eval[string](ctx, `location.hash`)
		return strings.Contains(h, "lr=0.3&")
	}) {
		h, _ := eval[string](ctx, `location.hash`)
		t.Errorf("after typing α = 0.3 the link is %q", h)
	}
	setField(t, ctx, "lr", "abc")
	// The page has handled the value once it shows why it refuses it.
	if !eventually(30*time.Second, func() bool {
		r, _ := eval[string](ctx, `document.getElementById("lr-error").textContent`)
		return r != ""
	}) {
		t.Fatal("α = abc shows no reason for its refusal")
	}
	if h, _ := eval[string](ctx, `location.hash`); !strings.Contains(h, "lr=0.3&") {
		t.Errorf("a refused value reached the link: %q", h)
	}
	if h, _ := eval[int](ctx, `history.length`); h != history {
		t.Errorf("editing the settings added %d history entries", h-history)
	}
}

// TestBadLinksFallBack: a value in a link that is invalid or out of range
// takes its default, with a notice that names it; nothing in a link can
// break the page or run code.
func TestBadLinksFallBack(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := newBrowser(t, 4*time.Minute)
	dialogs := 0
	var mu sync.Mutex
	if err := chromedp.Listen(ctx, func(ev any) {
		if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			mu.Lock()
			dialogs++
			mu.Unlock()
			go send(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}); err != nil {
		t.Fatal(err)
	}
	markup := `<img src=x onerror="document.title='pwned'">`
	tests := []struct {
		name, frag, field, def, names string
	}{
		{"a word as α", "lr=abc", "lr", "0.5", "lr"},
		{"a negative α", "lr=-1", "lr", "0.5", "lr"},
		{"a huge B", "batch=1e99", "batch", "100", "batch"},
		{"a negative seed", "seed=-3", "seed", "1", "seed"},
		{"an unknown dataset", "data=imagenet&epochs=3", "epochs", "3", "data"},
		{"an unknown language", "lang=xx", "lang", "en", "lang"},
		{"a 100 kB parameter", "lr=" + strings.Repeat("9", 100<<10), "lr", "0.5", "102,403"},
		{"markup in a value", "seed=" + url.QueryEscape(markup), "seed", "1", "seed"},
		{"markup as a key", url.QueryEscape(markup) + "=1", "lr", "0.5", "img"},
		{"an unknown pace", "pace=warp", "pace", "50", "pace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(strings.TrimSuffix(srv.URL, "/")+"/#"+tt.frag)); err != nil {
				t.Fatal(err)
			}
			waitState(t, ctx, 60*time.Second, "ready")
			if v, _ := eval[string](ctx, fmt.Sprintf(`document.getElementById(%q).value`, tt.field)); v != tt.def {
				t.Errorf("#%s holds %q, want %q", tt.field, v, tt.def)
			}
			var notice string
			if !eventually(3*time.Second, func() bool {
				notice, _ = eval[string](ctx, `document.getElementById("notice").innerText`)
				return strings.Contains(notice, tt.names)
			}) {
				t.Errorf("the notice %q does not name %q", notice, tt.names)
			}
			if len(notice) > 600 {
				t.Errorf("the notice is %d characters long", len(notice))
			}
			mu.Lock()
			d := dialogs
			mu.Unlock()
			if n, _ := eval[int](ctx, `document.querySelectorAll("img[src=x]").length`); n > 0 || d > 0 {
				t.Errorf("markup from the link ran: %d images, %d dialogs", n, d)
			}
			if title, _ := eval[string](ctx, `document.title`); title == "pwned" {
				t.Error("markup from the link ran")
			}
			click(t, ctx, "notice-ok")
			if !eventually(3*time.Second, func() bool { return strings.Contains(attr(t, ctx, "#notice", "class"), "empty") }) {
				t.Error("OK did not hide the notice")
			}
		})
	}
	// And the page is still usable.
	setField(t, ctx, "epochs", "1")
	trainRun(t, ctx, 60*time.Second)
}

// TestSameLinkSameWeights: two browsers opened on the same link train to
// the same weights, bit for bit: the same checksum of θ and b, the same
// final loss and the same test accuracy.
func TestSameLinkSameWeights(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	link := strings.TrimSuffix(srv.URL, "/") + "/#lr=0.4&batch=64&l2=0.0002&epochs=2&seed=11&decay=0.9&init=normal&pin=0&deskew=1&pace=full&lang=en"
	type result struct{ Checksum, Loss, Acc string }
	var results []result
	for range 2 {
		ctx := openReady(t, link)
		trainRun(t, ctx, 90*time.Second)
		// The final model: its checksum, the chart's summary and the
		// accuracy after the last epoch, final once the page says done
		// (it waits for the final step's evaluation; see settled).
		var r result
		if !eventually(60*time.Second, func() bool {
			r = result{attr(t, ctx, "#weights", "data-checksum"), attr(t, ctx, "#loss-chart", "aria-label"), attr(t, ctx, "#test-accuracy", "data-value")}
			return attr(t, ctx, "#status", "data-state") == "done" && r.Checksum != "" && strings.Contains(r.Loss, "after epoch 2.")
		}) {
			t.Fatalf("no final checksum or accuracy after training: %+v", r)
		}
		results = append(results, r)
	}
	if results[0] != results[1] {
		t.Errorf("the same link trained to different models:\n%+v\n%+v", results[0], results[1])
	}
}
