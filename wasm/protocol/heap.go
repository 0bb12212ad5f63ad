package protocol

import "runtime/metrics"

// The runtime metrics HeapLive reads.
var heapMetrics = []string{
	"/gc/heap/live:bytes",                // objects the last collection marked live
	"/gc/cycles/total:gc-cycles",         // collections so far
	"/memory/classes/heap/objects:bytes", // objects allocated and not yet freed
}

// HeapLive returns the calling program's Go heap in bytes: the objects the
// last garbage collection found live, or, before the first collection
// (a heap that never reached the first collection's 4 MB), every object
// allocated. The page and the worker each report their own
// (Progress.Heap is the worker's). The live heap, rather than
// runtime.MemStats.HeapAlloc, is what shows whether memory stays flat:
// HeapAlloc also counts garbage not yet collected, which swings by up to
// GOGC per cent of the live heap between collections, while a leak of a
// few MB moves the live heap by that much. It reads runtime/metrics, which
// does not stop the world as runtime.ReadMemStats does; it is still read
// once per run, not per frame.
func HeapLive() uint64 {
	s := make([]metrics.Sample, len(heapMetrics))
	for i, name := range heapMetrics {
		s[i].Name = name
	}
	metrics.Read(s)
	for _, x := range s {
		if x.Value.Kind() != metrics.KindUint64 {
			return 0
		}
	}
	if s[1].Value.Uint64() == 0 {
		return s[2].Value.Uint64()
	}
	return s[0].Value.Uint64()
}
