package planework

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/protocol"
)

// The engine's states, as PlaneState's State.
const (
	stateReady    = "ready"
	stateTraining = "training"
	stateDone     = "done"
)

// engine is the plane's state, and the only code that changes it: each
// method is what one command does, or what the worker's slices of work
// do.
type engine struct {
	setup   int        // the page's set-up, which every event carries
	name    string     // the data set chosen
	edited  bool       // points were added or removed since it was chosen
	data    plane.Data // the points
	set     plane.Settings
	lab     *plane.Lab
	state   string
	refused error // the last input refused, nil when the last was taken
	psi     *plane.Psi
	psis    int // ψ added so far
	hand    int // the last PlaneTheta's Hand, which frames carry back
	warming bool
	wants   wants

	seq      int // grows whenever data or settings are applied
	build    *plane.Builder
	buildSeq int       // the seq it is computed for
	begun    time.Time // when it was asked for
	scene    *plane.Scene
	sceneSeq int
	scenes   int

	chosen bool // the engine chose the settings itself, since it last said so

	pace float64 // steps a second; 0 for full pace
	due  float64 // steps owed at a slowed pace
	last time.Time
	grid int // cells on a side of the regions' image
}

// wants is what the page asked for that waits until the plane can do
// it: ψ once no run is in training, α above the ceiling once the scene
// knows 2/λ_max.
type wants struct {
	psi   int
	above float64
}

// defaultGrid is the regions' image's side until the page says.
const defaultGrid = 96

// Seed is the seed of the data sets the plane makes: the page's data
// sets are always the same points.
const Seed = 1

func newEngine() *engine { return &engine{state: stateReady, grid: defaultGrid} }

// handle carries out one command from the page, at time now.
func (e *engine) handle(m protocol.Msg, now time.Time) {
	switch m := m.(type) {
	case protocol.PlaneSetUp:
		e.setUp(m, now)
	case protocol.PlaneData:
		e.setData(m.Name, now)
	case protocol.PlaneClasses:
		e.setK(m.K, now)
	case protocol.PlaneOption:
		s := e.set
		switch m.Name {
		case "bias":
			s.Bias = m.On
		case "pin":
			s.Pin = m.On
		default:
			return
		}
		e.apply(e.data, s, now)
	case protocol.PlaneNumbers:
		s := e.set
		s.Rate, s.Lambda, s.Batch = m.Rate, m.Lambda, m.Batch
		e.apply(e.data, s, now)
	case protocol.PlaneTrain:
		e.train(m.On)
	case protocol.PlaneRestart:
		e.restart()
	case protocol.PlanePsi:
		e.wants.psi++
	case protocol.PlaneAbove:
		if m.Times > 0 && !math.IsInf(m.Times, 0) {
			e.wants.above = m.Times
		}
	case protocol.PlanePoint:
		e.clickAt(m, now)
	case protocol.PlaneStart:
		e.setStart(m.At, m.Quick, now)
	case protocol.PlaneTheta:
		e.setTheta(m, now)
	case protocol.PlanePace:
		if m.StepsPerSecond >= 0 && !math.IsInf(m.StepsPerSecond, 0) {
			e.pace = m.StepsPerSecond
		}
	case protocol.PlaneGrid:
		if m.N >= 8 && m.N <= protocol.MaxPlaneGrid {
			e.grid = m.N
		}
	case protocol.PlaneResume:
		e.resume(m, now)
	}
	e.takeWants(now)
}

// setUp starts the plane afresh with the set-up the page asks for.
func (e *engine) setUp(m protocol.PlaneSetUp, now time.Time) {
	*e = engine{setup: m.Setup, state: stateReady, grid: e.grid, pace: e.pace, psis: e.psis, seq: e.seq}
	d, err := plane.Generate(m.Data, m.K, Seed)
	if err != nil {
		e.refused = err
		return
	}
	e.name, e.set, e.chosen = m.Data, m.Settings, true
	e.apply(d, m.Settings, now)
	if m.Warm && e.lab != nil {
		e.state, e.warming = stateTraining, true
		e.last, e.due = time.Time{}, 0
	}
}

// apply makes d and s the plane's data and settings if they are good: the
// live model goes on from where it was on them (or starts again, for a
// new K), and the scene is computed again. What is refused is kept
// (refused), and the last good picture stays. It reports whether both
// were taken.
func (e *engine) apply(d plane.Data, s plane.Settings, now time.Time) bool {
	if err := d.Check(); err != nil {
		e.refused = err
		return false
	}
	e.data, e.refused = d, nil
	e.seq++
	var err error
	switch {
	case e.lab == nil || e.lab.Data().K != d.K:
		var lab *plane.Lab
		if lab, err = plane.NewLab(d, s); err == nil {
			e.lab = lab
		}
	default:
		if err = e.lab.SetData(d); err == nil {
			err = e.lab.SetSettings(s)
		}
	}
	if err == nil {
		e.set = s
		if e.state == stateDone {
			e.state = stateReady // the model goes on with a new budget of steps, or starts again
		}
		var b *plane.Builder
		if b, err = plane.NewBuilder(d, s); err == nil {
			e.startBuild(b, now)
		}
	}
	if err != nil {
		e.refused = err
		e.stopTraining()
	}
	return err == nil
}

// stopTraining ends a run in training: the state goes back to ready.
func (e *engine) stopTraining() {
	if e.state == stateTraining {
		e.state, e.warming = stateReady, false
	}
}

// setData makes the data set name, made for the K in force, the points.
func (e *engine) setData(name string, now time.Time) {
	k := e.data.K
	if k == 0 {
		k = plane.MinClasses
	}
	d, err := plane.Generate(name, k, Seed)
	if err != nil {
		e.refused = err
		return
	}
	if e.apply(d, e.set, now) {
		e.name, e.edited, e.psi = name, false, nil
	}
}

// setK changes K: a data set as it was made is made again for the new K;
// points added or removed are kept, and K is refused if it would drop
// some.
func (e *engine) setK(k int, now time.Time) {
	d, err := e.data.WithClasses(k)
	if !e.edited {
		d, err = plane.Generate(e.name, k, Seed)
	}
	if err != nil {
		e.refused = err
		return
	}
	if e.apply(d, e.set, now) {
		e.psi = nil
	}
}

// train starts the live model's gradient descent (on), or pauses it. A
// run that is done goes on from where it ended, for another budget of
// steps.
func (e *engine) train(on bool) {
	switch {
	case !on:
		e.stopTraining()
		return
	case e.state == stateTraining || e.lab == nil || e.refused != nil:
		return
	case e.lab.Trainer().Stopped() != train.Running:
		if err := e.lab.SetSettings(e.set); err != nil {
			e.refused = err
			return
		}
	}
	e.state = stateTraining
	e.last, e.due = time.Time{}, 0
}

// restart starts the model again from θ = 0.
func (e *engine) restart() {
	if e.lab == nil {
		return
	}
	e.state, e.psi, e.warming = stateReady, nil, false
	e.lab.Restart()
}

// addPsi adds one ψ, drawn afresh each time, to every θ_c.
func (e *engine) addPsi() {
	if e.lab == nil {
		return
	}
	e.psis++
	r := rand.New(rand.NewPCG(uint64(e.psis), 9))
	psi := [3]float64{math.Round(20*r.NormFloat64()) / 10, math.Round(20*r.NormFloat64()) / 10, math.Round(20*r.NormFloat64()) / 10}
	res, err := e.lab.AddPsi(psi)
	if err != nil {
		e.refused = err
		return
	}
	e.refused, e.psi = nil, &res
}

// clickAt does the press m: removes the point within its radius, or adds
// one of its class there, or only one of the two if m says which.
func (e *engine) clickAt(m protocol.PlanePoint, now time.Time) {
	d := e.data
	i := -1
	if m.Do != protocol.PointAdd {
		i = d.Nearest(m.At, m.Radius)
	}
	switch {
	case i >= 0:
		d = d.Remove(i)
	case m.Do == protocol.PointRemove:
		return // nothing under the cursor: nothing changes
	default:
		var err error
		if d, err = d.Add(plane.Point{X: m.At, Class: m.Class}); err != nil {
			e.refused = err
			return
		}
	}
	e.apply(d, e.set, now) // the points are taken even if the model cannot train on them (none left, B above m)
	e.edited = true
}

// setStart moves the paths' start to the surface point at; quick keeps
// the surface, if it is the one of the data and settings in force (not
// one still being replaced), and computes only the paths.
func (e *engine) setStart(at [2]float64, quick bool, now time.Time) {
	if e.scene == nil {
		return
	}
	s := e.set
	s.Start = at
	was := e.scene.Settings
	was.Start = s.Start
	if !quick || e.sceneSeq != e.seq || was != s {
		e.apply(e.data, s, now)
		return
	}
	b, err := plane.NewPathBuilder(e.data, s, e.scene)
	if err != nil {
		e.refused = err
		return
	}
	e.set = s
	e.startBuild(b, now)
}

// setTheta makes m's θ, set by hand, the live model: drawn at once, and
// trained on from. For the exact surface it is also the paths' start,
// moved as a press on the surface moves it (setStart), so that gradient
// descent's path from ○ is the run Train makes from θ: a θ that is not
// Quick starts the model's budget of steps again there, as a point added
// does. A θ of another K was typed in a table that a change of K has
// since replaced, and is dropped without a word; one core/plane refuses
// is kept as the refusal, and the model stays as it was.
func (e *engine) setTheta(m protocol.PlaneTheta, now time.Time) {
	e.hand = m.Hand
	if e.lab == nil || len(m.B) != e.lab.Data().K || len(m.W) != 2*len(m.B) {
		return
	}
	if err := e.lab.SetTheta(m.W, m.B); err != nil {
		e.refused = err
		return
	}
	var ie *plane.InputError
	if errors.As(e.refused, &ie) && ie.Problem == plane.BadTheta {
		e.refused = nil // a refusal of another kind says what the plane still lacks
	}
	if e.state == stateDone {
		e.state = stateReady
	}
	if !e.set.Exact(e.data.K) {
		return
	}
	w := e.lab.Model().W // K = 2: class 1's weights are W[1] and W[3]
	at := [2]float64{float64(w[1]), float64(w[3])}
	if at == e.set.Start && m.Quick {
		return // a drag that did not move class 1's weights
	}
	if e.scene == nil {
		s := e.set
		s.Start = at
		e.apply(e.data, s, now)
		return
	}
	e.setStart(at, m.Quick, now)
}

// resume takes over the plane of a worker that stopped.
func (e *engine) resume(m protocol.PlaneResume, now time.Time) {
	model := protocol.PlaneFrame{W: m.W, B: m.B}.Model()
	*e = engine{setup: m.Setup, state: stateReady, grid: e.grid, pace: e.pace, seq: e.seq}
	lab, err := plane.NewLabFrom(m.Data, m.Settings, model)
	if err != nil {
		e.refused = err
		return
	}
	e.name, e.edited, e.data, e.set, e.lab, e.chosen = m.Name, m.Edited, m.Data, m.Settings, lab, true
	e.seq++
	if b, err := plane.NewBuilder(m.Data, m.Settings); err == nil {
		e.startBuild(b, now)
	}
	if m.Training {
		e.train(true)
	}
}

// takeWants does what the page asked for and the plane can do now.
func (e *engine) takeWants(now time.Time) {
	for e.wants.psi > 0 && e.state != stateTraining && e.lab != nil {
		e.wants.psi--
		e.addPsi()
	}
	times, sc := e.wants.above, e.scene
	if !(times > 0) || sc == nil || e.sceneSeq != e.seq || !(sc.AlphaMax > 0) || math.IsInf(sc.AlphaMax, 0) {
		return
	}
	e.wants.above = 0
	rate, _ := strconv.ParseFloat(strconv.FormatFloat(times*sc.AlphaMax, 'g', 3, 64), 64)
	s := e.set
	s.Rate = rate
	if e.apply(e.data, s, now) {
		e.chosen = true
	}
}
