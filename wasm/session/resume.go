package session

import (
	"errors"
	"time"

	"softmaxdemo/wasm/protocol"
)

// A worker may die mid-run (the browser reclaims its memory, a phone puts
// the tab to sleep). So that a new one can take over, the session sends,
// about once a second while a run trains and whenever it stops, a
// Snapshot: the trainer's whole state (core/train's MarshalBinary), from
// which Resume, in a new worker with the same pack, goes on bit for bit.
// The state is written here, in the worker, and travels as bulk bytes:
// the page only keeps the latest.
//
// A Newton run sends no snapshots: its solver (core/newton) starts from
// θ = 0 only, so after a crash the page starts it again.

// snapshotEvery is how often a training run sends its state.
const snapshotEvery = time.Second

// errNoResume refuses a Resume of a method that keeps no state.
var errNoResume = errors.New("this method's runs cannot be resumed; they start again")

// sendSnapshot sends the run's state if its method keeps one, and if
// snapshotEvery has passed since the last or force is set.
func (s *session) sendSnapshot(now time.Time, force bool) {
	r := s.run
	if r == nil || (!force && now.Sub(r.lastSnapshot) < snapshotEvery) {
		return
	}
	state, err := r.meth.state()
	if err != nil || state == nil {
		return
	}
	r.lastSnapshot = now
	step, epoch := r.meth.at()
	s.send(protocol.Snapshot{Run: r.id, Step: step, Epoch: epoch, State: state})
}

// resume handles Resume: the run m.Run of m.Config goes on from m.State,
// paused, and is reported as a model loaded by UseModel is. A state that
// does not fit the data or the Config is refused with Failed and changes
// nothing; the page then starts the run again.
func (s *session) resume(m protocol.Resume) {
	if !s.needData() {
		return
	}
	meth, err := methodFor(m.Config, s.data.train.Len())
	if err == nil {
		err = meth.start(s, m.Config, nil)
	}
	c := m.Config
	if err == nil {
		c, err = meth.restore(c, m.State)
	}
	// The run's number is taken either way: a run started instead (the
	// page trains again) is newer than the page's.
	s.runs = max(s.runs, m.Run)
	if err != nil {
		s.failKey("err.resume", hintResume, err.Error())
		return
	}
	now := s.env.Now()
	s.run = newRunRecord(m.Run, c, meth, s.data.of(c).train.Len())
	s.run.lastSnapshot = now
	s.training = false
	s.sendProgress(now)
	s.sendWeights(now)
	s.send(s.evaluated())
}
