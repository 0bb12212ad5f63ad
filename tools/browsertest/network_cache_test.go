package browsertest

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// staticHosts are the cache headers the site meets: tools/serve's
// (Cache-Control: no-cache, with ETags, so that every reuse is a
// revalidation) and GitHub Pages' (max-age=600, with ETags and
// Last-Modified: ten minutes without asking).
var staticHosts = []struct {
	name         string
	cacheControl string // "" keeps tools/serve's own headers
}{
	{"no-cache with ETags (tools/serve)", ""},
	{"max-age=600 (GitHub Pages)", "max-age=600"},
}

// startStaticHost serves the repository's site through tools/serve,
// logged to log, with every response's Cache-Control replaced by
// cacheControl unless it is "".
func startStaticHost(t testing.TB, cacheControl string, log *requestLog) string {
	t.Helper()
	srv := startServerWith(t, root, log)
	if cacheControl == "" {
		return srv.URL
	}
	p := startProxy(t, srv.URL, func(w http.ResponseWriter, r *http.Request, site http.Handler) {
		site.ServeHTTP(cacheHeader{w, cacheControl}, r)
	})
	return p.URL + "/"
}

// cacheHeader is a ResponseWriter that sends its own Cache-Control.
type cacheHeader struct {
	http.ResponseWriter
	value string
}

func (c cacheHeader) WriteHeader(status int) {
	c.Header().Set("Cache-Control", c.value)
	c.ResponseWriter.WriteHeader(status)
}

func (c cacheHeader) Write(b []byte) (int, error) {
	if c.Header().Get("Cache-Control") != c.value {
		c.WriteHeader(http.StatusOK)
	}
	return c.ResponseWriter.Write(b)
}

func (c cacheHeader) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// bodiesSent counts, per path, the responses the server sent with a body
// (status 200) among tools/serve's log lines.
func bodiesSent(lines []string) map[string]int {
	out := map[string]int{}
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) < 4 || f[1] != "GET" || f[3] != "200" {
			continue
		}
		path, _, _ := strings.Cut(f[2], "?")
		out[path]++
	}
	return out
}

// TestFirstVisitSendsEachFileOnce: on a first visit, under the cache
// headers of each static host, every file's body crosses the wire once:
// the service worker's cache is filled from the browser's HTTP cache
// (revalidated, 304, or still fresh), never by downloading a file again,
// and go-app's wasm_exec.js is the only one the page and its workers ask
// for.
func TestFirstVisitSendsEachFileOnce(t *testing.T) {
	needBrowser(t)
	for _, host := range staticHosts {
		t.Run(host.name, func(t *testing.T) {
			log := &requestLog{}
			url := startStaticHost(t, host.cacheControl, log)
			ctx := newBrowser(t, 3*time.Minute)
			if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
				t.Fatal(err)
			}
			waitState(t, ctx, 60*time.Second, "ready")
			if !eventually(60*time.Second, func() bool {
				why, _ := eval[string](ctx, `globalThis.softmaxPrecached || ""`)
				return why != ""
			}) {
				t.Fatal("the service worker did not cache the site")
			}
			trainDefault(t, ctx)
			lines := log.take()
			sent := bodiesSent(lines)
			for _, path := range []string{"/", "/web/app.wasm", "/web/data/default.mnpk", "/web/worker.js", "/wasm_exec.js"} {
				if sent[path] != 1 {
					t.Errorf("%s was sent %d times with its body, want once", path, sent[path])
				}
			}
			for path, n := range sent {
				if n > 1 {
					t.Errorf("%s was sent %d times with its body", path, n)
				}
			}
			if n := sent["/web/wasm_exec.js"]; n > 0 {
				t.Errorf("/web/wasm_exec.js was sent %d times: the page and its workers share /wasm_exec.js", n)
			}
			if t.Failed() {
				t.Logf("the server's log:\n%s", strings.Join(lines, "\n"))
			}
		})
	}
}

// TestReturningVisitsUseTheCodeCache visits the page three times in one
// browser profile, a new browser each time, as a person who comes back
// another day, under the cache headers of each static host. Once the
// first visit is ready, its service worker has cached the site, and
// Chromium has stored V8's code for app.wasm (codeCached), the second and
// the third visits must take the program from that code cache
// (v8.wasm.moduleCacheHit in their traces) instead of compiling it again.
// How many functions they still compile on their first call
// (wasm.CompileLazy) depends on how soon V8's background threads compile
// the cached module's baseline code, that is on the machine's load, so
// this test logs it and BenchmarkPageVisitsCompiled measures it.
func TestReturningVisitsUseTheCodeCache(t *testing.T) {
	needBrowser(t)
	for _, host := range staticHosts {
		t.Run(host.name, func(t *testing.T) {
			url := startStaticHost(t, host.cacheControl, nil)
			profile := t.TempDir()
			var first compileFigures
			for visit := 1; visit <= 3; visit++ {
				ctx := browserWithProfile(t, profile, 3*time.Minute)
				beforeScripts(t, ctx, readyMark)
				evs := traceWhile(t, ctx, compileCategories, func() {
					if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
						t.Fatal(err)
					}
					waitState(t, ctx, 60*time.Second, "ready")
				})
				f := figuresOf(t, evs)
				switch visit {
				case 1:
					first = f
					if !eventually(60*time.Second, func() bool {
						why, _ := eval[string](ctx, `globalThis.softmaxPrecached || ""`)
						return why != ""
					}) {
						t.Fatal("the service worker did not cache the site")
					}
					if f.cached == 0 && !codeCached(profile, 90*time.Second) {
						t.Fatal("Chromium stored no compiled code for app.wasm during the first visit")
					}
				default:
					evs = append(evs, traceWhile(t, ctx, compileCategories, func() { time.Sleep(time.Second) })...)
					f = figuresOf(t, evs)
					if !f.cacheHit {
						t.Errorf("visit %d compiled app.wasm again instead of taking it from the code cache", visit)
					}
				}
				t.Logf("visit %d: %d functions compiled on their first call before ready (the first visit: %d); module from the code cache: %v",
					visit, f.lazyBefore, first.lazyBefore, f.cacheHit)
				closeBrowser(t, ctx)
			}
		})
	}
}
