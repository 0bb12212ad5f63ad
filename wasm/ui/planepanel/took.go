package planepanel

import (
	"hash/fnv"
	"strconv"
	"time"

	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The panel's copy of the plane changes here, and only here: as the
// worker's events arrive. A scene or a frame for data older than the
// panel shows is dropped, not drawn.

// took takes one event of the worker and reports whether the panel must
// render (a frame is drawn by drawFrame instead).
func (p *Panel) took(m protocol.Msg) bool {
	switch m := m.(type) {
	case protocol.PlaneState:
		if m.Setup != p.setup || m.Seq == 0 {
			return false // of another panel's set-up, or of none
		}
		if w := p.IWorker; w != nil {
			// The frame sent just before the state, still waiting for an
			// animation frame: taken with it, so that a status that says
			// done says the last step.
			if f, ok := w.pending(); ok && f.Setup == m.Setup && f.Seq <= m.Seq {
				p.takeFrame(f)
				p.draw()
			}
		}
		if m.Data.K != p.data.K {
			p.th.forget() // the table is made again for the new K
		}
		old := p.state
		p.seq, p.state, p.name, p.edited = m.Seq, m.State, m.Name, m.Edited
		p.noteState(old, p.st)
		p.data, p.set, p.psi, p.building = m.Data, m.Settings, m.Psi, m.Building
		p.refused = refusalOf(m.Refused)
		if m.Chosen {
			p.f.follow(m.Settings)
		}
		p.add = min(p.add, max(m.Data.K-1, 0))
		p.cv.pointsDirty = true
		putBack("plane-k", m.Data.K) // a K refused shows the K in force
		return true
	case protocol.PlaneScene:
		if m.Setup != p.setup || m.Seq < p.seq || m.Scene == nil {
			return false // for points no longer shown
		}
		p.scene, p.sceneSum = m.Scene, sceneSum(m.Scene)
		p.timing.ms = now() - p.timing.asked
		p.timing.scenes++
		p.cv.surfaceDirty = true
		p.draw()
		return true
	case protocol.PlaneFrame:
		return p.takeFrame(m)
	case protocol.Failed:
		p.refused = i18n.Text("raw", m.Message)
		return true
	}
	return false
}

// takeFrame takes a frame of the live model, and reports whether more
// than its numbers changed.
func (p *Panel) takeFrame(m protocol.PlaneFrame) bool {
	if m.Setup != p.setup || m.Seq < p.seq {
		return false
	}
	state, before := p.state, p.st
	sep := p.st.Separated
	p.st, p.state, p.th.answered = m.Status, m.State, m.Hand
	p.noteState(state, before)
	if mod := m.Model(); mod != nil {
		p.model = mod
		p.handStart()
		p.startIn(mod)
	}
	p.cv.image, p.cv.imageN, p.cv.bounds = m.Image, m.N, m.Boundaries
	p.cv.regionsDirty = true
	return state != p.state || sep != p.st.Separated
}

// drawFrame draws a frame in this animation frame, and renders what it
// changed: the status line and #plane-theta alone when only the numbers
// moved (go-app renders a dispatch's component and every component above
// it; each one's own dispatch, less the panel's, renders it alone).
func (p *Panel) drawFrame(ctx app.Context, m protocol.PlaneFrame) {
	more := p.takeFrame(m)
	p.draw()
	p.tellEnded(ctx)
	if more {
		return // the panel renders
	}
	ctx.PreventUpdate()
	if line := p.lineCtx; line != nil {
		line.Dispatch(func(app.Context) { ctx.PreventUpdate() })
	}
	if table := p.thetaCtx; table != nil && p.thetaDue(m) {
		table.Dispatch(func(app.Context) { ctx.PreventUpdate() })
	}
}

// resumeFrom is what a new worker needs to go on from the plane the
// panel shows: nil before the worker has said anything.
func (p *Panel) resumeFrom() *protocol.PlaneResume {
	if p.seq == 0 || len(p.data.Points) == 0 {
		return nil
	}
	r := &protocol.PlaneResume{Setup: p.setup, Name: p.name, Edited: p.edited, Data: p.data, Settings: p.set, Training: p.state == stateTraining}
	if m := p.model; m != nil {
		r.W, r.B = m.W, m.B
	}
	return r
}

// refusalOf is the refusal the worker sent, in the page's words.
func refusalOf(r *protocol.PlaneRefusal) i18n.Msg {
	if r == nil {
		return i18n.Msg{}
	}
	if r.Problem < 0 {
		return i18n.Text("raw", r.Message)
	}
	num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	return refusal(&plane.InputError{Problem: plane.Problem(r.Problem), Value: num(r.Value),
		Point: plane.Point{X: [2]float64{num(r.X[0]), num(r.X[1])}, Class: r.Class}, Class: r.Class, Count: r.Count, Name: r.Name})
}

// origin is when the clock starts outside a browser.
var origin = time.Now()

// now returns the time in milliseconds: the page's performance.now in
// the browser.
func now() float64 {
	if app.IsClient {
		return app.Window().Get("performance").Call("now").Float()
	}
	return float64(time.Since(origin)) / 1e6
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
