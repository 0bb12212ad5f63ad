package session

import (
	"context"
	"fmt"

	"softmaxdemo/core/metrics"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// Help runs a helper of a training worker's pool (pool.go): it keeps the
// shards the training worker gives it (ShardData) and answers each Pass
// with its part (PassDone), computed by the same core functions the
// training worker runs for its own shards, so with the same bits. It
// returns when ctx is done or in is closed, and never panics: a failure
// is reported in PassDone.Failed, and the training worker computes those
// shards itself.
func Help(ctx context.Context, in <-chan protocol.Msg, out chan<- protocol.Msg) {
	h := &helper{}
	for {
		select {
		case <-ctx.Done():
			return
		case m, ok := <-in:
			if !ok {
				return
			}
			var reply protocol.Msg
			func() {
				defer func() {
					if r := recover(); r != nil {
						if p, ok := m.(protocol.Pass); ok {
							reply = protocol.PassDone{ID: p.ID, Shards: p.Shards, Failed: fmt.Sprint("helper: ", r)}
						}
					}
				}()
				reply = h.handle(m)
			}()
			if reply != nil {
				select {
				case out <- reply:
				case <-ctx.Done():
					return
				}
			}
		}
	}
}

// helper is a helper's state: its shards, by set and shard.
type helper struct {
	held      map[heldKey]*heldShard
	positions []int32
}

type heldKey struct{ set, shard int }

type heldShard struct {
	gen int
	d   int
	x   *softmax.Examples[float32]
	nt  *newton.Shard[float32] // Newton's μ, made at the first Newton pass
}

func (h *helper) handle(m protocol.Msg) protocol.Msg {
	switch m := m.(type) {
	case protocol.ShardData:
		if h.held == nil {
			h.held = map[heldKey]*heldShard{}
		}
		x := &softmax.Examples[float32]{Labels: m.Labels, Start: m.Start, Index: m.Index, Value: m.Value}
		h.held[heldKey{m.Set, m.Shard}] = &heldShard{gen: m.Gen, d: m.D, x: x}
		if len(h.positions) < x.Len() {
			h.positions = train.Positions(x.Len())
		}
		return protocol.ShardHeld{Set: m.Set, Gen: m.Gen, Shard: m.Shard}
	case protocol.Pass:
		done := protocol.PassDone{ID: m.ID, Shards: m.Shards, Out: make([][]float64, len(m.Shards))}
		if m.Op == "grad" {
			done.Out32, done.N32 = make([][]float32, len(m.Shards)), len(m.Vec32)
		}
		for i, s := range m.Shards {
			sh := h.held[heldKey{m.Set, s}]
			if sh == nil || sh.gen != m.Gen {
				return protocol.PassDone{ID: m.ID, Shards: m.Shards, Failed: fmt.Sprintf("shard %d of set %d (pack %d) is not here", s, m.Set, m.Gen)}
			}
			if m.Op == "grad" {
				g, loss, err := h.grad(m, sh)
				if err != nil {
					return protocol.PassDone{ID: m.ID, Shards: m.Shards, Failed: err.Error()}
				}
				done.Out[i], done.Out32[i] = []float64{loss}, g
				continue
			}
			out, err := h.pass(m, sh)
			if err != nil {
				return protocol.PassDone{ID: m.ID, Shards: m.Shards, Failed: err.Error()}
			}
			done.Out[i] = out
		}
		if m.Op == "eval" {
			done.Heap = protocol.HeapLive() // an evaluation is rare enough to measure it with
		}
		return done
	}
	return nil
}

// grad computes one shard's part of a full-batch gradient: the
// gradient (weights, then biases) and the summed cross-entropy.
func (h *helper) grad(m protocol.Pass, sh *heldShard) ([]float32, float64, error) {
	d := sh.d
	if len(m.Vec32) != (d+1)*softmax.K {
		return nil, 0, fmt.Errorf("a model of %d numbers for %d features", len(m.Vec32), d)
	}
	w, b := m.Vec32[:d*softmax.K], m.Vec32[d*softmax.K:]
	g := make([]float32, len(m.Vec32))
	loss := train.GradShard(g[:d*softmax.K], g[d*softmax.K:], w, b, sh.x, h.positions)
	return g, loss, nil
}

// pass computes one shard's part of m, a pass other than a gradient.
func (h *helper) pass(m protocol.Pass, sh *heldShard) ([]float64, error) {
	d := sh.d
	switch m.Op {
	case "eval":
		if len(m.Vec32) != (d+1)*softmax.K {
			return nil, fmt.Errorf("a model of %d numbers for %d features", len(m.Vec32), d)
		}
		w, b := m.Vec32[:d*softmax.K], m.Vec32[d*softmax.K:]
		return evalOut(metrics.EvaluateRange(&softmax.Model[float32]{D: d, W: w, B: b}, sh.x, 0, sh.x.Len())), nil
	case "neval", "hv":
		n := (d + 1) * softmax.K
		if len(m.Vec64) != n {
			return nil, fmt.Errorf("a vector of %d numbers for %d features", len(m.Vec64), d)
		}
		if sh.nt == nil {
			sh.nt = newton.NewShard(sh.x, d, softmax.K)
		}
		out := make([]float64, 2*n+1)
		if m.Op == "hv" {
			sh.nt.Hv(out[:n], m.Vec64, m.Slot)
			return out[:n], nil
		}
		out[2*n] = sh.nt.Eval(out[:n], out[n:2*n], m.Vec64, m.Slot)
		return out, nil
	}
	return nil, fmt.Errorf("a pass of unknown kind %q", m.Op)
}

// evalOut is an evaluation's result as PassDone carries it: N, Correct,
// the log likelihood and the confusion counts.
func evalOut(r metrics.Result) []float64 {
	out := make([]float64, 0, 3+softmax.K*softmax.K)
	out = append(out, float64(r.N), float64(r.Correct), r.LogLikelihood)
	for y := range r.Confusion {
		for _, c := range r.Confusion[y] {
			out = append(out, float64(c))
		}
	}
	return out
}

// evalResult is the inverse of evalOut; ok is false for the wrong length
// or counts that are not whole numbers.
func evalResult(out []float64) (r metrics.Result, ok bool) {
	if len(out) != 3+softmax.K*softmax.K {
		return r, false
	}
	count := func(f float64) (int, bool) { return int(f), f >= 0 && f <= 1<<40 && f == float64(int(f)) }
	var okN, okC bool
	r.N, okN = count(out[0])
	r.Correct, okC = count(out[1])
	r.LogLikelihood = out[2]
	if !okN || !okC {
		return r, false
	}
	for i, f := range out[3:] {
		c, ok := count(f)
		if !ok {
			return r, false
		}
		r.Confusion[i/softmax.K][i%softmax.K] = c
	}
	if r.N > 0 {
		r.MeanLogLikelihood = r.LogLikelihood / float64(r.N)
	}
	return r, true
}
