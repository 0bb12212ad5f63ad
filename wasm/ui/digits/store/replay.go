package store

import (
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/link"
)

// Replay is a link's branch being trained again: each run of its chain
// from where the one before it reached its step, at full pace, then the
// link's own run, at its pace, from the last one's step.
type Replay struct {
	Chain link.Chain
	cfgs  []protocol.Config // each run's settings, the link's own last
	i     int               // the run of the chain training now
	after int               // its run is the first whose id is above this
}

// StartReplay starts training a link's branch (Controls.WantChain) again
// once its pack is in, unless a new worker is taking over: it returns the
// settings of the chain's first run, to train from its start at full
// pace, and start true. A run of the chain that the Train panel refuses,
// or whose step is none of its keyframes, drops the branch: missed says
// so, for the page's notices.
func (s *Store) StartReplay() (first protocol.Config, start bool, missed i18n.Msg) {
	c := &s.Controls
	if c.WantChain == (link.Chain{}) || s.TrainN == 0 || s.Dataset != s.LinkData() || s.Replacing {
		return protocol.Config{}, false, i18n.Msg{}
	}
	chain := c.WantChain
	c.WantChain = link.Chain{}
	runs := chain.Runs()
	cfgs := make([]protocol.Config, len(runs)+1)
	for i, b := range runs {
		set := s.Check(b.Fields)
		k := protocol.KeyframesOf(set.Config, s.TrainN)
		if !set.OK() || (!k.Has(b.Step) && b.Step != k.Last()) {
			return protocol.Config{}, false, i18n.Text("scrub.linkMissed", b.Step)
		}
		cfgs[i] = set.Config
	}
	if !c.Settings.OK() {
		return protocol.Config{}, false, i18n.Msg{}
	}
	cfgs[len(runs)] = c.Settings.Config
	for i := range cfgs {
		cfgs[i].MyDigitsRate = s.Files.Share()
	}
	s.Replay = &Replay{Chain: chain, cfgs: cfgs, after: s.Run}
	s.Asked(cfgs[0], true)
	return cfgs[0], true, i18n.Msg{}
}

// ReplayNext follows the run of the chain training now. Once it holds its
// keyframe at the chain's step, ReplayNext returns the next run's
// settings and that keyframe, which the next run starts from as a branch,
// and whether that run is the link's own (the last, at the page's pace).
// A run that passes the step, or ends before it, without one ends the
// replay: missed says so.
func (s *Store) ReplayNext() (next protocol.Config, from *Keyframe, last bool, missed i18n.Msg) {
	rp := s.Replay
	r := s.Current()
	if rp == nil || r == nil || r.ID <= rp.after || len(r.Frames) == 0 {
		return
	}
	target := rp.Chain.Runs()[rp.i].Step
	from = r.FrameAt(target)
	if from == nil {
		end := r.Frames[len(r.Frames)-1].Step
		if end > target || (r.State == StatusDone && end == s.Progress.Step) {
			s.Replay = nil
			missed = i18n.Text("scrub.linkMissed", target)
		}
		return
	}
	rp.i++
	next = rp.cfgs[rp.i]
	s.Asked(next, true)
	s.Branching(r, target)
	rp.after = r.ID
	if rp.i == len(rp.Chain.Runs()) {
		s.Replay, last = nil, true
	}
	return next, from, last, i18n.Msg{}
}

// StopReplay ends a replay the person interrupted, and reports whether
// there was one (the pace is theirs again).
func (s *Store) StopReplay() bool {
	was := s.Replay != nil
	s.Replay = nil
	return was
}
