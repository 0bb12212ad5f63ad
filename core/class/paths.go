package class

// The class's paths on its server (tools/serve -class), all under
// /class/. The package comment says who may use each and what it takes
// and returns.
const (
	PathEvents       = "/class/events"                   // GET: the event stream (Server-Sent Events)
	PathJoin         = "/class/join"                     // POST Join: a phone joins
	PathAnswer       = "/class/answer"                   // POST Answer
	PathDrawing      = "/class/drawing"                  // POST Drawing
	PathLine         = "/class/line"                     // POST Line
	PathTheta        = "/class/theta"                    // GET: the latest θ; POST (presenter): a new θ
	PathState        = "/class/state"                    // POST State (presenter)
	PathQuestion     = "/class/question"                 // POST Question (presenter)
	PathLines        = "/class/lines"                    // DELETE (presenter): clear the lines
	PathDrawings     = "/class/drawings"                 // GET (presenter): the list of drawings; DELETE …/{n}: remove one
	PathDigitsNPZ    = "/class/digits.npz"               // GET (presenter): the drawings for NumPy; POST: add a saved set
	PathDigitsImages = "/class/digits-images-idx3-ubyte" // GET (presenter): the drawings' images as IDX
	PathDigitsLabels = "/class/digits-labels-idx1-ubyte" // GET (presenter): their labels as IDX
	PathAddress      = "/class/address"                  // GET (presenter): the students' address, as the server printed it
)
