package session

import (
	"time"

	"softmaxdemo/core/newton"
	"softmaxdemo/core/shard"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// run computes one pass: every shard's part, each by owner(s) (nil: this
// worker, by local), the helpers' parts stored by fill. A part a helper
// could not compute, or did not within the timeout, is computed here by
// local, with the same bits.
func (p *pool) run(pass protocol.Pass, owner func(s int) *member, local func(s int), fill func(s int, out []float64, out32 []float32) bool) {
	p.nextID++
	pass.ID, pass.Gen = p.nextID, p.gen
	waiting := map[*member][]int{}
	var mine []int
	for s := range shard.Count {
		if m := owner(s); m != nil && !m.dead {
			waiting[m] = append(waiting[m], s)
		} else {
			mine = append(mine, s)
		}
	}
	for m, shards := range waiting {
		p.sendData(m, pass.Set, shards)
		pp := pass
		pp.Shards = shards
		m.h.Post(pp)
	}
	for _, s := range mine {
		local(s)
	}
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	for len(waiting) > 0 {
		select {
		case r := <-p.replies:
			shards, mine := waiting[r.m]
			switch msg := r.msg.(type) {
			case protocol.ShardHeld:
				p.held(r.m, msg)
			case protocol.PassDone:
				if !mine || msg.ID != pass.ID {
					p.evalReply(r.m, msg)
					continue
				}
				delete(waiting, r.m)
				ok := msg.Failed == "" && len(msg.Out) == len(shards) && (msg.Out32 == nil || len(msg.Out32) == len(shards))
				for i, s := range shards {
					var o32 []float32
					if ok && msg.Out32 != nil {
						o32 = msg.Out32[i]
					}
					if !ok || msg.Shards[i] != s || !fill(s, msg.Out[i], o32) {
						local(s)
					}
				}
				if msg.Failed != "" {
					logf("session: a helper could not compute shards %v: %s\n", shards, msg.Failed)
				}
			case protocol.Failed:
				p.kill(r.m, msg.Message)
				if mine {
					delete(waiting, r.m)
					for _, s := range shards {
						local(s)
					}
				}
			}
		case <-timer.C:
			for m, shards := range waiting {
				p.kill(m, "no answer for "+p.timeout.String())
				for _, s := range shards {
					local(s)
				}
			}
			waiting = nil
		}
	}
	if len(p.live())+1 < p.want {
		n, why := len(p.live()), p.refused
		p.fill()
		if len(p.live()) != n || p.refused != why {
			p.sendState()
		}
	}
}

// roundRobin gives shard s of set to worker s mod n of this one and the
// live helpers, as this pass finds them: a helper that has not yet said
// it holds the shard (ShardHeld) is sent it, if it was not, and this
// worker computes it meanwhile. The same bits either way.
func (p *pool) roundRobin(set int) func(s int) *member {
	p.takeReplies() // a helper that has just taken in a shard computes it from this pass on
	live := p.live()
	var owners [shard.Count]*member
	for s := range owners {
		m := trainOwner(live, s)
		if m == nil {
			continue
		}
		if m.held[[2]int{set, s}] == p.gen {
			owners[s] = m
		} else {
			p.sendData(m, set, []int{s})
		}
	}
	return func(s int) *member { return owners[s] }
}

// gradPasses returns the passes of full-batch gradient descent over set.
func (p *pool) gradPasses(set int) train.Passes { return gradPool{p, set} }

type gradPool struct {
	p   *pool
	set int
}

// Grad implements train.Passes.
func (g gradPool) Grad(w, b []float32, gw, gb *[shard.Count][]float32, loss *[shard.Count]float64) {
	p := g.p
	if len(p.positions) < p.examples(g.set).Len()/shard.Count+1 {
		p.positions = train.Positions(p.examples(g.set).Len()/shard.Count + 1)
	}
	vec := append(append(make([]float32, 0, len(w)+len(b)), w...), b...)
	nw := len(w)
	p.run(protocol.Pass{Op: "grad", Set: g.set, Vec32: vec}, p.roundRobin(g.set),
		func(s int) { loss[s] = train.GradShard(gw[s], gb[s], w, b, p.view(g.set, s), p.positions) },
		func(s int, out []float64, out32 []float32) bool {
			if len(out) != 1 || len(out32) != nw+len(b) {
				return false
			}
			copy(gw[s], out32[:nw])
			copy(gb[s], out32[nw:])
			loss[s] = out[0]
			return true
		})
}

// newtonPasses returns Newton's passes over set.
func (p *pool) newtonPasses(set int) newton.Passes {
	p.holder = [2][shard.Count]*member{}
	clear(p.local)
	return newtonPool{p, set}
}

type newtonPool struct {
	p   *pool
	set int
}

// localNewton returns this worker's Newton shard s of set.
func (p *pool) localNewton(set, s int) *newton.Shard[float32] {
	key := [2]int{set, s}
	if sh := p.local[key]; sh != nil {
		return sh
	}
	sh := newton.NewShard(p.view(set, s), p.s.data.d, softmax.K)
	p.local[key] = sh
	return sh
}

// Eval implements newton.Passes.
func (n newtonPool) Eval(theta []float64, slot int, g, h *[shard.Count][]float64, loss *[shard.Count]float64) {
	p := n.p
	p.theta[slot] = append(p.theta[slot][:0], theta...)
	owner := p.roundRobin(n.set)
	k := len(theta)
	p.run(protocol.Pass{Op: "neval", Set: n.set, Slot: slot, Vec64: theta}, owner,
		func(s int) {
			loss[s] = p.localNewton(n.set, s).Eval(g[s], h[s], theta, slot)
			p.holder[slot][s] = nil
		},
		func(s int, out []float64, _ []float32) bool {
			if len(out) != 2*k+1 {
				return false
			}
			copy(g[s], out[:k])
			copy(h[s], out[k:2*k])
			loss[s] = out[2*k]
			p.holder[slot][s] = owner(s)
			return true
		})
}

// Hv implements newton.Passes: each shard by the worker that holds its μ
// for slot; where that helper died, this worker evaluates μ again at the
// slot's parameters first.
func (n newtonPool) Hv(v []float64, slot int, out *[shard.Count][]float64) {
	p := n.p
	k := len(v)
	p.run(protocol.Pass{Op: "hv", Set: n.set, Slot: slot, Vec64: v},
		func(s int) *member { return p.holder[slot][s] },
		func(s int) {
			sh := p.localNewton(n.set, s)
			if p.holder[slot][s] != nil {
				scratch := make([]float64, k)
				sh.Eval(scratch, make([]float64, k), p.theta[slot], slot)
				p.holder[slot][s] = nil
			}
			sh.Hv(out[s], v, slot)
		},
		func(s int, o []float64, _ []float32) bool {
			if len(o) != k {
				return false
			}
			copy(out[s], o)
			return true
		})
}
