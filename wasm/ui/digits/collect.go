package digits

import (
	"runtime"
	"runtime/metrics"
	"time"

	"softmaxdemo/wasm/ui/browser"
)

// The page's garbage collection. In WebAssembly a whole cycle (marking,
// sweeping, the finalizers of the JavaScript values Go let go of) runs
// inside one JavaScript task, 20–35 ms on a 2-core AMD EPYC guest: a
// cycle that falls into a frame of a run makes it a task of 50–70 ms. The
// page allocates 11–17 MB in a run of a minute or less (60 epochs of SGD
// or of full-batch descent, Newton's method, the lecture notes' 1,000
// steps), and at GOGC=400 a cycle comes every 14 MB or so; so a run that
// starts with a heap already grown meets one cycle, near its end. The
// instrument therefore collects in tasks of its own when nothing moves: once ready
// is on screen (even if a run was started at once: the cycle is then a
// task between two of its frames), and once a run has come to rest, each
// time only if the heap has grown by restGrowth since the last cycle. A
// run then starts with the whole of the headroom, and the runs above see
// no cycle in their frames. A longer run still meets one every 14 MB or
// so. Collecting between frames of a run costs more than it saves
// (docs/decisions/0004-collect-garbage-at-rest.md).
const (
	restGrowth  = 1 << 20                // bytes allocated since the last cycle before one at rest is worth it
	collectWait = 300 * time.Millisecond // after a run's last event: its last frame and the kept model come first
)

// collectAtRest collects the page's heap if it has grown by restGrowth
// since the last cycle, and reports whether it did. In the browser each
// collection is a performance measure, "softmax:collect".
func collectAtRest() bool {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 ||
		s[0].Value.Uint64() <= s[1].Value.Uint64()+restGrowth {
		return false
	}
	defer browser.Measure("softmax:collect")()
	runtime.GC()
	return true
}
