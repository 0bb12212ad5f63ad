// Package planework is the plane's worker: softmax regression on points
// in the plane, trained and drawn off the page's main thread. It keeps
// the plane's data and live model (core/plane's Lab), trains it at the
// page's pace, computes its scene (core/plane's Builder: the surface, the
// three paths, the curvature) and the regions' image, and tells the page
// what to draw: protocol's PlaneState, PlaneFrame and PlaneScene. The page
// (wasm/ui/planepanel) sends what the person did, and draws what arrives.
//
// It is plain Go, like wasm/session, so that its reactions are tested
// natively; wasm/worker runs it in a Web Worker of its own (PlaneMain),
// started from the program the page already has. A worker of its own, and
// not the training worker: the digits' worker is busy for long stretches
// in one piece (a pack decoded, the Hessian formed, a pass of its pool),
// and the plane's messages would wait behind them, so that a class would
// see the plane stop while the digits load or train; and the plane's
// frames would wait behind the digits' slices.
package planework
