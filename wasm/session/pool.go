package session

import (
	"fmt"
	"slices"
	"time"

	"softmaxdemo/core/newton"
	"softmaxdemo/core/shard"
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
//
// Its methods are in four files: pool.go its members (starting helpers,
// stopping and replacing those that fail or go silent), pooldata.go which
// worker computes which shard and the examples the helpers are sent,
// poolpass.go the passes, and pooleval.go the evaluations the helpers
// compute while a run goes on.
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

// helpersHeap returns the sum of the live helpers' heaps.
func (p *pool) helpersHeap() uint64 {
	var sum uint64
	for _, m := range p.live() {
		sum += m.heap
	}
	return sum
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
