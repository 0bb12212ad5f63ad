// Command mnistpack turns the original MNIST IDX files into the compact
// packs the page downloads (see package dataset) and writes manifest.json,
// which lists them with their sizes and SHA-256 digests.
//
// Usage:
//
//	go run ./tools/mnistpack [-idx DIR] [-out DIR] [-full] [-version N]
//	go run ./tools/mnistpack -prune DIR
//
// It reads train-images-idx3-ubyte, train-labels-idx1-ubyte,
// t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte from the -idx
// directory, each possibly gzipped with a .gz suffix, and writes
// default.mnpk (1,000 training images per digit and 200 test images per
// digit, in a fixed shuffled order) and manifest.json to the -out directory.
// With -full it also writes full.mnpk, all 60,000 training and 10,000 test
// images in their original order. The manifest lists the packs that are
// there: the full one if -full wrote it, or if an earlier -full run left
// the same file in -out, and not otherwise, so the page offers exactly the
// manifest's packs and never asks for a file that is missing. -prune DIR
// rewrites DIR/manifest.json without the packs whose files are not in DIR
// (make dist, which leaves the full pack out unless FULL=1). -version picks
// the pack format (see package dataset): 3, the default, keeps the
// training images in a prefix of the file, so that the page can start
// training before the test images arrive; 1 lays the two sets out
// together. Both decode in a few milliseconds.
//
// The output depends only on the input: running it twice gives identical
// files.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
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
	prune := flag.String("prune", "", "rewrite `directory`/manifest.json without the packs whose files are not there, and do nothing else")
	flag.Parse()
	if flag.NArg() != 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	if *prune != "" {
		return pruneManifest(*prune)
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
// pack if full is set, and the manifest to outDir. The manifest lists the
// packs written, and an unwritten one whose file in outDir is the very
// pack built now (an earlier make data-full left it).
func pack(idxDir, outDir string, full bool, version int) error {
	packs, err := build(idxDir, version)
	if err != nil {
		return err
	}
	m := dataset.Manifest{Version: dataset.ManifestVersion}
	for _, p := range packs {
		path := filepath.Join(outDir, p.info.File)
		if p.info.Name == "full" && !full {
			if same, err := sameFile(path, p.data); err != nil {
				return fmt.Errorf("pack %s: %w", path, err)
			} else if same {
				m.Packs = append(m.Packs, p.info)
			}
			continue
		}
		if err := writeFile(path, p.data); err != nil {
			return fmt.Errorf("pack %s: %w", path, err)
		}
		m.Packs = append(m.Packs, p.info)
		fmt.Printf("wrote %s: %s, %d bytes, %d gzipped\n", path, p.info.Title, p.info.Bytes, p.info.GzipBytes)
	}
	return writeManifest(outDir, m)
}

// sameFile reports whether the file at path holds exactly b; a missing
// file is not the same and not an error.
func sameFile(path string, b []byte) (bool, error) {
	got, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil && bytes.Equal(got, b), err
}

// writeManifest writes m as dir's manifest.json.
func writeManifest(dir string, m dataset.Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, manifestFile)
	if err := writeFile(path, append(b, '\n')); err != nil {
		return fmt.Errorf("manifest %s: %w", path, err)
	}
	return nil
}

// pruneManifest rewrites dir's manifest.json without the packs whose files
// are not in dir. It refuses a manifest that would list no pack at all.
func pruneManifest(dir string) error {
	path := filepath.Join(dir, manifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("manifest %s: %w", path, err)
	}
	var m dataset.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("manifest %s: %w", path, err)
	}
	kept := m.Packs[:0]
	for _, p := range m.Packs {
		if _, err := os.Stat(filepath.Join(dir, p.File)); err == nil {
			kept = append(kept, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("pack %s: %w", filepath.Join(dir, p.File), err)
		}
	}
	if len(kept) == 0 {
		return fmt.Errorf("manifest %s: none of its packs is in %s", path, dir)
	}
	m.Packs = kept
	return writeManifest(dir, m)
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
