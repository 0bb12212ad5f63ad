package browsertest

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"softmaxdemo/tools/internal/cpuinfo"
	"softmaxdemo/tools/internal/headless"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

var (
	chrome string // the browser binary, "" if none
	root   string // the site root: the repository
)

func TestMain(m *testing.M) {
	chrome = headless.Find()
	root, _ = filepath.Abs("../..")
	os.Exit(m.Run())
}

// needBrowser skips the test without a browser, or fails it under CI.
func needBrowser(t testing.TB) {
	t.Helper()
	if chrome == "" {
		msg := "no Chromium or Chrome found: install it (Debian: apt-get install -y chromium) or set CHROME to its path"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	for _, f := range []string{"web/app.wasm", "web/worker.js", "wasm_exec.js", "app.js", "app-worker.js"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Fatalf("%s is missing: run `make site` first (make test does)", f)
		}
	}
}

// logCPU heads a benchmark's figures with the processor they are figures
// of (its model, family and model number, from /proc/cpuinfo): the same
// build runs at different speeds on different CPU families; and with the
// machine's load average as it starts and, once it is done, as it ends.
// It prints them rather than logging them, so that they head the output
// whether or not the benchmark has sub-benchmarks, or -v.
func logCPU(b *testing.B) {
	b.Helper()
	fmt.Printf("%s: CPU: %s; load average at the start: %s\n", b.Name(), cpuinfo.This(), loadAverage())
	b.Cleanup(func() { fmt.Printf("%s: load average at the end: %s\n", b.Name(), loadAverage()) })
}

// loadAverage is the machine's load average over 1, 5 and 15 minutes, as
// /proc/loadavg says it, or why it cannot be read.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// openBrowsers counts the browsers the harness started and has not closed.
var openBrowsers atomic.Int32

// browserKey keys a browser's handle in its context.
type browserKey struct{}

// browserHandle is one browser the harness started: closed once.
type browserHandle struct{ closed atomic.Bool }

// close counts the browser closed, the first time only.
func (h *browserHandle) close() {
	if h.closed.CompareAndSwap(false, true) {
		openBrowsers.Add(-1)
	}
}

// alone fails the benchmark unless the browser of ctx is the only one the
// harness has open: a figure timed beside an earlier visit's browser, its
// page still working, is a figure of both.
func alone(b *testing.B, ctx context.Context) {
	b.Helper()
	if n := openBrowsers.Load(); n != 1 || ctx.Value(browserKey{}) == nil {
		b.Fatalf("%d browsers are open while one run is timed: close each before the next (closeBrowser)", n)
	}
}

// server is a running tools/serve.
type server struct {
	URL string
	cmd *exec.Cmd
	log *requestLog // nil unless started with logging
}

// startServer builds and starts tools/serve on a free port, serving the
// repository root.
func startServer(t testing.TB) *server {
	t.Helper()
	return startServerAt(t, root)
}

// startServerAt serves dir.
func startServerAt(t testing.TB, dir string) *server {
	t.Helper()
	return startServerWith(t, dir, nil)
}

// startServerWith serves dir, recording every request in log if not nil.
func startServerWith(t testing.TB, dir string, log *requestLog) *server {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "serve")
	if out, err := exec.Command("go", "build", "-o", bin, "../serve").CombinedOutput(); err != nil {
		t.Fatalf("building tools/serve: %v\n%s", err, out)
	}
	args := []string{"-addr", "127.0.0.1:0", "-root", dir, "-quiet"}
	if log != nil {
		args = args[:len(args)-1]
	}
	cmd := exec.Command(bin, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if log != nil {
		cmd.Stderr = log
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, log: log}
	t.Cleanup(s.stop)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the server's address: %v", err)
	}
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("unexpected first line from the server: %q", line)
	}
	s.URL = strings.TrimSpace(line[i:])
	return s
}

// startProxy starts a server in front of the server at upstream, closed
// when the test ends: serve answers each request, itself or by passing it
// on to site, a reverse proxy to upstream.
func startProxy(t testing.TB, upstream string, serve func(w http.ResponseWriter, r *http.Request, site http.Handler)) *httptest.Server {
	t.Helper()
	target, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	site := httputil.NewSingleHostReverseProxy(target)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { serve(w, r, site) }))
	t.Cleanup(s.Close)
	return s
}

// siteFile returns the file at the path rel below the site root.
func siteFile(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (s *server) stop() {
	if s.cmd.Process != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
}

// newBrowser starts headless Chromium with a fresh profile and returns a
// context for its first tab. Every test gets its own browser, so service
// workers and caches never leak between tests. A link without settings
// opens the full page in it, as for a person who left the lesson for the
// full page before (fullPageView); the lesson's tests use lessonBrowser.
func newBrowser(t testing.TB, timeout time.Duration) context.Context {
	t.Helper()
	ctx := lessonBrowser(t, timeout)
	beforeScripts(t, ctx, fullPageView)
	return ctx
}

// lessonBrowser is newBrowser without fullPageView: a bare link opens
// the lesson, as on a first visit.
func lessonBrowser(t testing.TB, timeout time.Duration) context.Context {
	t.Helper()
	return lessonBrowserWithProfile(t, t.TempDir(), timeout)
}

// lessonBrowserWithProfile is lessonBrowser on the profile in the
// directory profile, started with extra options.
func lessonBrowserWithProfile(tb testing.TB, profile string, timeout time.Duration, extra ...chromedp.ExecAllocatorOption) context.Context {
	tb.Helper()
	opts := append(headless.Options(chrome, profile), chromedp.WindowSize(1400, 1100))
	opts = append(opts, extra...)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx, chromedp.WithLogf(tb.Logf))
	ctx, cancelT := context.WithTimeout(ctx, timeout)
	h := &browserHandle{}
	openBrowsers.Add(1)
	ctx = context.WithValue(ctx, browserKey{}, h)
	tb.Cleanup(func() { cancelT(); cancelC(); cancelA(); h.close() })
	beforeScripts(tb, ctx, commandLog)
	return ctx
}

// fullPageView runs in every document before the page's scripts: the
// browser remembers the full page as the view a bare link opens (wasm/ui's
// bareView), unless something else is remembered.
const fullPageView = `(() => {
  try { if (!localStorage.getItem("softmax:view")) localStorage.setItem("softmax:view", "full"); } catch (e) {}
})();`

// closeBrowser closes the browser of ctx (from newBrowser) now rather than
// when the test ends: a benchmark that opens a browser per visit would
// otherwise measure each visit beside every browser before it, their pages
// still working (a worker's heartbeat, a service worker filling its cache).
func closeBrowser(tb testing.TB, ctx context.Context) {
	tb.Helper()
	if err := chromedp.Cancel(ctx); err != nil {
		tb.Logf("closing the browser: %v", err)
	}
	if h, ok := ctx.Value(browserKey{}).(*browserHandle); ok {
		h.close()
	}
}

// beforeScripts has the tab run src in every document it opens, before
// the document's own scripts.
func beforeScripts(tb testing.TB, ctx context.Context, src string) {
	tb.Helper()
	if err := send(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		tb.Fatal(err)
	}
}

// send has the tab of ctx run one DevTools command, and drops its result.
func send[P, R any](ctx context.Context, c cdp.Command[P, R], params P) error {
	return chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, c, params)
		return err
	}))
}

// openWith opens url in a new browser whose documents run src before
// their own scripts, and waits until the page is ready.
func openWith(t testing.TB, timeout time.Duration, url, src string) context.Context {
	t.Helper()
	ctx := newBrowser(t, timeout)
	beforeScripts(t, ctx, src)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, 60*time.Second, "ready")
	return ctx
}

// commandLog runs in every page before its scripts: it notes the type and
// time of each command the page posts to a worker, which failure messages
// show (pageText).
const commandLog = `(() => {
  const post = Worker.prototype.postMessage;
  const log = (globalThis.softmaxCommandLog = []);
  Worker.prototype.postMessage = function (m, ...rest) {
    try { log.push(JSON.parse(m.env).type + "@" + Math.round(performance.now())); } catch (e) {}
    return post.call(this, m, ...rest);
  };
})();`

// waitState waits until #status has data-state equal to one of states,
// failing with the page's status and error text if it takes longer than d.
func waitState(t testing.TB, ctx context.Context, d time.Duration, states ...string) string {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		state, err := eval[string](ctx, `(document.getElementById("status")||{getAttribute(){return ""}}).getAttribute("data-state")||""`)
		if err != nil {
			t.Fatalf("reading #status: %v", err)
		}
		for _, s := range states {
			if state == s {
				return state
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("status is %q after %v, want one of %v; page says: %s", state, d, states, pageText(ctx))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// pageText returns the status line, the error banner and the training
// fields with any reason shown beside them, for failure messages.
func pageText(ctx context.Context) string {
	status, _ := eval[string](ctx, `(document.getElementById("status")||{}).textContent||""`)
	errText, _ := eval[string](ctx, `(document.getElementById("error")||{}).textContent||""`)
	fields, _ := eval[string](ctx, `["lr", "batch", "l2", "epochs", "seed", "decay", "init", "pin"].map(id => {
		const e = document.getElementById(id), r = document.getElementById(id + "-error");
		return e ? id + "=" + (e.type === "checkbox" ? e.checked : JSON.stringify(e.value)) + (r && r.textContent ? " (" + r.textContent + ")" : "") : id + " missing";
	}).join(", ")`)
	sent, _ := eval[string](ctx, `(globalThis.softmaxCommandLog || []).slice(-8).join(" ")`)
	return fmt.Sprintf("status %q, error %q, fields %s; commands posted (ms since navigation): %s", status, errText, fields, sent)
}

// attr reads one attribute of the first element matching sel.
func attr(t testing.TB, ctx context.Context, sel, name string) string {
	t.Helper()
	v, err := eval[string](ctx, fmt.Sprintf(`(document.querySelector(%q)||{getAttribute(){return "<missing>"}}).getAttribute(%q)||""`, sel, name))
	if err != nil {
		t.Fatalf("reading %s[%s]: %v", sel, name, err)
	}
	return v
}

// setField replaces an input's text by typing, as a person would.
func setField(t testing.TB, ctx context.Context, id, value string) {
	t.Helper()
	sel := "#" + id
	if err := chromedp.Do(ctx,
		chromedp.Click(sel),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Evaluate[bool](fmt.Sprintf(`document.querySelector(%q).select(), true`, sel))(ctx, tg)
			return err
		}),
		chromedp.SendKeys(sel, "\b"),
		chromedp.SendKeys(sel, value),
	); err != nil {
		t.Fatalf("typing %q into %s: %v", value, sel, err)
	}
	var got string
	if !eventually(2*time.Second, func() bool {
		got, _ = eval[string](ctx, fmt.Sprintf(`document.querySelector(%q).value`, sel))
		return got == value
	}) {
		t.Fatalf("typed %q into %s, which now holds %q", value, sel, got)
	}
}

func click(t testing.TB, ctx context.Context, id string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click("#"+id)); err != nil {
		t.Fatalf("clicking #%s: %v", id, err)
	}
}

// benchSites returns the site roots a benchmark measures: those listed in
// PAGE_READY_SITES, comma-separated; or BASELINE_ROOT, a build to compare
// with (today's, say), and the repository, in that order; or else the
// repository.
func benchSites() []string {
	if s := os.Getenv("PAGE_READY_SITES"); s != "" {
		return strings.Split(s, ",")
	}
	if s := os.Getenv("BASELINE_ROOT"); s != "" {
		return []string{s, root}
	}
	return []string{root}
}

// serveSites serves each site root on a server of its own and returns
// their URLs, in the same order.
func serveSites(b *testing.B, sites []string) []string {
	urls := make([]string, len(sites))
	for i, dir := range sites {
		urls[i] = startServerAt(b, dir).URL
	}
	return urls
}

// benchStart readies a benchmark of the sites benchSites names: it skips
// without a browser, heads the output with the CPU (logCPU) and serves each
// site on a server of its own. It returns the site roots and their URLs,
// in the same order.
func benchStart(b *testing.B) (sites, urls []string) {
	b.Helper()
	needBrowser(b)
	logCPU(b)
	sites = benchSites()
	return sites, serveSites(b, sites)
}

// rotate calls visit(round, i) for every i below n in each round of the
// benchmark, in an order that rotates from round to round, so that the
// machine's noise falls on all alike. The timer is stopped around each
// visit: visit starts it for what it measures, and stops it again.
func rotate(b *testing.B, n int, visit func(round, i int)) {
	for round := 0; b.Loop(); round++ {
		for k := range n {
			i := (k + round) % n
			b.StopTimer()
			visit(round, i)
			b.StartTimer()
		}
	}
}

// siteSuffix ends the unit of a metric of site number i (of n): nothing
// for the only site, "-site1", "-site2" and so on for more.
func siteSuffix(i, n int) string {
	if n > 1 {
		return fmt.Sprintf("-site%d", i+1)
	}
	return ""
}

// upperMedian returns the middle value of v, the upper of the two middle
// ones for an even count: the median the benchmarks report.
func upperMedian(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// fullScreenshot writes a PNG of the whole page to path.
func fullScreenshot(t testing.TB, ctx context.Context, path string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](ctx context.Context, js string) (T, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[T](js))
}

// eventually polls check until it reports true or d passes; the page
// reacts to input on its own goroutine, a moment after the event.
func eventually(d time.Duration, check func() bool) bool {
	deadline := time.Now().Add(d)
	for !check() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(30 * time.Millisecond)
	}
	return true
}

// copySite copies the built site (go-app's files and web/, without the
// optional full pack) into a temporary directory that a test may break.
func copySite(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	copyFile := func(rel string) {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"index.html", "app.js", "app-worker.js", "app.css", "manifest.webmanifest", "wasm_exec.js"} {
		copyFile(f)
	}
	err := filepath.WalkDir(filepath.Join(root, "web"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if filepath.Base(rel) == "full.mnpk" || strings.HasSuffix(rel, ".gz") || strings.HasSuffix(rel, ".br") {
			return nil
		}
		copyFile(rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// evalAsync evaluates an expression that returns a promise, awaiting it.
func evalAsync[T any](ctx context.Context, js string) (T, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
}
