// Package kit holds what the page's rooms (the digits instrument, the
// lesson and the plane) draw the same way: text with formulas, grey
// canvases, probability bars, number formats for attributes, and the
// queue that gives a redraw a JavaScript task of its own, and Action, the
// typed actions by which panels, owners and the page talk. It imports no
// room; a piece moves here when a second room needs it.
package kit
