package modelfile

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/internal/golden"
	"softmaxdemo/core/softmax"
)

var update = flag.Bool("update", false, "rewrite the files in testdata")

// goldens are the files kept in testdata, which also seed the fuzzers.
func goldens(t testing.TB) map[string][]byte {
	m := trainedLike(rand.New(rand.NewPCG(1, 2)), 3)
	v1, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{
		"tiny.json":           encodeJSON(t, m, info),
		"tiny-v1.json":        v1,
		"tiny.npz":            encodeNPZ(t, m),
		"tiny-compressed.npz": archive(t, zip.Deflate, "W.npy", goodW, "b.npy", goodB),
		"tiny-float64.npz":    archive(t, zip.Store, "W.npy", npy(1, dict("<f8", "(3, 10)"), f8(30, small)), "b.npy", npy(2, dict("<f8", "(10,)"), f8(10, small))),
		"edges.json":          encodeJSON(t, randomModel(rand.New(rand.NewPCG(3, 4)), 2), Info{}),
		"three" + DigitsExt:   encodeDigits(t, threeDigits()),
		"three-digits.npz":    encodeDigitsNPZ(t, threeDigits()),
	}
}

func TestGoldenFiles(t *testing.T) {
	for name, b := range goldens(t) {
		t.Run(name+" matches its encoding", func(t *testing.T) {
			golden.Encoding(t, filepath.Join("testdata", name), b, *update)
		})
	}
}

// seeds adds every file in testdata to f.
func seeds(f *testing.F, pattern string) {
	files, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds %s in testdata: %v", pattern, err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// fuzzRoundTrip fuzzes a decoder: it never panics, every refusal wraps a
// named error, and what it accepts comes back from encode then decode the
// same, as same says; codec names encode and decode in failures.
func fuzzRoundTrip[M any](f *testing.F, codec string, decode func([]byte) (M, error), encode func(*testing.T, M) []byte, same func(a, b M) bool) {
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decode(b)
		if err != nil {
			if !named(err) {
				t.Fatalf("error %v wraps none of the named errors", err)
			}
			return
		}
		again, err := decode(encode(t, m))
		if err != nil {
			t.Fatalf("a file re-encoded for %s does not decode: %v", codec, err)
		}
		if !same(again, m) {
			t.Fatalf("a decoded file changed through %s", codec)
		}
	})
}

// FuzzDecode checks that the JSON decoder never panics, that every
// refusal wraps a named error, and that what it accepts survives
// EncodeJSON then Decode bit for bit.
func FuzzDecode(f *testing.F) {
	seeds(f, "*.json")
	f.Add([]byte(`{"format":"softmax-regression","version":2,"features":1,"classes":10,"theta":[[1],[2],[3],[4],[5],[6],[7],[8],[9],[0]],"bias":[0,0,0,0,0,0,0,0,0,"NaN"]}`))
	fuzzRoundTrip(f, "EncodeJSON and DecodeJSON",
		func(b []byte) (*File, error) { return DecodeJSON(b, 0) },
		func(t *testing.T, file *File) []byte { return encodeJSON(t, file.Model, file.Info) },
		func(a, b *File) bool { return sameBits(a.Model, b.Model) && a.Info == b.Info })
}

// FuzzDecodeNPZ is FuzzDecode for the .npz reader.
func FuzzDecodeNPZ(f *testing.F) {
	seeds(f, "*.npz")
	fuzzRoundTrip(f, "EncodeNPZ and DecodeNPZ",
		func(b []byte) (*softmax.Model[float32], error) { return DecodeNPZ(b, 0) },
		func(t *testing.T, m *softmax.Model[float32]) []byte { return encodeNPZ(t, m) },
		sameBits)
}

// FuzzDecodeDigits is FuzzDecode for my-digits files: every refusal wraps
// a named error, and what DecodeDigits accepts goes through DigitsPixels,
// NewDigits, EncodeDigits and DecodeDigits again with the same labels and
// pixels.
func FuzzDecodeDigits(f *testing.F) {
	seeds(f, "*"+DigitsExt)
	fuzzRoundTrip(f, "NewDigits, EncodeDigits and DecodeDigits", DecodeDigits,
		func(t *testing.T, s *dataset.Set) []byte {
			again, err := NewDigits(DigitsPixels(s))
			if err != nil {
				t.Fatalf("NewDigits refuses what DecodeDigits accepted: %v", err)
			}
			return encodeDigits(t, again)
		},
		func(a, b *dataset.Set) bool {
			la, pa := DigitsPixels(a)
			lb, pb := DigitsPixels(b)
			return bytes.Equal(la, lb) && bytes.Equal(pa, pb)
		})
}

// FuzzDecodeDigitsNPZ is FuzzDecode for digits as NumPy arrays: what
// DecodeDigitsNPZ accepts goes through EncodeDigitsNPZ and back with the
// same labels and pixels.
func FuzzDecodeDigitsNPZ(f *testing.F) {
	seeds(f, "*digits.npz")
	f.Add(archive(f, zip.Deflate, "images.npy", npy(1, dict("|u1", "(1, 784)"), make([]byte, 784)), "labels.npy", npy(1, dict("<i8", "(1,)"), make([]byte, 8))))
	fuzzRoundTrip(f, "EncodeDigitsNPZ and DecodeDigitsNPZ",
		func(b []byte) (*dataset.Set, error) { return DecodeDigitsNPZ(b, 100) },
		func(t *testing.T, s *dataset.Set) []byte { return encodeDigitsNPZ(t, s) },
		func(a, b *dataset.Set) bool {
			la, pa := DigitsPixels(a)
			lb, pb := DigitsPixels(b)
			return bytes.Equal(la, lb) && bytes.Equal(pa, pb)
		})
}
