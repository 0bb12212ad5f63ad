package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"softmaxdemo/core/dataset"
)

// writeDense decodes the pack at path and writes, into dir, the dense
// arrays the peers train on: train-x.f32 and test-x.f32 (784 float32 grey
// levels / 255 per image, little-endian) and train-y.u8 and test-y.u8 (one
// label byte per image). The page reads them straight into typed arrays,
// so the peers need no decoder for our format.
func writeDense(path, dir string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	p, err := dataset.Decode(b)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, s := range []struct {
		name string
		set  *dataset.Set
	}{{"train", p.Train}, {"test", p.Test}} {
		if err := writePixels(filepath.Join(dir, s.name+"-x.f32"), s.set); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, s.name+"-y.u8"), s.set.Labels, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writePixels writes s's images as float32 grey levels in [0, 1].
func writePixels(path string, s *dataset.Set) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	grey := make([]uint8, dataset.Pixels)
	row := make([]byte, 4*dataset.Pixels)
	for i := range s.Len() {
		s.Dense(grey, i)
		for j, v := range grey {
			binary.LittleEndian.PutUint32(row[4*j:], math.Float32bits(float32(v)/255))
		}
		w.Write(row) // a write error sticks; Flush reports it
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
