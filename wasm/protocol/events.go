package protocol

// Events, worker → page.
type (
	// Loading reports download progress; Total is 0 if unknown.
	Loading struct {
		Name     string `json:"name"`
		Received int64  `json:"received"`
		Total    int64  `json:"total"`
	}
	// Loaded says a pack is decoded and ready.
	Loaded struct {
		Name   string  `json:"name"`
		Train  int     `json:"train"`
		Test   int     `json:"test"`
		Millis float64 `json:"ms"`
		Kernel string  `json:"kernel,omitempty"` // "wasm-simd" or "go"
		// KernelRefused says why Kernel is "go" although the SIMD
		// kernel loaded: it failed the worker's bitwise check against
		// the Go code, and this is the check's finding in English
		// ("gradient 12 is 0.5, the Go code's 0.25"). It is empty when
		// the SIMD kernel is in use or did not load.
		KernelRefused string `json:"kernelRefused,omitempty"`
	}
	// Progress reports training. Run identifies the run (it grows with
	// every Reset or new run), so the page can drop stale updates; Step
	// grows within a run.
	//
	// A Newton run reports one Step per outer iteration: Step and
	// Iteration are the iterations completed, Epoch the passes over the
	// data so far (gradients, H·v products, line-search trials), Seen the
	// examples those passes visited, Loss and EpochLoss the objective J,
	// Rate the latest step length (1 is the full Newton step), Losses one
	// point per iteration, and Reason says why it stopped, for people
	// ("‖∇J‖ ≤ 1e-05 after 9 iterations").
	Progress struct {
		Run       int     `json:"run"`
		State     string  `json:"state"` // "training", "paused", "done"
		Stop      string  `json:"stop,omitempty"`
		Epoch     int     `json:"epoch"`  // epochs completed
		Epochs    int     `json:"epochs"` // the budget, 0 if none
		Step      int     `json:"step"`
		Seen      int64   `json:"seen"`
		PerEpoch  int     `json:"perEpoch"` // examples in one epoch
		Loss      float64 `json:"loss"`     // latest batch loss
		Losses    []Point `json:"-"`        // bulk: step, loss and T as three float64 each
		EpochLoss float64 `json:"epochLoss,omitempty"`
		Rate      float64 `json:"rate"`
		PerSecond float64 `json:"perSecond"`           // examples per second, recent
		Method    string  `json:"method,omitempty"`    // the run's method: "sgd", "gd", "newton"
		Iteration int     `json:"iteration,omitempty"` // Newton: outer iterations completed
		CGSteps   int     `json:"cgSteps,omitempty"`   // Newton: CG steps of the latest iteration
		GradNorm  float64 `json:"gradNorm,omitempty"`  // Newton: ‖∇J‖ at the current weights
		Reason    string  `json:"reason,omitempty"`    // Newton: why the run stopped, for people
		// Heap is the worker's Go heap in bytes (HeapLive), measured when
		// the run comes to rest (paused or done, and after Reset); 0 in
		// a Progress sent while training.
		Heap uint64 `json:"heap,omitempty"`
		// HelpersHeap is the sum of the pool's helpers' Go heaps, as each
		// last reported it (PassDone.Heap), sent with Heap; 0 without
		// helpers.
		HelpersHeap uint64 `json:"helpersHeap,omitempty"`
	}
	// Weights is a snapshot of the model: W is D×10 (see softmax.Model),
	// B has 10 entries. They travel as bulk bytes. Key says Step is one
	// of the run's keyframes (keyframes.go): the page keeps these.
	Weights struct {
		Run  int       `json:"run"`
		Step int       `json:"step"`
		D    int       `json:"d"`
		Key  bool      `json:"key,omitempty"`
		W    []float32 `json:"-"`
		B    []float32 `json:"-"`
	}
	// Evaluated reports performance on the test set after Epoch epochs.
	// Keyframe says it answers EvaluateModel: the numbers of the keyframe
	// at Step of Run, not of the model the worker trains (Epoch and T are
	// then 0).
	Evaluated struct {
		Run        int         `json:"run"`
		Keyframe   bool        `json:"keyframe,omitempty"`
		T          float64     `json:"t,omitempty"` // seconds of training in the run
		Epoch      int         `json:"epoch"`
		Step       int         `json:"step"`
		Accuracy   float64     `json:"accuracy"`
		Likelihood float64     `json:"likelihood"`
		Loss       float64     `json:"loss"`
		Confusion  [10][10]int `json:"confusion"`
		PerClass   [10]float64 `json:"perClass"`
	}
	// HessianView is the answer to Hessian: H as an N×N image (Image[i*N+k]
	// is the signed logarithm of |H[i][k]|, from -127 to 127, 0 for 0; the
	// parameters in the order weight j*10+c, bias 490+c), and for each of
	// three objectives its smallest eigenvalues and how many are zero to
	// rounding. Image travels as bulk bytes.
	HessianView struct {
		Images   int           `json:"images"`   // examples H sums over
		Features int           `json:"features"` // 49 pixels (the bias is extra)
		N        int           `json:"n"`        // parameters: (Features+1)·10
		Cases    []HessianCase `json:"cases"`
		Image    []int8        `json:"-"`
	}
	// Samples are test images for the gallery: Labels[i] and 784 grey
	// levels per image in Pixels. Pixels travel as bulk bytes.
	Samples struct {
		Labels []uint8 `json:"labels"`
		Pixels []byte  `json:"-"`
	}
	// Failed reports an error. Message is the whole error in English, for
	// logs; Key names the page's text for it in its catalogs (wasm/ui),
	// with Args filled in (the details, such as a file name or an error
	// from a decoder, which stay as they are). Hint is the key of the text
	// that says how to recover. Fatal means the worker cannot go on and
	// must be restarted.
	Failed struct {
		Message string   `json:"message"`
		Hint    string   `json:"hint,omitempty"`
		Fatal   bool     `json:"fatal,omitempty"`
		Key     string   `json:"key,omitempty"`
		Args    []string `json:"args,omitempty"`
		// Unloaded: the pack that Loaded announced could not be
		// completed (its test images failed) and is dropped; no data
		// is loaded until the next Load.
		Unloaded bool `json:"unloaded,omitempty"`
	}
)

func (Loading) isMsg()     {}
func (Loaded) isMsg()      {}
func (Progress) isMsg()    {}
func (Weights) isMsg()     {}
func (Evaluated) isMsg()   {}
func (HessianView) isMsg() {}
func (Samples) isMsg()     {}
func (Failed) isMsg()      {}

// HessianCase is one objective's Hessian: its λ and pinning, its
// smallest eigenvalues (increasing) and the number of them that are zero
// to rounding (below 1e-10 times the largest).
type HessianCase struct {
	Lambda   float64   `json:"lambda"`
	Pinned   bool      `json:"pinned,omitempty"`
	Smallest []float64 `json:"smallest"`
	Zero     int       `json:"zero"`
	Largest  float64   `json:"largest"`
}

// Point is one batch loss on the chart: at step Step the loss was Loss,
// after T seconds of training in the run (time spent training, not
// waiting: a slowed or paused run does not add to it).
type Point struct {
	Step int     `json:"s"`
	Loss float64 `json:"l"`
	T    float64 `json:"t,omitempty"`
}

// CurvatureIs answers Curvature: λ_max of H at the model of Run at Step
// (Run 0: all zeros), found by power iteration in Products H·v products,
// and AlphaMax = 2/λ_max, the step size above which gradient descent on
// J's quadratic model there diverges (0 when H is zero: no ceiling). L2,
// Pin and Deskew say for which objective and images.
type CurvatureIs struct {
	Run       int     `json:"run"`
	Step      int     `json:"step"`
	L2        float64 `json:"l2"`
	Pin       bool    `json:"pin,omitempty"`
	Deskew    bool    `json:"deskew,omitempty"`
	LambdaMax float64 `json:"lambdaMax"`
	AlphaMax  float64 `json:"alphaMax"`
	Products  int     `json:"products"`
}
