// Command mnistpack turns the original MNIST IDX files into the compact
// packs the page downloads (see package dataset) and writes manifest.json,
// which lists them with their sizes and SHA-256 digests.
//
// Usage:
//
//	go run ./tools/mnistpack [-idx DIR] [-out DIR] [-full] [-version N]
//
// It reads train-images-idx3-ubyte, train-labels-idx1-ubyte,
// t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte from the -idx
// directory, each possibly gzipped with a .gz suffix, and writes
// default.mnpk (1,000 training images per digit and 200 test images per
// digit, in a fixed shuffled order) and manifest.json to the -out directory.
// With -full it also writes full.mnpk, all 60,000 training and 10,000 test
// images in their original order. The manifest always lists both packs, so
// the page can offer the full one when its file is there. -version picks
// the pack format (see package dataset): 3, the default, keeps the
// training images in a prefix of the file, so that the page can start
// training before the test images arrive; 1 lays the two sets out
// together. Both decode in a few milliseconds.
//
// The output depends only on the input: running it twice gives identical
// files.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"softmaxdemo/core/dataset"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "mnistpack:", err)
		os.Exit(1)
	}
}

func run() error {
	idxDir := flag.String("idx", ".cache/mnist/package/data", "`directory` holding the four MNIST IDX files, optionally gzipped")
	outDir := flag.String("out", "web/data", "`directory` to write the packs and manifest.json to")
	full := flag.Bool("full", false, "also write full.mnpk with all 60,000 training and 10,000 test images")
	version := flag.Int("version", defaultVersion, "pack format `version`, 1 or 3")
	flag.Parse()
	if flag.NArg() != 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	if err := checkVersion(*version); err != nil {
		return err
	}
	return pack(*idxDir, *outDir, *full, *version)
}

// checkVersion returns an error unless v is a pack format version that
// dataset writes and reads: 1 or dataset.Version.
func checkVersion(v int) error {
	if v != 1 && v != dataset.Version {
		return fmt.Errorf("-version %d, want 1 or %d", v, dataset.Version)
	}
	return nil
}

// defaultVersion is the pack format the committed web/data files use.
const defaultVersion = 3

// pack reads the IDX files in idxDir and writes the default pack, the full
// pack if full is set, and the manifest to outDir.
func pack(idxDir, outDir string, full bool, version int) error {
	packs, manifest, err := build(idxDir, version)
	if err != nil {
		return err
	}
	for _, p := range packs {
		if p.info.Name == "full" && !full {
			continue
		}
		path := filepath.Join(outDir, p.info.File)
		if err := writeFile(path, p.data); err != nil {
			return fmt.Errorf("pack %s: %w", path, err)
		}
		fmt.Printf("wrote %s: %s, %d bytes, %d gzipped\n", path, p.info.Title, p.info.Bytes, p.info.GzipBytes)
	}
	path := filepath.Join(outDir, manifestFile)
	if err := writeFile(path, manifest); err != nil {
		return fmt.Errorf("manifest %s: %w", path, err)
	}
	return nil
}

// writeFile writes data to a temporary file next to path and renames it
// into place, so readers never see a half-written file.
func writeFile(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
