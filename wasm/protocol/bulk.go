package protocol

import (
	"encoding/binary"
	"fmt"
	"math"
)

// packFloats returns a and b as little-endian float32 bytes, the layout of
// a JavaScript Float32Array on every browser we target.
func packFloats(a, b []float32) []byte {
	out := make([]byte, 0, 4*(len(a)+len(b)))
	for _, s := range [][]float32{a, b} {
		for _, f := range s {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(f))
		}
	}
	return out
}

// unpackFloats is the inverse of packFloats for len(b) a multiple of 4.
func unpackFloats(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// pointBytes is the size of one loss point in bulk: step, loss, T.
const pointBytes = 24

// packPoints returns ps as little-endian float64 triples (step, loss, T),
// a Float64Array's layout, or nil for none. Decoding a report's points
// from JSON was a fifth of the page's main-thread time while training.
func packPoints(ps []Point) []byte {
	if len(ps) == 0 {
		return nil
	}
	out := make([]byte, 0, pointBytes*len(ps))
	for _, p := range ps {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(float64(p.Step)))
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(p.Loss))
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(p.T))
	}
	return out
}

// points is the inverse of packPoints. It refuses bytes that are not whole
// points, a step that is not a whole number from 0 to 2^53, and a loss or
// time that is not finite (JSON, which carried them before, had no NaN).
func points(b []byte) ([]Point, error) {
	if len(b)%pointBytes != 0 {
		return nil, fmt.Errorf("protocol: progress has %d bytes of loss points, not a multiple of %d", len(b), pointBytes)
	}
	if len(b) == 0 {
		return nil, nil
	}
	ps := make([]Point, len(b)/pointBytes)
	for i := range ps {
		f := func(k int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b[pointBytes*i+8*k:])) }
		step, loss, t := f(0), f(1), f(2)
		if !(step >= 0 && step <= 1<<53 && step == math.Trunc(step)) {
			return nil, fmt.Errorf("protocol: loss point %d has step %v, not a whole number from 0 to 2^53", i, step)
		}
		if math.IsNaN(loss) || math.IsInf(loss, 0) || math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, fmt.Errorf("protocol: loss point %d is not finite: loss %v at %v s", i, loss, t)
		}
		ps[i] = Point{Step: int(step), Loss: loss, T: t}
	}
	return ps, nil
}

// How each message's bulk bytes are checked and stored into the message
// decoded from its JSON body (codec.go's table names them).

func readProgress(m *Progress, bulk []byte) (err error) {
	m.Losses, err = points(bulk)
	return err
}

func readWeights(m *Weights, bulk []byte) (err error) {
	m.W, m.B, err = weights(m.D, bulk, "weights")
	return err
}

func readUseModel(m *UseModel, bulk []byte) (err error) {
	m.W, m.B, err = weights(m.D, bulk, "useModel")
	return err
}

func readEvaluateModel(m *EvaluateModel, bulk []byte) (err error) {
	m.W, m.B, err = weights(m.D, bulk, "evaluateModel")
	return err
}

func readSamples(m *Samples, bulk []byte) (err error) {
	m.Pixels, err = images(m.Labels, bulk, "samples")
	return err
}

func readMyDigits(m *MyDigits, bulk []byte) (err error) {
	if len(m.Labels) > MaxMyDigits {
		return fmt.Errorf("protocol: %d of my digits, more than %d", len(m.Labels), MaxMyDigits)
	}
	m.Pixels, err = images(m.Labels, bulk, "myDigits")
	return err
}

func readHessianView(m *HessianView, bulk []byte) error {
	if m.N < 1 || m.N > 1000 || len(bulk) != m.N*m.N {
		return fmt.Errorf("protocol: a Hessian of %d parameters needs %d bytes, got %d", m.N, m.N*m.N, len(bulk))
	}
	m.Image = make([]int8, len(bulk))
	for i, b := range bulk {
		m.Image[i] = int8(b)
	}
	return nil
}

func readApply(m *Apply, bulk []byte) error {
	if len(bulk) != 784 || m.Label > 9 {
		return fmt.Errorf("protocol: apply needs 784 bytes and a label 0 to 9, got %d bytes and label %d", len(bulk), m.Label)
	}
	m.Pixels = bulk
	return nil
}

func readPicked(m *Picked, bulk []byte) error {
	if len(bulk) != 784 || m.Label > 9 {
		return fmt.Errorf("protocol: picked needs 784 bytes and a label 0 to 9, got %d bytes and label %d", len(bulk), m.Label)
	}
	m.Pixels = bulk
	return nil
}

func readExamples(m *Examples, bulk []byte) error {
	n := len(m.Index)
	if len(bulk) != 784*n || len(m.Probs) != 10*n {
		return fmt.Errorf("protocol: %d examples need %d bytes and %d probabilities, got %d and %d", n, 784*n, 10*n, len(bulk), len(m.Probs))
	}
	if n == 0 {
		bulk = nil
	}
	m.Pixels = bulk
	return nil
}

// weights splits the bulk bytes of a model of d features into W and B.
func weights(d int, bulk []byte, name string) (w, b []float32, err error) {
	if d < 1 || d > 1<<16 {
		return nil, nil, fmt.Errorf("protocol: %s with %d features", name, d)
	}
	if len(bulk) != 4*(d*10+10) {
		return nil, nil, fmt.Errorf("protocol: %s for %d features need %d bytes, got %d", name, d, 4*(d*10+10), len(bulk))
	}
	f := unpackFloats(bulk)
	return f[:d*10], f[d*10:], nil
}

// images checks the bulk bytes of len(labels) images of 784 pixels.
func images(labels []uint8, bulk []byte, name string) ([]byte, error) {
	if len(bulk) != 784*len(labels) {
		return nil, fmt.Errorf("protocol: %d %s need %d bytes, got %d", len(labels), name, 784*len(labels), len(bulk))
	}
	for i, y := range labels {
		if y > 9 {
			return nil, fmt.Errorf("protocol: %s %d has label %d", name, i, y)
		}
	}
	return bulk, nil
}

// int8Bytes returns the bytes of v, two's complement.
func int8Bytes(v []int8) []byte {
	b := make([]byte, len(v))
	for i, x := range v {
		b[i] = byte(x)
	}
	return b
}
