// Package store is the plane's state as the page knows it: what the
// plane's worker last said (its data, settings, state, the live model's
// status and latest frame, the scene), and what is the page's alone (the
// number fields as typed, the class a click adds, θ by hand, the runs of
// gradient descent it has seen start and end, its part in a class and
// the class's lines, judged on its data).
//
// The plane's owner (wasm/ui/planepanel) changes it only through Plane's
// methods, on go-app's goroutine, and its views read a Snapshot of it.
// What a method asks of the worker it queues, and the owner sends what
// Outbox returns: every change is plain Go, tested natively without a
// worker, command by command.
package store

import (
	"softmaxdemo/core/class"
	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/planework"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/params"
)

// The plane's states, as #plane-status's data-state and the worker's
// PlaneState and PlaneFrame say them.
const (
	Ready    = "ready"
	Training = "training"
	Done     = "done"
)

// Start is how one of the plane's pictures starts: its data set, K and
// settings, whether it trains to the end at once at full pace (Warm), and
// whether it is the line set by hand (Hand: its first θ is θ₁ = the
// settings' start, and a run asked for before that line is in waits for
// it).
type Start struct {
	Data     string
	K        int
	Settings plane.Settings
	Warm     bool
	Hand     bool
}

// Snapshot is the plane as its views show it, a value: the maps and
// slices it holds are never changed once in a snapshot, so that a view
// given one sees a change as a change.
type Snapshot struct {
	Seq      int    // the version of the data and settings
	State    string // Ready, Training or Done
	Name     string // the data set's name
	Edited   bool   // points were added or removed since it was made
	Data     plane.Data
	Settings plane.Settings
	Refused  i18n.Msg // the last input refused, with its reason
	Psi      *plane.Psi
	Building bool // a scene is being computed
	Status   plane.Status
	Model    *softmax.Model[float32] // the live model of the latest frame
	Scene    *plane.Scene
	SceneSum string  // the scene's checksum (#plane-surface's data-scene)
	BuildMS  float64 // how long the last scene took, from the command that asked for it
	Scenes   int     // scenes taken so far

	Picture Picture // the latest frame's regions
	Fields  Fields  // α, λ and B as typed
	Add     int     // the class a click adds
	Typed   Typed   // #plane-theta's fields as typed
	Hand    int     // the last θ by hand the worker has answered
	Class   Class   // the plane's part in a class (class.go)
}

// Picture is the regions of a frame as the worker drew them: an N×N RGBA
// image and the boundaries, segments of 4 numbers in the plane's
// coordinates, of the model at Steps. Frame counts the frames taken; the
// image's bytes are the frame decoder's, reused by the next frame, and
// are drawn at once.
type Picture struct {
	Image  []byte
	N      int
	Bounds []float64
	Steps  int
	Frame  int
}

// Plane is the plane's state: a Snapshot and what the page keeps to ask
// the worker for more. Its zero value is not ready; Reset starts it.
type Plane struct {
	s       Snapshot
	start   Start
	setup   int            // the set-up's id: events of another are dropped; -1 before one
	setDone bool           // the worker has been set up for start
	early   []protocol.Msg // the page's demonstrations asked for before that: sent after it
	pace    string         // the pace the worker was last told
	asked   float64        // when the last command that asks for a scene was queued, ms
	hand    hand
	run     runs
	lines   []class.LineOf // the class's lines, as the page gave them
	out     []protocol.Msg
}

// Snapshot returns the plane as the views show it.
func (p *Plane) Snapshot() Snapshot { return p.s }

// Outbox returns the commands queued for the worker since it was last
// called, in order, and forgets them.
func (p *Plane) Outbox() []protocol.Msg {
	out := p.out
	p.out = nil
	return out
}

// send queues m for the worker.
func (p *Plane) send(m protocol.Msg) { p.out = append(p.out, m) }

// Reset shows s until the worker says more: the data set's points (made
// from the same seed as the worker makes them), K and the settings, no
// model yet, a scene to come. The pace told and the last picture stay:
// the worker is the same, and the canvas shows its last regions until the
// new set-up's first frame.
func (p *Plane) Reset(s Start) {
	d, _ := plane.Generate(s.Data, s.K, planework.Seed)
	part, lines := p.s.Class.Part, p.lines
	*p = Plane{pace: p.pace, start: s, setup: -1, lines: lines, s: Snapshot{
		State: Ready, Name: s.Data, Data: d, Settings: s.Settings, Fields: FieldsOf(s.Settings),
		Building: true, Picture: p.s.Picture, Class: Class{Part: part, Send: SendIdle},
	}}
	p.judge()
}

// SetUp asks the worker for the start, as set-up id (the events of any
// other are dropped), at the pace, and then for what the page asked
// before it (Early). now is the time in ms, for the scene's timing.
func (p *Plane) SetUp(id int, pace string, now float64) {
	p.setup, p.setDone, p.asked = id, true, now
	s := p.start
	p.send(protocol.PlaneSetUp{Setup: id, Data: s.Data, K: s.K, Settings: s.Settings, Warm: s.Warm})
	p.Pace(pace)
	p.out = append(p.out, p.early...)
	p.early = nil
}

// IsSetUp reports whether the worker has been set up for the start.
func (p *Plane) IsSetUp() bool { return p.setDone }

// Early queues m, a demonstration the page asks of the plane, once the
// worker has been set up for the start: a set-up sent after it would
// start the plane again and lose it (a question answered the moment its
// chapter opens, before the room is near enough to be set up).
func (p *Plane) Early(m protocol.Msg) {
	if !p.setDone {
		p.early = append(p.early, m)
		return
	}
	p.send(m)
}

// Pace tells the worker the page's pace, a params.Paces value (the
// default for one it does not know), when it changed.
func (p *Plane) Pace(pace string) {
	if pace == p.pace && p.pace != "" {
		return
	}
	p.pace = pace
	rate, ok := params.PaceRate(pace)
	if !ok {
		rate, _ = params.PaceRate(params.DefaultPace)
	}
	p.send(protocol.PlanePace{StepsPerSecond: rate})
}

// Ask queues m, a command that asks for a new scene, at now (ms): the
// scene's BuildMS counts from here.
func (p *Plane) Ask(m protocol.Msg, now float64) {
	p.Asked(now)
	p.send(m)
}

// Asked notes that a scene was asked for at now (ms), by a command that
// goes to the worker later (Early).
func (p *Plane) Asked(now float64) { p.asked = now }

// Class sets the class a click adds, if the data have it.
func (p *Plane) Class(c int) {
	if c >= 0 && c < max(p.s.Data.K, plane.MinClasses) {
		p.s.Add = c
	}
}

// Point queues a press on the plane: the point within radius of at
// removed, or one of the class a click adds put there (do empty), or, as a
// key asks, only added (protocol.PointAdd) or only removed
// (protocol.PointRemove).
func (p *Plane) Point(at [2]float64, radius float64, do string, now float64) {
	p.Ask(protocol.PlanePoint{At: at, Radius: radius, Class: p.s.Add, Do: do}, now)
}

// Train queues Train, or Pause while a run is training.
func (p *Plane) Train() { p.send(protocol.PlaneTrain{On: p.s.State != Training}) }

// Resume is what a new worker needs to go on from the plane the page
// shows: nil before the worker has said anything. The new worker counts
// θs by hand afresh.
func (p *Plane) Resume() *protocol.PlaneResume {
	p.hand.sent, p.s.Hand = 0, 0
	if p.s.Seq == 0 || len(p.s.Data.Points) == 0 {
		return nil
	}
	r := &protocol.PlaneResume{Setup: p.setup, Name: p.s.Name, Edited: p.s.Edited, Data: p.s.Data, Settings: p.s.Settings, Training: p.s.State == Training}
	if m := p.s.Model; m != nil {
		r.W, r.B = m.W, m.B
	}
	return r
}
