package browsertest

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// bypassServiceWorker makes the tab fetch from the server, not from the
// service worker's cache, so that a test can change files under it.
func bypassServiceWorker(t *testing.T, ctx context.Context) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, network.SetBypassServiceWorker, network.SetBypassServiceWorkerParams{Bypass: true})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
}

// retryRepaired checks that the error offers Retry, puts the good file back
// with repair, presses Retry and waits until the page is ready.
func retryRepaired(t *testing.T, ctx context.Context, repair func()) {
	t.Helper()
	if a := attr(t, ctx, "#error", "data-action"); a != "retry" {
		t.Fatalf("the error offers %q, want retry", a)
	}
	repair()
	click(t, ctx, "retry")
	waitState(t, ctx, 30*time.Second, "ready")
}

func errorText(ctx context.Context) string {
	s, _ := eval[string](ctx, `document.getElementById("error").textContent`)
	return s
}

// openBroken serves a copy of the site whose file rel is replaced by what
// breakFile makes of it, and opens the page as a first visit that bypasses
// the service worker. It returns the browser and a function that puts the
// good file back, as a person fixing the network or the build would.
func openBroken(t *testing.T, rel string, breakFile func(good []byte) []byte) (ctx context.Context, repair func(), site string) {
	t.Helper()
	site = copySite(t)
	path := filepath.Join(site, rel)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, breakFile(good), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServerAt(t, site)
	ctx = newBrowser(t, 2*time.Minute)
	bypassServiceWorker(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	return ctx, func() {
		if err := os.WriteFile(path, good, 0o644); err != nil {
			t.Fatal(err)
		}
	}, site
}

func TestCorruptDataOffersRetry(t *testing.T) {
	needBrowser(t)
	ctx, repair, _ := openBroken(t, "web/data/default.mnpk", func(good []byte) []byte {
		bad := append([]byte(nil), good...)
		for i := len(bad) / 2; i < len(bad)/2+64; i++ {
			bad[i] ^= 0xff
		}
		return bad
	})
	waitState(t, ctx, 60*time.Second, "error")
	if msg := errorText(ctx); !strings.Contains(msg, "checksum mismatch") {
		t.Errorf("the page says %q, want it to name the checksum mismatch", msg)
	}
	retryRepaired(t, ctx, repair)
	if msg := errorText(ctx); msg != "" {
		t.Errorf("after a successful retry the page still says %q", msg)
	}
	trainDefault(t, ctx)
}

// TestCorruptManifestOffersRetry: a list of datasets that is not JSON
// (read first by web/boot.js, then by the page) is reported with Retry,
// and Retry fetches it again rather than reusing what boot.js read.
func TestCorruptManifestOffersRetry(t *testing.T) {
	needBrowser(t)
	ctx, repair, _ := openBroken(t, "web/data/manifest.json", func(good []byte) []byte { return good[:len(good)/2] })
	waitState(t, ctx, 60*time.Second, "error")
	if msg := errorText(ctx); !strings.Contains(strings.ToLower(msg), "could not read the list of datasets") {
		t.Errorf("the page says %q, want it to say the list of datasets is unreadable", msg)
	}
	retryRepaired(t, ctx, repair)
	trainDefault(t, ctx)
}

func TestBrokenWorkerOffersRestart(t *testing.T) {
	needBrowser(t)
	ctx, repair, site := openBroken(t, "web/worker.js", func([]byte) []byte { return []byte("this is not JavaScript") })
	waitState(t, ctx, 60*time.Second, "error")
	if a := attr(t, ctx, "#error", "data-action"); a != "restart" {
		t.Fatalf("the error (%q) offers %q, want restart", errorText(ctx), a)
	}
	repair()
	// The new worker is handed the program the page compiled: with
	// app.wasm gone from the server it must still start and train.
	for _, f := range []string{"app.wasm", "app.wasm.gz", "app.wasm.br"} {
		if err := os.Remove(filepath.Join(site, "web", f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}
	click(t, ctx, "restart")
	waitState(t, ctx, 60*time.Second, "ready")
	trainDefault(t, ctx)
}

func TestDivergenceIsReportedAndResetRecovers(t *testing.T) {
	ctx := openPage(t)
	setField(t, ctx, "lr", "1000")
	setField(t, ctx, "l2", "10")
	trainRun(t, ctx, 60*time.Second) // a diverged run ends "done"
	var msg string
	if !eventually(5*time.Second, func() bool {
		msg = errorText(ctx)
		return strings.Contains(msg, "diverged") && strings.Contains(strings.ToLower(msg), "learning rate")
	}) {
		t.Errorf("after divergence the page says %q", msg)
	}
	if s, _ := eval[string](ctx, `document.getElementById("status").textContent`); !strings.Contains(s, "diverged") {
		t.Errorf("the status says %q", s)
	}
	setField(t, ctx, "lr", "0.5")
	setField(t, ctx, "l2", "0.0001")
	click(t, ctx, "reset")
	if !eventually(5*time.Second, func() bool { return errorText(ctx) == "" }) {
		t.Errorf("Reset left the error %q", errorText(ctx))
	}
	trainDefault(t, ctx)
	if acc := attr(t, ctx, "#test-accuracy", "data-value"); acc < "0.85" {
		t.Errorf("after recovering, test accuracy %s", acc)
	}
}

// TestWorksOffline: after one visit, the page loads and trains with the
// server gone, from the service worker's cache, which it filled once the
// page was ready.
func TestWorksOffline(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := openReady(t, srv.URL)
	cached := func() bool {
		ok, _ := evalAsync[bool](ctx, `(async () => {
			const reg = await navigator.serviceWorker.getRegistration();
			if (!reg || !reg.active) return false;
			for (const k of await caches.keys()) {
				const c = await caches.open(k);
				if (await c.match("/web/app.wasm") && await c.match("/web/worker.js") && await c.match("/web/data/default.mnpk") && await c.match("/")) return true;
			}
			return false;
		})()`)
		return ok
	}
	if !eventually(60*time.Second, cached) {
		t.Fatal("the service worker did not cache the page, the workers and the data")
	}
	// It waited for the page to be ready, and did not give up waiting.
	var why string
	eventually(10*time.Second, func() bool {
		why, _ = eval[string](ctx, `globalThis.softmaxPrecached || ""`)
		return why != ""
	})
	if why != "the page was ready" {
		t.Errorf("the service worker cached the site because %q, want because the page was ready", why)
	}
	srv.stop()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatalf("reloading with the server gone: %v", err)
	}
	waitState(t, ctx, 60*time.Second, "ready")
	trainDefault(t, ctx)
}

// TestBrokenAppWasmIsShown: if the page's own WebAssembly cannot start, the
// page does not stay at "Loading…" in silence: go-app's loader comes up
// with the error and what to do.
func TestBrokenAppWasmIsShown(t *testing.T) {
	needBrowser(t)
	ctx, _, _ := openBroken(t, "web/app.wasm", func(good []byte) []byte { return good[:len(good)/3] })
	var shown struct {
		Display, Label string
	}
	if !eventually(30*time.Second, func() bool {
		shown, _ = eval[struct{ Display, Label string }](ctx, `(() => {
			const l = document.getElementById("app-wasm-loader");
			if (!l) return {display: "gone", label: ""};
		const after = getComputedStyle(document.getElementById("app-wasm-loader-label"), "::after").content;
		return {display: getComputedStyle(l).display, label: l.textContent.trim() + " " + after};
		})()`)
		return shown.Display != "none"
	}) {
		t.Fatalf("a truncated app.wasm left the loader hidden: %+v", shown)
	}
	if shown.Display == "gone" || !strings.Contains(strings.ToLower(shown.Label), "error") || !strings.Contains(shown.Label, "Reload") {
		t.Errorf("the loader is %q and says %q, want it shown with the error", shown.Display, shown.Label)
	}
	if testing.Verbose() {
		t.Logf("the loader says %q", shown.Label)
	}
}
