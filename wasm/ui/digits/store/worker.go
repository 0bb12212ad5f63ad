package store

import (
	"fmt"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
)

// Worker is what the room knows of its training worker beyond what the
// worker says: Retry presses, a dead worker's run being taken over, the
// workers that died in a row, and what was asked of the worker that it
// needs once.
type Worker struct {
	Retries   int       // Retry presses: each fetches past any cached copy
	Takeover  *Takeover // a new worker's work, until it has loaded the pack
	Takeovers int       // workers replaced since the run last went on
	Warmed    bool      // the worker was sent Warm
	// CurvatureAsked is the model and settings #alpha-max was last asked
	// for.
	CurvatureAsked string
	PageWarmed     bool // the page's warm-up ran
	CellsReady     bool // the confusion matrix may make its 100 cells
}

// Takeover is a new worker's work, taken over from one that died.
type Takeover struct {
	Snap  *protocol.Snapshot // the state it goes on from; nil: the run starts again
	Cfg   protocol.Config    // the run's settings
	Train bool               // the run was training: train on once resumed
}

// MaxTakeovers is how many workers in a row may die before one has
// trained on (sent a newer Snapshot): then the page stops replacing them
// and offers Restart, rather than loop.
const MaxTakeovers = 3

// WorkerStarted records that a new worker started: it has warmed nothing.
func (s *Store) WorkerStarted() { s.Worker.Warmed = false }

// Warming reports whether the worker is yet to be sent Warm, and notes
// that it is sent.
func (s *Store) Warming() bool {
	w := !s.Worker.Warmed
	s.Worker.Warmed = true
	return w
}

// WorkerDied records that the worker died for the reason detail, and
// reports whether a new one takes over its run (Worker.Takeover says
// how). A worker that never loaded a pack (a broken build), or the
// MaxTakeovers-th death in a row, is shown as an error with Restart
// instead.
func (s *Store) WorkerDied(detail i18n.Msg) bool {
	w := &s.Worker
	if (s.TrainN == 0 && !s.Replacing) || w.Takeovers >= MaxTakeovers {
		s.Crashed(detail)
		return false
	}
	w.Takeovers++
	job := &Takeover{Cfg: s.Pending, Train: s.Status == StatusTraining}
	if prev := w.Takeover; prev != nil {
		job.Cfg, job.Train = prev.Cfg, prev.Train // it died while taking over
	}
	job.Snap = s.WorkerReplaced(detail)
	s.Asked(job.Cfg, false)
	w.Takeover = job
	return true
}

// TakeOver follows a worker event for the takeover under way: a Snapshot
// newer than the one the run went on from means the run goes on (the
// count of deaths in a row starts again), and the new worker's Loaded
// ends the takeover. It returns the takeover to carry out now (Resume,
// and Train if the run was training), or nil.
func (s *Store) TakeOver(m protocol.Msg) *Takeover {
	w := &s.Worker
	switch m := m.(type) {
	case protocol.Snapshot:
		if job := w.Takeover; job == nil || job.Snap == nil || m.Step > job.Snap.Step {
			w.Takeovers = 0
		}
	case protocol.Loaded:
		job := w.Takeover
		if job != nil {
			w.Takeover = nil
			s.TookOver()
		}
		return job
	}
	return nil
}

// Retried records a Retry press: the error goes, and with no manifest
// yet the page is loading again.
func (s *Store) Retried() {
	s.Retrying(len(s.Packs) > 0)
	s.Worker.Retries++
}

// Restarted records that the person restarted the worker: what a new
// worker will send again is reset, and no takeover is under way.
func (s *Store) Restarted() {
	s.Restarting()
	s.Worker.Takeover, s.Worker.Takeovers = nil, 0
}

// AskCurvature reports whether λ_max is yet to be asked for the current
// model and c's λ, pinning and images, and notes that it is asked.
func (s *Store) AskCurvature(c protocol.Config) bool {
	key := fmt.Sprintf("%d/%d/%v/%v/%v", s.Run, s.Progress.Step, c.L2, c.PinFirst, c.Deskew)
	if key == s.Worker.CurvatureAsked {
		return false
	}
	s.Worker.CurvatureAsked = key
	return true
}

// PageWarmedUp records that the page's warm-up ran (it runs once).
func (s *Store) PageWarmedUp() bool {
	w := !s.Worker.PageWarmed
	s.Worker.PageWarmed = true
	return w
}

// ShowCells lets the confusion matrix make its cells.
func (s *Store) ShowCells() { s.Worker.CellsReady = true }
