package main

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"softmaxdemo/core/metrics"
	"softmaxdemo/core/modelfile"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// runSGD trains with minibatch SGD (full-batch gradient descent with
// -batch 0) on the float32 images, as the page does, printing a line
// every -every epochs.
func runSGD(o *options, x64, test64 *softmax.Examples[float64], d int, out io.Writer) error {
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
		return saveModel(o.save, tr.Model(), info, out)
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
