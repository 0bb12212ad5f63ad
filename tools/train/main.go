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
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/digit"
	"softmaxdemo/core/metrics"
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

// saveFormat returns "json" or "npz" from the name's extension, or "".
func saveFormat(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		return "json"
	case ".npz":
		return "npz"
	}
	return ""
}

func load(o *options) (trainSet, testSet *dataset.Set, err error) {
	if o.idx != "" {
		open := func(name string) (*dataset.Set, error) {
			img, err := os.Open(filepath.Join(o.idx, name+"-images-idx3-ubyte"))
			if err != nil {
				return nil, err
			}
			defer img.Close()
			lab, err := os.Open(filepath.Join(o.idx, name+"-labels-idx1-ubyte"))
			if err != nil {
				return nil, err
			}
			defer lab.Close()
			s, err := dataset.ReadIDX(img, lab)
			if err != nil {
				return nil, fmt.Errorf("idx %s: %w", name, err)
			}
			return s, nil
		}
		if trainSet, err = open("train"); err != nil {
			return nil, nil, err
		}
		if testSet, err = open("t10k"); err != nil {
			return nil, nil, err
		}
		return trainSet, testSet, nil
	}
	b, err := os.ReadFile(o.data)
	if err != nil {
		return nil, nil, err
	}
	p, err := dataset.Decode(b)
	if err != nil {
		return nil, nil, fmt.Errorf("pack %s: %w", o.data, err)
	}
	return p.Train, p.Test, nil
}

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
	x, test := to32(x64), to32(test64)
	tr, err := train.New(x, d, o.cfg)
	if err != nil {
		return err
	}
	tr.SetPasses(train.NewConcurrent(x, o.workers)) // full batch only
	if o.load != "" {
		f, err := readModel(o.load)
		if err != nil {
			return err
		}
		if err := tr.SetModel(f.Model); err != nil {
			return fmt.Errorf("-load %s: %w", o.load, err)
		}
		fmt.Fprintf(out, "starting from %s: test accuracy %.2f%%\n", o.load, 100*metrics.Evaluate(f.Model, test).Accuracy())
	}
	var my *softmax.Examples[float32]
	if o.myDigits != "" {
		if my, err = readMyDigits(o.myDigits); err != nil {
			return err
		}
		if err := tr.SetMyDigits(my); err != nil {
			return fmt.Errorf("-my-digits %s: %w", o.myDigits, err)
		}
		fmt.Fprintf(out, "mixing %d of my digits into every batch at rate %g\n", my.Len(), o.cfg.MyDigitsRate)
	}
	c := tr.Config()
	fmt.Fprintf(out, "training on %d images, testing on %d: α %g, B %d, λ %g, init %v, seed %d\n",
		x.Len(), test.Len(), c.LearningRate, c.BatchSize, c.L2, c.Init, c.Seed)

	var busy time.Duration // time spent training, evaluation excluded
	var last train.Stats
	for tr.Stopped() == train.Running {
		start := time.Now()
		for {
			last = tr.Step()
			if last.EpochEnd || last.Stop != train.Running {
				break
			}
		}
		busy += time.Since(start)
		epoch := last.Epoch + 1
		if epoch%o.every == 0 || last.Stop != train.Running {
			r := metrics.Evaluate(tr.Model(), test)
			loss := last.EpochLoss
			if !last.EpochEnd {
				loss = last.Loss
			}
			fmt.Fprintf(out, "epoch %4d  step %6d  loss %.4f  test %6.2f%%  likelihood %.4f  %7.0f examples/s\n",
				epoch, last.Step, loss, 100*r.Accuracy(), r.Likelihood(), float64(last.Seen)/busy.Seconds())
		}
	}
	r := metrics.Evaluate(tr.Model(), test)
	loss := last.Loss
	if last.EpochEnd {
		loss = last.EpochLoss
	}
	fmt.Fprintf(out, "stopped (%v) after %d steps, %d epochs, %.2f s of training: loss %.4f, test accuracy %.2f%%, likelihood %.4f\n",
		last.Stop, last.Step, last.Epoch+btoi(last.EpochEnd), busy.Seconds(), loss, 100*r.Accuracy(), r.Likelihood())
	if last.Stop == train.Diverged {
		fmt.Fprintf(out, "the loss diverged; the weights are from the start of the last epoch: try a smaller -lr\n")
	}
	if my != nil {
		fmt.Fprintf(out, "my digits: %d of %d read as labelled\n", metrics.Evaluate(tr.Model(), my).Correct, my.Len())
	}
	if o.save != "" {
		info := modelfile.Info{Method: "sgd", LearningRate: c.LearningRate, BatchSize: c.BatchSize, L2: c.L2,
			Epochs: last.Epoch + btoi(last.EpochEnd), Steps: last.Step, Seed: c.Seed, Dataset: filepath.Base(o.data),
			TestAccuracy: r.Accuracy(), Saved: time.Now().UTC().Format(time.RFC3339)}
		if c.BatchSize == x.Len() {
			info.Method = "gd"
		}
		if o.idx != "" {
			info.Dataset = "idx"
		}
		if my != nil {
			info.MyDigits, info.MyDigitsRate = my.Len(), c.MyDigitsRate
		}
		var buf bytes.Buffer
		if saveFormat(o.save) == "npz" {
			err = modelfile.EncodeNPZ(&buf, tr.Model())
		} else {
			err = modelfile.EncodeJSON(&buf, tr.Model(), info)
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(o.save, buf.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(out, "saved %s (%d bytes)\n", o.save, buf.Len())
	}
	return nil
}

// readModel reads a model file saved as JSON or .npz.
func readModel(name string) (*modelfile.File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := modelfile.Read(f, modelfile.MaxBytes, dataset.Pixels)
	if err != nil {
		return nil, fmt.Errorf("-load %s: %w", name, err)
	}
	return m, nil
}

// readMyDigits reads a my-digits file.
func readMyDigits(name string) (*softmax.Examples[float32], error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if st.Size() > modelfile.MaxDigitsBytes {
		return nil, fmt.Errorf("-my-digits %s: %d bytes, more than the %d of %d digits: is it a dataset pack?", name, st.Size(), modelfile.MaxDigitsBytes, modelfile.MaxDigits)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	s, err := modelfile.DecodeDigits(b)
	if err != nil {
		return nil, fmt.Errorf("-my-digits %s: %w", name, err)
	}
	if s.Len() == 0 {
		return nil, fmt.Errorf("-my-digits %s: the file holds no digits", name)
	}
	return softmax.FromSet[float32](s), nil
}

// to32 converts float64 examples to the trainer's float32, sharing the
// labels and indices.
func to32(x *softmax.Examples[float64]) *softmax.Examples[float32] {
	v := make([]float32, len(x.Value))
	for i, f := range x.Value {
		v[i] = float32(f)
	}
	return &softmax.Examples[float32]{Labels: x.Labels, Start: x.Start, Index: x.Index, Value: v}
}

// runNewton minimises the same objective with Newton's method, printing
// one line per iteration. Truncated Newton works on the float32 pixels,
// widened as they are read, as the page's worker does (so the two agree
// bit for bit); exact Newton on the 7×7 images in float64.
func runNewton(o *options, x, test *softmax.Examples[float64], d int, out io.Writer) error {
	c := o.cfg
	obj := softmax.Objective{Lambda: c.L2, L2Bias: c.L2Bias, PinFirst: c.PinFirst}
	var s *newton.Solver
	var err error
	if o.newton.Exact {
		s, err = newton.New(x, d, obj, o.newton)
	} else {
		x32 := to32(x)
		if err = x32.Check(d); err == nil {
			s, err = newton.NewWith(newton.NewConcurrent(x32, d, softmax.K, o.workers), x32.Len(), d, obj, o.newton)
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s on %d images of %d pixels, testing on %d: λ %g, ‖∇J‖ tolerance %g, at most %d iterations of %d CG steps\n",
		o.method, x.Len(), d, test.Len(), c.L2, o.newton.GradTol, o.newton.Iterations, o.newton.CGSteps)
	var busy time.Duration
	var st newton.Stats
	for printed := -1; ; {
		start := time.Now()
		st = s.Iterate()
		busy += time.Since(start)
		if st.Iteration == printed {
			break // the run ended without completing another iteration
		}
		printed = st.Iteration
		r := metrics.Evaluate(s.Model(), test)
		fmt.Fprintf(out, "iteration %3d  J %.10f  ‖∇J‖ %.3e  CG %4d  step %-6.3g  test %6.2f%%  %6.2f s\n",
			st.Iteration, st.J, st.GradNorm, st.CG, st.Step, 100*r.Accuracy(), busy.Seconds())
		if st.Stop != newton.Running {
			break
		}
	}
	r := metrics.Evaluate(s.Model(), test)
	fmt.Fprintf(out, "stopped (%s) after %.2f s of training, %d CG steps, %d passes over the data: J %.10f, test accuracy %.2f%%, likelihood %.4f\n",
		s.Reason(), busy.Seconds(), st.TotalCG, st.Passes, st.J, 100*r.Accuracy(), r.Likelihood())
	if o.save != "" {
		m64 := s.Model()
		m := &softmax.Model[float32]{D: m64.D, W: make([]float32, len(m64.W)), B: make([]float32, len(m64.B))}
		for i, w := range m64.W {
			m.W[i] = float32(w)
		}
		for i, b := range m64.B {
			m.B[i] = float32(b)
		}
		info := modelfile.Info{Method: "newton", L2: c.L2, Steps: st.Iteration, Dataset: filepath.Base(o.data),
			Deskew: o.deskew, TestAccuracy: r.Accuracy(), Saved: time.Now().UTC().Format(time.RFC3339)}
		var buf bytes.Buffer
		if saveFormat(o.save) == "npz" {
			err = modelfile.EncodeNPZ(&buf, m)
		} else {
			err = modelfile.EncodeJSON(&buf, m, info)
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(o.save, buf.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(out, "saved %s (%d bytes)\n", o.save, buf.Len())
	}
	if st.Stop == newton.Singular {
		return s.Err()
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
