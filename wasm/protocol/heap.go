package protocol

import "runtime/metrics"

// heapLive is the runtime metric HeapLive reads: the bytes of heap
// objects the last garbage collection marked live.
const heapLive = "/gc/heap/live:bytes"

// HeapLive returns the calling program's Go heap in bytes: the objects the
// last garbage collection found live. The page and the worker each report
// their own (Progress.Heap is the worker's). The live heap, rather than
// runtime.MemStats.HeapAlloc, is what shows whether memory stays flat:
// HeapAlloc also counts garbage not yet collected, which swings by up to
// GOGC per cent of the live heap between collections, while a leak of a
// few MB moves the live heap by that much. It reads runtime/metrics, which
// does not stop the world as runtime.ReadMemStats does; it is still read
// once per run, not per frame.
func HeapLive() uint64 {
	s := []metrics.Sample{{Name: heapLive}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
