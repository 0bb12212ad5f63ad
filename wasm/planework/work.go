package planework

import (
	"errors"
	"strconv"
	"time"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// The engine's slices of work: a scene built a piece at a time, and the
// live model's steps at the page's pace.

// startBuild makes b the scene in progress, replacing any other.
func (e *engine) startBuild(b *plane.Builder, now time.Time) {
	e.build, e.buildSeq, e.begun = b, e.seq, now
}

// steps takes the training steps due at the pace since the last slice, at
// time now (at full pace, as many as fit before end), and ends the run
// when the Trainer stops. It reports whether the model changed.
func (e *engine) steps(now, end time.Time) bool {
	rate := e.pace
	if e.warming {
		rate = 0
	}
	n := 0
	if rate > 0 {
		if e.last.IsZero() {
			e.due = 1 // a run's first step at once
		} else {
			e.due += rate * min(now.Sub(e.last).Seconds(), 0.1)
		}
		n = int(e.due)
		e.due -= float64(n)
	}
	e.last = now
	taken := 0
	for i := 0; (rate == 0 && (i == 0 || time.Now().Before(end))) || i < n; i++ {
		taken++
		if st := e.lab.Step(); st.Stop != train.Running {
			e.state, e.warming = stateDone, false
			break
		}
	}
	return taken > 0
}

// untilStep is how long until the next step is due at a slowed pace; 0 at
// full pace.
func (e *engine) untilStep() time.Duration {
	if e.pace <= 0 || e.warming {
		return 0
	}
	return time.Duration((1 - e.due) / e.pace * float64(time.Second))
}

// advance computes the scene in progress until end, and reports a
// complete one, or an error.
func (e *engine) advance(end time.Time) (done bool) {
	for e.build != nil && time.Now().Before(end) {
		if !e.build.Advance() {
			continue
		}
		b := e.build
		e.build = nil
		if sc := b.Scene(); sc != nil {
			e.scene, e.sceneSeq = sc, e.buildSeq
			e.scenes++
			return true
		}
		if err := b.Err(); err != nil {
			e.refused = err
		}
		return false
	}
	return false
}

// refusal is the refused input as the page reads it.
func refusal(err error) *protocol.PlaneRefusal {
	if err == nil {
		return nil
	}
	var ie *plane.InputError
	if !errors.As(err, &ie) {
		return &protocol.PlaneRefusal{Problem: -1, Message: err.Error()}
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return &protocol.PlaneRefusal{Problem: int(ie.Problem), X: [2]string{g(ie.Point.X[0]), g(ie.Point.X[1])},
		Class: ie.Class, Value: g(ie.Value), Count: ie.Count, Name: ie.Name, Message: err.Error()}
}
