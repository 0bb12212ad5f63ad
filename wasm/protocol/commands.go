package protocol

// Commands, page → worker.
type (
	// Load asks the worker to fetch and decode a dataset pack. SHA256
	// (hex) and Bytes come from the manifest; the worker refuses data that
	// do not match them.
	Load struct {
		Name   string `json:"name"`
		URL    string `json:"url"`
		SHA256 string `json:"sha256"`
		Bytes  int64  `json:"bytes"`
		// For a pack that keeps its training images in a prefix
		// (format version 3), the prefix's length and SHA-256, from
		// the manifest: with nothing loaded yet, Loaded goes out as
		// soon as they are in, before the test images.
		TrainBytes  int64  `json:"trainBytes,omitempty"`
		TrainSHA256 string `json:"trainSha256,omitempty"`
	}
	// Train starts or resumes training with Config. If the run has
	// ended or the seed, batch size, epochs or Deskew (or another option
	// but α and λ) changed, a new run starts; α and λ changes apply to
	// the current run.
	Train struct {
		Config Config `json:"config"`
	}
	// Pause stops training after the current slice; the model is kept.
	Pause struct{}
	// Step takes one minibatch step (starting a run if none is active).
	Step struct {
		Config Config `json:"config"`
	}
	// Reset discards the model and starts from fresh weights.
	Reset struct {
		Config Config `json:"config"`
	}
	// Evaluate asks for an Evaluated event on the test set now.
	Evaluate struct{}
	// Pace sets how fast training runs: StepsPerSecond steps a second at
	// most, or full speed for 0. It changes no step, only when steps are
	// taken, and applies to the current run at once.
	Pace struct {
		StepsPerSecond float64 `json:"stepsPerSecond"`
	}
	// Hessian asks for the explicit Hessian of the small problem the notes'
	// warning is about: the first images of the loaded training set,
	// averaged down to 7×7 (49 pixels and the bias: 500 parameters), at
	// θ = 0, with λ = 0 and nothing pinned, with digit 0 pinned, and with
	// λ = L2. The answer is a HessianView.
	Hessian struct {
		L2     float64 `json:"l2"`
		Deskew bool    `json:"deskew,omitempty"`
	}
	// Warm asks the worker to run its training code once on the loaded
	// data, so that the browser optimises it before the person trains. The
	// page sends it once it is ready, which keeps that work out of the
	// page's start-up. It changes no model and sends no event.
	Warm struct{}
	// UseModel makes a model the page loaded (from a file or its
	// storage) the model of a new run with Config, which training then
	// continues from; the worker answers with Progress, Weights and
	// Evaluated. W is D×10 and B has 10 entries, as in Weights; they
	// travel as bulk bytes.
	UseModel struct {
		Config Config    `json:"config"`
		D      int       `json:"d"`
		W      []float32 `json:"-"`
		B      []float32 `json:"-"`
	}
	// EvaluateModel asks for the test-set numbers of a keyframe, the
	// model W, B (bulk bytes, as in Weights) after Step steps of Run, on
	// the straightened test images if Deskew: the worker answers with an
	// Evaluated whose Keyframe is set, and leaves the model it trains as
	// it was.
	EvaluateModel struct {
		Run    int       `json:"run"`
		Step   int       `json:"step"`
		Deskew bool      `json:"deskew,omitempty"`
		D      int       `json:"d"`
		W      []float32 `json:"-"`
		B      []float32 `json:"-"`
	}
	// MyDigits gives the worker the digits a person drew: Labels[i] and
	// 784 grey levels per image in Pixels (bulk bytes), at most
	// MaxMyDigits. They replace any sent before (none: forget them); the
	// current run and later ones mix them into every batch at
	// Config.MyDigitsRate.
	MyDigits struct {
		Labels []uint8 `json:"labels"`
		Pixels []byte  `json:"-"`
	}
)

func (Load) isMsg()          {}
func (Train) isMsg()         {}
func (Pause) isMsg()         {}
func (Step) isMsg()          {}
func (Reset) isMsg()         {}
func (Evaluate) isMsg()      {}
func (Pace) isMsg()          {}
func (Hessian) isMsg()       {}
func (Warm) isMsg()          {}
func (UseModel) isMsg()      {}
func (EvaluateModel) isMsg() {}
func (MyDigits) isMsg()      {}

// Curvature asks for λ_max, the largest eigenvalue of the Hessian of J at
// the current model (all zeros before a run), on the training images and
// with the λ and pinning of Config, and 2/λ_max: page → worker. The
// worker answers with CurvatureIs, at rest; while Newton's method runs it
// does not answer (its passes keep their own μ).
type Curvature struct {
	Config Config `json:"config"`
}

func (Curvature) isMsg()   {}
func (CurvatureIs) isMsg() {}
