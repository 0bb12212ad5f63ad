package planepanel

import (
	"softmaxdemo/wasm/ui/params"

	"time"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/train"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The plane works in the browser's animation frames: each frame takes
// the training steps due at the page's pace, goes on computing the scene
// for at most frameWork in all, and redraws what changed. A step on a few
// hundred points takes well under a millisecond, and a scene is cut into
// units of one path step or one row of the surface (core/plane's
// Builder), so that no frame's work grows long.
const (
	frameWork = 8 * time.Millisecond // the work of one frame, drawing aside
	fullPace  = 4 * time.Millisecond // training at full pace, of that
)

// loop requests animation frames while the plane has work: a run in
// training or a scene to compute.
type loop struct {
	raf     app.Func
	pending bool    // a frame is requested
	id      int     // and its id, for cancelAnimationFrame
	last    float64 // the time of the last frame that trained, in ms; 0 for none
	due     float64 // steps owed at a slowed pace
	// offScreen: the panel is further than a screen's height from the
	// viewport, and its scene waits (watch).
	offScreen bool
	observer  app.Value // the IntersectionObserver that says so
	seen      app.Func  // its callback
}

// What a frame changed, and so what renders after it.
const (
	changedNothing = iota // the canvases at most: nothing renders
	changedNumbers        // the numbers of the run: the status line renders, alone
	changedPanel          // the state, the scene or a refusal: the panel renders
)

func (lp *loop) start(ctx app.Context, p *Panel) {
	if !app.IsClient || lp.raf != nil {
		return
	}
	lp.raf = app.FuncOf(func(this app.Value, args []app.Value) any {
		t := args[0].Float()
		ctx.Dispatch(func(ctx app.Context) {
			lp.pending = false
			switch p.frame(t) {
			case changedNothing:
				ctx.PreventUpdate()
			case changedNumbers:
				// go-app renders a dispatch's component and every component
				// above it; the line's own dispatch, less the panel's,
				// renders the line alone.
				ctx.PreventUpdate()
				if line := p.lineCtx; line != nil {
					line.Dispatch(func(app.Context) { ctx.PreventUpdate() })
				}
			}
		})
		return nil
	})
	lp.wake()
	if io := app.Window().Get("IntersectionObserver"); io.Truthy() {
		lp.seen = app.FuncOf(func(this app.Value, args []app.Value) any {
			n := args[0].Length()
			if n == 0 {
				return nil
			}
			off := !args[0].Index(n - 1).Get("isIntersecting").Bool()
			ctx.Dispatch(func(ctx app.Context) {
				lp.offScreen = off
				if !off && p.build != nil && p.timing.frames == 0 {
					p.timing.start = now() // it waited off screen
				}
				lp.wake()
				ctx.PreventUpdate()
			})
			return nil
		})
		lp.observer = io.New(lp.seen, map[string]any{"rootMargin": "100% 0px"})
		lp.watch(p.JSValue())
	}
}

// watch observes root, the panel's element, in place of any other: a
// scene nobody can see waits until the panel comes within a screen's
// height of the viewport. A page opened at its top and trained at once
// shows the panels there, and frames spent on a scene below them would
// share the main thread with the run's first frames.
func (lp *loop) watch(root app.Value) {
	if lp.observer == nil || !root.Truthy() {
		return
	}
	lp.observer.Call("disconnect")
	lp.observer.Call("observe", root)
}

func (lp *loop) stop() {
	if lp.observer != nil {
		lp.observer.Call("disconnect")
		lp.seen.Release()
		lp.observer, lp.seen, lp.offScreen = nil, nil, false
	}
	if lp.raf != nil {
		if lp.pending { // a released function must not be called
			app.Window().Call("cancelAnimationFrame", lp.id)
		}
		lp.raf.Release()
		lp.raf, lp.pending = nil, false
	}
}

// wake requests a frame, unless one is requested already.
func (lp *loop) wake() {
	if lp.raf == nil || lp.pending {
		return
	}
	lp.pending = true
	lp.id = app.Window().Call("requestAnimationFrame", lp.raf).Int()
}

// restart forgets the pace's timing, for a run that starts or resumes.
func (lp *loop) restart() { lp.last, lp.due = 0, 0 }

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

// frame does one frame's work at time t (ms): training, the scene,
// drawing; and asks for another frame while work remains. It says what
// changed for a person to read.
func (p *Panel) frame(t float64) int {
	before := p.shown()
	begun := now()
	if p.state == stateTraining && p.lab != nil {
		p.train(t, begun)
	}
	end := begun + float64(frameWork)/1e6
	building := p.build != nil && !p.loop.offScreen
	if building {
		p.timing.frames++
	}
	for building && p.build != nil && now() < end {
		if p.build.Advance() {
			p.sceneDone()
		}
	}
	p.draw()
	if p.state == stateTraining || p.build != nil && !p.loop.offScreen {
		p.loop.wake()
	}
	after := p.shown()
	switch {
	case after == before:
		return changedNothing
	case after.steps != before.steps && after.panel == before.panel:
		return changedNumbers
	}
	return changedPanel
}

// shown is what a render would change: the status line's numbers, and
// what else the panel shows.
type shown struct {
	steps int
	panel panelShown
}

type panelShown struct {
	state     string
	scenes    int
	building  bool
	msg       string
	separated bool
	psis      int
}

func (p *Panel) shown() shown {
	return shown{p.st.Steps, panelShown{p.state, p.scenes, p.build != nil, p.msg.Key, p.st.Separated, p.psis}}
}

// train takes the steps due at the page's pace since the last frame (at
// full pace, as many as fit in fullPace), and ends the run when the
// Trainer stops.
func (p *Panel) train(t, begun float64) {
	lp := &p.loop
	pace := p.IPace
	if p.warming {
		pace = "full"
	}
	rate, ok := params.PaceRate(pace)
	if !ok {
		rate, _ = params.PaceRate(params.DefaultPace)
	}
	n := 0
	if rate > 0 {
		if lp.last == 0 {
			lp.due = 1 // a run's first step at once
		} else {
			lp.due += rate * min(t-lp.last, 100) / 1000
		}
		n = int(lp.due)
		lp.due -= float64(n)
	}
	lp.last = t
	end := begun + float64(fullPace)/1e6
	for i := 0; (rate == 0 && now() < end) || i < n; i++ {
		if st := p.lab.Step(); st.Stop != train.Running {
			p.state, p.warming = stateDone, false
			break
		}
	}
	if n > 0 || rate == 0 {
		p.st = p.lab.Status()
		p.cv.regionsDirty = true
	}
	if p.state != stateTraining {
		p.takeWants() // a ψ asked for while the model trained
	}
}

// sceneTiming is how long scenes take on the page: from the change that
// asks for one to the frame that completes it, and over how many frames
// (#plane-surface's data-build-ms and data-build-frames, for the
// benchmarks; no test asserts a time).
type sceneTiming struct {
	start    float64 // when the scene in progress was asked for, ms
	frames   int     // frames it has had so far
	ms       float64 // the last complete scene's time
	msFrames int     // and its frames
}

// startBuild makes b the scene in progress, replacing any other.
func (p *Panel) startBuild(b *plane.Builder) {
	p.build, p.buildV = b, p.dataV
	p.timing.start, p.timing.frames = now(), 0
}

// sceneDone takes the Builder's finished scene, or its error.
func (p *Panel) sceneDone() {
	b := p.build
	p.build = nil
	p.timing.ms, p.timing.msFrames = now()-p.timing.start, p.timing.frames
	if sc := b.Scene(); sc != nil {
		p.scene, p.sceneV = sc, p.buildV
		p.scenes++
		p.cv.surfaceDirty = true
		p.takeWants()
		return
	}
	if err := b.Err(); err != nil {
		p.refuse(err)
	}
}
