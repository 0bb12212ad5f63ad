package session

import (
	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
)

// curvaturePower are the power iteration's settings for the page's
// 2/λ_max. A loose tolerance on the change of the Rayleigh quotient stops
// early where it rises slowly (1e-4 stopped at half of λ_max on a test
// problem); to 1e-10 the default pack at θ = 0 takes 8 products, after
// an epoch of SGD 37, and some models more: the cap bounds the work, and
// the estimate, a Rayleigh quotient, is then still within a few per mille
// of λ_max from below.
var curvaturePower = newton.PowerSettings{Tol: 1e-10, Iterations: 100}

// curvatureJob is a power iteration the worker runs a product at a time
// while it has nothing else to do (Run), for the CurvatureIs it will send.
type curvatureJob struct {
	power *newton.Power
	out   protocol.CurvatureIs
}

// curvature handles Curvature: λ_max of the Hessian of J at the current
// model (all zeros before a run) on c's training images, with c's λ and
// pinning, by power iteration on H·v products computed by the pool over
// the shards, one product per turn of the loop, so that a command that
// comes meanwhile waits for one pass at most; then CurvatureIs. A command
// that changes the model or the data drops the job (the page asks again at
// rest). While Newton's method has a run going, whose passes keep μ in the
// pool, it does nothing.
func (s *session) curvature(c protocol.Config) {
	s.curv = nil
	if !s.needData() {
		return
	}
	if r := s.run; r != nil && r.meth.name() == "newton" && !r.meth.ended() {
		return
	}
	e, m := s.evaluation()
	d, k := s.data.d, softmax.K
	theta := make([]float64, 0, (d+1)*k)
	for _, w := range m.W {
		theta = append(theta, float64(w))
	}
	for _, b := range m.B {
		theta = append(theta, float64(b))
	}
	o := softmax.Objective{Lambda: c.L2, PinFirst: c.PinFirst}
	x := s.data.of(c).train
	hv, err := newton.HessianOn(s.newtonPasses(c), x.Len(), d, k, theta, 0, o)
	if err == nil {
		var p *newton.Power
		if p, err = newton.NewPowerOn(hv, len(theta), curvaturePower); err == nil {
			s.curv = &curvatureJob{power: p, out: protocol.CurvatureIs{Run: e.Run, Step: e.Step, L2: c.L2, Pin: c.PinFirst, Deskew: c.Deskew}}
		}
	}
	if err != nil {
		s.failKey("err.config", hintConfig, err.Error())
	}
}

// curvatureStep takes one product of the pending power iteration and,
// once it has ended, sends CurvatureIs.
func (s *session) curvatureStep() {
	j := s.curv
	s.curv = nil // should the product panic, the job is gone
	st := j.power.Advance(1)
	if !st.Done {
		s.curv = j
		return
	}
	a := 0.0
	if st.Lambda > 0 {
		a = 2 / st.Lambda
	}
	j.out.LambdaMax, j.out.AlphaMax, j.out.Products = finite(st.Lambda), finite(a), st.Iteration
	s.send(j.out)
}
