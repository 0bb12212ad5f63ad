package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"

	"softmaxdemo/core/dataset"
)

// The IDX file names of the MNIST distribution, and the manifest's name.
const (
	trainImages  = "train-images-idx3-ubyte"
	trainLabels  = "train-labels-idx1-ubyte"
	testImages   = "t10k-images-idx3-ubyte"
	testLabels   = "t10k-labels-idx1-ubyte"
	manifestFile = "manifest.json"
)

// The default pack holds this many images of each digit.
const (
	trainPerDigit = 1000
	testPerDigit  = 200
)

// Seeds of the PCG generators that choose and order the default pack's
// images. Changing them changes web/data/default.mnpk.
var (
	trainSeed = [2]uint64{0x6d6e6973, 1}
	testSeed  = [2]uint64{0x6d6e6973, 2}
)

// builtPack is an encoded pack and its manifest entry.
type builtPack struct {
	info dataset.PackInfo
	data []byte
}

// build reads the IDX files in dir and returns the default and full packs,
// in that order, in the given format version.
func build(dir string, version int) ([]builtPack, error) {
	train, err := loadSet(dir, trainImages, trainLabels)
	if err != nil {
		return nil, err
	}
	test, err := loadSet(dir, testImages, testLabels)
	if err != nil {
		return nil, err
	}
	smallTrain, err := balanced(train, trainPerDigit, trainSeed)
	if err != nil {
		return nil, fmt.Errorf("default pack: training set: %w", err)
	}
	smallTest, err := balanced(test, testPerDigit, testSeed)
	if err != nil {
		return nil, fmt.Errorf("default pack: test set: %w", err)
	}

	var packs []builtPack
	for _, p := range []struct {
		name string
		pack *dataset.Pack
	}{
		{"default", &dataset.Pack{Train: smallTrain, Test: smallTest}},
		{"full", &dataset.Pack{Train: train, Test: test}},
	} {
		b, err := encodePack(p.name, p.pack, version)
		if err != nil {
			return nil, fmt.Errorf("%s pack: %w", p.name, err)
		}
		packs = append(packs, b)
	}
	return packs, nil
}

// encodePack encodes p in the given format version and describes it for
// the manifest.
func encodePack(name string, p *dataset.Pack, version int) (builtPack, error) {
	var buf bytes.Buffer
	if err := dataset.EncodeVersion(&buf, p, version); err != nil {
		return builtPack{}, err
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return builtPack{}, err
	}
	if _, err := zw.Write(buf.Bytes()); err != nil {
		return builtPack{}, err
	}
	if err := zw.Close(); err != nil {
		return builtPack{}, err
	}
	sum := sha256.Sum256(buf.Bytes())
	prefix, err := dataset.TrainPrefix(buf.Bytes())
	if err != nil {
		return builtPack{}, err
	}
	var trainSum string
	if prefix > 0 {
		s := sha256.Sum256(buf.Bytes()[:prefix])
		trainSum = hex.EncodeToString(s[:])
	}
	return builtPack{
		info: dataset.PackInfo{
			Name:      name,
			File:      name + ".mnpk",
			Title:     fmt.Sprintf("%s train / %s test", thousands(p.Train.Len()), thousands(p.Test.Len())),
			Train:     p.Train.Len(),
			Test:      p.Test.Len(),
			Bytes:     int64(buf.Len()),
			GzipBytes: int64(gz.Len()),
			SHA256:    hex.EncodeToString(sum[:]),

			TrainBytes:  int64(prefix),
			TrainSHA256: trainSum,
		},
		data: buf.Bytes(),
	}, nil
}

// balanced returns perDigit images of each digit of s. A PCG generator
// seeded with seed shuffles s, the first perDigit images of each digit in
// that order are kept, and the same generator then shuffles them, so that
// the digits are interleaved evenly.
func balanced(s *dataset.Set, perDigit int, seed [2]uint64) (*dataset.Set, error) {
	r := rand.New(rand.NewPCG(seed[0], seed[1]))
	var count [dataset.Classes]int
	pos := make([]int, 0, perDigit*dataset.Classes)
	for _, i := range r.Perm(s.Len()) {
		if l := s.Labels[i]; count[l] < perDigit {
			count[l]++
			pos = append(pos, i)
		}
	}
	for d, c := range count {
		if c < perDigit {
			return nil, fmt.Errorf("%d images of digit %d, want at least %d", c, d, perDigit)
		}
	}
	r.Shuffle(len(pos), func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	return s.Subset(pos), nil
}

// loadSet reads an IDX image file and its label file from dir.
func loadSet(dir, images, labels string) (*dataset.Set, error) {
	img, err := readIDX(dir, images)
	if err != nil {
		return nil, err
	}
	lab, err := readIDX(dir, labels)
	if err != nil {
		return nil, err
	}
	s, err := dataset.ReadIDX(bytes.NewReader(img), bytes.NewReader(lab))
	if err != nil {
		return nil, fmt.Errorf("read %s and %s in %s: %w", images, labels, dir, err)
	}
	return s, nil
}

// readIDX returns the content of the file name in dir, or of name.gz if
// name is missing, gunzipped if it starts with the gzip magic number.
func readIDX(dir, name string) ([]byte, error) {
	path := filepath.Join(dir, name)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		path += ".gz"
		if b, err = os.ReadFile(path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no %s or %s.gz in %s; fetch them with `make mnist-idx`", name, name, dir)
		}
	}
	if err != nil {
		return nil, err
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return b, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("gunzip %s: %w", path, err)
	}
	var out bytes.Buffer
	if _, err := out.ReadFrom(zr); err != nil {
		return nil, fmt.Errorf("gunzip %s: %w", path, err)
	}
	return out.Bytes(), nil
}

// thousands formats n with commas between groups of three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
