package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A cpuMode is the CPU a benchmark's browser runs on, against this
// machine's: all of it; Chromium and every process it starts held to one
// core, as on a slow two-core laptop, where V8's compiler threads, the
// page and its worker take turns on the cores; or the page's main thread
// slowed by DevTools' CPU throttling, as on a phone (it slows nothing
// else: not the worker, not V8's compiler threads).
type cpuMode struct {
	name     string
	oneCore  bool    // Chromium held to core 0 (taskset -c 0)
	throttle float64 // DevTools' CPU throttling of the page, if > 0
}

// cpuModes are the modes the start-up profile runs in.
var cpuModes = []cpuMode{
	{name: "unthrottled"},
	{name: "one-core", oneCore: true},
	{name: fmt.Sprintf("cpu%dx", phone), throttle: phone},
}

// oneCore is Chromium held to core 0.
var oneCore = cpuModes[1]

// String says what the mode does to the browser, for the benchmark's
// heading.
func (m cpuMode) String() string {
	switch {
	case m.oneCore:
		return "Chromium and its processes held to core 0 (taskset -c 0), V8's compiler threads, the page and its workers sharing it"
	case m.throttle > 0:
		return fmt.Sprintf("DevTools' CPU throttling %g× of the page's main thread (Emulation.setCPUThrottlingRate), a phone; the workers and V8's compiler threads at full speed", m.throttle)
	}
	return "no throttling: Chromium on every core"
}

// benchMode is the mode BENCH_CPU names (unthrottled, one-core or
// cpu4x), for a benchmark that runs in one mode: unthrottled unless set.
// It prints the throttling under the benchmark's heading.
func benchMode(b *testing.B) cpuMode {
	b.Helper()
	name := os.Getenv("BENCH_CPU")
	for _, m := range cpuModes {
		if m.name == name || name == "" {
			fmt.Printf("%s: throttling: %s\n", b.Name(), m)
			return m
		}
	}
	b.Fatalf("BENCH_CPU=%q: want one of unthrottled, one-core, cpu%dx", name, phone)
	return cpuMode{}
}

// logMode heads a benchmark's output with the CPU, the load average (as
// logCPU) and the throttling of its browsers.
func logMode(b *testing.B, m cpuMode) {
	b.Helper()
	logCPU(b)
	fmt.Printf("%s: throttling: %s\n", b.Name(), m)
}

// modeBrowser starts a browser in mode m on the profile in the directory
// profile (browserWithProfile), with the extra options, and checks that
// the mode holds: for oneCore, that every process of the browser is held
// to core 0.
func modeBrowser(tb testing.TB, m cpuMode, profile string, timeout time.Duration, extra ...chromedp.ExecAllocatorOption) context.Context {
	tb.Helper()
	if m.oneCore {
		extra = append(extra, chromedp.ExecPath(oneCoreChrome(tb)))
	}
	ctx := browserWithProfile(tb, profile, timeout, extra...)
	if m.oneCore {
		heldToOneCore(tb, ctx)
	}
	if m.throttle > 0 {
		throttleCPU(tb, ctx, m.throttle)
	}
	return ctx
}

// visitProfile returns a new directory for one visit's browser profile,
// removed when the benchmark ends, or sooner by the caller once the
// browser is closed: a profile holds tens of megabytes, and a benchmark
// opens dozens.
func visitProfile(tb testing.TB) string {
	tb.Helper()
	dir, err := os.MkdirTemp("", "profile-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// oneCoreChrome writes a script that starts the browser (chrome) under
// `taskset -c 0`, so that the browser and every process it starts, which
// inherit its CPU affinity, run on core 0 alone, and returns its path.
func oneCoreChrome(tb testing.TB) string {
	tb.Helper()
	ts, err := exec.LookPath("taskset")
	if err != nil {
		tb.Fatalf("holding Chromium to one core needs taskset (Debian: util-linux): %v", err)
	}
	p := filepath.Join(tb.TempDir(), "chromium-on-core-0")
	script := "#!/bin/sh\nexec " + strconv.Quote(ts) + " -c 0 " + strconv.Quote(chrome) + ` "$@"` + "\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		tb.Fatal(err)
	}
	return p
}

// heldToOneCore fails unless the browser of ctx and every process it
// started (its renderers, its GPU and utility processes) may run on core
// 0 only, as /proc says.
func heldToOneCore(tb testing.TB, ctx context.Context) {
	tb.Helper()
	c := chromedp.FromContext(ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		tb.Fatal("the browser's process is unknown")
	}
	procs := descendants(c.Browser.Process().Pid)
	if len(procs) < 2 {
		tb.Fatalf("the browser (pid %d) has started %d processes", c.Browser.Process().Pid, len(procs)-1)
	}
	for _, pid := range procs {
		if cpus := allowedCPUs(pid); cpus != "" && cpus != "0" {
			tb.Fatalf("process %d of the browser may run on CPUs %s, want 0 only", pid, cpus)
		}
	}
}

// descendants returns pid and the processes it started, and theirs, as
// /proc lists them now.
func descendants(pid int) []int {
	children := map[int][]int{}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		p, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 2 {
			continue
		}
		if pp, err := strconv.Atoi(f[1]); err == nil {
			children[pp] = append(children[pp], p)
		}
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// allowedCPUs is the Cpus_allowed_list of process pid, "" once it has
// ended.
func allowedCPUs(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
