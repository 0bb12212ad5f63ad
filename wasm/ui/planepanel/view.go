package planepanel

import (
	"softmaxdemo/core/plane"
	"softmaxdemo/wasm/ui/planepanel/store"
)

// The plane's pictures for a lesson: each is the room with its own
// state, showing one picture and the few controls its point needs, so
// that it fits beside the digits on one screen. A page shows one of them
// at a time, so that every element id stays unique.

// View names the part of the plane a page mounts.
type View string

// The plane's views.
const (
	Whole   View = ""        // the whole room
	Regions View = "regions" // regions and boundaries, K and Train
	Surface View = "surface" // the loss surface, its three paths and α
	Psi     View = "psi"     // the regions, and ψ added to every θ_c
	Hand    View = "hand"    // two classes, the line set by hand (#plane-theta or a drag), and Train
)

// AboveCeiling is the multiple of 2/λ_max that shows a step too long:
// enough for gradient descent to overshoot at every step and zig-zag
// across the valley, not so much that it leaves the picture at once.
const AboveCeiling = 1.5

// start returns how view v starts. The whole room and the surface start
// from the exact surface's settings (K = 2, class 0 pinned, no bias), the
// surface on overlap, whose J has a minimum. The regions start with three
// classes and a bias, so that three straight boundaries cut the plane
// anywhere, and a little λ, so that training on blobs ends at a finite θ.
// ψ needs class 0 free and no λ, and a trained model, whose regions are
// worth keeping. The Hand view starts from the line of θ₁ = the settings'
// start, not from θ = 0, which has no line to take hold of.
func start(v View) store.Start {
	s := plane.Defaults()
	switch v {
	case Regions:
		s.Pin, s.Bias, s.Lambda = false, true, 0.01
		return store.Start{Data: "blobs", K: 3, Settings: s}
	case Surface:
		return store.Start{Data: "overlap", K: 2, Settings: s}
	case Psi:
		s.Pin, s.Bias = false, true
		return store.Start{Data: "blobs", K: 3, Settings: s, Warm: true}
	case Hand:
		return store.Start{Data: "overlap", K: 2, Settings: s, Hand: true}
	}
	return store.Start{Data: "blobs", K: 2, Settings: s}
}
