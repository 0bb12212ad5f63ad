package ui

import (
	"softmaxdemo/wasm/ui/params"

	"time"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/train"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The plane works on the page's main thread, in the browser's animation
// frames: each frame takes the training steps due at the page's pace,
// goes on computing the scene for at most frameWork in all, and redraws
// what changed. A step on a few hundred points takes well under a
// millisecond, and a scene is cut into units of one path step or one row
// of the surface (core/plane's Builder), so that no frame's work grows
// long.
const (
	frameWork = 8 * time.Millisecond // the work of one frame, drawing aside
	fullPace  = 4 * time.Millisecond // training at full pace, of that
)

// planeLoop requests animation frames while the plane has work: a run in
// training or a scene to compute.
type planeLoop struct {
	raf     app.Func
	pending bool    // a frame is requested
	id      int     // and its id, for cancelAnimationFrame
	last    float64 // the time of the last frame that trained, in ms; 0 for none
	due     float64 // steps owed at a slowed pace
	// dragging: the start is being dragged on the surface.
	dragging bool
	rendered float64 // when a frame last let the panel render, ms
	// offScreen: the panel is further than a screen's height from the
	// viewport, and its scene waits (watch).
	offScreen bool
	observer  app.Value // the IntersectionObserver that says so
	seen      app.Func  // its callback
}

func (lp *planeLoop) start(ctx app.Context, p *planePanel) {
	if !app.IsClient || lp.raf != nil {
		return
	}
	lp.raf = app.FuncOf(func(this app.Value, args []app.Value) any {
		t := args[0].Float()
		ctx.Dispatch(func(ctx app.Context) {
			lp.pending = false
			if !p.frame(t) {
				// go-app renders the page and every component above the plane
				// after a dispatch: only when the text shown has changed
				// enough to be worth it (see frame).
				ctx.PreventUpdate()
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
					p.timing.start = planeNow() // it waited off screen
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
// height of the viewport. The picture is computed on the page's main
// thread, beside everything else the page shows (0.8 s of frames for the
// first scene on a 2-core AMD EPYC guest); a person who opens the full
// page and trains at once sees the panels at the top, and the plane's
// scene built below them made the page's first frames of the run tasks
// of 50–70 ms.
func (lp *planeLoop) watch(root app.Value) {
	if lp.observer == nil || !root.Truthy() {
		return
	}
	lp.observer.Call("disconnect")
	lp.observer.Call("observe", root)
}

func (lp *planeLoop) stop() {
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
func (lp *planeLoop) wake() {
	if lp.raf == nil || lp.pending {
		return
	}
	lp.pending = true
	lp.id = app.Window().Call("requestAnimationFrame", lp.raf).Int()
}

// restart forgets the pace's timing, for a run that starts or resumes.
func (lp *planeLoop) restart() { lp.last, lp.due = 0, 0 }

// origin is when the page's clock starts outside a browser.
var origin = time.Now()

// planeNow returns the time in milliseconds: the page's performance.now in
// the browser.
func planeNow() float64 {
	if app.IsClient {
		return app.Window().Get("performance").Call("now").Float()
	}
	return float64(time.Since(origin)) / 1e6
}

// renderEvery is how often, at most, the plane's numbers are rendered
// while it trains: the canvases are drawn every frame, but a render is the
// page's too (go-app renders every component above the one that
// changed), a few milliseconds each.
const renderEvery = 100 // ms

// frame does one frame's work at time t (ms): training, the scene,
// drawing; and asks for another frame while work remains. It reports
// whether the panel should be rendered: when its state or scene changed,
// and at most every renderEvery while the numbers of a run move.
func (p *planePanel) frame(t float64) bool {
	before := p.shown()
	start := planeNow()
	if p.state == planeTraining && p.lab != nil {
		p.train(t, start)
	}
	end := start + float64(frameWork)/1e6
	building := p.build != nil && !p.loop.offScreen
	if building {
		p.timing.frames++
	}
	for building && p.build != nil && planeNow() < end {
		if p.build.Advance() {
			p.sceneDone()
		}
	}
	p.draw()
	if p.state == planeTraining || p.build != nil && !p.loop.offScreen {
		p.loop.wake()
	}
	now := p.shown()
	if now == before {
		return false
	}
	if now.state == before.state && now.scenes == before.scenes && now.building == before.building && t-p.loop.rendered < renderEvery {
		return false
	}
	p.loop.rendered = t
	return true
}

// planeShown is what a render of the panel would change.
type planeShown struct {
	state    string
	steps    int
	scenes   int
	building bool
	msg      string
}

func (p *planePanel) shown() planeShown {
	return planeShown{p.state, p.st.Steps, p.scenes, p.build != nil, p.msg.Key}
}

// train takes the steps due at the page's pace since the last frame (at
// full pace, as many as fit in fullPace), and ends the run when the
// Trainer stops.
func (p *planePanel) train(t, start float64) {
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
	end := start + float64(fullPace)/1e6
	for i := 0; (rate == 0 && planeNow() < end) || i < n; i++ {
		if st := p.lab.Step(); st.Stop != train.Running {
			p.state, p.warming = planeDone, false
			break
		}
	}
	if n > 0 || rate == 0 {
		p.st = p.lab.Status()
		p.cv.regionsDirty = true
	}
	if p.state != planeTraining {
		p.takeAsk() // a ψ asked for while the model trained
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
func (p *planePanel) startBuild(b *plane.Builder) {
	p.build, p.buildV = b, p.dataV
	p.timing.start, p.timing.frames = planeNow(), 0
}

// sceneDone takes the Builder's finished scene, or its error.
func (p *planePanel) sceneDone() {
	b := p.build
	p.build = nil
	p.timing.ms, p.timing.msFrames = planeNow()-p.timing.start, p.timing.frames
	if sc := b.Scene(); sc != nil {
		p.scene, p.sceneV = sc, p.buildV
		p.scenes++
		p.cv.surfaceDirty = true
		p.takeAsk()
		return
	}
	if err := b.Err(); err != nil {
		p.refuse(err)
	}
}
