// Package datasettest gives tests the committed default pack,
// web/data/default.mnpk, read and decoded once per test binary.
//
// A test that needs the pack calls Default (the decoded pack) or
// DefaultBytes (the file as committed). Both fail the test, never skip it,
// when the file is missing or does not decode: the pack is part of the
// repository, and a test of it that skips would pass on a checkout that
// has lost it.
package datasettest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"softmaxdemo/core/dataset"
)

// DefaultPath is the default pack's path relative to the module's root.
const DefaultPath = "web/data/default.mnpk"

var load = sync.OnceValues(func() ([]byte, error) {
	root, err := ModuleRoot()
	if err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join(root, DefaultPath))
})

var decode = sync.OnceValues(func() (*dataset.Pack, error) {
	b, err := load()
	if err != nil {
		return nil, err
	}
	return dataset.Decode(b)
})

// DefaultBytes returns the committed default pack as it is on disk. The
// slice is shared by every caller in the test binary: do not modify it.
func DefaultBytes(tb testing.TB) []byte {
	tb.Helper()
	b, err := load()
	if err != nil {
		tb.Fatalf("the committed pack %s cannot be read: %v", DefaultPath, err)
	}
	return b
}

// Default returns the committed default pack, decoded: 10,000 training
// images balanced across digits and a stratified sample of 2,000 test
// images. The pack is shared by every caller in the test binary: do not
// modify it.
func Default(tb testing.TB) *dataset.Pack {
	tb.Helper()
	p, err := decode()
	if err != nil {
		tb.Fatalf("the committed pack %s: %v", DefaultPath, err)
	}
	return p
}

// ModuleRoot returns the directory that holds the module's go.mod, found
// by walking up from the working directory (a test's working directory is
// its package's directory).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("datasettest: no go.mod above the working directory")
		}
		dir = parent
	}
}

// FullPath is the full pack's path relative to the module's root. The full
// pack is not committed: `make data-full` writes it.
const FullPath = "web/data/full.mnpk"

// ReadFull returns the full pack (60,000 training and 10,000 test images),
// read and decoded once per test binary, or an error that wraps
// fs.ErrNotExist where `make data-full` has not written it. The pack is
// shared by every caller: do not modify it.
var ReadFull = sync.OnceValues(func() (*dataset.Pack, error) {
	root, err := ModuleRoot()
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(root, FullPath))
	if err != nil {
		return nil, err
	}
	p, err := dataset.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", FullPath, err)
	}
	return p, nil
})

// Full returns ReadFull's pack. It skips the test or benchmark where the
// pack is absent, which is a choice of `make data-full`, and fails it where
// the pack cannot be read or decoded.
func Full(tb testing.TB) *dataset.Pack {
	tb.Helper()
	p, err := ReadFull()
	if errors.Is(err, fs.ErrNotExist) {
		tb.Skipf("%s is absent: run `make data-full` to write it", FullPath)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
