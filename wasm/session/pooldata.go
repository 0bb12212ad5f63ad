package session

import (
	"softmaxdemo/core/shard"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

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

// examples returns the examples of a pool set of the loaded pack; the
// training sets with their pairs and singles (softmax.Block), which the
// views of their shards share.
func (p *pool) examples(set int) *softmax.Examples[float32] {
	d := p.s.data
	switch set {
	case protocol.SetTrain:
		softmax.Block(d.train)
		return d.train
	case protocol.SetDeskewed:
		softmax.Block(d.deskewed.train)
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
