package ui

import (
	"softmaxdemo/wasm/ui/i18n"

	"math"
	"math/rand/v2"
	"strconv"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/train"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The plane's handlers: what its controls do.

func (p *planePanel) onData(ctx app.Context, name string) {
	d, err := plane.Generate(name, p.data.K, planeSeed)
	if err != nil {
		p.refuse(err)
		return
	}
	if p.apply(d, p.set) {
		p.name, p.edited, p.psi = name, false, nil
	}
}

// onK changes K, or puts the select back to the K in force if it is
// refused.
func (p *planePanel) onK(ctx app.Context, v string) {
	k, _ := strconv.Atoi(v)
	if !p.setK(k) {
		ctx.JSSrc().Set("value", strconv.Itoa(p.data.K))
	}
}

// setK changes K: a data set as it was made is made again for the new K;
// points added or removed are kept, and K is refused if it would drop
// some. It reports whether K changed.
func (p *planePanel) setK(k int) bool {
	d, err := p.data.WithClasses(k)
	if !p.edited {
		d, err = plane.Generate(p.name, k, planeSeed)
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

// onTrain starts the live model's gradient descent, or pauses it. A run
// that is done goes on from where it ended, for another budget of steps.
func (p *planePanel) onTrain(ctx app.Context, e app.Event) {
	switch {
	case p.state == planeTraining:
		p.state, p.warming = planeReady, false
		return
	case p.lab == nil || !p.msg.IsZero():
		return
	case p.lab.Trainer().Stopped() != train.Running:
		if err := p.lab.SetSettings(p.set); err != nil {
			p.refuse(err)
			return
		}
	}
	p.state = planeTraining
	p.loop.restart()
	p.loop.wake()
}

// onReset starts the model again from θ = 0.
func (p *planePanel) onReset(ctx app.Context, e app.Event) {
	if p.lab == nil {
		return
	}
	p.state, p.psi, p.warming = planeReady, nil, false
	p.lab.Restart()
	p.st = p.lab.Status()
	p.cv.regionsDirty = true
	p.loop.wake()
}

// onPsi adds one ψ, drawn afresh each time, to every θ_c.
func (p *planePanel) onPsi(ctx app.Context, e app.Event) {
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
