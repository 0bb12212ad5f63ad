package planepanel

import (
	"strconv"
	"strings"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/kit"
	"softmaxdemo/wasm/ui/planepanel/store"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// What changes at every frame of the worker, and as θ is set by hand,
// reaches the views that show it without the room rendering: the status
// line's numbers, #plane-theta's and the regions' canvas. go-app renders
// a dispatch's component and every component above it, the page and its
// rooms with it; sixty frames a second of that would take the page's main
// thread. So each such view, mounted, asks for the live value (watchLive),
// and the owner hands it each new one (liveViews.publish), rendering the
// view alone when it says so. The room's renders give the same views the
// same values as props.

// live is the plane's part that changes between the room's renders.
type live struct {
	status  statusLive
	theta   thetaLive
	picture store.Picture           // the latest frame's regions
	base    *softmax.Model[float32] // the θ a boundary held moves (store.Plane.Base)
}

// statusLive is what #plane-status shows.
type statusLive struct {
	State  string
	Status plane.Status
	Points int
	Counts string // the points of each class, comma-separated (data-counts)
	Theta  string // the model's W, then B, comma-separated (data-theta)
}

// thetaLive is what #plane-theta shows of the live model and of the
// person's typing.
type thetaLive struct {
	State string
	Model *softmax.Model[float32]
	Typed store.Typed
	Hand  int // the last θ by hand the worker has answered
}

// liveOf returns the live part of s, with base the θ a boundary held
// moves.
func liveOf(s store.Snapshot, base *softmax.Model[float32]) live {
	return live{
		status: statusLive{State: s.State, Status: s.Status, Points: len(s.Data.Points),
			Counts: countsText(s.Data), Theta: modelText(s.Model)},
		theta:   thetaLive{State: s.State, Model: s.Model, Typed: s.Typed, Hand: s.Hand},
		picture: s.Picture,
		base:    base,
	}
}

// liveView is a view that shows part of live: take takes a new value and
// reports whether the view must render for it.
type liveView interface {
	app.Composer
	take(l live) bool
}

// watching is a live view mounted, with its context.
type watching struct {
	ctx  app.Context
	view liveView
}

// watchLive is what a live view posts as it mounts: it takes the live
// value from then on.
var watchLive = kit.Action[watching]{Name: "plane/watch-live"}

// liveViews are the live views mounted.
type liveViews []watching

// add adds w, and hands it l at once.
func (v *liveViews) add(room app.Context, w watching, l live) {
	*v = append(*v, w)
	v.hand(room, w, l)
}

// publish hands l to each live view still mounted, and forgets the others.
func (v *liveViews) publish(room app.Context, l live) {
	kept := (*v)[:0]
	for _, w := range *v {
		if w.view.Mounted() {
			kept = append(kept, w)
			v.hand(room, w, l)
		}
	}
	clear((*v)[len(kept):])
	*v = kept
}

// hand hands l to w, rendering w alone if it asks: w's dispatch renders
// w, and room's update, which the dispatch also asks for, is prevented.
func (v *liveViews) hand(room app.Context, w watching, l live) {
	if w.view.take(l) {
		w.ctx.Dispatch(func(app.Context) { room.PreventUpdate() })
	}
}

// modelText returns m's weights and biases, comma-separated
// (#plane-status's data-theta).
func modelText(m *softmax.Model[float32]) string {
	if m == nil {
		return ""
	}
	var b strings.Builder
	for i, v := range append(append([]float32(nil), m.W...), m.B...) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(float64(v), 'g', -1, 32))
	}
	return b.String()
}

// countsText returns the points of each class of d, comma-separated
// (#plane-status's data-counts).
func countsText(d plane.Data) string {
	counts := d.Counts()
	s := make([]string, d.K)
	for c := range s {
		s[c] = strconv.Itoa(counts[c])
	}
	return strings.Join(s, ",")
}
