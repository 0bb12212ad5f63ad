package session

import (
	"time"

	"softmaxdemo/core/metrics"
	"softmaxdemo/core/shard"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

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
