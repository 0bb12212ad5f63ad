// Package files is the page's side of the file formats: the model as
// JSON or .npz with how it was trained (core/modelfile), my digits as
// they are kept in the browser's storage, and the name of every kind of
// refusal, for the page to show in its language.
package files

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"softmaxdemo/core/modelfile"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"time"
)

// ModelInfo is how the current model was trained, for its JSON file:
// the run's method ("" for no run) and settings, how far it went, its
// latest test accuracy, my digits mixed in, and when it was saved.
func ModelInfo(method string, c protocol.Config, pr protocol.Progress, ev *protocol.Evaluated, dataset string, myDigits int, saved time.Time) modelfile.Info {
	info := modelfile.Info{Dataset: dataset, Saved: saved.UTC().Format(time.RFC3339)}
	if method != "" {
		info.Method = method
		info.LearningRate, info.BatchSize, info.L2, info.Seed, info.Deskew = c.LearningRate, c.BatchSize, c.L2, c.Seed, c.Deskew
		if info.Method == "newton" {
			info.LearningRate, info.BatchSize = 0, 0
		}
		if c.MyDigitsRate > 0 && myDigits > 0 {
			info.MyDigits, info.MyDigitsRate = myDigits, c.MyDigitsRate
		}
	}
	info.Epochs, info.Steps = pr.Epoch, pr.Step
	if ev != nil {
		info.TestAccuracy = ev.Accuracy
	}
	return info
}

// EncodeModel returns m as a file of the given kind ("json" or "npz"),
// with its name and media type.
func EncodeModel(m *softmax.Model[float32], info modelfile.Info, kind string) (b []byte, name, mime string, err error) {
	var buf bytes.Buffer
	if kind == "npz" {
		err = modelfile.EncodeNPZ(&buf, m)
		name, mime = "softmax-model.npz", "application/zip"
	} else {
		err = modelfile.EncodeJSON(&buf, m, info)
		name, mime = "softmax-model.json", "application/json"
	}
	return buf.Bytes(), name, mime, err
}

// ErrKind names the kind of a file's refusal, for #model-status's
// data-kind and the catalogs' "fileErr."+kind: "format", "version",
// "shape", "dtype", "layout", "notFinite", "tooLarge", "truncated", or
// "read" for anything else (the browser could not read the file).
func ErrKind(err error) string {
	for _, k := range []struct {
		err  error
		kind string
	}{
		{modelfile.ErrTooLarge, "tooLarge"}, {modelfile.ErrTruncated, "truncated"}, {modelfile.ErrVersion, "version"},
		{modelfile.ErrShape, "shape"}, {modelfile.ErrDType, "dtype"}, {modelfile.ErrLayout, "layout"},
		{modelfile.ErrNotFinite, "notFinite"}, {modelfile.ErrFormat, "format"},
	} {
		if errors.Is(err, k.err) {
			return k.kind
		}
	}
	return "read"
}

// ErrText is the catalog key of each kind ErrKind returns.
var ErrText = map[string]string{
	"format": "fileErr.format", "version": "fileErr.version", "shape": "fileErr.shape",
	"dtype": "fileErr.dtype", "layout": "fileErr.layout", "notFinite": "fileErr.notFinite",
	"tooLarge": "fileErr.tooLarge", "truncated": "fileErr.truncated", "read": "fileErr.read",
}

// EncodeDigits returns my digits as their file in base64, for the
// browser's storage, which holds strings.
func EncodeDigits(m protocol.Samples) (string, error) {
	set, err := modelfile.NewDigits(m.Labels, m.Pixels)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := modelfile.EncodeDigits(&buf, set); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// DecodeDigits reads what EncodeDigits wrote.
func DecodeDigits(s string) (protocol.Samples, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return protocol.Samples{}, fmt.Errorf("%w: %v", modelfile.ErrFormat, err)
	}
	set, err := modelfile.DecodeDigits(b)
	if err != nil {
		return protocol.Samples{}, err
	}
	labels, pixels := modelfile.DigitsPixels(set)
	return protocol.Samples{Labels: labels, Pixels: pixels}, nil
}
