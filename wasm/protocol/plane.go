package protocol

import (
	"encoding/binary"
	"fmt"
	"math"

	"softmaxdemo/core/plane"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// The plane's messages, between the page and the plane's worker
// (wasm/planework), which trains the plane's model and computes its
// scene off the page's main thread. The worker owns the plane's data and
// model: the page sends what the person did, and draws what the worker
// says. Every event carries Seq, the version of the data and settings it
// belongs to, so that the page drops a scene computed for points it no
// longer shows.

// PlaneSetUp starts the plane afresh: the data set Data made with K
// classes, the settings, and whether it trains to the end at once, at full
// pace (Warm). Every event after it carries its Setup, which the page
// chooses anew each time, so that a panel set up since drops what the
// worker still says of an earlier set-up.
type PlaneSetUp struct {
	Setup    int            `json:"setup"`
	Data     string         `json:"data"`
	K        int            `json:"k"`
	Settings plane.Settings `json:"settings"`
	Warm     bool           `json:"warm,omitempty"`
}

// PlaneData makes the data set Name, with the K in force, the points.
type PlaneData struct {
	Name string `json:"name"`
}

// PlaneClasses changes K: a data set as made is made again; points added
// or removed are kept, and K is refused if it would drop some.
type PlaneClasses struct {
	K int `json:"k"`
}

// PlaneOption sets one of the settings that are choices, Name: "bias"
// (z = θx + b) or "pin" (class 0 at zero). One at a time: two presses
// sent before the worker answers the first each change only their own.
type PlaneOption struct {
	Name string `json:"name"`
	On   bool   `json:"on"`
}

// PlaneNumbers sets α, λ and the SGD path's B, as the page read them from
// its fields.
type PlaneNumbers struct {
	Rate   float64 `json:"rate"`
	Lambda float64 `json:"lambda"`
	Batch  int     `json:"batch"`
}

// PlaneTrain trains the live model (On), from where it is, or pauses it.
type PlaneTrain struct {
	On bool `json:"on"`
}

// PlaneRestart starts the live model again from θ = 0.
type PlaneRestart struct{}

// PlanePsi adds one ψ to every θ_c of the live model, once no run is in
// training.
type PlanePsi struct{}

// PlaneAbove sets α at Times × 2/λ_max, once the scene of the data and
// settings in force knows 2/λ_max.
type PlaneAbove struct {
	Times float64 `json:"times"`
}

// PlanePoint is a press on the plane at At. A click (Do empty) removes
// the point within Radius of it, or adds one of Class there; a key says
// which it wants: PointAdd adds one whatever lies near, PointRemove
// removes the point within Radius, if there is one, and adds none.
type PlanePoint struct {
	At     [2]float64 `json:"at"`
	Radius float64    `json:"radius"`
	Class  int        `json:"class"`
	Do     string     `json:"do,omitempty"`
}

// What a PlanePoint does, besides a click's add-or-remove.
const (
	PointAdd    = "add"
	PointRemove = "remove"
)

// PlaneStart moves the paths' start to At, in the surface's coordinates;
// Quick keeps the surface and computes only the paths (a drag under way).
type PlaneStart struct {
	At    [2]float64 `json:"at"`
	Quick bool       `json:"quick,omitempty"`
}

// PlaneTheta sets the live model's θ by hand: W holds the weights as
// softmax.Model stores them (W[j·K + c], the weight of x_{j+1} for class
// c), B the biases, each a number within ±plane.MaxTheta. The worker
// draws it at once, and training goes on from it; for the exact surface
// (plane.Settings.Exact) it is also the paths' start, and Quick computes
// only the paths, on the surface already drawn (a drag under way). Hand
// counts the θs the page has set: the frames after it carry it, so the
// page knows when the model it shows has taken its last one. A θ of
// another K than the plane's was typed for a table that is gone, and is
// dropped.
type PlaneTheta struct {
	W     []float64 `json:"w"`
	B     []float64 `json:"b"`
	Quick bool      `json:"quick,omitempty"`
	Hand  int       `json:"hand"`
}

// PlanePace trains the live model at StepsPerSecond, 0 for full pace.
type PlanePace struct {
	StepsPerSecond float64 `json:"stepsPerSecond"`
}

// PlaneGrid is the number of cells on each side of the regions' image
// that the page's canvas wants (PlaneFrame).
type PlaneGrid struct {
	N int `json:"n"`
}

// PlaneResume hands a new plane worker the plane of one that stopped: its
// data, settings and state, and its live model W and B (in bulk), which
// the new worker goes on from.
type PlaneResume struct {
	Setup    int            `json:"setup"`
	Name     string         `json:"name"`
	Edited   bool           `json:"edited,omitempty"`
	Data     plane.Data     `json:"data"`
	Settings plane.Settings `json:"settings"`
	Training bool           `json:"training,omitempty"`
	W        []float32      `json:"-"`
	B        []float32      `json:"-"`
}

// PlaneState is the plane's state when anything but the live model's
// numbers changes: its data and settings (version Seq), whether it is
// training, the last refusal, the ψ last added (Psi, in bulk), and the
// scene being computed.
type PlaneState struct {
	Setup    int            `json:"setup"`
	Seq      int            `json:"seq"`
	State    string         `json:"state"` // ready, training or done
	Name     string         `json:"name"`
	Edited   bool           `json:"edited,omitempty"`
	Data     plane.Data     `json:"data"`
	Settings plane.Settings `json:"settings"`
	Refused  *PlaneRefusal  `json:"refused,omitempty"`
	Psis     int            `json:"psis,omitempty"` // ψ added so far
	Building bool           `json:"building,omitempty"`
	Scenes   int            `json:"scenes,omitempty"` // scenes completed so far
	// Chosen: the worker chose the settings itself (a set-up, a take-over,
	// α at a multiple of 2/λ_max): the page's fields show them. Otherwise
	// they are the page's own, and a field being typed is left alone.
	Chosen bool       `json:"chosen,omitempty"`
	Psi    *plane.Psi `json:"-"`
}

// PlaneRefusal is an input the worker refused: core/plane's InputError,
// with its numbers as text (they may be NaN or infinite), or, for any
// other error, its message.
type PlaneRefusal struct {
	Problem int       `json:"problem"`
	X       [2]string `json:"x"`
	Class   int       `json:"class"`
	Value   string    `json:"value"`
	Count   int       `json:"count"`
	Name    string    `json:"name,omitempty"`
	Message string    `json:"message,omitempty"`
}

// PlaneFrame is the live model as it trains: its status, θ (W and B), the
// regions' image (N×N RGBA, from the top left) and the boundaries
// (segments, each x₁, y₁, x₂, y₂ in the plane's coordinates), all in
// bulk; Hand is the last PlaneTheta's Hand the worker has answered.
type PlaneFrame struct {
	Setup      int          `json:"setup"`
	Seq        int          `json:"seq"`
	State      string       `json:"state"`
	N          int          `json:"n"`
	Hand       int          `json:"hand,omitempty"`
	Status     plane.Status `json:"-"`
	W          []float32    `json:"-"`
	B          []float32    `json:"-"`
	Image      []byte       `json:"-"`
	Boundaries []float64    `json:"-"`
}

// PlaneScene is a complete scene for the data and settings of version
// Seq, in core/plane's binary form (bulk), and how long the worker took to
// compute it (ms).
type PlaneScene struct {
	Setup int          `json:"setup"`
	Seq   int          `json:"seq"`
	MS    float64      `json:"ms"`
	Scene *plane.Scene `json:"-"`
}

func (PlaneSetUp) isMsg()   {}
func (PlaneData) isMsg()    {}
func (PlaneClasses) isMsg() {}
func (PlaneOption) isMsg()  {}
func (PlaneNumbers) isMsg() {}
func (PlaneTrain) isMsg()   {}
func (PlaneRestart) isMsg() {}
func (PlanePsi) isMsg()     {}
func (PlaneAbove) isMsg()   {}
func (PlanePoint) isMsg()   {}
func (PlaneStart) isMsg()   {}
func (PlaneTheta) isMsg()   {}
func (PlanePace) isMsg()    {}
func (PlaneGrid) isMsg()    {}
func (PlaneResume) isMsg()  {}
func (PlaneState) isMsg()   {}
func (PlaneFrame) isMsg()   {}
func (PlaneScene) isMsg()   {}

// MaxPlaneGrid is the most cells on a side of the regions' image.
const MaxPlaneGrid = 512

// Model returns the frame's θ as a model of the plane (2 features), or
// nil if W and B do not make one.
func (f PlaneFrame) Model() *softmax.Model[float32] {
	k := len(f.B)
	if k < plane.MinClasses || len(f.W) != 2*k {
		return nil
	}
	return &softmax.Model[float32]{D: 2, W: f.W, B: f.B}
}

// The bulk bytes of the plane's messages.

// packModel packs W and B, each a u32 count and its float32s.
func packModel(out []byte, w, b []float32) []byte {
	for _, s := range [][]float32{w, b} {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(s)))
		for _, f := range s {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(f))
		}
	}
	return out
}

// bulkReader reads bulk bytes; the first error stops it.
type bulkReader struct {
	b   []byte
	err error
	msg string
}

func (r *bulkReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("protocol: %s: "+format, append([]any{r.msg}, args...)...)
	}
}

func (r *bulkReader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.fail("%d bytes, not enough", len(r.b))
		return nil
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func (r *bulkReader) u32() int {
	if p := r.take(4); p != nil {
		return int(binary.LittleEndian.Uint32(p))
	}
	return 0
}

func (r *bulkReader) f64() float64 {
	if p := r.take(8); p != nil {
		return math.Float64frombits(binary.LittleEndian.Uint64(p))
	}
	return 0
}

// floats32 reads a u32 count, at most most, and as many float32s.
func (r *bulkReader) floats32(most int) []float32 {
	n := r.u32()
	if r.err == nil && (n > most || 4*n > len(r.b)) {
		r.fail("%d numbers", n)
	}
	p := r.take(4 * n)
	if p == nil {
		return nil
	}
	return unpackFloats(p)
}

// done fails on bytes left over.
func (r *bulkReader) done() error {
	if r.err == nil && len(r.b) > 0 {
		r.fail("%d bytes too many", len(r.b))
	}
	return r.err
}

// maxPlaneParams bounds a plane model's W (2 weights a class).
const maxPlaneParams = 2 * plane.MaxClasses

func packPlaneResume(m PlaneResume) []byte { return packModel(nil, m.W, m.B) }

func readPlaneResume(m *PlaneResume, b []byte) error {
	r := bulkReader{b: b, msg: "planeResume"}
	m.W, m.B = r.floats32(maxPlaneParams), r.floats32(plane.MaxClasses)
	return r.done()
}

// packPlaneState packs the ψ last added, if any: its three numbers, the
// norms before and after, MaxDP and MaxDZ.
func packPlaneState(m PlaneState) []byte {
	if m.Psi == nil {
		return nil
	}
	p := m.Psi
	out := make([]byte, 0, 7*8)
	for _, f := range []float64{p.Psi[0], p.Psi[1], p.Psi[2], p.NormBefore, p.NormAfter, p.MaxDP, p.MaxDZ} {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(f))
	}
	return out
}

func readPlaneState(m *PlaneState, b []byte) error {
	if len(b) == 0 {
		return nil
	}
	r := bulkReader{b: b, msg: "planeState"}
	p := &plane.Psi{}
	p.Psi = [3]float64{r.f64(), r.f64(), r.f64()}
	p.NormBefore, p.NormAfter, p.MaxDP, p.MaxDZ = r.f64(), r.f64(), r.f64(), r.f64()
	m.Psi = p
	return r.done()
}

// packPlaneFrame packs the status's steps, stop, points and separation and
// its three numbers, θ, the image and the boundaries (a u32 count of
// float64s).
func packPlaneFrame(m PlaneFrame) []byte {
	st := m.Status
	out := make([]byte, 0, 64+4*(len(m.W)+len(m.B))+len(m.Image)+8*len(m.Boundaries))
	sep := 0
	if st.Separated {
		sep = 1
	}
	for _, v := range []int{st.Steps, int(st.Stop), st.Points, sep} {
		out = binary.LittleEndian.AppendUint32(out, uint32(v))
	}
	for _, f := range []float64{st.Accuracy, st.Loss, st.ThetaNorm} {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(f))
	}
	out = packModel(out, m.W, m.B)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(m.Image)))
	out = append(out, m.Image...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(m.Boundaries)))
	for _, f := range m.Boundaries {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(f))
	}
	return out
}

func readPlaneFrame(m *PlaneFrame, b []byte) error {
	r := bulkReader{b: b, msg: "planeFrame"}
	st := &m.Status
	st.Steps = r.u32()
	st.Stop = train.Stop(r.u32())
	st.Points = r.u32()
	st.Separated = r.u32() == 1
	st.Accuracy, st.Loss, st.ThetaNorm = r.f64(), r.f64(), r.f64()
	m.W, m.B = r.floats32(maxPlaneParams), r.floats32(plane.MaxClasses)
	if n := r.u32(); r.err == nil {
		if m.N < 0 || m.N > MaxPlaneGrid || n != 4*m.N*m.N {
			r.fail("an image of %d bytes for %d cells a side", n, m.N)
		}
		m.Image = r.take(n)
	}
	if n := r.u32(); r.err == nil {
		if n%4 != 0 || 8*n > len(r.b) {
			r.fail("%d boundary numbers", n)
		}
		if p := r.take(8 * n); p != nil {
			m.Boundaries = make([]float64, n)
			for i := range m.Boundaries {
				m.Boundaries[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
			}
		}
	}
	if r.err == nil && (len(m.W) != 2*len(m.B) || (len(m.B) != 0 && len(m.B) < plane.MinClasses)) {
		r.fail("θ of %d weights and %d biases", len(m.W), len(m.B))
	}
	return r.done()
}

func packPlaneScene(m PlaneScene) []byte {
	if m.Scene == nil {
		return nil
	}
	b, err := m.Scene.MarshalBinary()
	if err != nil {
		return nil // a scene whose paths disagree in length: sent without one
	}
	return b
}

func readPlaneScene(m *PlaneScene, b []byte) error {
	if len(b) == 0 {
		return fmt.Errorf("protocol: planeScene has no scene")
	}
	sc := &plane.Scene{}
	if err := sc.UnmarshalBinary(b); err != nil {
		return fmt.Errorf("protocol: planeScene: %w", err)
	}
	m.Scene = sc
	return nil
}
