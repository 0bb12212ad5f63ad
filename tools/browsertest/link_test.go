package browsertest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// followLink puts frag into the open page's address bar, as pasting a
// link with a new fragment does: the browser fires hashchange.
func followLink(t *testing.T, ctx context.Context, frag string) {
	t.Helper()
	if _, err := eval[bool](ctx, fmt.Sprintf(`location.hash = %q, true`, frag)); err != nil {
		t.Fatalf("following #%s: %v", frag, err)
	}
}

// waitValue waits until the control id holds want.
func waitValue(t *testing.T, ctx context.Context, id, want string) {
	t.Helper()
	var got string
	if !eventually(5*time.Second, func() bool {
		got, _ = eval[string](ctx, fmt.Sprintf(`document.getElementById(%q).value`, id))
		return got == want
	}) {
		t.Fatalf("#%s holds %q, want %q; page says: %s", id, got, want, pageText(ctx))
	}
}

// stepAdvances waits until the run in training, still run, has taken more
// steps than it had.
func stepAdvances(t *testing.T, ctx context.Context, run string) {
	t.Helper()
	before := attr(t, ctx, "#status", "data-step")
	if !eventually(20*time.Second, func() bool {
		return attr(t, ctx, "#status", "data-step") != before
	}) {
		t.Fatalf("the run stopped at step %s; page says: %s", before, pageText(ctx))
	}
	if r, s := attr(t, ctx, "#status", "data-run"), attr(t, ctx, "#status", "data-state"); r != run || s != "training" {
		t.Fatalf("run %s is %q, want run %s training; page says: %s", r, s, run, pageText(ctx))
	}
}

// TestLinkIntoAnOpenPage: a link pasted into the open page applies as a
// fresh load would, over what the page shows; during a run, α, λ and the
// pace apply at once, a bad link gives the notice and keeps the run, and
// a link that would start a new run asks first and is undone if refused.
func TestLinkIntoAnOpenPage(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := openReady(t, strings.TrimSuffix(srv.URL, "/")+"/#lang=en&pace=10&epochs=1000")

	followLink(t, ctx, "lr=0.25&seed=7&l2=0.001&lang=zh")
	waitValue(t, ctx, "lr", "0.25")
	waitValue(t, ctx, "seed", "7")
	waitValue(t, ctx, "l2", "0.001")
	waitValue(t, ctx, "lang", "zh")
	waitValue(t, ctx, "epochs", "1000") // not in the link: kept
	if l := attr(t, ctx, "html", "lang"); l != "zh-CN" {
		t.Errorf("the document's language is %q after lang=zh", l)
	}
	if h, _ := eval[string](ctx, `location.hash`); !strings.Contains(h, "seed=7") || !strings.Contains(h, "epochs=1000") || !strings.Contains(h, "lang=zh") {
		t.Errorf("the link is %q, not the page's settings", h)
	}
	if n := attr(t, ctx, "#notice", "class"); !strings.Contains(n, "empty") {
		t.Errorf("a valid link gave a notice: %s", pageText(ctx))
	}
	followLink(t, ctx, "lang=en")
	waitValue(t, ctx, "lang", "en")

	click(t, ctx, "train")
	waitState(t, ctx, 30*time.Second, "training")
	run := attr(t, ctx, "#status", "data-run")

	t.Run("α, λ and the pace apply at once", func(t *testing.T) {
		followLink(t, ctx, "lr=0.3&l2=0.0005&pace=50")
		waitValue(t, ctx, "lr", "0.3")
		waitValue(t, ctx, "l2", "0.0005")
		waitValue(t, ctx, "pace", "50")
		if c := attr(t, ctx, "#link-ask", "class"); !strings.Contains(c, "empty") {
			t.Errorf("α, λ and the pace asked before applying")
		}
		stepAdvances(t, ctx, run)
	})

	t.Run("a bad link gives the notice and keeps the run", func(t *testing.T) {
		followLink(t, ctx, "lr=abc&batch=-3")
		var notice string
		if !eventually(5*time.Second, func() bool {
			notice, _ = eval[string](ctx, `document.getElementById("notice").innerText`)
			return strings.Contains(notice, "lr") && strings.Contains(notice, "batch")
		}) {
			t.Fatalf("the notice %q does not name lr and batch", notice)
		}
		if !strings.Contains(notice, "kept their values") {
			t.Errorf("the notice %q does not say the settings were kept", notice)
		}
		waitValue(t, ctx, "lr", "0.3")
		waitValue(t, ctx, "batch", "100")
		stepAdvances(t, ctx, run)
		if h, _ := eval[string](ctx, `location.hash`); !strings.Contains(h, "lr=0.3&") || !strings.Contains(h, "batch=100&") {
			t.Errorf("after the bad link the address bar says %q", h)
		}
		click(t, ctx, "notice-ok")
	})

	t.Run("a new seed asks, and Keep keeps the run and its link", func(t *testing.T) {
		followLink(t, ctx, "seed=9")
		if !eventually(5*time.Second, func() bool { return !strings.Contains(attr(t, ctx, "#link-ask", "class"), "empty") }) {
			t.Fatalf("no question; page says: %s", pageText(ctx))
		}
		if r := attr(t, ctx, "#link-ask", "role"); r != "alertdialog" {
			t.Errorf("the question's role is %q", r)
		}
		if f, _ := eval[string](ctx, `document.activeElement.id`); f != "link-keep" {
			t.Errorf("the focus is on %q, not on Keep", f)
		}
		stepAdvances(t, ctx, run) // asking does not stop the run
		click(t, ctx, "link-keep")
		if !eventually(5*time.Second, func() bool { return strings.Contains(attr(t, ctx, "#link-ask", "class"), "empty") }) {
			t.Fatal("Keep left the question open")
		}
		waitValue(t, ctx, "seed", "7")
		if h, _ := eval[string](ctx, `location.hash`); !strings.Contains(h, "seed=7&") {
			t.Errorf("after Keep the address bar says %q", h)
		}
		stepAdvances(t, ctx, run)
	})

	t.Run("Apply pauses the run and takes the link", func(t *testing.T) {
		followLink(t, ctx, "seed=9&method=gd")
		if !eventually(5*time.Second, func() bool { return !strings.Contains(attr(t, ctx, "#link-ask", "class"), "empty") }) {
			t.Fatalf("no question; page says: %s", pageText(ctx))
		}
		click(t, ctx, "link-apply")
		waitState(t, ctx, 30*time.Second, "paused")
		waitValue(t, ctx, "seed", "9")
		waitValue(t, ctx, "method", "gd")
		if h, _ := eval[string](ctx, `location.hash`); !strings.Contains(h, "seed=9&") || !strings.Contains(h, "method=gd&") {
			t.Errorf("after Apply the address bar says %q", h)
		}
		if r := attr(t, ctx, "#status", "data-run"); r != run {
			t.Errorf("Apply replaced run %s by %s before Train", run, r)
		}
	})
}
