package classhub

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"softmaxdemo/core/class"
	"softmaxdemo/tools/internal/classclient"
)

// The class's benchmarks run the hub in a process of its own (this test
// binary started again with benchServerEnv set), so that its memory and
// CPU are the server's alone, and simulated phones (classclient, one
// connection each) in the benchmark's process, over loopback:
//
//	go test -run '^$' -bench 'ClassChapterChange|ClassAnswers|ClassDrawings' -benchtime 20x -count 5 ./tools/serve/classhub/
//	go test -run '^$' -bench 'ClassMemory|ClassCPU' -benchtime 1x -count 5 ./tools/serve/classhub/
//
// (make bench-class). A benchmark checks what it measures (every phone
// got the event, every answer and drawing was counted) before it reports.

// benchServerEnv makes the test binary the class's server for a
// benchmark: "fast" lifts the rate limits (to fill a class quickly),
// anything else keeps the defaults.
const benchServerEnv = "CLASSHUB_BENCH_SERVER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(benchServerEnv); mode != "" {
		benchServer(mode)
		return
	}
	os.Exit(m.Run())
}

// benchServer serves a class on a free port of loopback, with its
// figures at /stats, and prints its address and key.
func benchServer(mode string) {
	var key class.Key
	key[0] = 0xbe
	h := New(key)
	h.Log = log.New(io.Discard, "", 0)
	// Throughput, not the limits: a benchmark's rounds bring new phones
	// and more drawings than a lesson's.
	h.MaxStudents, h.MaxDrawings = 1<<20, 1<<20
	if mode == "fast" {
		h.Rate, h.Burst, h.DrawRate, h.DrawBurst = 1e6, 1e6, 1e6, 1e6
	}
	dir, err := os.MkdirTemp("", "classhub-bench")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := h.Open(dir); err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/class/", h)
	mux.HandleFunc("/stats", func(w http.ResponseWriter, r *http.Request) {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		fmt.Fprintf(w, "%d %d %d\n", ms.HeapInuse, rss(), cpu)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("http://%s %s\n", ln.Addr(), key)
	go func() { io.Copy(io.Discard, os.Stdin); os.Exit(0) }() // the parent is gone
	log.Fatal(http.Serve(ln, mux))
}

// rss returns this process's resident set size in bytes.
func rss() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// benchClass is a class served by a child process.
type benchClass struct {
	b    *testing.B
	base string
	key  string
	ctx  context.Context
}

// startBench starts the class's server in a child process.
func startBench(b *testing.B, mode string) *benchClass {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), benchServerEnv+"="+mode)
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(func() {
		cancel()
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatalf("the server: %v", err)
	}
	base, key, _ := strings.Cut(strings.TrimSpace(line), " ")
	return &benchClass{b: b, base: base, key: key, ctx: ctx}
}

// stats returns the server's heap in use, RSS and CPU time so far.
func (c *benchClass) stats() (heap, rss int64, cpu time.Duration) {
	resp, err := http.Get(c.base + "/stats")
	if err != nil {
		c.b.Fatal(err)
	}
	defer resp.Body.Close()
	var n int64
	fmt.Fscan(resp.Body, &heap, &rss, &n)
	return heap, rss, time.Duration(n)
}

// phone returns a phone with a connection of its own.
func (c *benchClass) phone() *classclient.Client {
	p := classclient.NewPhone(c.base)
	p.HTTP = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	return p
}

func (c *benchClass) presenter() *classclient.Client {
	p := classclient.NewPresenter(c.base, c.key)
	p.HTTP = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	return p
}

// follow follows p's stream, calling fn with each event, and returns once
// it is connected and has its Hello.
func (c *benchClass) follow(p *classclient.Client, fn func(class.Event)) {
	hello := make(chan struct{})
	var once sync.Once
	go p.Follow(c.ctx, func(e class.Event) {
		if _, ok := e.(class.Hello); ok {
			once.Do(func() { close(hello) })
			return
		}
		fn(e)
	}, nil)
	select {
	case <-hello:
	case <-time.After(wait):
		c.b.Fatal("a stream did not start")
	}
}

// join joins n phones, each following its stream with fn(i, event).
func (c *benchClass) join(n int, fn func(i int, e class.Event)) []*classclient.Client {
	phones := make([]*classclient.Client, n)
	for i := range phones {
		phones[i] = c.phone()
		if err := phones[i].Join(c.ctx); err != nil {
			c.b.Fatal(err)
		}
		c.follow(phones[i], func(e class.Event) { fn(i, e) })
	}
	return phones
}

// percentile returns the p-th percentile (0…100) of ds, nearest rank.
func percentile(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// benchChapters is how many chapters the chapter changes cycle
// through: each change goes to another chapter.
const benchChapters = class.MaxChapter

// BenchmarkClassChapterChange: the presenter changes chapter; the time
// until each of 60 phones has the new state. It reports the 99th
// percentile and the median over every phone of every change.
func BenchmarkClassChapterChange(b *testing.B) {
	c := startBench(b, "default")
	const n = 60
	var mu sync.Mutex
	arrived := make([]time.Time, n)
	want := 0
	got := make(chan struct{}, n)
	c.join(n, func(i int, e class.Event) {
		if s, ok := e.(class.State); ok {
			mu.Lock()
			if s.Chapter == want {
				arrived[i] = time.Now()
				got <- struct{}{}
			}
			mu.Unlock()
		}
	})
	pres := c.presenter()
	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		mu.Lock()
		want = 1 + i%benchChapters
		mu.Unlock()
		sent := time.Now()
		if err := pres.SetState(c.ctx, class.State{Chapter: want, Lang: "en", Scrub: -1}); err != nil {
			b.Fatal(err)
		}
		for range n {
			select {
			case <-got:
			case <-time.After(wait):
				b.Fatal("a phone did not get the chapter")
			}
		}
		mu.Lock()
		for _, t := range arrived {
			lat = append(lat, t.Sub(sent))
		}
		mu.Unlock()
	}
	b.ReportMetric(ms(percentile(lat, 99)), "p99-ms")
	b.ReportMetric(ms(percentile(lat, 50)), "p50-ms")
}

// BenchmarkClassAnswers: 60 phones answer at once; the time until the
// presenter's stream counts all 60.
func BenchmarkClassAnswers(b *testing.B) {
	c := startBench(b, "default")
	const n = 60
	phones := c.join(n, func(int, class.Event) {})
	pres := c.presenter()
	counted := make(chan string, 1024)
	c.follow(pres, func(e class.Event) {
		if t, ok := e.(class.Tally); ok {
			sum := 0
			for _, c := range t.Counts {
				sum += c.N
			}
			if sum == n {
				counted <- t.Question
			}
		}
	})
	var took []time.Duration
	for i := 0; b.Loop(); i++ {
		q := "q" + strconv.Itoa(i)
		if err := pres.Ask(c.ctx, class.Question{ID: q, Choices: []string{"0", "1", "2"}}); err != nil {
			b.Fatal(err)
		}
		var start, sent sync.WaitGroup
		start.Add(1)
		for j, p := range phones {
			sent.Add(1)
			go func() {
				defer sent.Done()
				start.Wait()
				if _, err := p.Answer(c.ctx, q, strconv.Itoa(j%3)); err != nil {
					b.Error(err)
				}
			}()
		}
		t0 := time.Now()
		start.Done()
		select {
		case got := <-counted:
			if got != q {
				b.Fatalf("counted %s, want %s", got, q)
			}
		case <-time.After(wait):
			b.Fatal("the presenter never counted 60 answers")
		}
		took = append(took, time.Since(t0))
		sent.Wait()
		// A question every 300 ms at most: each phone may send 5
		// requests a second, and a class answers a question a minute.
		time.Sleep(300 * time.Millisecond)
	}
	b.ReportMetric(ms(percentile(took, 50)), "median-ms")
	b.ReportMetric(ms(slices.Max(took)), "max-ms")
}

// BenchmarkClassDrawings: 60 phones send 10 drawings each at once; the
// time until all 600 are on the presenter's stream.
func BenchmarkClassDrawings(b *testing.B) {
	c := startBench(b, "default")
	const n, each = 60, 10
	phones := c.join(n, func(int, class.Event) {})
	pres := c.presenter()
	var mu sync.Mutex
	seen := 0
	all := make(chan struct{}, 1)
	target := 0
	c.follow(pres, func(e class.Event) {
		if _, ok := e.(*class.Digit); ok {
			mu.Lock()
			seen++
			if seen == target {
				all <- struct{}{}
			}
			mu.Unlock()
		}
	})
	r := newRand()
	px := make([][class.Pixels]byte, n*each)
	for i := range px {
		px[i] = digit(r)
	}
	var took []time.Duration
	for b.Loop() {
		// Each round, each phone sends as a new phone: a phone may send
		// 50 drawings in a class, and 2 a second after its first 10.
		for _, p := range phones {
			p.Phone = classclient.NewPhone("").Phone
		}
		mu.Lock()
		target += n * each
		mu.Unlock()
		var start, sent sync.WaitGroup
		start.Add(1)
		for j, p := range phones {
			sent.Add(1)
			go func() {
				defer sent.Done()
				start.Wait()
				var wg sync.WaitGroup
				for k := range each {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if _, err := p.Draw(c.ctx, uint8(k), px[j*each+k]); err != nil {
							b.Error(err)
						}
					}()
				}
				wg.Wait()
			}()
		}
		t0 := time.Now()
		start.Done()
		select {
		case <-all:
		case <-time.After(wait):
			mu.Lock()
			b.Fatalf("the presenter got %d of %d drawings", seen, target)
		}
		took = append(took, time.Since(t0))
		sent.Wait() // every phone has its acknowledgements
	}
	b.ReportMetric(ms(percentile(took, 50)), "median-ms")
	b.ReportMetric(ms(slices.Max(took)), "max-ms")
}

// BenchmarkClassMemory: the server's heap in use (after a collection)
// and RSS with 100 phones joined and following, and with 5,000
// drawings kept, sent by 100 phones (the rate limits lifted) while the
// presenter follows.
func BenchmarkClassMemory(b *testing.B) {
	b.Run("joined=100", func(b *testing.B) {
		c := startBench(b, "default")
		c.join(100, func(int, class.Event) {})
		c.follow(c.presenter(), func(class.Event) {})
		for b.Loop() {
		}
		heap, rss, _ := c.stats()
		b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
		b.ReportMetric(float64(rss)/(1<<20), "rss-MB")
	})
	b.Run("drawings=5000", func(b *testing.B) {
		c := startBench(b, "fast")
		var mu sync.Mutex
		seen := 0
		c.follow(c.presenter(), func(e class.Event) {
			if _, ok := e.(*class.Digit); ok {
				mu.Lock()
				seen++
				mu.Unlock()
			}
		})
		r := newRand()
		var wg sync.WaitGroup
		for range 100 {
			p := c.phone()
			px := make([][class.Pixels]byte, 50)
			for i := range px {
				px[i] = digit(r)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 50 {
					if _, err := p.Draw(c.ctx, uint8(i%10), px[i]); err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		for b.Loop() {
		}
		heap, rss, _ := c.stats()
		mu.Lock()
		defer mu.Unlock()
		if seen != 5000 {
			b.Fatalf("the presenter got %d drawings", seen)
		}
		b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
		b.ReportMetric(float64(rss)/(1<<20), "rss-MB")
	})
}

// BenchmarkClassCPU: the server's CPU time (getrusage) over a rest of
// CLASSHUB_BENCH_REST (30s by default) with 60 phones and the
// presenter joined and following, as a percentage of one core.
func BenchmarkClassCPU(b *testing.B) {
	rest := 30 * time.Second
	if s := os.Getenv("CLASSHUB_BENCH_REST"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			b.Fatal(err)
		}
		rest = d
	}
	c := startBench(b, "default")
	c.join(60, func(int, class.Event) {})
	c.follow(c.presenter(), func(class.Event) {})
	for b.Loop() {
	}
	_, _, before := c.stats()
	t0 := time.Now()
	time.Sleep(rest)
	_, _, after := c.stats()
	b.ReportMetric(100*float64(after-before)/float64(time.Since(t0)), "%core")
}
