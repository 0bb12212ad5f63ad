package browsertest

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"softmaxdemo/wasm/session"

	"github.com/chromedp/chromedp"
)

// TestStalledDownloadOffersRetry: a server that takes the request for the
// default pack and never answers it. Within the worker's stall deadline
// (session.StallAfter, 15 s without a byte) the page says that the
// download stalled and offers Retry; the held request is closed, not left
// open; Retry asks again and the page is ready.
func TestStalledDownloadOffersRetry(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	var (
		mu       sync.Mutex
		requests int
		closed   = make(chan struct{}) // the held request was given up
	)
	hold := startProxy(t, srv.URL, func(w http.ResponseWriter, r *http.Request, site http.Handler) {
		// The training worker's requests (the service worker caches the
		// pack later, once the page is ready).
		if r.URL.Path == "/web/data/default.mnpk" && strings.HasSuffix(r.Referer(), "/web/worker.js") {
			mu.Lock()
			requests++
			first := requests == 1
			mu.Unlock()
			if first {
				<-r.Context().Done() // no header, no byte, until the page hangs up
				close(closed)
				return
			}
		}
		site.ServeHTTP(w, r)
	})

	ctx := newBrowser(t, 2*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate(strings.TrimSuffix(hold.URL, "/")+"/#lang=en")); err != nil {
		t.Fatal(err)
	}
	// The bound: the stall deadline, and as long again for the page to
	// start and show it on a busy machine.
	waitState(t, ctx, 2*session.StallAfter, "error")
	if a := attr(t, ctx, "#error", "data-action"); a != "retry" {
		t.Errorf("the stall offers %q, want retry", a)
	}
	if text := errorText(ctx); !strings.Contains(text, "stalled") || !strings.Contains(text, "15 seconds") {
		t.Errorf("the page says %q, want that the download stalled", text)
	}
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Error("the stalled request was left open")
	}
	click(t, ctx, "retry")
	waitState(t, ctx, 60*time.Second, "ready")
	mu.Lock()
	n := requests
	mu.Unlock()
	if n != 2 {
		t.Errorf("the pack was asked for %d times, want twice: the stalled request and Retry's", n)
	}
}

// TestStalledProgramIsShown: a server that sends the first half of the
// page's program, web/app.wasm, and then nothing. web/boot.js follows a
// branch of the download it compiles, and once no byte has come for
// softmaxStallAfter (15 s) it gives up: go-app's loader says that the
// download of app.wasm stalled (reloading is the remedy, which the loader
// says too).
func TestStalledProgramIsShown(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	program := siteFile(t, "web/app.wasm")
	var once sync.Once
	hold := startProxy(t, srv.URL, func(w http.ResponseWriter, r *http.Request, site http.Handler) {
		first := false
		if r.URL.Path == "/web/app.wasm" {
			once.Do(func() { first = true })
		}
		if !first {
			site.ServeHTTP(w, r) // the service worker's, which goes ahead after 10 s
			return
		}
		w.Header().Set("Content-Type", "application/wasm")
		w.Header().Set("Content-Length", strconv.Itoa(len(program)))
		w.Header().Set("Cache-Control", "no-store")
		w.Write(program[:len(program)/2])
		w.(http.Flusher).Flush()
		<-r.Context().Done() // nothing more, until the browser hangs up
	})

	ctx := newBrowser(t, 2*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate(strings.TrimSuffix(hold.URL, "/")+"/#lang=en")); err != nil {
		t.Fatal(err)
	}
	var label string
	if !eventually(2*session.StallAfter, func() bool {
		label, _ = eval[string](ctx, `(document.getElementById("app-wasm-loader-label") || {}).textContent || ""`)
		return strings.Contains(label, "stalled")
	}) {
		t.Fatalf("after %v the loader says %q, want that the download of app.wasm stalled", 2*session.StallAfter, label)
	}
	if !strings.Contains(label, "app.wasm") || !strings.Contains(label, "nothing arrived for 15 s") {
		t.Errorf("the loader says %q, want that nothing of app.wasm arrived for 15 s", label)
	}
	if shown, _ := eval[string](ctx, `getComputedStyle(document.getElementById("app-wasm-loader")).display`); shown == "none" {
		t.Error("the loader with the stall is hidden")
	}
}
