package dataset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"softmaxdemo/core/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden packs in testdata")

// tinyPack is the pack whose encoding TestEncodeLayout works out by hand.
func tinyPack() *Pack {
	var a, b, c [Pixels]uint8
	a[0], a[1], a[30] = 255, 128, 9
	c[783] = 1
	train, test := NewSet(2, 0), NewSet(1, 0)
	train.Append(7, a[:])
	train.Append(0, b[:])
	test.Append(9, c[:])
	return &Pack{Train: train, Test: test}
}

// goldens are the packs kept in testdata, which also seed FuzzDecode:
// each pack in format version 1 (file.mnpk) and 3 (file.v3.mnpk).
var goldens = []struct {
	file string
	pack func() *Pack
}{
	{"tiny", tinyPack},
	{"empty", func() *Pack { return &Pack{Train: NewSet(0, 0), Test: NewSet(0, 0)} }},
	{"strokes", func() *Pack {
		r := rand.New(rand.NewPCG(1, 2))
		return &Pack{Train: strokeSet(r, 3), Test: strokeSet(r, 2)}
	}},
}

// versions are the format versions Encode can write.
var versions = []int{1, 3}

// encode returns the encoding of p in version 1, failing t on error.
func encode(t testing.TB, p *Pack) []byte {
	t.Helper()
	return encodeVersion(t, p, 1)
}

// encodeVersion returns the encoding of p in the given format version.
func encodeVersion(t testing.TB, p *Pack, version int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := EncodeVersion(&buf, p, version); err != nil {
		t.Fatalf("EncodeVersion %d: %v", version, err)
	}
	return buf.Bytes()
}

// goldenFile is the name in testdata of a golden pack in a version.
func goldenFile(name string, version int) string {
	if version == 1 {
		return name + ".mnpk"
	}
	return fmt.Sprintf("%s.v%d.mnpk", name, version)
}

// build returns a pack with the given header counts and payload and a
// correct checksum, so that the decoder gets past the checksum.
func build(n0, n1, nnz0, nnz1 uint32, payload ...byte) []byte {
	return buildVersion(1, n0, n1, nnz0, nnz1, payload...)
}

// buildVersion is build for a format version.
func buildVersion(version uint8, n0, n1, nnz0, nnz1 uint32, payload ...byte) []byte {
	b := []byte{'M', 'N', 'P', 'K', version, 0, Rows, Cols}
	for _, v := range []uint32{n0, n1, nnz0, nnz1, uint32(len(payload))} {
		b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	sum := crc32.Update(crc32.ChecksumIEEE(b), crc32.IEEETable, payload)
	b = append(b, byte(sum), byte(sum>>8), byte(sum>>16), byte(sum>>24))
	return append(b, payload...)
}

// tinyHeader is tinyPack's header in a format version, worked out by hand
// from the table in doc.go, with the payload's length but without the
// checksum.
func tinyHeader(version, length byte) []byte {
	return []byte{
		'M', 'N', 'P', 'K', version, 0, 28, 28,
		2, 0, 0, 0, 1, 0, 0, 0, // train and test images
		3, 0, 0, 0, 1, 0, 0, 0, // train and test non-zero pixels
		length, 0, 0, 0,
	}
}

// checkLayout checks that tinyPack encodes in a format version to header,
// the checksum of header and payload, and payload.
func checkLayout(t *testing.T, version int, header, payload []byte) {
	t.Helper()
	sum := crc32.ChecksumIEEE(append(bytes.Clone(header), payload...))
	want := append(binary.LittleEndian.AppendUint32(bytes.Clone(header), sum), payload...)
	if got := encodeVersion(t, tinyPack(), version); !bytes.Equal(got, want) {
		t.Errorf("Encode(tinyPack) =\n% x\nwant\n% x", got, want)
	}
}

func TestEncodeLayout(t *testing.T) {
	// Worked out by hand from the table in doc.go for tinyPack.
	header := tinyHeader(1, 17) // payload length: 3 + 10 + 4
	payload := []byte{
		7, 0, 9, // labels
		2, 0, 2, 28, 1, // train 0: 2 runs, pixels 0–1 and 30 (28 zeros after 1)
		0,             // train 1: no runs
		1, 0x8f, 6, 1, // test 0: 1 run, 783 zeros (uvarint 0x8f 0x06), 1 pixel
		255, 128, 9, 1, // grey levels
	}
	checkLayout(t, 1, header, payload)
}

func TestGoldenPacks(t *testing.T) {
	for _, g := range goldens {
		for _, v := range versions {
			file := goldenFile(g.file, v)
			t.Run(file+" matches its encoding", func(t *testing.T) {
				testGolden(t, filepath.Join("testdata", file), encodeVersion(t, g.pack(), v), g.pack())
			})
		}
	}
}

// testGolden checks that the golden pack at path holds enc, or writes it
// there with -update, and that it decodes to want.
func testGolden(t *testing.T, path string, enc []byte, wantPack *Pack) {
	t.Helper()
	p, err := Decode(golden.Encoding(t, path, enc, *update))
	if err != nil {
		t.Fatal(err)
	}
	checkPacksEqual(t, p, wantPack)
}

func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	checker := make([]uint8, Pixels)
	for j := 0; j < Pixels; j += 2 {
		checker[j] = uint8(1 + j%255)
	}
	lastPixel := make([]uint8, Pixels)
	lastPixel[Pixels-1] = 200
	tests := []struct {
		name        string
		train, test *Set
	}{
		{"empty sets", NewSet(0, 0), NewSet(0, 0)},
		{"an all-zero image", imageSet(filled(0)), NewSet(0, 0)},
		{"an all-255 image", NewSet(0, 0), imageSet(filled(255))},
		{"a checkerboard with the most runs", imageSet(checker), imageSet(checker, checker)},
		{"only the last pixel set", imageSet(lastPixel), imageSet(filled(1))},
		{"random noise of every density", noiseSet(r, 200), noiseSet(r, 50)},
		{"stroke images", strokeSet(r, 300), strokeSet(r, 100)},
		{"hand-made sets", tinyPack().Train, tinyPack().Test},
	}
	for _, tt := range tests {
		for _, v := range versions {
			t.Run(fmt.Sprintf("%s survive Encode then Decode in version %d", tt.name, v), func(t *testing.T) {
				testRoundTrip(t, &Pack{Train: tt.train, Test: tt.test}, v)
			})
		}
	}
}

// testRoundTrip checks that want survives EncodeVersion then Decode and
// then Read.
func testRoundTrip(t *testing.T, want *Pack, version int) {
	t.Helper()
	enc := encodeVersion(t, want, version)
	got, err := Decode(enc)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	checkPacksEqual(t, got, want)
	for _, s := range []*Set{got.Train, got.Test} {
		if err := s.Validate(); err != nil {
			t.Errorf("decoded set is invalid: %v", err)
		}
	}
	got, err = Read(iotest.OneByteReader(bytes.NewReader(enc)), int64(len(enc)))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	checkPacksEqual(t, got, want)
}

func TestDecodeCopiesInput(t *testing.T) {
	enc := encode(t, tinyPack())
	p, err := Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	clear(enc)
	checkPacksEqual(t, p, tinyPack())
}

// entryPoint is a function that reads a pack, with its name, called for
// its error alone.
type entryPoint struct {
	name string
	call func([]byte) error
}

// decoders are the entry points that decode a pack's images.
var decoders = []entryPoint{
	{"Decode", func(b []byte) error { _, err := Decode(b); return err }},
	{"DecodeTrain", func(b []byte) error { _, err := DecodeTrain(b); return err }},
	{"DecodeTest", func(b []byte) error { _, err := DecodeTest(b); return err }},
}

func TestDecodeAllocatesOncePerSlice(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, v := range []int{1, 3} {
		for _, dec := range decoders {
			allocs := func(n int) float64 {
				enc := encodeVersion(t, &Pack{Train: strokeSet(r, n), Test: strokeSet(r, n/4)}, v)
				return testing.AllocsPerRun(10, func() {
					if err := dec.call(enc); err != nil {
						t.Fatal(err)
					}
				})
			}
			small, large := allocs(8), allocs(800)
			if small != large || large > 11 {
				t.Errorf("version %d: %s made %v allocations for 10 images and %v for 1,000, want the same few", v, dec.name, small, large)
			}
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	tiny := func(edit func(b []byte) []byte) func() []byte {
		return func() []byte { return edit(encode(t, tinyPack())) }
	}
	tests := []struct {
		name  string
		input func() []byte
		is    error  // wanted sentinel, or
		text  string // wanted substring of a FormatError
	}{
		{"wrong magic is rejected", tiny(func(b []byte) []byte { b[0] = 'X'; return b }), nil, `magic "XNPK"`},
		{"wrong magic in a short input is rejected", func() []byte { return []byte("MX") }, nil, `magic "MX"`},
		{"version 4 returns ErrVersion", tiny(func(b []byte) []byte { b[4] = 4; return b }), ErrVersion, "version 4, want 1 or 3; rebuild with `make data`"},
		{"version 2 returns ErrVersion", tiny(func(b []byte) []byte { b[4] = 2; return b }), ErrVersion, "version 2, want 1 or 3"},
		{"version 0 returns ErrVersion", tiny(func(b []byte) []byte { b[4] = 0; return b }), ErrVersion, "version 0, want 1 or 3"},
		{"version 257 returns ErrVersion", tiny(func(b []byte) []byte { b[5] = 1; return b }), ErrVersion, "version 257, want 1 or 3"},
		{"27 rows are rejected", tiny(func(b []byte) []byte { b[6] = 27; return b }), nil, "27×28"},
		{"too many train images are rejected", func() []byte { return build(MaxImages+1, 0, 0, 0, 0, 0) }, nil, "1048577 train images, more than"},
		{"too many test images are rejected", func() []byte { return build(0, 1<<31, 0, 0) }, nil, "2147483648 test images, more than"},
		{"more non-zero pixels than pixels are rejected", func() []byte { return build(1, 0, 785, 0, 0, 0) }, nil, "785 non-zero pixels in 1 train"},
		{"a payload too short for the counts is rejected", func() []byte { return build(2, 0, 0, 0, 0, 0, 0) }, nil, "want at least 4"},
		{"a truncated payload returns ErrUnexpectedEOF", tiny(func(b []byte) []byte { return b[:len(b)-1] }), io.ErrUnexpectedEOF, "header says"},
		{"a trailing byte is rejected", tiny(func(b []byte) []byte { return append(b, 0) }), nil, "1 trailing bytes"},
		{"a changed grey level returns ErrChecksum", tiny(func(b []byte) []byte { b[len(b)-1]++; return b }), ErrChecksum, "computed"},
		{"a changed header count returns ErrChecksum", tiny(func(b []byte) []byte { b[16]--; return b }), ErrChecksum, "header says"},
		{"label 10 is rejected", func() []byte { return build(1, 0, 0, 0, 10, 0) }, nil, "train image 0: label 10, want 0..9"},
		{"a test label of 12 is rejected", func() []byte { return build(0, 1, 0, 0, 12, 0) }, nil, "test image 0: label 12"},
		{"a zero grey level is rejected", func() []byte { return build(1, 0, 1, 0, 0, 1, 0, 1, 0) }, nil, "grey level 0 of 1 is zero"},
		{"a run past pixel 784 is rejected", func() []byte { return build(1, 0, 2, 0, 0, 1, 0x8e, 6, 3, 5, 5) }, nil, "run ends at pixel 785"},
		{"an empty run is rejected", func() []byte { return build(1, 0, 0, 0, 0, 1, 0, 0) }, nil, "empty run"},
		{"393 runs are rejected", func() []byte { return build(1, 0, 0, 0, 0, 0x89, 3) }, nil, "393 runs"},
		{"a three-byte varint is rejected", func() []byte { return build(1, 0, 0, 0, 0, 0x80, 0x80, 0) }, nil, "bad run count"},
		{"run headers ending inside an image are rejected", func() []byte { return build(1, 0, 1, 0, 0, 1, 5, 7) }, nil, "bad run header"},
		{"runs covering fewer pixels than declared are rejected", func() []byte { return build(1, 0, 2, 0, 0, 1, 0, 1, 7, 7) }, nil, "runs cover 1 non-zero pixels, header declares 2"},
		{"runs covering more pixels than declared are rejected", func() []byte { return build(1, 0, 1, 0, 0, 1, 0, 2, 7) }, nil, "more non-zero pixels than the header declares"},
		{"unused run header bytes are rejected", func() []byte { return build(1, 0, 0, 0, 0, 0, 0) }, nil, "1 unused bytes"},
	}
	seen := map[string]string{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Decode(tt.input())
			if err == nil {
				t.Fatalf("Decode succeeded with %d+%d images, want an error", p.Train.Len(), p.Test.Len())
			}
			msg := err.Error()
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("Decode error %q does not match %v", msg, tt.is)
			}
			var fe FormatError
			if tt.is == nil && !errors.As(err, &fe) {
				t.Errorf("Decode error %q is not a FormatError", msg)
			}
			if !strings.HasPrefix(msg, "dataset: ") || !strings.Contains(msg, tt.text) {
				t.Errorf("Decode error %q, want it to start with \"dataset: \" and contain %q", msg, tt.text)
			}
			if other, ok := seen[msg]; ok {
				t.Errorf("Decode error %q is the same as for %q", msg, other)
			}
			seen[msg] = tt.name
		})
	}
}

func TestPrefixesReturnErrUnexpectedEOF(t *testing.T) {
	for _, v := range versions {
		r := rand.New(rand.NewPCG(1, 2))
		testPrefixes(t, encodeVersion(t, &Pack{Train: strokeSet(r, 2), Test: tinyPack().Test}, v))
	}
}

// testPrefixes checks that Decode and Read of every proper prefix of enc
// return io.ErrUnexpectedEOF: the header's payload length says that bytes
// are missing before anything else is decoded.
func testPrefixes(t *testing.T, enc []byte) {
	t.Helper()
	for n := range len(enc) {
		if _, err := Decode(enc[:n]); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("Decode of the first %d of %d bytes: %v, want io.ErrUnexpectedEOF", n, len(enc), err)
		}
		if _, err := Read(bytes.NewReader(enc[:n]), 1<<20); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("Read of the first %d of %d bytes: %v, want io.ErrUnexpectedEOF", n, len(enc), err)
		}
	}
}

func TestReadErrors(t *testing.T) {
	errBoom := errors.New("boom")
	enc := encode(t, tinyPack())
	tests := []struct {
		name  string
		r     io.Reader
		limit int64
		is    error
		text  string
	}{
		{"a pack over the limit is rejected", bytes.NewReader(enc), int64(len(enc) - 1), nil, "more than the limit"},
		{"a trailing byte is rejected", bytes.NewReader(append(bytes.Clone(enc), 0)), 1 << 20, nil, "trailing bytes"},
		{"a failing reader in the header returns its error", iotest.ErrReader(errBoom), 1 << 20, errBoom, "read header"},
		{"a failing reader in the payload returns its error", io.MultiReader(bytes.NewReader(enc[:40]), iotest.ErrReader(errBoom)), 1 << 20, errBoom, "pack ends after 40"},
		{"a failing reader after the payload returns its error", io.MultiReader(bytes.NewReader(enc), iotest.ErrReader(errBoom)), 1 << 20, errBoom, "read"},
		{"a bad version returns ErrVersion before reading on", bytes.NewReader([]byte("MNPK\x07\x00")), 1 << 20, ErrVersion, "version 7"},
		{"version 2 returns ErrVersion before reading on", bytes.NewReader([]byte("MNPK\x02\x00")), 1 << 20, ErrVersion, "version 2, want 1 or 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(tt.r, tt.limit)
			if err == nil || !strings.Contains(err.Error(), tt.text) || tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("Read error %v, want %v containing %q", err, tt.is, tt.text)
			}
		})
	}
}

func TestEncodeErrors(t *testing.T) {
	bad := tinyPack().Train
	bad.Labels[1] = 10
	tests := []struct {
		name    string
		p       *Pack
		version int
		text    string
	}{
		{"a nil pack is rejected", nil, Version, "needs both"},
		{"a missing test set is rejected", &Pack{Train: NewSet(0, 0)}, Version, "needs both"},
		{"a zero Set is rejected", &Pack{Train: &Set{}, Test: NewSet(0, 0)}, Version, "encode train set"},
		{"an invalid label is rejected", &Pack{Train: NewSet(0, 0), Test: bad}, Version, "encode test set: dataset: image 1 has label 10"},
		{"version 2 is not written", tinyPack(), 2, "encode: version 2, want 1 or 3"},
		{"version 4 is not written", tinyPack(), 4, "encode: version 4, want 1 or 3"},
		{"version 0 is not written", tinyPack(), 0, "encode: version 0, want 1 or 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := EncodeVersion(&buf, tt.p, tt.version)
			if err == nil || !strings.Contains(err.Error(), tt.text) {
				t.Errorf("EncodeVersion error %v, want one containing %q", err, tt.text)
			}
			if buf.Len() != 0 {
				t.Errorf("Encode wrote %d bytes before failing", buf.Len())
			}
		})
	}
}
