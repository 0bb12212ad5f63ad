package session

import (
	"fmt"
	"slices"
	"time"

	"softmaxdemo/core/metrics"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/shard"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// A Helper is a worker of the training worker's pool, as the training
// worker sees it (the browser's is a nested Web Worker running Help).
type Helper interface {
	// Post sends m to the helper. It never blocks.
	Post(m protocol.Msg)
	// Replies delivers the helper's messages. When the helper dies (an
	// error event), it delivers a protocol.Failed, then nothing more.
	Replies() <-chan protocol.Msg
	// Stop ends the helper.
	Stop()
}

// helperTimeout is how long a pass waits for a helper's part before the
// helper counts as dead: it is replaced, and its shards are computed here.
// A pass takes milliseconds; this is long enough for a machine busy with
// other work.
var helperTimeout = 10 * time.Second

// pool computes full passes over the data (full-batch gradients, Newton's
// passes, evaluations) with the training worker and its helpers, each
// computing some of the fixed shards (core/shard), and adds them up in
// shard order: the results are the same bits for any number of workers.
// Shard s goes to worker s mod n of n (0 is this one); each helper gets a
// shard's examples once per pack (ShardData), not per pass. Minibatch SGD
// stays here, sequential; its evaluations go to the helpers, so it never
// waits for them.
type pool struct {
	s       *session
	want    int // workers asked for, this one included
	members []*member
	replies chan reply
	// gen is the pack's generation, one more with every load: 1 for the
	// first, so a member's missing sent or held entry (0) is never the
	// current one.
	gen     int
	nextID  int64
	timeout time.Duration
	evals   []*pendingEval
	refused string // why the pool has fewer workers than asked, in English
	// replaced counts the helpers that failed or went silent and were
	// replaced (kill), since the worker started.
	replaced int

	positions []int32
	// Newton: the parameters of each slot's latest evaluation, the member
	// that holds μ for each shard there (nil: this worker), and this
	// worker's own shards with their μ.
	theta  [2][]float64
	holder [2][shard.Count]*member
	local  map[[2]int]*newton.Shard[float32]
}

// lost holds, in holder, the μ of a shard whose helper died: nobody has
// it any more, and this worker evaluates it again before an H·v.
var lost = &member{dead: true}

// member is one helper of the pool.
type member struct {
	h    Helper
	sent map[[2]int]int // the generation of the pack whose (set, shard) it was sent
	held map[[2]int]int // the generation of the pack whose (set, shard) it said it holds
	dead bool
	gone chan struct{} // closed when it is dead: its replies are no longer read
	heap uint64        // its Go heap, as it last reported it
}

// reply is a helper's message with its sender.
type reply struct {
	m   *member
	msg protocol.Msg
}

// pendingEval is an evaluation that helpers compute while the run goes on.
type pendingEval struct {
	id      int64
	e       protocol.Evaluated // the run, step, epoch and time it belongs to
	model   *softmax.Model[float32]
	set     int
	parts   [shard.Count]metrics.Result
	waiting map[*member][]int
	posted  time.Time
}

func newPool(s *session) *pool {
	return &pool{s: s, want: 1, replies: make(chan reply, 64), timeout: helperTimeout, local: map[[2]int]*newton.Shard[float32]{}}
}

// setWorkers makes the pool n workers strong (this one included),
// starting or stopping helpers, and tells the page.
func (p *pool) setWorkers(n int) {
	n = max(1, min(n, protocol.MaxWorkers))
	p.want = n
	p.refused = ""
	for len(p.live())+1 > n {
		p.retire(p.live()[len(p.live())-1])
	}
	p.fill()
	p.prime()
	p.sendState()
}

// sendState tells the page the pool's state.
func (p *pool) sendState() {
	p.s.send(protocol.PoolState{Asked: p.want, Running: len(p.live()) + 1, Refused: p.refused, Replaced: p.replaced})
}

// prime gives every helper the examples of the shards it will compute
// of the straightened sets, which the page trains and tests on by
// default, if a pack is loaded whole: the training set's shards by
// roundRobin, then the test set's as evaluate deals them. Sent now, while
// the page waits for a person, they are not on the first pass's way. The
// raw sets go to a helper when a pass first needs them (roundRobin,
// evaluate): a helper takes in each message in turn, passes included, so
// data it may never use would hold up the passes it is sent meanwhile
// (the full pack's four sets are 75 MB a helper).
func (p *pool) prime() {
	d := p.s.data
	if d == nil || d.deskewed == nil || d.deskewed.train == nil || d.deskewed.test == nil {
		return
	}
	live := p.live()
	if len(live) == 0 {
		return
	}
	for s := range shard.Count {
		if m := trainOwner(live, s); m != nil {
			p.sendData(m, protocol.SetDeskewed, []int{s})
		}
	}
	for s := range shard.Count {
		p.sendData(testOwner(live, s), protocol.SetTestDeskewed, []int{s})
	}
}

// trainOwner is the helper of live that computes shard s of a training
// set (worker s mod n, this one being worker 0), or nil for this worker;
// testOwner the one that evaluates shard s of a test set (every test
// shard goes to a helper, while this worker trains).
func trainOwner(live []*member, s int) *member {
	if w := s % (len(live) + 1); w > 0 {
		return live[w-1]
	}
	return nil
}

func testOwner(live []*member, s int) *member { return live[s%len(live)] }

// fill starts helpers until the pool has the workers asked for, or the
// browser refuses one.
func (p *pool) fill() {
	for len(p.live())+1 < p.want {
		h, err := p.s.env.StartHelper()
		if err != nil {
			p.refused = err.Error()
			return
		}
		m := &member{h: h, sent: map[[2]int]int{}, held: map[[2]int]int{}, gone: make(chan struct{})}
		p.members = append(p.members, m)
		go func() {
			for {
				select {
				case msg := <-h.Replies():
					select {
					case p.replies <- reply{m, msg}:
					case <-m.gone:
						return
					}
				case <-m.gone:
					return
				}
			}
		}()
	}
}

// live returns the helpers that are not dead, in order.
func (p *pool) live() []*member {
	var out []*member
	for _, m := range p.members {
		if !m.dead {
			out = append(out, m)
		}
	}
	return out
}

// kill ends a helper that failed or went silent; the next pass starts a
// replacement (fill) and gives it its shards.
func (p *pool) kill(m *member, why string) {
	if m.dead {
		return
	}
	logf("session: a helper of the pool stopped (%s); it is replaced and its shards computed here\n", why)
	p.retire(m)
	p.replaced++
	p.sendState()
}

// retire stops a helper and forgets it: what it held of Newton's μ is
// lost (this worker evaluates it again before an H·v), and the parts of
// pending evaluations it owed are computed here.
func (p *pool) retire(m *member) {
	if m.dead {
		return
	}
	m.dead = true
	m.h.Stop()
	close(m.gone)
	for i := range p.holder {
		for s, h := range p.holder[i] {
			if h == m {
				p.holder[i][s] = lost
			}
		}
	}
	p.members = slices.DeleteFunc(p.members, func(x *member) bool { return x == m })
	p.evalsLost(m)
}

// newPack starts a new generation: the helpers' shards are of an old pack.
func (p *pool) newPack() {
	p.gen++
	clear(p.local)
	p.holder = [2][shard.Count]*member{}
	p.evals = nil
}

// examples returns the examples of a pool set of the loaded pack.
func (p *pool) examples(set int) *softmax.Examples[float32] {
	d := p.s.data
	switch set {
	case protocol.SetTrain:
		return d.train
	case protocol.SetDeskewed:
		return d.deskewed.train
	case protocol.SetTest:
		return d.test
	}
	return d.deskewed.test
}

// view returns shard s of a set, as a view of this worker's examples.
func (p *pool) view(set, s int) *softmax.Examples[float32] {
	x := p.examples(set)
	lo, hi := shard.Range(x.Len(), s)
	return x.View(lo, hi)
}

// sendData gives m the examples of set's shards it lacks.
func (p *pool) sendData(m *member, set int, shards []int) {
	for _, s := range shards {
		key := [2]int{set, s}
		if m.sent[key] == p.gen {
			continue
		}
		v := p.view(set, s)
		base := v.Start[0]
		start := make([]int32, len(v.Start))
		for i, st := range v.Start {
			start[i] = st - base
		}
		end := v.Start[len(v.Start)-1]
		m.h.Post(protocol.ShardData{Set: set, Gen: p.gen, Shard: s, D: p.s.data.d, N: v.Len(),
			Labels: v.Labels, Start: start, Index: v.Index[base:end], Value: v.Value[base:end]})
		m.sent[key] = p.gen
	}
}

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

// evaluate starts the evaluation of m on set for the Evaluated e, on the
// helpers, and reports whether it did: without helpers the caller
// evaluates here.
func (p *pool) evaluate(m *softmax.Model[float32], set int, e protocol.Evaluated) bool {
	live := p.live()
	if len(live) == 0 {
		return false
	}
	p.nextID++
	pe := &pendingEval{id: p.nextID, e: e, model: m.Clone(), set: set, waiting: map[*member][]int{}, posted: time.Now()}
	for s := range shard.Count {
		mm := testOwner(live, s)
		if mm.held[[2]int{set, s}] != p.gen {
			// Not taken in yet: evaluated here, as a helper that died
			// owed it.
			p.sendData(mm, set, []int{s})
			pe.parts[s] = metrics.EvaluateRange(pe.model, p.view(set, s), 0, p.view(set, s).Len())
			continue
		}
		pe.waiting[mm] = append(pe.waiting[mm], s)
	}
	vec := append(append(make([]float32, 0, len(m.W)+len(m.B)), m.W...), m.B...)
	for mm, shards := range pe.waiting {
		mm.h.Post(protocol.Pass{ID: pe.id, Gen: p.gen, Op: "eval", Set: set, Shards: shards, Vec32: vec})
	}
	p.evals = append(p.evals, pe)
	p.finishEvals()
	return true
}

// helpersHeap returns the sum of the live helpers' heaps.
func (p *pool) helpersHeap() uint64 {
	var sum uint64
	for _, m := range p.live() {
		sum += m.heap
	}
	return sum
}

// evalReply stores a helper's part of a pending evaluation, finishing it
// when every part is in.
func (p *pool) evalReply(m *member, msg protocol.PassDone) {
	if msg.Heap != 0 {
		m.heap = msg.Heap
	}
	for _, pe := range p.evals {
		if pe.id != msg.ID {
			continue
		}
		shards := pe.waiting[m]
		delete(pe.waiting, m)
		for i, s := range shards {
			r, ok := metrics.Result{}, false
			if msg.Failed == "" && i < len(msg.Out) && msg.Shards[i] == s {
				r, ok = evalResult(msg.Out[i])
			}
			if !ok {
				r = metrics.EvaluateRange(pe.model, p.view(pe.set, s), 0, p.view(pe.set, s).Len())
			}
			pe.parts[s] = r
		}
		p.finishEvals()
		return
	}
}

// evalsLost computes here the parts of pending evaluations a dead helper
// owed.
func (p *pool) evalsLost(m *member) {
	for _, pe := range p.evals {
		for _, s := range pe.waiting[m] {
			pe.parts[s] = metrics.EvaluateRange(pe.model, p.view(pe.set, s), 0, p.view(pe.set, s).Len())
		}
		delete(pe.waiting, m)
	}
	p.finishEvals()
}

// finishEvals sends, in the order they were started, the evaluations
// whose parts are all in.
func (p *pool) finishEvals() {
	for len(p.evals) > 0 && len(p.evals[0].waiting) == 0 {
		pe := p.evals[0]
		p.evals = p.evals[1:]
		p.s.send(evaluatedOf(pe.e, metrics.Combine(&pe.parts)))
	}
}

// overdue kills the helpers that owe a pending evaluation started more
// than the timeout ago, and computes their parts here.
func (p *pool) overdue() {
	for _, pe := range p.evals {
		if time.Since(pe.posted) < p.timeout {
			continue
		}
		for m := range pe.waiting {
			p.kill(m, "no answer for "+p.timeout.String())
		}
	}
}

// nextDeadline returns when the oldest pending evaluation is overdue, or
// nil if none is pending.
func (p *pool) nextDeadline() <-chan time.Time {
	if len(p.evals) == 0 {
		return nil
	}
	return time.After(time.Until(p.evals[0].posted.Add(p.timeout)))
}

// handle takes a helper's message that arrived between passes.
func (p *pool) handle(r reply) {
	switch msg := r.msg.(type) {
	case protocol.ShardHeld:
		p.held(r.m, msg)
	case protocol.PassDone:
		p.evalReply(r.m, msg)
	case protocol.Failed:
		p.kill(r.m, msg.Message)
		p.fill()
	}
}

// takeReplies handles every helper's message already waiting.
func (p *pool) takeReplies() {
	for {
		select {
		case r := <-p.replies:
			p.handle(r)
		default:
			return
		}
	}
}

// held notes that m holds a shard of a set, for the passes to come.
func (p *pool) held(m *member, msg protocol.ShardHeld) {
	if m.sent[[2]int{msg.Set, msg.Shard}] == msg.Gen {
		m.held[[2]int{msg.Set, msg.Shard}] = msg.Gen
	}
}

// String describes the pool, for logs.
func (p *pool) String() string {
	return fmt.Sprintf("pool of %d workers (%d asked)", len(p.live())+1, p.want)
}
