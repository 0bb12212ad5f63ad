package dataset

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecode checks that Decode never panics and that whatever it accepts
// is a valid pack that survives Encode then Decode unchanged. It is seeded
// with the packs in testdata and a few fresh encodings.
func FuzzDecode(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.mnpk"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed packs in testdata: %v", err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, p := range []*Pack{
		{Train: noiseSet(r, 3), Test: strokeSet(r, 1)},
		{Train: imageSet(filled(255)), Test: imageSet(filled(0))},
	} {
		for _, v := range versions {
			f.Add(encodeVersion(f, p, v))
		}
	}
	f.Add(build(1, 0, 0, 0, 0, 0))

	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Decode(b)
		if _, rerr := Read(bytes.NewReader(b), int64(len(b))); (err == nil) != (rerr == nil) {
			t.Fatalf("Decode error %v but Read error %v", err, rerr)
		}
		if err != nil {
			var fe FormatError
			if !errors.As(err, &fe) && !errors.Is(err, ErrVersion) && !errors.Is(err, ErrChecksum) &&
				!errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("Decode error %v is of no documented kind", err)
			}
			return
		}
		for _, s := range []*Set{p.Train, p.Test} {
			if err := s.Validate(); err != nil {
				t.Fatalf("Decode accepted an invalid set: %v", err)
			}
		}
		train, terr := DecodeTrain(b)
		test, serr := DecodeTest(b)
		if terr != nil || serr != nil || !equalSets(train, p.Train) || !equalSets(test, p.Test) {
			t.Fatalf("Decode succeeds, but DecodeTrain: %v, DecodeTest: %v, or they give other images", terr, serr)
		}
		for _, v := range versions {
			q, err := Decode(encodeVersion(t, p, v))
			if err != nil {
				t.Fatalf("Decode of a pack re-encoded in version %d: %v", v, err)
			}
			checkPacksEqual(t, q, p)
		}
	})
}
