package browsertest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// consoleWatch collects what a visitor with the developer tools open would
// see as a problem: console errors and assertions, uncaught exceptions, the
// browser's own error entries (a failed resource is one), requests that
// failed and responses of status 400 or more.
type consoleWatch struct {
	mu       sync.Mutex
	urls     map[network.RequestID]string
	problems []string
}

// watchConsole starts collecting on the tab of ctx.
func watchConsole(t *testing.T, ctx context.Context) *consoleWatch {
	t.Helper()
	w := &consoleWatch{urls: map[network.RequestID]string{}}
	if err := chromedp.Listen(ctx, w.event); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, runtime.Enable, cdp.Empty{}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, tg, cdplog.Enable, cdp.Empty{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *consoleWatch) event(ev any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range e.Args {
				if a.Description != "" {
					args = append(args, a.Description)
				} else {
					args = append(args, string(a.Value))
				}
			}
			w.problems = append(w.problems, fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " ")))
		}
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		text := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			text += " " + d.Exception.Description
		}
		w.problems = append(w.problems, fmt.Sprintf("uncaught exception at %s:%d: %s", d.URL, d.LineNumber, text))
	case *cdplog.EventEntryAdded:
		if e.Entry.Level == cdplog.EntryLevelError {
			w.problems = append(w.problems, fmt.Sprintf("browser log (%s): %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL))
		}
	case *network.EventRequestWillBeSent:
		w.urls[e.RequestID] = e.Request.URL
	case *network.EventLoadingFailed:
		w.problems = append(w.problems, fmt.Sprintf("request for %s failed: %s (canceled %v, blocked %q)", w.urls[e.RequestID], e.ErrorText, e.Canceled, e.BlockedReason))
	case *network.EventResponseReceived:
		if e.Response.Status >= 400 {
			w.problems = append(w.problems, fmt.Sprintf("HTTP %d for %s", e.Response.Status, e.Response.URL))
		}
	}
}

// take returns the problems seen so far and forgets them.
func (w *consoleWatch) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := w.problems
	w.problems = nil
	return p
}

// check fails the test with every problem seen during step.
func (w *consoleWatch) check(t *testing.T, step string) {
	t.Helper()
	for _, p := range w.take() {
		t.Errorf("%s: %s", step, p)
	}
}

// serviceWorkerCached reports whether the service worker is active and has
// cached the page, its program, the worker and the default pack.
func serviceWorkerCached(ctx context.Context) bool {
	ok, _ := evalAsync[bool](ctx, `(async () => {
		const reg = await navigator.serviceWorker.getRegistration();
		if (!reg || !reg.active || !navigator.serviceWorker.controller) return false;
		for (const k of await caches.keys()) {
			const c = await caches.open(k);
			if (await c.match("/web/app.wasm") && await c.match("/web/worker.js") && await c.match("/web/data/default.mnpk") &&
				await c.match("/web/data/manifest.json") && await c.match("/")) return true;
		}
		return false;
	})()`)
	return ok
}

// TestConsoleStaysClean: a plain load, a short run, a reload and a reload
// with the network gone (the service worker serves the page) log no
// console error, no uncaught exception and no failed request, on the page
// and, through the server's log, for every request any of its workers
// made. The optional full pack is known from the manifest, never probed.
func TestConsoleStaysClean(t *testing.T) {
	needBrowser(t)
	log := &requestLog{}
	srv := startServerWith(t, root, log)
	serverCheck := func(step string) {
		t.Helper()
		for _, line := range log.take() {
			if f := strings.Fields(line); len(f) >= 4 && (strings.HasPrefix(f[3], "4") || strings.HasPrefix(f[3], "5")) || strings.Contains(line, "HEAD ") {
				t.Errorf("%s: the server answered %s", step, line)
			}
		}
	}
	ctx := newBrowser(t, 4*time.Minute)
	w := watchConsole(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(strings.TrimSuffix(srv.URL, "/")+"/#epochs=1&lang=en")); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, 60*time.Second, "ready")
	w.check(t, "plain load")
	serverCheck("plain load")

	trainRun(t, ctx, 60*time.Second)
	w.check(t, "a run")
	serverCheck("a run")

	if !eventually(60*time.Second, func() bool { return serviceWorkerCached(ctx) }) {
		t.Fatal("the service worker did not cache the site")
	}
	// The run's model is kept, so a reload restores it: a paused run,
	// whose "ready" may pass between two looks.
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, 60*time.Second, "ready", "paused")
	w.check(t, "reload")
	serverCheck("reload")

	srv.stop()
	if err := emulateNetwork(ctx, conditions{Offline: true}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, 60*time.Second, "ready", "paused")
	trainRun(t, ctx, 60*time.Second)
	w.check(t, "offline reload and a run")
}
