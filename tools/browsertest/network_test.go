package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"softmaxdemo/core/dataset"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// classroomNetworks are the networks BenchmarkPageReadyNetwork emulates: a
// school's Wi-Fi on a good day and on a busy one.
var classroomNetworks = []struct {
	name      string
	latencyMS float64
	mbit      float64 // down and up, megabits per second
}{
	{"10Mbit-40ms", 40, 10},
	{"4Mbit-80ms", 80, 4},
}

// phone is the CPU a first visit on a phone has, against this machine's:
// Chromium's CPU throttling of the page (Emulation.setCPUThrottlingRate)
// at this rate, on the first of classroomNetworks.
const phone = 4

// BenchmarkPageReadyNetwork is BenchmarkPageReady's first visit (a fresh
// profile: empty cache, no service worker) on the emulated networks of
// classroomNetworks, and on the first of them with the page's CPU slowed
// as a phone's (phone). It reports the median time to ready by the page's
// clock, the median bytes the network had carried to the browser by then
// (the shaper counts them, headers included), and the median size of the
// big files as sent (whole files: the pack's test images arrive after
// ready).
//
// Chromium's own emulation (Network.emulateNetworkConditionsByRule on the
// page's target, BenchmarkPageReadyEmulated) does not reach the page's
// dedicated worker, which fetches the data pack (a dedicated worker
// fetched it in 60 ms "at 4 Mbit/s", the page in 3.2 s), and delivers
// 70-80% of the throughput it is given even to a download alone
// (docs/network.md). So the browser talks to tools/serve
// through a proxy (startShaper) that delays each connection and each
// request by the latency and shares the throughput among all connections,
// page and workers alike. The bytes per file are those tools/serve logged
// (bodies, compressed as sent), since the page target's Network events
// miss the worker's requests too.
//
// PAGE_READY_SITES, as for BenchmarkPageReadyInterleaved, compares
// builds of the site (a copy built with other flags, say): one visit
// of each per round, in a rotating order, each reported on its own.
//
//	go test -run '^$' -bench PageReadyNetwork -benchtime 3x ./tools/browsertest/
//	PAGE_READY_SITES=$PWD,/tmp/site go test -run '^$' -bench PageReadyNetwork -benchtime 5x ./tools/browsertest/
func BenchmarkPageReadyNetwork(b *testing.B) {
	needBrowser(b)
	logCPU(b)
	sites := benchSites()
	logs := make([]*requestLog, len(sites))
	servers := make([]*server, len(sites))
	for i, dir := range sites {
		logs[i] = &requestLog{}
		servers[i] = startServerWith(b, dir, logs[i])
	}
	type link struct {
		name            string
		latencyMS, mbit float64
		cpu             float64 // the page's CPU slowed by this much, if not 0
	}
	var networks []link
	for _, n := range classroomNetworks {
		networks = append(networks, link{n.name, n.latencyMS, n.mbit, 0})
	}
	first := classroomNetworks[0]
	networks = append(networks, link{fmt.Sprintf("%s-phone-cpu%dx", first.name, phone), first.latencyMS, first.mbit, phone})
	for _, n := range networks {
		b.Run(n.name, func(b *testing.B) {
			latency := time.Duration(n.latencyMS * float64(time.Millisecond))
			shapers := make([]*shaper, len(sites))
			for i, srv := range servers {
				shapers[i] = startShaper(b, srv.URL, latency, n.mbit*1e6/8)
			}
			ready := make([][]float64, len(sites))
			onWire := make([][]float64, len(sites))
			perFile := make([]map[string][]float64, len(sites))
			for i := range perFile {
				perFile[i] = map[string][]float64{}
			}
			rotate(b, len(sites), func(round, i int) {
				ctx := newBrowser(b, 3*time.Minute)
				alone(b, ctx)
				probeReady(b, ctx)
				if n.cpu > 0 {
					throttleCPU(b, ctx, n.cpu)
				}
				logs[i].take()
				shapers[i].reset()
				b.StartTimer()
				if err := chromedp.Do(ctx, chromedp.Navigate(shapers[i].URL)); err != nil {
					b.Fatal(err)
				}
				waitState(b, ctx, 2*time.Minute, "ready")
				b.StopTimer()
				at := readyTimes(b, ctx)
				ready[i] = append(ready[i], math.Round(at["ready"]))
				origin, err := eval[float64](ctx, `performance.timeOrigin`)
				if err != nil {
					b.Fatal(err)
				}
				readyAt := time.UnixMicro(int64((origin + at["ready"]) * 1000))
				onWire[i] = append(onWire[i], float64(shapers[i].sentBy(readyAt)))
				time.Sleep(latency + time.Second) // the pack's test images arrive, and tools/serve logs the request
				if round == 0 {
					logTimeline(b, ctx, n.name, sites[i], at)
				}
				for p, v := range wireBytes(logs[i].take()) {
					perFile[i][p] = append(perFile[i][p], float64(v))
				}
				closeBrowser(b, ctx)
			})
			for i := range sites {
				reportNetworkVisits(b, n.name, sites[i], i, len(sites), ready[i], onWire[i], perFile[i])
			}
		})
	}
}

// throttleCPU has Chromium run the page's main thread rate times slower.
func throttleCPU(tb testing.TB, ctx context.Context, rate float64) {
	tb.Helper()
	if err := send(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
		tb.Fatalf("throttling the CPU %v×: %v", rate, err)
	}
}

// logTimeline logs, in the page's clock, when each of the page's own
// requests ended (Resource Timing: the worker's requests are in the
// worker's timeline, not here), the page's marks and ready.
func logTimeline(b *testing.B, ctx context.Context, network, site string, at map[string]float64) {
	entries, err := eval[[][2]any](ctx, `performance.getEntriesByType("resource").map(e => [new URL(e.name).pathname, Math.round(e.responseEnd)])`)
	if err != nil {
		b.Logf("resource timings: %v", err)
		return
	}
	var sb strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&sb, " %v@%v", e[0], e[1])
	}
	marks := make([]string, 0, len(at))
	for k, v := range at {
		marks = append(marks, fmt.Sprintf("%s@%.0f", k, v))
	}
	slices.Sort(marks)
	b.Logf("%s, %s, first visit: the page's requests ended (ms):%s; marks: %s", network, site, sb.String(), strings.Join(marks, " "))
}

// reportNetworkVisits logs and reports the first visits to site number i
// (of n) on the named network: the time to ready, the bytes the shaper had
// sent to the browser by then (headers included), and the size of each file
// as tools/serve sent it (whole files, some of them after ready).
func reportNetworkVisits(b *testing.B, network, site string, i, n int, ready, onWire []float64, perFile map[string][]float64) {
	suffix := siteSuffix(i, n)
	b.ReportMetric(upperMedian(ready), "ms-to-ready(median)"+suffix)
	b.ReportMetric(upperMedian(onWire), "bytes-until-ready"+suffix)
	ready = slices.Clone(ready)
	slices.Sort(ready)
	paths := make([]string, 0, len(perFile))
	for p := range perFile {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var sb strings.Builder
	total := 0.0
	for _, p := range paths {
		m := upperMedian(perFile[p])
		total += m
		fmt.Fprintf(&sb, "\n  %-28s %9.0f B", p, m)
	}
	b.Logf("%s, %s: ready at %v ms (sorted); %.0f bytes on the wire until ready (median); the files as sent (median per file, whole files), %.0f in all:%s",
		network, site, ready, upperMedian(onWire), total, sb.String())
	for _, f := range []string{"/web/app.wasm", "/web/data/default.mnpk"} {
		if v := perFile[f]; len(v) > 0 {
			b.ReportMetric(upperMedian(v), "bytes-"+f[strings.LastIndex(f, "/")+1:]+suffix)
		}
	}
}

// A shaper is a TCP proxy to a server that emulates a network (startShaper).
// It records how many bytes it has sent to the browser over time.
type shaper struct {
	URL  string
	mu   sync.Mutex
	sent []sentAt // cumulative, in order
}

type sentAt struct {
	t     time.Time
	total int64
}

// reset forgets the bytes sent so far: a new visit starts.
func (s *shaper) reset() {
	s.mu.Lock()
	s.sent = s.sent[:0]
	s.mu.Unlock()
}

// record notes that n more bytes went to the browser now.
func (s *shaper) record(n int) {
	s.mu.Lock()
	var total int64
	if k := len(s.sent); k > 0 {
		total = s.sent[k-1].total
	}
	s.sent = append(s.sent, sentAt{time.Now(), total + int64(n)})
	s.mu.Unlock()
}

// sentBy returns how many bytes had gone to the browser by t.
func (s *shaper) sentBy(t time.Time) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, _ := slices.BinarySearchFunc(s.sent, t, func(e sentAt, t time.Time) int { return e.t.Compare(t) })
	if i == 0 {
		return 0
	}
	return s.sent[i-1].total
}

// startShaper starts a TCP proxy to the server at target (an http URL).
// Each new connection waits latency before it is connected (the
// handshake), each chunk the browser sends waits latency (the request's
// way there and the answer's way back), and the bytes the server sends
// share bytesPerSec among all connections.
func startShaper(tb testing.TB, target string, latency time.Duration, bytesPerSec float64) *shaper {
	tb.Helper()
	u, err := url.Parse(target)
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	sh := &shaper{URL: "http://" + ln.Addr().String() + "/"}
	down := &bucket{rate: bytesPerSec}
	up := &bucket{rate: bytesPerSec}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				time.Sleep(latency)
				s, err := net.Dial("tcp", u.Host)
				if err != nil {
					return
				}
				defer s.Close()
				go func() {
					pipe(s, c, up, latency, nil)
					s.(*net.TCPConn).CloseWrite()
				}()
				pipe(c, s, down, 0, sh.record)
			}()
		}
	}()
	return sh
}

// pipe copies src to dst in chunks of at most 16 kB, each after a delay
// and after its turn in the shared bucket, and calls sent (if not nil)
// with the size of each chunk written.
func pipe(dst io.Writer, src io.Reader, b *bucket, delay time.Duration, sent func(int)) {
	buf := make([]byte, 16<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			time.Sleep(delay)
			b.wait(n)
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
			if sent != nil {
				sent(n)
			}
		}
		if err != nil {
			return
		}
	}
}

// bucket paces writes to rate bytes per second in all.
type bucket struct {
	mu   sync.Mutex
	rate float64
	next time.Time // when the line is free
}

// wait sleeps until n more bytes may go.
func (b *bucket) wait(n int) {
	b.mu.Lock()
	now := time.Now()
	if b.next.Before(now) {
		b.next = now
	}
	b.next = b.next.Add(time.Duration(float64(n) / b.rate * float64(time.Second)))
	d := b.next.Sub(now)
	b.mu.Unlock()
	time.Sleep(d)
}

// TestFirstVisitDownloadsEachFileOnce: a first visit asks the server for
// each file once: the manifest boot.js fetched is the page's too, and the
// page and its training worker run one program, web/app.wasm, since
// web/boot.js hands the worker the module the page compiled. The worker
// must run it (its SIMD kernel is in use and it trains).
// TestBrokenWorkerOffersRestart checks that a worker started after a
// crash is given it too.
func TestFirstVisitDownloadsEachFileOnce(t *testing.T) {
	needBrowser(t)
	log := &requestLog{}
	srv := startServerWith(t, root, log)
	ctx := openReady(t, srv.URL)
	if k := attr(t, ctx, "#kernel", "data-kernel"); k != "wasm-simd" {
		t.Errorf("the worker trains with the %q kernel, want wasm-simd", k)
	}
	trainDefault(t, ctx)
	lines := log.take()
	downloads := map[string]int{}
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) < 4 || f[1] != "GET" || f[3] != "200" {
			continue // a revalidation (the service worker's, once ready) sends no body
		}
		path, _, _ := strings.Cut(f[2], "?")
		downloads[path]++
	}
	if downloads["/web/app.wasm"] != 1 || downloads["/web/data/manifest.json"] != 1 || downloads["/web/data/default.mnpk"] != 1 {
		t.Errorf("the first visit downloaded app.wasm %d times, the manifest %d, the pack %d; want each once",
			downloads["/web/app.wasm"], downloads["/web/data/manifest.json"], downloads["/web/data/default.mnpk"])
	}
	for path, n := range downloads {
		if n > 1 || strings.HasSuffix(path, ".wasm") && path != "/web/app.wasm" && path != "/web/kernels.wasm" {
			t.Errorf("the first visit downloaded %s %d times", path, n)
		}
	}
	if t.Failed() {
		t.Logf("the server's log:\n%s", strings.Join(lines, "\n"))
	}
	// Revalidations cost a round trip each too: the page itself (not the
	// service worker, whose requests are not in the page's timeline) asks
	// for the manifest once, and for app.wasm once, from the inline script
	// in index.html's <head>, whose fetch boot.js takes and go-app's
	// app.js is answered without asking again.
	for _, path := range []string{"/web/data/manifest.json", "/web/app.wasm"} {
		n, err := eval[int](ctx, `performance.getEntriesByType("resource").filter(e => new URL(e.name).pathname === "`+path+`").length`)
		if err != nil || n != 1 {
			t.Errorf("the page asked for %s %d times (%v), want once", path, n, err)
		}
	}
	if given, _ := eval[bool](ctx, `globalThis.softmaxProgram instanceof WebAssembly.Module`); !given {
		t.Error("boot.js did not keep the compiled program for the worker")
	}
}

// holdingProxy serves the site from upstream, except the default pack,
// which it sends itself, uncompressed, and stops after the training
// images until release is closed. It counts the pack's requests.
type holdingProxy struct {
	URL      string
	release  chan struct{}
	mu       sync.Mutex
	requests int
}

func startHoldingProxy(t *testing.T, upstream string) *holdingProxy {
	t.Helper()
	pack := siteFile(t, "web/data/default.mnpk")
	prefix, err := dataset.TrainPrefix(pack)
	if err != nil || prefix == 0 {
		t.Fatalf("the default pack keeps no training prefix: %d, %v", prefix, err)
	}
	p := &holdingProxy{release: make(chan struct{})}
	srv := startProxy(t, upstream, func(w http.ResponseWriter, r *http.Request, site http.Handler) {
		if r.URL.Path != "/web/data/default.mnpk" {
			site.ServeHTTP(w, r)
			return
		}
		p.mu.Lock()
		p.requests++
		p.mu.Unlock()
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Length", strconv.Itoa(len(pack)))
		w.Header().Set("Cache-Control", "no-store")
		w.Write(pack[:prefix])
		w.(http.Flusher).Flush()
		select {
		case <-p.release:
		case <-r.Context().Done():
			return
		}
		w.Write(pack[prefix:])
	})
	// Before the server closes, which waits for the held request.
	t.Cleanup(func() {
		select {
		case <-p.release:
		default:
			close(p.release)
		}
	})
	p.URL = srv.URL
	return p
}

// TestReadyBeforeTheTestImages holds the default pack's download after
// its training images: the page is ready all the same, Train waits for
// the test images, and the run then is the one a whole download gives, bit
// for bit. The service worker does not fetch the pack a second time while
// the first download is still arriving.
func TestReadyBeforeTheTestImages(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	hold := startHoldingProxy(t, srv.URL)
	link := "/#epochs=2&seed=5&lang=en"
	ctx := openReady(t, hold.URL+link)
	if s := attr(t, ctx, "#gallery", "data-predicted"); s != "" {
		t.Errorf("the gallery shows %q before the test images arrived", s)
	}
	click(t, ctx, "train")
	time.Sleep(time.Second)
	if state, step := attr(t, ctx, "#status", "data-state"), attr(t, ctx, "#status", "data-step"); state != "ready" || step != "0" && step != "" {
		t.Errorf("while the test images were held back the page is %q at step %q, want ready at step 0", state, step)
	}
	hold.mu.Lock()
	n := hold.requests
	hold.mu.Unlock()
	if n != 1 {
		t.Errorf("the pack was asked for %d times while its first download was held, want once", n)
	}
	close(hold.release)
	waitState(t, ctx, 90*time.Second, "done")
	sum, acc, gallery := settled(t, ctx, 2)

	whole := openReady(t, strings.TrimSuffix(srv.URL, "/")+link)
	trainDefault(t, whole)
	sum2, acc2, gallery2 := settled(t, whole, 2)
	if sum != sum2 || acc != acc2 || gallery != gallery2 {
		t.Errorf("the run with the test images held back gave %s, %v; with the whole pack at once %s, %v", sum, acc, sum2, acc2)
	}
}

// TestPackAskedForBeforeTheProgramEnds: on a first visit the worker asks
// for the default pack while the page's program, web/app.wasm, is still
// arriving (web/boot.js watches it and says so half way through its data
// section), so that the link does not fall idle between the two. A proxy
// sends app.wasm uncompressed and holds back its last 256 kB until the
// pack is asked for, or for 20 s; the pack must be asked for while they
// are held (by the training worker: the service worker's precaching
// does not count), and the page must then be ready and train. The proxy
// answers the HTML after 40 ms, as a school's network would: boot.js does
// not watch on localhost, where no round trip leaves the link idle.
func TestPackAskedForBeforeTheProgramEnds(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	program := siteFile(t, "web/app.wasm")
	const tail = 256 << 10
	var (
		mu      sync.Mutex
		asked   = make(chan struct{})
		once    sync.Once
		whileIn bool // the pack was asked for while the tail was held
		holding bool
	)
	hold := startProxy(t, srv.URL, func(w http.ResponseWriter, r *http.Request, site http.Handler) {
		switch r.URL.Path {
		case "/web/data/default.mnpk":
			if !strings.HasSuffix(r.Referer(), "/web/worker.js") {
				break // the service worker's, which goes ahead after 10 s
			}
			mu.Lock()
			whileIn = whileIn || holding
			mu.Unlock()
			once.Do(func() { close(asked) })
		case "/":
			time.Sleep(40 * time.Millisecond)
		case "/web/app.wasm":
			w.Header().Set("Content-Type", "application/wasm")
			w.Header().Set("Content-Length", strconv.Itoa(len(program)))
			w.Header().Set("Cache-Control", "no-store")
			w.Write(program[:len(program)-tail])
			w.(http.Flusher).Flush()
			mu.Lock()
			holding = true
			mu.Unlock()
			select {
			case <-asked:
			case <-time.After(20 * time.Second):
			case <-r.Context().Done():
				return
			}
			mu.Lock()
			holding = false
			mu.Unlock()
			w.Write(program[len(program)-tail:])
			return
		}
		site.ServeHTTP(w, r)
	})
	ctx := openReady(t, hold.URL+"/#lang=en")
	mu.Lock()
	early := whileIn
	mu.Unlock()
	if !early {
		t.Error("the pack was not asked for until the program was in")
	}
	trainDefault(t, ctx)
}

// requestLog collects tools/serve's request lines: "15:04:05 GET /path 200 1234B br 3ms".
type requestLog struct {
	mu    sync.Mutex
	lines []string
	part  []byte
}

func (l *requestLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.part = append(l.part, p...)
	for {
		i := bytes.IndexByte(l.part, '\n')
		if i < 0 {
			return len(p), nil
		}
		l.lines = append(l.lines, string(l.part[:i]))
		l.part = l.part[i+1:]
	}
}

// take returns the lines logged since the last take.
func (l *requestLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.lines
	l.lines = nil
	return out
}

// wireBytes sums the response bytes per path.
func wireBytes(lines []string) map[string]int64 {
	out := map[string]int64{}
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) < 5 || !strings.HasSuffix(f[4], "B") {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSuffix(f[4], "B"), 10, 64)
		if err != nil {
			continue
		}
		path, _, _ := strings.Cut(f[2], "?")
		out[path] += n
	}
	return out
}

// readyProbe runs in every document before the page's own scripts. It
// notes, in the page's clock (milliseconds since the navigation started,
// the origin web performance metrics use), when #status first says
// "ready": a MutationObserver sees it at the end of the task that changed
// it, the moment the browser can paint it.
const readyProbe = `globalThis.softmaxReadyAt = 0;
new MutationObserver((_, obs) => {
  const s = document.getElementById("status");
  if (s && s.getAttribute("data-state") === "ready") {
    globalThis.softmaxReadyAt = performance.now();
    obs.disconnect();
  }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"] });`

// probeReady installs readyProbe in every document the tab opens.
func probeReady(tb testing.TB, ctx context.Context) {
	tb.Helper()
	beforeScripts(tb, ctx, readyProbe)
}

// readyTimes returns, in the page's clock, when it was ready ("ready")
// and its performance marks.
func readyTimes(tb testing.TB, ctx context.Context) map[string]float64 {
	tb.Helper()
	at, err := eval[map[string]float64](ctx, `({ready: globalThis.softmaxReadyAt,
		...Object.fromEntries(performance.getEntriesByType("mark").map(m => [m.name, m.startTime]))})`)
	if err != nil {
		tb.Fatal(err)
	}
	if at["ready"] <= 0 {
		tb.Fatal("the page says ready, but the probe did not see it")
	}
	return at
}

// BenchmarkPageReadyInterleaved compares the first visits of two or more
// builds of the site, one visit of each per round in a rotating order, so
// that the machine's noise falls on all of them alike. PAGE_READY_SITES names their roots,
// each built with make site (a git worktree of another commit, say):
//
//	PAGE_READY_SITES=/tmp/old,$PWD go test -run '^$' -bench PageReadyInterleaved -benchtime 10x ./tools/browsertest/
//
// It reports each site's median (by the page's clock) and its ratio to the
// first site's.
func BenchmarkPageReadyInterleaved(b *testing.B) {
	needBrowser(b)
	logCPU(b)
	sites := strings.Split(os.Getenv("PAGE_READY_SITES"), ",")
	if len(sites) < 2 {
		b.Skip("set PAGE_READY_SITES to two or more built site roots, comma-separated")
	}
	urls := serveSites(b, sites)
	ready := make([][]float64, len(sites))
	for round := 0; b.Loop(); round++ {
		for k := range urls {
			i := (k + round) % len(urls) // the order rotates from round to round
			ctx := newBrowser(b, 2*time.Minute)
			alone(b, ctx)
			probeReady(b, ctx)
			if err := chromedp.Do(ctx, chromedp.Navigate(urls[i])); err != nil {
				b.Fatal(err)
			}
			waitState(b, ctx, 60*time.Second, "ready")
			ready[i] = append(ready[i], math.Round(readyTimes(b, ctx)["ready"]))
			closeBrowser(b, ctx)
		}
	}
	base := 0.0
	for i, r := range ready {
		slices.Sort(r)
		m := r[len(r)/2]
		if i == 0 {
			base = m
		}
		b.Logf("%s: ready after a median of %.0f ms (%.2f× the first site's); sorted %v", sites[i], m, m/base, r)
		b.ReportMetric(m, fmt.Sprintf("ms-to-ready-site%d(median)", i+1))
	}
}

// BenchmarkPageReady opens the page as a first-time visitor would (a fresh
// browser profile: empty cache, no service worker) and measures the time
// from navigation to #status data-state="ready", that is, to a page that
// can train, and the bytes the server sent for that visit. Once the
// service worker has cached the site and V8 its compiled code, it closes
// the browser and opens the page again in a new one on the same profile,
// as a returning visitor's browser would, and times that second visit too
// (the program's code from Chromium's code cache, the files from the
// service worker).
//
// The figure is the page's own clock (see readyProbe). The time the test
// sees from outside (ms-wall) adds the DevTools round trips and the 50 ms
// polling of waitState.
//
// PAGE_READY_SITES, as for BenchmarkPageReadyInterleaved, compares builds
// of the site: one profile of each per round, in a rotating order, each
// reported on its own.
//
//	go test -run '^$' -bench 'PageReady$' -benchtime 5x ./tools/browsertest/
//	PAGE_READY_SITES=<other build>,$PWD go test -run '^$' -bench 'PageReady$' -benchtime 5x ./tools/browsertest/
func BenchmarkPageReady(b *testing.B) {
	needBrowser(b)
	logCPU(b)
	sites := benchSites()
	logs := make([]*requestLog, len(sites))
	urls := make([]string, len(sites))
	for i, dir := range sites {
		logs[i] = &requestLog{}
		urls[i] = startServerWith(b, dir, logs[i]).URL
	}
	type visits struct{ ready, wall, again, mounted, loaded []float64 }
	got := make([]visits, len(sites))
	wire := make([]map[string]int64, len(sites))
	rotate(b, len(sites), func(_, i int) {
		v := &got[i]
		profile := b.TempDir()
		ctx := browserWithProfile(b, profile, 2*time.Minute)
		alone(b, ctx)
		probeReady(b, ctx)
		logs[i].take()
		b.StartTimer()
		start := time.Now()
		if err := chromedp.Do(ctx, chromedp.Navigate(urls[i])); err != nil {
			b.Fatal(err)
		}
		waitState(b, ctx, 60*time.Second, "ready")
		v.wall = append(v.wall, float64(time.Since(start).Milliseconds()))
		b.StopTimer()
		at := readyTimes(b, ctx)
		v.ready = append(v.ready, math.Round(at["ready"]))
		v.mounted = append(v.mounted, math.Round(at["softmax:mounted"]))
		v.loaded = append(v.loaded, math.Round(at["softmax:loaded"]))
		// The service worker caches the site once the page is ready; the
		// bytes it fetches count as part of the first visit.
		if !eventually(30*time.Second, func() bool {
			why, _ := eval[string](ctx, `globalThis.softmaxPrecached || ""`)
			return why != ""
		}) {
			b.Fatal("the service worker did not cache the site")
		}
		waitCodeCached(b, profile, 30*time.Second)
		wire[i] = wireBytes(logs[i].take())
		closeBrowser(b, ctx)

		ctx = browserWithProfile(b, profile, 2*time.Minute)
		alone(b, ctx)
		probeReady(b, ctx)
		if err := chromedp.Do(ctx, chromedp.Navigate(urls[i])); err != nil {
			b.Fatal(err)
		}
		waitState(b, ctx, 60*time.Second, "ready")
		ms, err := eval[float64](ctx, `globalThis.softmaxReadyAt`)
		if err != nil || ms <= 0 {
			b.Fatalf("the second visit's ready time: %v, %v", ms, err)
		}
		v.again = append(v.again, math.Round(ms))
		if lines := logs[i].take(); len(lines) > 0 && len(v.again) == 1 {
			b.Logf("%s: the second visit's requests to the server:\n  %s", sites[i], strings.Join(lines, "\n  "))
		}
		closeBrowser(b, ctx)
	})
	for i, v := range got {
		suffix := siteSuffix(i, len(sites))
		b.ReportMetric(upperMedian(v.ready), "ms-to-ready(median)"+suffix)
		b.ReportMetric(upperMedian(v.wall), "ms-wall(median)"+suffix)
		b.ReportMetric(upperMedian(v.again), "ms-to-ready-again(median)"+suffix)
		for _, x := range []*[]float64{&v.ready, &v.wall, &v.mounted, &v.loaded, &v.again} {
			slices.Sort(*x)
		}
		b.Logf("%s: first visit, ms since navigation, sorted: ready %v; seen from outside %v; the page's Go started %v; the data loaded in the worker %v (0: after the page adopted it)", sites[i], v.ready, v.wall, v.mounted, v.loaded)
		b.Logf("%s: second visit (a new browser on the same profile: the service worker's cache, V8's code cache): ready %v", sites[i], v.again)
		var total int64
		paths := make([]string, 0, len(wire[i]))
		for p, n := range wire[i] {
			total += n
			paths = append(paths, p)
		}
		slices.Sort(paths)
		var sb strings.Builder
		for _, p := range paths {
			fmt.Fprintf(&sb, "\n  %-28s %9d B", p, wire[i][p])
		}
		b.Logf("%s: bytes on the wire for one first visit, %d in all:%s", sites[i], total, sb.String())
		b.ReportMetric(float64(total), "bytes-first-visit"+suffix)
		b.ReportMetric(float64(wire[i]["/web/app.wasm"]), "bytes-app.wasm"+suffix)
		b.ReportMetric(float64(wire[i]["/web/data/default.mnpk"]), "bytes-data"+suffix)
	}
}

// TestDistUnderPrefix builds the deployable site with `make dist` under a
// sub-path, as the GitHub Pages workflow does, serves its parent directory,
// and trains in it: every file the page asks for must be under the prefix,
// or it is not found and the page never gets ready.
func TestDistUnderPrefix(t *testing.T) {
	needBrowser(t)
	parent := t.TempDir()
	const prefix = "/softmax-demo"
	dist := filepath.Join(parent, strings.TrimPrefix(prefix, "/"))
	cmd := exec.Command("make", "--no-print-directory", "dist", "DIST="+dist, "PREFIX="+prefix)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make dist: %v\n%s", err, out)
	}
	for _, f := range []string{"index.html", "app.js", "app-worker.js", "manifest.webmanifest", "web/app.wasm", "web/worker.js", "web/data/default.mnpk", "web/data/manifest.json"} {
		if _, err := os.Stat(filepath.Join(dist, f)); err != nil {
			t.Errorf("dist lacks %s", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dist, "web/app.wasm.gz")); err != nil {
		t.Error("dist is not precompressed: no web/app.wasm.gz")
	}
	index, err := os.ReadFile(filepath.Join(dist, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(index), `src="`+prefix+`/web/boot.js"`) {
		t.Errorf("dist/index.html does not load its scripts under %s", prefix)
	}
	log := &requestLog{}
	srv := startServerWith(t, parent, log)
	ctx := openReady(t, strings.TrimSuffix(srv.URL, "/")+prefix+"/")
	setField(t, ctx, "epochs", "1")
	trainRun(t, ctx, 60*time.Second)
	for _, line := range log.take() {
		if strings.Contains(line, " 404 ") || strings.Contains(line, "HEAD ") {
			t.Errorf("under %s the page asked for a missing file or probed one: %s", prefix, line)
		}
	}
	// Without FULL=1 the full pack is left out, and so out of the manifest:
	// the page offers exactly the manifest's packs.
	man, err := os.ReadFile(filepath.Join(dist, "web/data/manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(man), "full.mnpk") {
		t.Errorf("dist's manifest lists the full pack, which dist leaves out:\n%s", man)
	}
	if n, err := eval[int](ctx, `document.querySelectorAll("#dataset option").length`); err != nil || n != 1 {
		t.Errorf("the page offers %d packs (%v), want the default one only", n, err)
	}
}
