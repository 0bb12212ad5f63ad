package digits

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

var collectSink []byte

// TestCollectAtRest: a heap that has not grown since the last cycle is
// left alone; one that has grown by more than restGrowth is collected.
func TestCollectAtRest(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // only the test's own cycles
	runtime.GC()
	before := gcCycles()
	if collectAtRest() || gcCycles() != before {
		t.Fatalf("a heap just collected was collected again (%d cycles, then %d)", before, gcCycles())
	}
	for range 4 {
		collectSink = make([]byte, restGrowth/2)
	}
	collectSink = nil
	if !collectAtRest() || gcCycles() != before+1 {
		t.Fatalf("a heap grown by %d bytes was not collected (%d cycles, then %d)", 2*restGrowth, before, gcCycles())
	}
}
