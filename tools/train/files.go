package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/modelfile"
	"softmaxdemo/core/softmax"
)

// load reads the training and test sets: of the four MNIST IDX files in
// -idx if it is given, else of the pack -data.
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

// saveModel writes m to the file name, for NumPy if the name ends in
// .npz, else as JSON with info, and says so.
func saveModel(name string, m *softmax.Model[float32], info modelfile.Info, out io.Writer) error {
	var buf bytes.Buffer
	var err error
	if saveFormat(name) == "npz" {
		err = modelfile.EncodeNPZ(&buf, m)
	} else {
		err = modelfile.EncodeJSON(&buf, m, info)
	}
	if err != nil {
		return err
	}
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(out, "saved %s (%d bytes)\n", name, buf.Len())
	return nil
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

// to32 converts float64 examples to the trainer's float32, sharing the
// labels and indices.
func to32(x *softmax.Examples[float64]) *softmax.Examples[float32] {
	v := make([]float32, len(x.Value))
	for i, f := range x.Value {
		v[i] = float32(f)
	}
	return &softmax.Examples[float32]{Labels: x.Labels, Start: x.Start, Index: x.Index, Value: v}
}
