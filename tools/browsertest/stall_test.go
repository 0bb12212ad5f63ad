package browsertest

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
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
	target, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu       sync.Mutex
		requests int
		closed   = make(chan struct{}) // the held request was given up
	)
	proxy := httputil.NewSingleHostReverseProxy(target)
	hold := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(hold.Close)

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
