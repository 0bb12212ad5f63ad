// Command newtonref writes a pack as the dense files that the Python
// references of core/newton read (core/newton/testdata/reference.py):
// NAME-x.u8, the images' grey levels 0–255 as m×784 bytes, row-major, and
// NAME-y.u8, their m labels, for NAME in train and test.
//
// Usage:
//
//	go run ./tools/newtonref -out DIR [-data web/data/default.mnpk]
//	/usr/bin/python3 core/newton/testdata/reference.py DIR --bench
//
// core/newton/testdata/compare.sh runs it before timing Newton's method
// against scikit-learn on the same images.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"softmaxdemo/core/dataset"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "newtonref:", err)
		os.Exit(1)
	}
}

func run() error {
	data := flag.String("data", "web/data/default.mnpk", "the pack to export")
	out := flag.String("out", "", "`directory` to write train-x.u8, train-y.u8, test-x.u8 and test-y.u8 to (required)")
	flag.Parse()
	if flag.NArg() != 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	if *out == "" {
		return errors.New("-out is required")
	}
	b, err := os.ReadFile(*data)
	if err != nil {
		return err
	}
	p, err := dataset.Decode(b)
	if err != nil {
		return fmt.Errorf("pack %s: %w", *data, err)
	}
	return export(*out, p)
}

// export writes p's training and test sets into dir as dense files.
func export(dir string, p *dataset.Pack) error {
	for _, s := range []struct {
		name string
		set  *dataset.Set
	}{{"train", p.Train}, {"test", p.Test}} {
		px := make([]byte, s.set.Len()*dataset.Pixels)
		for i := range s.set.Len() {
			s.set.Dense(px[i*dataset.Pixels:(i+1)*dataset.Pixels], i)
		}
		if err := os.WriteFile(filepath.Join(dir, s.name+"-x.u8"), px, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, s.name+"-y.u8"), s.set.Labels, 0o644); err != nil {
			return err
		}
	}
	return nil
}
