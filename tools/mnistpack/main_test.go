package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/dataset/datasettest"
)

// webData is the committed output directory, relative to this package.
var webData = filepath.Join("..", "..", "web", "data")

// readManifest decodes the manifest.json in dir.
func readManifest(t *testing.T, dir string) dataset.Manifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, manifestFile))
	if err != nil {
		t.Fatal(err)
	}
	var m dataset.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("decode %s: %v", manifestFile, err)
	}
	return m
}

// countDigits returns how many images of each digit s holds.
func countDigits(s *dataset.Set) [dataset.Classes]int {
	var c [dataset.Classes]int
	for _, l := range s.Labels {
		c[l]++
	}
	return c
}

func TestCommittedDefaultPack(t *testing.T) {
	m := readManifest(t, webData)
	if m.Version != dataset.ManifestVersion {
		t.Errorf("manifest version %d, want %d", m.Version, dataset.ManifestVersion)
	}
	// The manifest lists only packs that are there: the page offers exactly
	// its packs and never asks for a missing file.
	for _, p := range m.Packs {
		if st, err := os.Stat(filepath.Join(webData, p.File)); err != nil || st.Size() != p.Bytes {
			t.Errorf("manifest lists %s (%d bytes), which web/data does not hold: %v", p.File, p.Bytes, err)
		}
	}
	info, ok := m.Find("default")
	if !ok {
		t.Fatal("manifest has no default pack")
	}
	if want := filepath.Base(datasettest.DefaultPath); info.File != want {
		t.Fatalf("manifest lists the default pack as %s, want %s", info.File, want)
	}
	b := datasettest.DefaultBytes(t)
	if sum := sha256.Sum256(b); int64(len(b)) != info.Bytes || hex.EncodeToString(sum[:]) != info.SHA256 {
		t.Errorf("%s is %d bytes with SHA-256 %x, manifest says %d bytes, %s", info.File, len(b), sum, info.Bytes, info.SHA256)
	}
	prefix, err := dataset.TrainPrefix(b)
	if err != nil || prefix == 0 {
		t.Fatalf("%s: TrainPrefix = %d, %v, want the training images in a prefix (version 3)", info.File, prefix, err)
	}
	if sum := sha256.Sum256(b[:prefix]); int64(prefix) != info.TrainBytes || hex.EncodeToString(sum[:]) != info.TrainSHA256 {
		t.Errorf("%s's training images end at byte %d, SHA-256 %x; manifest says %d, %s", info.File, prefix, sum, info.TrainBytes, info.TrainSHA256)
	}
	if info.GzipBytes > 2_500_000 {
		t.Errorf("%s is %d bytes gzipped, want at most 2.5 MB", info.File, info.GzipBytes)
	}
	p := datasettest.Default(t)
	for _, c := range []struct {
		name     string
		set      *dataset.Set
		n        int
		perDigit int
	}{
		{"train", p.Train, info.Train, trainPerDigit},
		{"test", p.Test, info.Test, testPerDigit},
	} {
		if c.set.Len() != c.n {
			t.Errorf("%s set has %d images, manifest says %d", c.name, c.set.Len(), c.n)
		}
		for d, n := range countDigits(c.set) {
			if n != c.perDigit {
				t.Errorf("%s set has %d images of digit %d, want %d", c.name, n, d, c.perDigit)
			}
		}
		if slices.IsSorted(c.set.Labels) || slices.IsSorted(c.set.Labels[:c.perDigit]) {
			t.Errorf("%s labels are sorted, want the digits interleaved", c.name)
		}
	}
}

// idxDir returns the directory holding the MNIST IDX files, skipping the
// test if there is none, or failing it on CI.
func idxDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MNIST_IDX_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", ".cache", "mnist", "package", "data")
	}
	for _, name := range []string{trainImages, trainImages + ".gz"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return dir
		}
	}
	msg := "MNIST IDX files not found in " + dir + "; fetch them with `make mnist-idx` or set MNIST_IDX_DIR"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

func TestPackReproducesCommittedFiles(t *testing.T) {
	idx := idxDir(t)
	out := t.TempDir()
	if err := pack(idx, out, false, defaultVersion); err != nil {
		t.Fatal(err)
	}
	// A fresh clone has no full pack, so the committed manifest lists none.
	manifest, err := os.ReadFile(filepath.Join(webData, manifestFile))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{"default.mnpk": datasettest.DefaultBytes(t), manifestFile: manifest}
	if _, err := os.Stat(filepath.Join(webData, "full.mnpk")); err == nil {
		delete(want, manifestFile) // make data-full ran here: it lists the full pack as well
	}
	for name, want := range want {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("packing gives a different %s than web/data's; run `make data` and commit it", name)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "full.mnpk")); err == nil {
		t.Error("packing without -full wrote full.mnpk")
	}
	if m := readManifest(t, out); len(m.Packs) != 1 {
		t.Errorf("packing without -full lists %d packs, want the default one only", len(m.Packs))
	}

	if err := pack(idx, out, true, defaultVersion); err != nil {
		t.Fatal(err)
	}
	m := readManifest(t, out)
	info, _ := m.Find("full")
	b, err := os.ReadFile(filepath.Join(out, "full.mnpk"))
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(b); int64(len(b)) != info.Bytes || hex.EncodeToString(sum[:]) != info.SHA256 {
		t.Errorf("full.mnpk does not match its manifest entry %+v", info)
	}
	p, err := dataset.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	labels, err := readIDX(idx, trainLabels)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(p.Train.Labels, labels[8:]) || p.Test.Len() != 10000 {
		t.Errorf("full pack does not hold the 60,000 training images in their original order and 10,000 test images")
	}
}

func TestManifestListsThePacksThatAreThere(t *testing.T) {
	idx := idxDir(t)
	out := t.TempDir()
	if err := pack(idx, out, true, defaultVersion); err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		var n []string
		for _, p := range readManifest(t, out).Packs {
			n = append(n, p.Name)
		}
		return n
	}
	// make data after make data-full keeps the full pack it finds, unchanged.
	if err := pack(idx, out, false, defaultVersion); err != nil {
		t.Fatal(err)
	}
	if got := names(); !slices.Equal(got, []string{"default", "full"}) {
		t.Errorf("after packing without -full beside a full pack, the manifest lists %v, want default and full", got)
	}
	// A full.mnpk that is not this pack is not offered.
	if err := os.WriteFile(filepath.Join(out, "full.mnpk"), []byte("stale"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := pack(idx, out, false, defaultVersion); err != nil {
		t.Fatal(err)
	}
	if got := names(); !slices.Equal(got, []string{"default"}) {
		t.Errorf("beside a stale full.mnpk the manifest lists %v, want default only", got)
	}
}

func TestPruneManifest(t *testing.T) {
	dir := t.TempDir()
	m := dataset.Manifest{Version: dataset.ManifestVersion, Packs: []dataset.PackInfo{
		{Name: "default", File: "default.mnpk", Bytes: 1},
		{Name: "full", File: "full.mnpk", Bytes: 2},
	}}
	write := func(m dataset.Manifest) {
		t.Helper()
		if err := writeManifest(dir, m); err != nil {
			t.Fatal(err)
		}
	}
	write(m)
	if err := os.WriteFile(filepath.Join(dir, "default.mnpk"), []byte{1}, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("a pack whose file is missing is dropped", func(t *testing.T) {
		if err := pruneManifest(dir); err != nil {
			t.Fatal(err)
		}
		got := readManifest(t, dir)
		if len(got.Packs) != 1 || got.Packs[0] != m.Packs[0] || got.Version != m.Version {
			t.Errorf("pruned manifest %+v, want the default pack only", got)
		}
	})
	t.Run("a manifest left with no pack is refused and kept", func(t *testing.T) {
		write(dataset.Manifest{Version: dataset.ManifestVersion, Packs: m.Packs[1:]})
		before, _ := os.ReadFile(filepath.Join(dir, manifestFile))
		if err := pruneManifest(dir); err == nil || !strings.Contains(err.Error(), "none of its packs") {
			t.Errorf("pruning a manifest whose only pack is missing: %v, want an error", err)
		}
		if after, _ := os.ReadFile(filepath.Join(dir, manifestFile)); !bytes.Equal(before, after) {
			t.Error("a refused prune changed the manifest")
		}
	})
	t.Run("bad JSON is an error", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(dir, manifestFile), []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := pruneManifest(dir); err == nil {
			t.Error("pruning a manifest that is not JSON gave no error")
		}
	})
}

func TestBalanced(t *testing.T) {
	s := dataset.NewSet(0, 0)
	px := make([]uint8, dataset.Pixels)
	for i := range 500 {
		px[i%dataset.Pixels] = uint8(1 + i%255)
		s.Append(uint8(i%dataset.Classes), px)
	}
	a, err := balanced(s, 30, [2]uint64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	for d, n := range countDigits(a) {
		if n != 30 {
			t.Errorf("%d images of digit %d, want 30", n, d)
		}
	}
	if err := a.Validate(); err != nil {
		t.Error(err)
	}
	if b, _ := balanced(s, 30, [2]uint64{1, 2}); !slices.Equal(a.Start, b.Start) || !slices.Equal(a.Value, b.Value) {
		t.Error("balanced gives different subsets for the same seed")
	}
	if c, _ := balanced(s, 30, [2]uint64{1, 3}); slices.Equal(a.Value, c.Value) {
		t.Error("balanced gives the same subset for different seeds")
	}
	if _, err := balanced(s, 51, [2]uint64{1, 2}); err == nil || !strings.Contains(err.Error(), "50 images of digit 0, want at least 51") {
		t.Errorf("balanced asked for too many images: error %v", err)
	}
}

func TestReadIDX(t *testing.T) {
	dir := t.TempDir()
	plain := []byte{0, 0, 8, 1, 0, 0, 0, 1, 7}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write(plain); err != nil || zw.Close() != nil {
		t.Fatal("gzip failed")
	}
	for name, b := range map[string][]byte{"plain": plain, "zipped.gz": gz.Bytes(), "broken.gz": gz.Bytes()[:gz.Len()-3]} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		file string
		text string // wanted substring of the error, or "" for success
	}{
		{"a plain file is read as is", "plain", ""},
		{"a .gz file is found and gunzipped", "zipped", ""},
		{"a truncated .gz file is an error", "broken", "gunzip"},
		{"a missing file says how to fetch it", "missing", "make mnist-idx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := readIDX(dir, tt.file)
			switch {
			case tt.text == "" && (err != nil || !bytes.Equal(b, plain)):
				t.Errorf("readIDX = % x, %v; want % x", b, err, plain)
			case tt.text != "" && (err == nil || !strings.Contains(err.Error(), tt.text)):
				t.Errorf("readIDX error %v, want one containing %q", err, tt.text)
			}
		})
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 60000: "60,000", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// packVersions are the pack format versions -version accepts.
var packVersions = []int{1, dataset.Version}

func TestCheckVersion(t *testing.T) {
	for v := -1; v <= dataset.Version+1; v++ {
		err := checkVersion(v)
		if slices.Contains(packVersions, v) {
			if err != nil {
				t.Errorf("checkVersion(%d) = %v, want nil", v, err)
			}
		} else if want := fmt.Sprintf("-version %d, want 1 or 3", v); err == nil || err.Error() != want {
			t.Errorf("checkVersion(%d) = %v, want %q", v, err, want)
		}
	}
}

// TestEveryVersionHoldsTheSameImages encodes the committed default pack in
// every format version and checks that each decodes, bit for bit, to what
// the committed pack decodes and, where the IDX files are there, that
// packing them in that version gives the same bytes: training is the same
// whichever version the page loads.
func TestEveryVersionHoldsTheSameImages(t *testing.T) {
	b, committed := datasettest.DefaultBytes(t), datasettest.Default(t)
	encoded := map[int][]byte{}
	for _, v := range packVersions {
		var buf bytes.Buffer
		if err := dataset.EncodeVersion(&buf, committed, v); err != nil {
			t.Fatal(err)
		}
		p, err := dataset.Decode(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		samePack(t, fmt.Sprintf("version %d", v), p, committed)
		encoded[v] = buf.Bytes()
		t.Logf("default pack in version %d: %d bytes", v, buf.Len())
	}
	if !bytes.Equal(encoded[defaultVersion], b) {
		t.Errorf("re-encoding the committed pack in version %d gives other bytes", defaultVersion)
	}

	idx := idxDir(t)
	for _, v := range packVersions {
		packs, err := build(idx, v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(packs[0].data, encoded[v]) {
			t.Errorf("packing the IDX files in version %d gives other bytes than re-encoding the committed pack", v)
		}
	}
}

// samePack fails t unless got and want hold the same images and labels.
func samePack(t *testing.T, what string, got, want *dataset.Pack) {
	t.Helper()
	for _, s := range []struct {
		name      string
		got, want *dataset.Set
	}{{"train", got.Train, want.Train}, {"test", got.Test, want.Test}} {
		if !slices.Equal(s.got.Labels, s.want.Labels) || !slices.Equal(s.got.Start, s.want.Start) ||
			!slices.Equal(s.got.Index, s.want.Index) || !slices.Equal(s.got.Value, s.want.Value) {
			t.Errorf("%s: the %s sets differ", what, s.name)
		}
	}
}
