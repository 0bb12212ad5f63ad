package store

import (
	"hash/fnv"
	"strconv"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
)

// The worker's events change the plane here: a scene or a frame for data
// older than the page shows, or of another set-up, is dropped.

// Takes reports whether the state m is of the set-up in force, and says
// something (Seq 0 is no state): the frame sent just before it is taken
// with it (Frame), so that a status that says done says the last step.
func (p *Plane) Takes(m protocol.PlaneState) bool { return m.Setup == p.setup && m.Seq != 0 }

// Apply takes one event of the worker, other than a frame, at now (ms),
// and reports whether the views must render.
func (p *Plane) Apply(m protocol.Msg, now float64) bool {
	switch m := m.(type) {
	case protocol.PlaneState:
		if !p.Takes(m) {
			return false
		}
		p.state(m)
		return true
	case protocol.PlaneScene:
		if m.Setup != p.setup || m.Seq < p.s.Seq || m.Scene == nil {
			return false // for points no longer shown
		}
		p.s.Scene, p.s.SceneSum = m.Scene, sceneSum(m.Scene)
		p.s.BuildMS = now - p.asked
		p.s.Scenes++
		return true
	case protocol.Failed:
		p.s.Refused = i18n.Text("raw", m.Message)
		return true
	}
	return false
}

// state takes a PlaneState of the set-up in force.
func (p *Plane) state(m protocol.PlaneState) {
	s := &p.s
	if m.Data.K != s.Data.K {
		s.Typed = Typed{} // the table is made again for the new K
	}
	old, before := s.State, s.Status
	s.Seq, s.State, s.Name, s.Edited = m.Seq, m.State, m.Name, m.Edited
	p.run.note(old, s.State, before, s.Status)
	s.Data, s.Settings, s.Psi, s.Building = m.Data, m.Settings, m.Psi, m.Building
	s.Refused = refusalOf(m.Refused)
	if m.Chosen {
		s.Fields = s.Fields.follow(m.Settings)
	}
	s.Add = min(s.Add, max(m.Data.K-1, 0))
	p.judge() // the class's lines on the data and settings now
}

// Frame takes a frame of the live model, and reports whether more than
// its numbers changed: its state, or whether the points are separated.
// The first frame of the Hand view's model queues its starting line, and
// the first with that line the run asked for before it.
func (p *Plane) Frame(m protocol.PlaneFrame) bool {
	s := &p.s
	if m.Setup != p.setup || m.Seq < s.Seq {
		return false
	}
	state, before, sep := s.State, s.Status, s.Status.Separated
	s.Status, s.State, s.Hand = m.Status, m.State, m.Hand
	p.run.note(state, s.State, before, s.Status)
	if mod := m.Model(); mod != nil {
		s.Model = mod
		p.handStart()
		p.startIn()
	}
	s.Picture = Picture{Image: m.Image, N: m.N, Bounds: m.Boundaries, Steps: m.Status.Steps, Frame: s.Picture.Frame + 1}
	return state != s.State || sep != s.Status.Separated
}

// sceneSum is an FNV-1a hash of the scene's bytes, in hex: the
// #plane-surface's data-scene, which tools/browsertest compares with the
// scene core/plane computes natively for the same points.
func sceneSum(sc *plane.Scene) string {
	b, err := sc.MarshalBinary()
	if err != nil {
		return ""
	}
	h := fnv.New64a()
	h.Write(b)
	return strconv.FormatUint(h.Sum64(), 16)
}
