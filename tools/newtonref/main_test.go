package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"softmaxdemo/core/dataset"
)

func TestExport(t *testing.T) {
	image := func(seed byte) []byte {
		px := make([]byte, dataset.Pixels)
		for j := range px {
			if j%7 == int(seed)%7 {
				px[j] = seed + byte(j)
			}
		}
		return px
	}
	p := &dataset.Pack{Train: &dataset.Set{Start: []int32{0}}, Test: &dataset.Set{Start: []int32{0}}}
	p.Train.Append(3, image(1))
	p.Train.Append(9, image(2))
	p.Test.Append(0, image(5))
	want := map[string][]byte{
		"train-x.u8": append(image(1), image(2)...),
		"train-y.u8": {3, 9},
		"test-x.u8":  image(5),
		"test-y.u8":  {0},
	}

	t.Run("writes dense images and labels for each set", func(t *testing.T) {
		dir := t.TempDir()
		if err := export(dir, p); err != nil {
			t.Fatal(err)
		}
		for name, w := range want {
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, w) {
				t.Errorf("%s: %d bytes, want %d bytes as the images' dense grey levels", name, len(got), len(w))
			}
		}
	})
	t.Run("a missing folder is an error", func(t *testing.T) {
		if err := export(filepath.Join(t.TempDir(), "missing"), p); err == nil {
			t.Error("no error")
		}
	})
}
