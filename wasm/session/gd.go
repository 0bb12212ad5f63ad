package session

import "softmaxdemo/wasm/protocol"

// fullBatch is full-batch gradient descent: minibatch SGD's trainer with
// B = m, so that every step sees all m training images and its loss is
// the objective J itself. Config.BatchSize is ignored.
type fullBatch struct{ minibatch }

func newFullBatch(c protocol.Config, m int) (method, error) {
	c.BatchSize = m
	b, err := minibatchFor(c, m)
	if err != nil {
		return nil, err
	}
	return &fullBatch{*b}, nil
}

func (*fullBatch) name() string { return "gd" }

func (*fullBatch) everyStepAnEpoch() bool { return true }
