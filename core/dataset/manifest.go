package dataset

import (
	"fmt"
	"math"

	"softmaxdemo/core/jsonlite"
)

// ManifestVersion is the version of the manifest format.
const ManifestVersion = 1

// Manifest lists the packs the page can load. It is stored as
// web/data/manifest.json by tools/mnistpack.
type Manifest struct {
	Version int        `json:"version"`
	Packs   []PackInfo `json:"packs"`
}

// PackInfo describes one pack file: what it holds and how large it is, so the
// page can show progress, and its SHA-256, so the page can verify it.
type PackInfo struct {
	Name      string `json:"name"`      // "default" or "full"
	File      string `json:"file"`      // relative to the manifest
	Title     string `json:"title"`     // for display: "10,000 train / 2,000 test"
	Train     int    `json:"train"`     // training images
	Test      int    `json:"test"`      // test images
	Bytes     int64  `json:"bytes"`     // size of the file
	GzipBytes int64  `json:"gzipBytes"` // size after gzip at best compression
	SHA256    string `json:"sha256"`    // lowercase hex digest of the file

	// For a version 3 pack, the prefix that holds the training images
	// (TrainPrefix) and its digest, so that the page can verify them and
	// start before the test images arrive; zero and empty otherwise.
	TrainBytes  int64  `json:"trainBytes,omitempty"`
	TrainSHA256 string `json:"trainSha256,omitempty"`
}

// Find returns the pack called name and whether m lists it.
func (m *Manifest) Find(name string) (PackInfo, bool) {
	for _, p := range m.Packs {
		if p.Name == name {
			return p, true
		}
	}
	return PackInfo{}, false
}

// ReadManifest reads a manifest from its JSON, as encoding/json would
// read it into a Manifest but by hand (core/jsonlite), so that the page,
// which reads it at start, does not carry encoding/json: a key it does
// not know is skipped (a newer manifest may add some), but one that
// differs from a known key only in case, a number out of its field's
// range, a value of the wrong type, a key given twice or bytes after the
// object are errors.
func ReadManifest(b []byte) (Manifest, error) {
	var m Manifest
	r := jsonlite.Reader{B: b}
	err := r.Object(func(key string) (err error) {
		switch key {
		case "version":
			var v int64
			v, err = r.Int(math.MinInt, math.MaxInt)
			m.Version = int(v)
		case "packs":
			if r.Null() {
				m.Packs = nil
				return nil
			}
			m.Packs = []PackInfo{}
			err = r.Array(func() error {
				var p PackInfo
				err := r.Object(p.field(&r))
				m.Packs = append(m.Packs, p)
				return err
			})
		default:
			err = r.SkipUnknown(key, "version", "packs")
		}
		return err
	})
	if err == nil {
		err = r.End()
	}
	if err != nil {
		return Manifest{}, fmt.Errorf("manifest: %w", err)
	}
	return m, nil
}

// field reads the value of one of the pack's keys; an unknown one is
// skipped.
func (p *PackInfo) field(r *jsonlite.Reader) func(key string) error {
	num := func(dst *int64) (err error) {
		*dst, err = r.Int(math.MinInt64, math.MaxInt64)
		return err
	}
	return func(key string) (err error) {
		var n int64
		switch key {
		case "name":
			p.Name, err = r.Str()
		case "file":
			p.File, err = r.Str()
		case "title":
			p.Title, err = r.Str()
		case "train":
			err = num(&n)
			p.Train = int(n)
		case "test":
			err = num(&n)
			p.Test = int(n)
		case "bytes":
			err = num(&p.Bytes)
		case "gzipBytes":
			err = num(&p.GzipBytes)
		case "sha256":
			p.SHA256, err = r.Str()
		case "trainBytes":
			err = num(&p.TrainBytes)
		case "trainSha256":
			p.TrainSHA256, err = r.Str()
		default:
			err = r.SkipUnknown(key, "name", "file", "title", "train", "test", "bytes", "gzipBytes", "sha256", "trainBytes", "trainSha256")
		}
		return err
	}
}
