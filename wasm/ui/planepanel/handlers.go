package planepanel

import (
	"softmaxdemo/core/class"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/planepanel/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The owner's handlers, one per action: each changes the store, whose
// commands go to the worker (owner.after). Only what changes what the
// room shows renders it; the worker's answer renders the rest.

// handle registers the owner's handlers with go-app, on the room's
// context.
func (o *owner) handle(ctx app.Context) {
	AddPsi.Handle(ctx, o.addPsi)
	AlphaAbove.Handle(ctx, o.alphaAbove)
	StartRun.Handle(ctx, o.startRun)
	chooseData.Handle(ctx, o.chooseData)
	chooseK.Handle(ctx, o.chooseK)
	chooseClass.Handle(ctx, o.chooseClass)
	setOption.Handle(ctx, o.setOption)
	typeNumber.Handle(ctx, o.typeNumber)
	toggleTrain.Handle(ctx, o.toggleTrain)
	restart.Handle(ctx, o.restart)
	press.Handle(ctx, o.press)
	moveStart.Handle(ctx, o.moveStart)
	typeTheta.Handle(ctx, o.typeTheta)
	dragLine.Handle(ctx, o.dragLine)
	askGrid.Handle(ctx, o.askGrid)
	watchLive.Handle(ctx, o.watchLive)
	ClassPart.Handle(ctx, o.classPart)
	ClassLines.Handle(ctx, o.classLines)
	LineDelivered.Handle(ctx, o.lineDelivered)
	sendMine.Handle(ctx, o.sendMine)
	descend.Handle(ctx, o.descend)
}

// descend runs gradient descent from the class's best and worst lines.
func (o *owner) descend(ctx app.Context) {
	o.st.Descend()
	o.after(ctx, true)
}

// classPart sets the plane's part in a class.
func (o *owner) classPart(ctx app.Context, p Part) {
	o.st.SetPart(p)
	o.after(ctx, true)
}

// classLines takes the class's lines, and judges them on the plane's
// data.
func (o *owner) classLines(ctx app.Context, lines []class.LineOf) {
	o.st.SetLines(lines)
	o.after(ctx, true)
}

// lineDelivered notes that the line sent was taken.
func (o *owner) lineDelivered(ctx app.Context) {
	o.st.Delivered()
	o.after(ctx, true)
}

// sendMine tells the page the line a student sends, the θ shown now, or
// shows why it cannot be sent.
func (o *owner) sendMine(ctx app.Context) {
	if line, ok := o.st.SendLine(); ok {
		SendLine.Post(ctx, line)
	}
	o.after(ctx, true)
}

// addPsi adds ψ once the worker is set up for the view, and no run is in
// training.
func (o *owner) addPsi(ctx app.Context) {
	o.st.Early(protocol.PlanePsi{})
	o.after(ctx, false)
}

// alphaAbove sets α at t × 2/λ_max, once the worker is set up for the
// view and its scene knows 2/λ_max; t must be positive.
func (o *owner) alphaAbove(ctx app.Context, t float64) {
	if t > 0 {
		o.st.Asked(now())
		o.st.Early(protocol.PlaneAbove{Times: t})
	}
	o.after(ctx, false)
}

// startRun starts a run, or, in the Hand view before its line is in,
// once it is.
func (o *owner) startRun(ctx app.Context) {
	o.st.AskRun()
	o.after(ctx, false)
}

func (o *owner) chooseData(ctx app.Context, name string) {
	o.st.Ask(protocol.PlaneData{Name: name}, now())
	o.after(ctx, false)
}

func (o *owner) chooseK(ctx app.Context, k int) {
	o.st.Ask(protocol.PlaneClasses{K: k}, now())
	o.after(ctx, false)
}

func (o *owner) chooseClass(ctx app.Context, c int) {
	o.st.Class(c)
	o.after(ctx, true)
}

// setOption sets the bias or the pinning on or off; another name is
// dropped.
func (o *owner) setOption(ctx app.Context, v option) {
	if v.Name == "bias" || v.Name == "pin" {
		o.st.Ask(protocol.PlaneOption{Name: v.Name, On: v.On}, now())
	}
	o.after(ctx, false)
}

// typeNumber takes α, λ or B as typed: all three go to the worker if all
// are good, and each one refused says why.
func (o *owner) typeNumber(ctx app.Context, t store.Typing) {
	o.st.Typed(t, now())
	o.after(ctx, true)
}

func (o *owner) toggleTrain(ctx app.Context) {
	o.st.Train()
	o.after(ctx, false)
}

func (o *owner) restart(ctx app.Context) {
	o.st.Ask(protocol.PlaneRestart{}, now())
	o.after(ctx, false)
}

func (o *owner) press(ctx app.Context, c click) {
	o.st.Point(c.At, c.Radius, c.Do, now())
	o.after(ctx, false)
}

func (o *owner) moveStart(ctx app.Context, s startAt) {
	o.st.Ask(protocol.PlaneStart{At: s.At, Quick: s.Quick}, now())
	o.after(ctx, false)
}

// typeTheta takes what happened in a field of #plane-theta: the table,
// a live view, renders alone.
func (o *owner) typeTheta(ctx app.Context, t store.ThetaTyped) {
	o.st.Theta(t, now())
	o.after(ctx, false)
}

// dragLine moves the boundary held: the frames that answer it render
// what they change.
func (o *owner) dragLine(ctx app.Context, d dragTo) {
	o.st.Drag(d.Grip, d.At, d.Quick, now())
	o.after(ctx, false)
}

// askGrid tells the worker the cells a side of the regions' image that
// the canvas wants.
func (o *owner) askGrid(ctx app.Context, n int) {
	if o.w != nil {
		o.w.send(protocol.PlaneGrid{N: n})
	}
	ctx.PreventUpdate()
}

// watchLive hands a live view mounted the live value from now on.
func (o *owner) watchLive(ctx app.Context, w watching) {
	o.live.add(ctx, w, o.liveNow())
	ctx.PreventUpdate()
}
