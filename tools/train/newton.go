package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"softmaxdemo/core/metrics"
	"softmaxdemo/core/modelfile"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
)

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
		m := softmax.NewClasses[float32](m64.D, m64.Classes())
		softmax.Convert(m, m64)
		info := modelfile.Info{Method: "newton", L2: c.L2, Steps: st.Iteration, Dataset: filepath.Base(o.data),
			Deskew: o.deskew, TestAccuracy: r.Accuracy(), Saved: time.Now().UTC().Format(time.RFC3339)}
		if err := saveModel(o.save, m, info, out); err != nil {
			return err
		}
	}
	if st.Stop == newton.Singular {
		return s.Err()
	}
	return nil
}
