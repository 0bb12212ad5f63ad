package planepanel

import (
	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/protocol"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// What the page may ask of the plane. A panel mounted takes them, and its
// worker does each as soon as it can.
const (
	// ActionPsi adds one ψ to every θ_c of the plane's model, once no run
	// is in training (no value).
	ActionPsi = "plane/psi"
	// ActionAbove sets α at a multiple of 2/λ_max (float64), once the
	// scene of the data and settings in force knows 2/λ_max.
	ActionAbove = "plane/above"
)

// The panel's own actions: what its controls and canvases post.
const (
	actionData   = "plane/data"   // string: a data set's name
	actionK      = "plane/k"      // int: the number of classes
	actionClass  = "plane/class"  // int: the class a click adds
	actionOption = "plane/option" // option: the bias or the pinning, on or off
	actionTyped  = "plane/typed"  // typing: α, λ or B as typed
	actionTrain  = "plane/train"  // no value: train, or pause
	actionReset  = "plane/reset"  // no value: θ = 0
	actionPoint  = "plane/point"  // click: a point added or removed
	actionStart  = "plane/start"  // startAt: the paths' start moved
	actionTheta  = "plane/theta"  // thetaTyped: a number of θ as typed
	actionDrag   = "plane/drag"   // dragTo: the boundary held dragged
)

// option is a choice among the settings: which, and on or off.
type option struct {
	Name string // "bias" or "pin"
	On   bool
}

// typing is one number field as typed.
type typing struct {
	Field string // fieldLR, fieldL2 or fieldBatch
	Value string
}

// The number fields.
const (
	fieldLR    = "lr"
	fieldL2    = "l2"
	fieldBatch = "batch"
)

// click is a press on the plane: at, in the plane's units, how near a
// point must be to be taken for it, and, from a key, whether it only adds
// or only removes (protocol.PointAdd, protocol.PointRemove).
type click struct {
	At     [2]float64
	Radius float64
	Do     string
}

// startAt is the paths' start moved to At; Quick keeps the surface and
// computes only the paths (a drag under way).
type startAt struct {
	At    [2]float64
	Quick bool
}

// handle registers the panel's handlers (handlers) with go-app. θ typed
// renders #plane-theta alone, and a boundary dragged nothing: the frames
// that answer them render what they change, as training's do.
func (p *Panel) handle(ctx app.Context) {
	for name, do := range p.handlers() {
		ctx.Handle(name, func(ctx app.Context, a app.Action) {
			do(a.Value)
			switch name {
			case actionTheta:
				p.renderTheta(ctx)
			case actionDrag:
				ctx.PreventUpdate()
			}
		})
	}
}

// handlers are the panel's handlers, one per action: each sends the
// plane's worker what the person (or the page) asked, or keeps what is
// the page's alone (the class a click adds, the fields as typed).
func (p *Panel) handlers() map[string]func(v any) {
	scene := func(m protocol.Msg) {
		p.timing.asked = now()
		p.send(m)
	}
	return map[string]func(v any){
		ActionPsi: func(any) { p.afterSetUp(protocol.PlanePsi{}) },
		ActionRun: func(any) { p.ask() },
		ActionAbove: func(v any) {
			if t, ok := v.(float64); ok && t > 0 {
				p.timing.asked = now()
				p.afterSetUp(protocol.PlaneAbove{Times: t})
			}
		},
		actionData: func(v any) {
			if name, ok := v.(string); ok {
				scene(protocol.PlaneData{Name: name})
			}
		},
		actionK: func(v any) {
			if k, ok := v.(int); ok {
				scene(protocol.PlaneClasses{K: k})
			}
		},
		actionClass: func(v any) {
			if c, ok := v.(int); ok && c >= 0 && c < max(p.data.K, plane.MinClasses) {
				p.add = c
			}
		},
		actionOption: func(v any) {
			if o, ok := v.(option); ok && (o.Name == "bias" || o.Name == "pin") {
				scene(protocol.PlaneOption{Name: o.Name, On: o.On})
			}
		},
		actionTyped: func(v any) {
			if t, ok := v.(typing); ok {
				if n, ok := p.f.typed(t, len(p.data.Points)); ok {
					scene(n)
				}
			}
		},
		actionTrain: func(any) { p.send(protocol.PlaneTrain{On: p.state != stateTraining}) },
		actionReset: func(any) { p.send(protocol.PlaneRestart{}) },
		actionPoint: func(v any) {
			if c, ok := v.(click); ok {
				scene(protocol.PlanePoint{At: c.At, Radius: c.Radius, Class: p.add, Do: c.Do})
			}
		},
		actionStart: func(v any) {
			if s, ok := v.(startAt); ok {
				scene(protocol.PlaneStart{At: s.At, Quick: s.Quick})
			}
		},
		actionTheta: func(v any) {
			if t, ok := v.(thetaTyped); ok {
				p.timing.asked = now()
				p.typedTheta(t)
			}
		},
		actionDrag: func(v any) {
			if d, ok := v.(dragTo); ok {
				p.timing.asked = now()
				p.dragged(d)
			}
		},
	}
}

// post returns an event handler that posts the action with the value.
func post(action string, v any) app.EventHandler {
	return func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(action, v) }
}
