package planepanel

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/ui/i18n"
)

// The plane's state changes here, and only here: each method is what one
// of the panel's actions (actions.go) does, and the frames (loop.go) call
// the few that training and computing need.

// setUp starts the view's data and settings afresh (start): for the
// whole panel the data set blobs, K = 2, and the exact surface's
// settings, so that the first picture is logistic regression with J
// itself below it.
func (p *Panel) setUp() {
	s := start(p.IView)
	p.view, p.name, p.set, p.state = p.IView, s.data, s.set, stateReady
	p.edited, p.add, p.psi, p.msg, p.lab, p.scene, p.build, p.warming = false, 0, nil, i18n.Msg{}, nil, nil, nil, false
	p.wants = wants{}
	p.f = fieldsOf(p.set)
	d, _ := plane.Generate(p.name, s.k, seed)
	p.apply(d, p.set)
	if s.warm {
		p.state, p.warming = stateTraining, true
		p.loop.restart()
	}
}

// apply makes d and s the panel's data and settings if they are good:
// the live model goes on from where it was on them (or starts again, for
// a new K), and the scene is computed again. What is refused is said
// (msg), and the last good picture stays. It reports whether both were
// taken.
func (p *Panel) apply(d plane.Data, s plane.Settings) bool {
	if err := d.Check(); err != nil {
		p.refuse(err)
		return false
	}
	p.data, p.msg = d, i18n.Msg{}
	p.dataV++
	var err error
	switch {
	case p.lab == nil || p.lab.Data().K != d.K:
		var lab *plane.Lab
		if lab, err = plane.NewLab(d, s); err == nil {
			p.lab = lab
		}
	default:
		if err = p.lab.SetData(d); err == nil {
			err = p.lab.SetSettings(s)
		}
	}
	if err == nil {
		p.set = s
		if p.state == stateDone {
			p.state = stateReady // the model goes on with a new budget of steps, or starts again
		}
		p.st = p.lab.Status()
		var b *plane.Builder
		if b, err = plane.NewBuilder(d, s); err == nil {
			p.startBuild(b)
		}
	}
	if err != nil {
		p.refuse(err)
		p.stopTraining()
	}
	p.cv.regionsDirty, p.cv.pointsDirty = true, true
	p.loop.wake()
	return err == nil
}

// refuse shows why an input was refused.
func (p *Panel) refuse(err error) { p.msg = refusal(err) }

// stopTraining ends a run in training: the state goes back to ready.
func (p *Panel) stopTraining() {
	if p.state == stateTraining {
		p.state, p.warming = stateReady, false
	}
}

// setData makes the data set name, made for the K in force, the points.
func (p *Panel) setData(name string) {
	d, err := plane.Generate(name, p.data.K, seed)
	if err != nil {
		p.refuse(err)
		return
	}
	if p.apply(d, p.set) {
		p.name, p.edited, p.psi = name, false, nil
	}
}

// setK changes K: a data set as it was made is made again for the new K;
// points added or removed are kept, and K is refused if it would drop
// some. It reports whether K changed.
func (p *Panel) setK(k int) bool {
	d, err := p.data.WithClasses(k)
	if !p.edited {
		d, err = plane.Generate(p.name, k, seed)
	}
	if err != nil {
		p.refuse(err)
		return false
	}
	if !p.apply(d, p.set) {
		return false
	}
	p.add, p.psi = min(p.add, k-1), nil
	return true
}

// setClass makes c the class a click adds.
func (p *Panel) setClass(c int) {
	if c >= 0 && c < p.data.K {
		p.add = c
	}
}

// setOption changes one of the settings that are a choice (the bias,
// class 0 pinned).
func (p *Panel) setOption(change func(*plane.Settings)) {
	s := p.set
	change(&s)
	p.apply(p.data, s)
}

// trainOrPause starts the live model's gradient descent, or pauses it. A
// run that is done goes on from where it ended, for another budget of
// steps.
func (p *Panel) trainOrPause() {
	switch {
	case p.state == stateTraining:
		p.state, p.warming = stateReady, false
		return
	case p.lab == nil || !p.msg.IsZero():
		return
	case p.lab.Trainer().Stopped() != train.Running:
		if err := p.lab.SetSettings(p.set); err != nil {
			p.refuse(err)
			return
		}
	}
	p.state = stateTraining
	p.loop.restart()
	p.loop.wake()
}

// restart starts the model again from θ = 0.
func (p *Panel) restart() {
	if p.lab == nil {
		return
	}
	p.state, p.psi, p.warming = stateReady, nil, false
	p.lab.Restart()
	p.st = p.lab.Status()
	p.cv.regionsDirty = true
	p.loop.wake()
}

// addPsi adds one ψ, drawn afresh each time, to every θ_c.
func (p *Panel) addPsi() {
	if p.lab == nil {
		return
	}
	p.psis++
	r := rand.New(rand.NewPCG(uint64(p.psis), 9))
	psi := [3]float64{math.Round(20*r.NormFloat64()) / 10, math.Round(20*r.NormFloat64()) / 10, math.Round(20*r.NormFloat64()) / 10}
	res, err := p.lab.AddPsi(psi)
	if err != nil {
		p.refuse(err)
		return
	}
	p.msg, p.psi = i18n.Msg{}, &res
	p.st = p.lab.Status()
	p.cv.regionsDirty = true
	p.loop.wake()
}

// clickAt removes the point within radius r of at, or adds one of the
// chosen class there.
func (p *Panel) clickAt(at [2]float64, r float64) {
	d := p.data
	if i := d.Nearest(at, r); i >= 0 {
		d = d.Remove(i)
	} else {
		var err error
		if d, err = d.Add(plane.Point{X: at, Class: p.add}); err != nil {
			p.refuse(err)
			return
		}
	}
	p.apply(d, p.set) // the points are taken even if the model cannot train on them (none left, B above m)
	p.edited = true
}

// setStart moves the paths' start to the surface point at; quick keeps
// the surface drawn, if it is the one of the data and settings in force
// (not one still being replaced), and computes only the paths.
func (p *Panel) setStart(at [2]float64, quick bool) {
	if p.scene == nil {
		return
	}
	s := p.set
	s.Start = at
	was := p.scene.Settings
	was.Start = s.Start
	if !quick || p.sceneV != p.dataV || was != s {
		p.apply(p.data, s)
		return
	}
	b, err := plane.NewPathBuilder(p.data, s, p.scene)
	if err != nil {
		p.refuse(err)
		return
	}
	p.set = s
	p.startBuild(b)
	p.loop.wake()
}

// typed takes a number field as typed (fields: α, λ or B) and reads them
// all: if all are numbers in range they apply at once; otherwise each
// refused one says why, and the plane keeps the last good settings.
func (p *Panel) typed(t typing) {
	f := &p.f
	switch t.Field {
	case fieldLR:
		f.LR = t.Value
	case fieldL2:
		f.L2 = t.Value
	case fieldBatch:
		f.Batch = t.Value
	}
	f.LRErr, f.L2Err, f.BatchErr = i18n.Msg{}, i18n.Msg{}, i18n.Msg{}
	s := p.set
	var ok bool
	if s.Rate, ok = parseNumber(f.LR, &f.LRErr); ok {
		f.LRErr = fieldReason(plane.Settings{Rate: s.Rate, Batch: 1}.Validate(1))
	}
	if s.Lambda, ok = parseNumber(f.L2, &f.L2Err); ok {
		f.L2Err = fieldReason(plane.Settings{Rate: 1, Lambda: s.Lambda, Batch: 1}.Validate(1))
	}
	if b, ok := parseNumber(f.Batch, &f.BatchErr); ok {
		s.Batch = int(b)
		if b != math.Trunc(b) || b < 1 || b > float64(len(p.data.Points)) {
			f.BatchErr = i18n.Text("plane.badBatch", strings.TrimSpace(f.Batch), len(p.data.Points))
		}
	}
	if f.LRErr.IsZero() && f.L2Err.IsZero() && f.BatchErr.IsZero() {
		p.apply(p.data, s)
	}
}

// takeWants does what the page asked for and the panel can do now: α at
// the multiple of 2/λ_max asked for, once the scene of the data and
// settings in force knows 2/λ_max; a ψ added, once no run is in training.
func (p *Panel) takeWants() {
	for p.wants.psi > 0 && p.state != stateTraining && p.lab != nil {
		p.wants.psi--
		p.addPsi()
	}
	times, sc := p.wants.above, p.scene
	if !(times > 0) || sc == nil || p.sceneV != p.dataV || !(sc.AlphaMax > 0) || math.IsInf(sc.AlphaMax, 0) {
		return
	}
	p.wants.above = 0
	p.typed(typing{Field: fieldLR, Value: strconv.FormatFloat(times*sc.AlphaMax, 'g', 3, 64)})
}

// parseNumber reads a number, or sets why it is not one.
func parseNumber(s string, why *i18n.Msg) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		*why = i18n.Text("plane.notNumber", s)
		return 0, false
	}
	return v, true
}

// fieldReason is the reason a field's value is refused, or the zero msg.
func fieldReason(err error) i18n.Msg {
	if err == nil {
		return i18n.Msg{}
	}
	return refusal(err)
}
