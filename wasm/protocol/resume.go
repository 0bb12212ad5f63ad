package protocol

import "fmt"

// Messages that let a new worker take over a run from one that died.
//
//	page                                                       worker
//	 │ ◄──────────── Snapshot{run, step, epoch} + the state ──  │ about once a second while training
//	 │ ◄───────────────────────────────────────── Heartbeat ──  │ at least once a second while alive
//	 │ ── (a new worker) Load, then Resume{Config, run} + state ►│ the run goes on where the state was
type (
	// Resume makes the run Run, of Config, go on from State, a trainer's
	// state that a Snapshot carried (core/train's MarshalBinary), in a
	// worker that has loaded the same pack (and my digits, if the run
	// mixes them in). The worker answers as UseModel does, with Progress,
	// Weights and Evaluated, and keeps the run paused: a Train follows.
	// State travels as bulk bytes.
	Resume struct {
		Config Config `json:"config"`
		Run    int    `json:"run"`
		State  []byte `json:"-"`
	}
	// Snapshot is the state of run Run after Step steps (Epoch epochs),
	// from which Resume goes on; it travels as bulk bytes, and the page
	// keeps only the latest.
	Snapshot struct {
		Run   int    `json:"run"`
		Step  int    `json:"step"`
		Epoch int    `json:"epoch"`
		State []byte `json:"-"`
	}
	// Heartbeat says the worker is alive; the page declares a worker that
	// has sent nothing for a few seconds dead, and replaces it.
	Heartbeat struct{}
)

func (Resume) isMsg()    {}
func (Snapshot) isMsg()  {}
func (Heartbeat) isMsg() {}

// MaxState is the most bytes a trainer's state may have in a message.
const MaxState = 64 << 20

func readResume(m *Resume, bulk []byte) (err error) {
	m.State, err = state(bulk, "resume")
	return err
}

func readSnapshot(m *Snapshot, bulk []byte) (err error) {
	m.State, err = state(bulk, "snapshot")
	return err
}

// state checks the size of a trainer's state; core/train checks the rest.
func state(bulk []byte, name string) ([]byte, error) {
	if len(bulk) == 0 || len(bulk) > MaxState {
		return nil, fmt.Errorf("protocol: %s with a state of %d bytes: want 1 to %d", name, len(bulk), MaxState)
	}
	return bulk, nil
}
