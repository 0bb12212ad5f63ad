package protocol

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"unsafe"
)

// The messages between the training worker and the other workers of its
// pool (wasm/session's pool.go), which compute the shards of full passes
// over the data (core/shard): the training worker is the coordinator; the
// others are helpers, which hold only their shards.

// Workers sets the number of workers that compute full passes, the
// training worker included (1 to MaxWorkers): page → training worker.
type Workers struct {
	N int `json:"n"`
}

// MaxWorkers is the most workers a pool has: one per shard.
const MaxWorkers = 8

// PoolState tells the page how many workers the pool has (the page's
// #workers), if fewer than asked, why, and how many helpers were replaced
// since the worker started because they failed or did not answer in time:
// training worker → page.
type PoolState struct {
	Asked    int    `json:"asked"`
	Running  int    `json:"running"`
	Refused  string `json:"refused,omitempty"` // English; the page shows its own text
	Replaced int    `json:"replaced,omitempty"`
}

// ShardData gives a helper the examples of one shard of a set, once per
// data set: coordinator → helper. Set names the set (SetTrain,
// SetDeskewed, SetTest) and Gen the pack it was cut from, so that a helper
// drops the shards of an older pack. The examples travel in bulk: the
// labels (a byte each), the N+1 starts from 0 (uint32), the indices
// (uint16) and the values (float32).
type ShardData struct {
	Set    int       `json:"set"`
	Gen    int       `json:"gen"`
	Shard  int       `json:"shard"`
	D      int       `json:"d"`
	N      int       `json:"n"`
	Labels []uint8   `json:"-"`
	Start  []int32   `json:"-"`
	Index  []uint16  `json:"-"`
	Value  []float32 `json:"-"`
}

// ShardHeld says a helper holds the examples of one shard of a set, of
// the pack of generation Gen: helper → coordinator, in answer to each
// ShardData. Until it comes, the coordinator computes that shard itself,
// so a helper still taking in its data holds up no pass.
type ShardHeld struct {
	Set   int `json:"set"`
	Gen   int `json:"gen"`
	Shard int `json:"shard"`
}

// The sets a pool's shards come from.
const (
	SetTrain    = iota // the training images
	SetDeskewed        // the training images, straightened
	SetTest            // the test images
	SetTestDeskewed
	sets
)

// Pass asks a helper for its part of one pass over a set: the outputs of
// the listed shards. Op is "grad" (a full-batch gradient at the float32
// weights W then biases, in bulk), "eval" (the evaluation at the same),
// "neval" (Newton's gradient and Hessian diagonal at the float64
// parameters in bulk, keeping μ in Slot) or "hv" (Newton's H·v for the
// float64 vector in bulk, with the μ of Slot). coordinator → helper.
type Pass struct {
	ID     int64     `json:"id"`
	Op     string    `json:"op"`
	Set    int       `json:"set"`
	Gen    int       `json:"gen"`
	Shards []int     `json:"shards"`
	Slot   int       `json:"slot,omitempty"`
	Vec32  []float32 `json:"-"`
	Vec64  []float64 `json:"-"`
}

// PassDone is a helper's part of a pass: for each shard of Shards, in
// that order, its output in bulk, as float64 values (Out, one slice per
// shard) and float32 ones (Out32, N32 per shard): for "grad" the shard's
// loss, and its gradient's d·10 + 10 values in Out32; for "eval" N,
// Correct, the log likelihood and the 10×10 confusion counts; for "neval"
// the gradient, the Hessian diagonal and the loss; for "hv" the product.
// Failed, if not empty, says why the helper could not (a shard it does
// not hold): the coordinator computes those shards itself. helper →
// coordinator.
type PassDone struct {
	ID     int64       `json:"id"`
	Shards []int       `json:"shards"`
	Failed string      `json:"failed,omitempty"`
	Heap   uint64      `json:"heap,omitempty"` // the helper's Go heap (HeapLive), with "eval" passes
	N32    int         `json:"n32,omitempty"`
	Out    [][]float64 `json:"-"`
	Out32  [][]float32 `json:"-"`
}

func (Workers) isMsg()   {}
func (PoolState) isMsg() {}
func (ShardData) isMsg() {}
func (ShardHeld) isMsg() {}
func (Pass) isMsg()      {}
func (PassDone) isMsg()  {}

// The limits a helper's messages are checked against before anything is
// allocated: a shard of at most maxShardExamples images of at most
// maxFeatures features each.
const (
	maxShardExamples = 1 << 20
	maxFeatures      = 1 << 16
)

func packShardData(m ShardData) []byte {
	out := make([]byte, 0, len(m.Labels)+4*len(m.Start)+2*len(m.Index)+4*len(m.Value))
	out = append(out, m.Labels...)
	out = appendLE(out, m.Start)
	out = appendLE(out, m.Index)
	return appendLE(out, m.Value)
}

func readShardData(m *ShardData, bulk []byte) error {
	n := len(bulk)
	switch {
	case m.Set < 0 || m.Set >= sets || m.Shard < 0 || m.Shard >= MaxWorkers:
		return fmt.Errorf("protocol: shard %d of set %d", m.Shard, m.Set)
	case m.D < 1 || m.D > maxFeatures:
		return fmt.Errorf("protocol: shard data of %d features", m.D)
	}
	ex := m.N
	if ex < 0 || ex > maxShardExamples || ex+4*(ex+1) > n {
		return fmt.Errorf("protocol: %d examples in %d bytes of shard data", ex, n)
	}
	head := ex + 4*(ex+1)
	nnz := int(binary.LittleEndian.Uint32(bulk[head-4:]))
	if nnz > n || head+6*nnz != n {
		return fmt.Errorf("protocol: %d bytes of shard data for %d examples of %d features", n, ex, nnz)
	}
	m.Labels = append([]uint8(nil), bulk[:ex]...)
	m.Start = make([]int32, ex+1)
	for i := range m.Start {
		st := binary.LittleEndian.Uint32(bulk[ex+4*i:])
		if st > uint32(nnz) || (i > 0 && int32(st) < m.Start[i-1]) || (i == 0 && st != 0) {
			return fmt.Errorf("protocol: shard data start %d is %d", i, st)
		}
		m.Start[i] = int32(st)
	}
	m.Index = readLE[uint16](bulk[head : head+2*nnz])
	m.Value = readLE[float32](bulk[head+2*nnz:])
	// The checks run as three plain loops, which a helper's first,
	// unoptimised compilation of this code also runs fast enough: a helper
	// takes in tens of megabytes here as a run starts.
	for i, y := range m.Labels {
		if y > 9 {
			return fmt.Errorf("protocol: shard data example %d has label %d", i, y)
		}
	}
	for i := range ex {
		idx := m.Index[m.Start[i]:m.Start[i+1]]
		prev := -1
		for _, j := range idx {
			if int(j) <= prev || int(j) >= m.D {
				return fmt.Errorf("protocol: shard data example %d has feature %d out of order or range", i, j)
			}
			prev = int(j)
		}
	}
	for t, v := range m.Value {
		if math.Float32bits(v)&0x7f800000 == 0x7f800000 { // an exponent of all ones: ±Inf or NaN
			i, _ := slices.BinarySearch(m.Start, int32(t+1))
			return fmt.Errorf("protocol: shard data example %d has a value that is not finite", i-1)
		}
	}
	return nil
}

func packPass(m Pass) []byte {
	out := make([]byte, 0, 4*len(m.Vec32)+8*len(m.Vec64))
	return appendLE(appendLE(out, m.Vec32), m.Vec64)
}

func readPass(m *Pass, bulk []byte) error {
	if err := shardList(m.Shards); err != nil {
		return err
	}
	switch m.Op {
	case "grad", "eval":
		if len(bulk)%4 != 0 || len(bulk) > 4*(maxFeatures+1)*10 {
			return fmt.Errorf("protocol: a %s pass with %d bytes of weights", m.Op, len(bulk))
		}
		m.Vec32 = readLE[float32](bulk)
	case "neval", "hv":
		if len(bulk)%8 != 0 || len(bulk) > 8*(maxFeatures+1)*10 || m.Slot < 0 || m.Slot > 1 {
			return fmt.Errorf("protocol: a %s pass with %d bytes of parameters and slot %d", m.Op, len(bulk), m.Slot)
		}
		m.Vec64 = readLE[float64](bulk)
	default:
		return fmt.Errorf("protocol: a pass of unknown kind %q", m.Op)
	}
	if m.Set < 0 || m.Set >= sets {
		return fmt.Errorf("protocol: a pass over set %d", m.Set)
	}
	return nil
}

func packPassDone(m PassDone) []byte {
	total := 0
	for _, o := range m.Out {
		total += 8 * len(o)
	}
	for _, o := range m.Out32 {
		total += 4 * len(o)
	}
	out := make([]byte, 0, total)
	for _, o := range m.Out {
		out = appendLE(out, o)
	}
	for _, o := range m.Out32 {
		out = appendLE(out, o)
	}
	return out
}

func readPassDone(m *PassDone, bulk []byte) error {
	if err := shardList(m.Shards); err != nil {
		return err
	}
	if m.Failed != "" || len(m.Shards) == 0 {
		return nil
	}
	n := len(m.Shards)
	if m.N32 < 0 || m.N32 > (maxFeatures+1)*10 || 4*m.N32*n > len(bulk) {
		return fmt.Errorf("protocol: %d float32 values per shard in %d bytes of output", m.N32, len(bulk))
	}
	b64, b32 := bulk[:len(bulk)-4*m.N32*n], bulk[len(bulk)-4*m.N32*n:]
	if len(b64)%(8*n) != 0 {
		return fmt.Errorf("protocol: %d bytes of output for %d shards", len(bulk), n)
	}
	all := readLE[float64](b64)
	each := len(all) / n
	m.Out = make([][]float64, n)
	for i := range m.Out {
		m.Out[i] = all[i*each : (i+1)*each : (i+1)*each]
	}
	if m.N32 > 0 {
		all32 := readLE[float32](b32)
		m.Out32 = make([][]float32, n)
		for i := range m.Out32 {
			m.Out32[i] = all32[i*m.N32 : (i+1)*m.N32 : (i+1)*m.N32]
		}
	}
	return nil
}

// shardList checks a pass's list of shards: each 0 to MaxWorkers−1, once.
func shardList(s []int) error {
	if len(s) > MaxWorkers {
		return fmt.Errorf("protocol: %d shards", len(s))
	}
	seen := 0
	for _, v := range s {
		if v < 0 || v >= MaxWorkers || seen&(1<<v) != 0 {
			return fmt.Errorf("protocol: shard %d in %v", v, s)
		}
		seen |= 1 << v
	}
	return nil
}

// number is the element types the pool's messages carry in bulk.
type number interface {
	~uint16 | ~int32 | ~float32 | ~float64
}

// littleEndian says whether this machine stores numbers as the wire does
// (WebAssembly and amd64 do): then bulk numbers are copied as bytes, not
// one by one, which a pass's parts and a shard's examples (megabytes)
// would spend milliseconds on.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// appendLE appends s to out as little-endian bytes.
func appendLE[T number](out []byte, s []T) []byte {
	if len(s) == 0 {
		return out
	}
	size := int(unsafe.Sizeof(s[0]))
	if littleEndian {
		return append(out, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), size*len(s))...)
	}
	for _, v := range s {
		switch x := any(v).(type) {
		case uint16:
			out = binary.LittleEndian.AppendUint16(out, x)
		case int32:
			out = binary.LittleEndian.AppendUint32(out, uint32(x))
		case float32:
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(x))
		case float64:
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(x))
		}
	}
	return out
}

// readLE reads b, a whole number of little-endian T, into a new slice.
func readLE[T number](b []byte) []T {
	var z T
	size := int(unsafe.Sizeof(z))
	out := make([]T, len(b)/size)
	if len(out) == 0 {
		return out
	}
	if littleEndian {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(out))), size*len(out)), b)
		return out
	}
	for i := range out {
		switch any(z).(type) {
		case uint16:
			out[i] = T(binary.LittleEndian.Uint16(b[2*i:]))
		case int32:
			out[i] = T(int32(binary.LittleEndian.Uint32(b[4*i:])))
		case float32:
			out[i] = T(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
		case float64:
			out[i] = T(math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])))
		}
	}
	return out
}
