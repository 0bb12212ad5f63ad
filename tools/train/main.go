// Command train trains softmax regression on MNIST natively, on the same
// core the page runs in the browser.
//
//	go run ./tools/train                         # default pack, page defaults
//	go run ./tools/train -data web/data/full.mnpk -epochs 3
//	go run ./tools/train -idx .cache/mnist/package/data -preset lecture
//	go run ./tools/train -deskew                 # on images straightened by their moments
//	go run ./tools/train -method newton -grad-tol 1e-5   # Newton's method (truncated, CG)
//	go run ./tools/train -method newton-exact -resize 7  # the explicit H on 7×7 images
//
// It prints one line per epoch (loss, test accuracy, likelihood, examples
// per second) and a summary. -save writes the model as JSON (model.json,
// with how it was trained) or for NumPy (model.npz), -load starts from a
// model saved either way, and -my-digits mixes the digits of a my-digits file
// (core/modelfile) into every batch:
//
//	go run ./tools/train -save model.npz
//	go run ./tools/train -load model.json -my-digits my.digits.mnpk -my-digits-rate 0.1 -epochs 1
//	go run ./tools/train -figure mydigits  # docs/modelfile.md's table: my digits mixed in at six rates
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/digit"
	"softmaxdemo/core/modelfile"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/shard"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "train:", err)
		}
		os.Exit(2)
	}
}

type options struct {
	data, idx, preset, save, init string
	load, myDigits, figure        string
	every, workers                int
	deskew                        bool
	cfg                           train.Config

	method string          // "sgd", "newton" or "newton-exact"
	resize int             // 0 (28×28) or the side images are averaged down to
	newton newton.Settings // for the Newton methods
}

func parse(args []string, out io.Writer) (*options, error) {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(out)
	o := &options{cfg: train.Defaults()}
	fs.StringVar(&o.data, "data", "web/data/default.mnpk", "compact dataset pack to train on")
	fs.StringVar(&o.idx, "idx", "", "folder with the four original MNIST IDX files (instead of -data)")
	fs.StringVar(&o.preset, "preset", "", `"lecture": the lecture notes' full-batch experiment (flags given after it still apply)`)
	fs.StringVar(&o.save, "save", "", "write the trained model to this file: name.json (with how it was trained) or name.npz (NumPy: W 784×10, b)")
	fs.StringVar(&o.load, "load", "", "start from the model in this .json or .npz file instead of -init")
	fs.StringVar(&o.myDigits, "my-digits", "", "mix the digits of this my-digits file ("+modelfile.DigitsExt+") into every batch")
	fs.Float64Var(&o.cfg.MyDigitsRate, "my-digits-rate", 0.1, "with -my-digits: my digits per batch, as a fraction of the batch size")
	fs.IntVar(&o.every, "every", 1, "print a line every this many epochs")
	fs.IntVar(&o.workers, "workers", min(runtime.NumCPU(), shard.Count), "goroutines that compute full passes (full-batch steps, Newton); any number gives the same bits")
	fs.StringVar(&o.figure, "figure", "", `"mydigits": print the table of accuracy as off-centre my digits are mixed in at a few rates, instead of training once`)
	fs.BoolVar(&o.deskew, "deskew", false, "train and test on the images deskewed by their moments (core/digit.DeskewSet)")
	c := &o.cfg
	fs.Float64Var(&c.LearningRate, "lr", c.LearningRate, "learning rate α")
	fs.IntVar(&c.BatchSize, "batch", c.BatchSize, "batch size B: 1 is SGD, 0 is the whole set (full-batch gradient descent)")
	fs.Float64Var(&c.L2, "l2", c.L2, "L2 strength λ of (λ/2)Σθ²")
	fs.BoolVar(&c.L2Bias, "l2-bias", c.L2Bias, "regularise the bias too, as when it is a pixel column")
	fs.BoolVar(&c.PinFirst, "pin", c.PinFirst, "pin class 0's parameters at zero")
	fs.IntVar(&c.Epochs, "epochs", c.Epochs, "epochs to train (0: no limit)")
	fs.IntVar(&c.Iterations, "iters", c.Iterations, "steps to train (0: no limit)")
	fs.Float64Var(&c.Decay, "decay", 1, "multiply the learning rate by this ...")
	fs.IntVar(&c.DecayEvery, "decay-every", 0, "... every this many epochs (0: never)")
	fs.Float64Var(&c.Tolerance, "tol", c.Tolerance, "stop when the epoch loss changes by less than this (0: never)")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "seed for shuffling and initialisation")
	fs.StringVar(&o.init, "init", "zeros", `initial weights: "zeros" or "normal"`)
	fs.Float64Var(&c.InitStd, "init-std", c.InitStd, "standard deviation of the normal initialisation")
	fs.StringVar(&o.method, "method", "sgd", `"sgd" (minibatch SGD; -batch 0 is full-batch gradient descent), "newton" (truncated Newton, CG on H·v) or "newton-exact" (the explicit H, Cholesky; needs -resize 7)`)
	fs.IntVar(&o.resize, "resize", 0, "average the 28×28 images down to this side first (7: 4×4 block means, 49 pixels); 0 keeps them")
	n := &o.newton
	fs.Float64Var(&n.GradTol, "grad-tol", newton.DefaultGradTol, "Newton: stop when ‖∇J‖ ≤ this")
	fs.Float64Var(&n.RelTol, "rel-tol", newton.DefaultRelTol, "Newton: stop, too, when ‖∇J‖ ≤ this·‖∇J₀‖ (1e-300: never)")
	fs.IntVar(&n.Iterations, "newton-iters", newton.DefaultIterations, "Newton: budget of outer iterations")
	fs.IntVar(&n.CGSteps, "cg", newton.DefaultCGSteps, "Newton: at most this many conjugate-gradient steps per iteration")
	fs.BoolVar(&n.Jacobi, "jacobi", false, "Newton: precondition the conjugate gradients with diag H (more CG steps on MNIST)")

	// A preset sets the defaults; explicit flags override it.
	for i, a := range args {
		if a == "-preset=lecture" || a == "--preset=lecture" || ((a == "-preset" || a == "--preset") && i+1 < len(args) && args[i+1] == "lecture") {
			*c = train.LectureNotes()
			o.init = "normal"
			o.every = 100
		}
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.preset != "" && o.preset != "lecture" {
		return nil, fmt.Errorf("unknown preset %q (want \"lecture\")", o.preset)
	}
	switch o.init {
	case "zeros":
		c.Init = train.Zeros
	case "normal":
		c.Init = train.Normal
	default:
		return nil, fmt.Errorf("unknown -init %q (want \"zeros\" or \"normal\")", o.init)
	}
	if o.every < 1 {
		o.every = 1
	}
	if o.myDigits == "" {
		c.MyDigitsRate = 0
	}
	if o.save != "" && saveFormat(o.save) == "" {
		return nil, fmt.Errorf("-save %s: want a name ending in .json or .npz", o.save)
	}
	switch o.method {
	case "sgd", "newton":
	case "newton-exact":
		o.newton.Exact = true
	default:
		return nil, fmt.Errorf("unknown -method %q (want \"sgd\", \"newton\" or \"newton-exact\")", o.method)
	}
	if o.resize != 0 && (o.resize < 1 || dataset.Rows%o.resize != 0) {
		return nil, fmt.Errorf("-resize %d: want a side that divides 28 (7, 14, 4, 2, 1) or 0", o.resize)
	}
	if err := o.newton.Validate(); err != nil {
		return nil, err
	}
	if o.newton.GradTol == 0 || o.newton.Iterations == 0 || o.newton.CGSteps == 0 {
		return nil, fmt.Errorf("-grad-tol, -newton-iters and -cg must be above 0")
	}
	return o, nil
}

// run trains as args say, on the data they name, writing its report to
// out: it reads the images, straightens or shrinks them if asked, and
// hands them to runSGD or runNewton (or runFigure, which reads its own).
func run(args []string, out io.Writer) error {
	o, err := parse(args, out)
	if err != nil {
		return err
	}
	if o.figure != "" {
		return runFigure(o, out)
	}
	trainSet, testSet, err := load(o)
	if err != nil {
		return err
	}
	if o.deskew {
		start := time.Now()
		trainSet, testSet = digit.DeskewSet(trainSet), digit.DeskewSet(testSet)
		fmt.Fprintf(out, "deskewed %d images in %.1f ms: %.1f non-zero pixels per training image\n",
			trainSet.Len()+testSet.Len(), float64(time.Since(start))/float64(time.Millisecond),
			float64(trainSet.NNZ())/float64(max(trainSet.Len(), 1)))
	}
	x64, test64, d := softmax.FromSet[float64](trainSet), softmax.FromSet[float64](testSet), dataset.Pixels
	if o.resize != 0 {
		block := dataset.Rows / o.resize
		x64, test64, d = newton.Downsample(x64, dataset.Rows, block), newton.Downsample(test64, dataset.Rows, block), o.resize*o.resize
	}
	if o.method != "sgd" {
		return runNewton(o, x64, test64, d, out)
	}
	return runSGD(o, x64, test64, d, out)
}
