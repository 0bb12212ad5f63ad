package dataset

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// v2Payload returns the payload of the version 2 encoding of tinyPack and
// the offset of its coded stream.
func v2Payload(t *testing.T) ([]byte, int) {
	t.Helper()
	enc := encodeVersion(t, tinyPack(), 2)
	payload := bytes.Clone(enc[headerSize:])
	var ts tables
	rest, _, err := parseTables(&ts, make([]uint16, tableSymbols), payload)
	if err != nil {
		t.Fatal(err)
	}
	return payload, len(payload) - len(rest)
}

// tinyV2 returns a version 2 pack with tinyPack's counts, the given payload
// and a correct checksum.
func tinyV2(payload []byte) []byte { return buildVersion(2, 2, 1, 3, 1, payload...) }

func TestDecodeV2Errors(t *testing.T) {
	payload, stream := v2Payload(t)
	edit := func(f func(p []byte) []byte) func() []byte {
		return func() []byte { return tinyV2(f(bytes.Clone(payload))) }
	}
	tests := []struct {
		name  string
		input func() []byte
		is    error  // wanted sentinel, or
		text  string // wanted substring of a FormatError
	}{
		{"wrong magic is rejected", func() []byte { b := tinyV2(payload); b[3] = 'Q'; return b }, nil, `magic "MNPQ"`},
		{"version 4 returns ErrVersion", func() []byte { b := tinyV2(payload); b[4] = 4; return b }, ErrVersion, "version 4"},
		{"a truncated header returns ErrUnexpectedEOF", func() []byte { return tinyV2(payload)[:20] }, io.ErrUnexpectedEOF, "header is 20 bytes"},
		{"a truncated file returns ErrUnexpectedEOF", func() []byte { b := tinyV2(payload); return b[:len(b)-1] }, io.ErrUnexpectedEOF, "header says"},
		{"a changed stream byte returns ErrChecksum", func() []byte { b := tinyV2(payload); b[len(b)-1] ^= 0x10; return b }, ErrChecksum, "computed"},
		{"a stream cut short returns ErrStream", edit(func(p []byte) []byte { return p[:len(p)-1] }), ErrStream, "coded stream"},
		{"a stream of 3 bytes returns ErrStream", edit(func(p []byte) []byte { return p[:stream+3] }), ErrStream, "3 bytes, want at least 4"},
		{"a byte after the stream returns ErrStream", edit(func(p []byte) []byte { return append(p, 0) }), ErrStream, "1 unused bytes"},
		{"a flipped bit in the coder's state returns ErrStream", edit(func(p []byte) []byte { p[stream+3] ^= 1; return p }), ErrStream, "coded stream"},
		{"a flipped bit in the coded symbols returns ErrStream", edit(func(p []byte) []byte { p[len(p)-1] ^= 0x40; return p }), ErrStream, "coded stream"},
		{"a table not summing to 4096 is rejected", edit(func(p []byte) []byte { p[2]++; return p }), nil, "label table 0: frequencies sum to"},
		{"a frequency above the cap is rejected", edit(func(p []byte) []byte {
			return append([]byte{1, 0, 0x80, 0x20}, p[4:]...) // one label of frequency 4096
		}), nil, "frequency 4096, want 1..4064"},
		{"a symbol past the alphabet is rejected", edit(func(p []byte) []byte { return append([]byte{1, 10, 1}, p[3:]...) }), nil, "symbol 10, want below 10"},
		{"a payload shorter than the tables is rejected", func() []byte { return tinyV2(make([]byte, nTables+3)) }, nil, "want at least"},
		{"counts too large for the payload are rejected", func() []byte { return buildVersion(2, 1000, 0, 500_000, 0, payload...) }, nil, "more than a payload of"},
		{"fewer non-zero pixels than coded are rejected", func() []byte { return buildVersion(2, 2, 1, 2, 1, payload...) }, nil, "more non-zero pixels than the header declares"},
		{"more non-zero pixels than coded are rejected", func() []byte { return buildVersion(2, 2, 1, 4, 1, payload...) }, nil, "hold 3 non-zero pixels, header declares 4"},
		{"more images than coded return ErrStream", func() []byte { return buildVersion(2, 2, 2, 3, 1, payload...) }, ErrStream, "coded stream"},
	}
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
		})
	}
}

func TestEncodeV2IsDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	p := &Pack{Train: strokeSet(r, 50), Test: noiseSet(r, 5)}
	if a, b := encodeVersion(t, p, 2), encodeVersion(t, p, 2); !bytes.Equal(a, b) {
		t.Error("two encodings of the same pack differ")
	}
}

func TestEncodeV2StaysWithinTheCountBound(t *testing.T) {
	// The images that code in the fewest bits: all 255 or all zero, the
	// same label. Decode must accept what Encode writes.
	for _, px := range [][]uint8{filled(255), filled(0)} {
		s := NewSet(2000, Pixels)
		for range 2000 {
			s.Append(3, px)
		}
		testRoundTrip(t, &Pack{Train: s, Test: NewSet(0, 0)}, 2)
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name   string
		counts []uint32
	}{
		{"one symbol gives the rest to the next", []uint32{0, 0, 5}},
		{"a rare symbol keeps frequency 1", []uint32{1_000_000, 1, 0}},
		{"a dominant symbol is capped", []uint32{1 << 30, 3, 3, 3}},
		{"even counts", []uint32{7, 7, 7, 7, 7, 7, 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := normalize(tt.counts)
			sum := 0
			for s, v := range f {
				sum += int(v)
				if v > maxFreq || (tt.counts[s] != 0 && v == 0) {
					t.Errorf("symbol %d: count %d, frequency %d", s, tt.counts[s], v)
				}
			}
			if sum != probScale {
				t.Errorf("frequencies %v sum to %d, want %d", f, sum, probScale)
			}
		})
	}
	if normalize([]uint32{0, 0}) != nil {
		t.Error("an unused table has frequencies")
	}
}

// FuzzDecodeV2Stream fuzzes the version 2 decoder behind a correct header
// and checksum, which FuzzDecode's inputs seldom have: the input is the
// payload, for tinyPack's counts or the counts in its first bytes.
func FuzzDecodeV2Stream(f *testing.F) {
	enc := encodeVersion(f, tinyPack(), 2)
	f.Add(uint8(2), uint8(1), uint16(3), uint16(1), enc[headerSize:])
	r := rand.New(rand.NewPCG(1, 2))
	p := &Pack{Train: strokeSet(r, 2), Test: noiseSet(r, 1)}
	enc = encodeVersion(f, p, 2)
	f.Add(uint8(2), uint8(1), uint16(p.Train.NNZ()), uint16(p.Test.NNZ()), enc[headerSize:])
	f.Fuzz(func(t *testing.T, n0, n1 uint8, nnz0, nnz1 uint16, payload []byte) {
		p, err := Decode(buildVersion(2, uint32(n0), uint32(n1), uint32(nnz0), uint32(nnz1), payload...))
		if err != nil {
			var fe FormatError
			if !errors.As(err, &fe) && !errors.Is(err, ErrStream) {
				t.Fatalf("Decode error %v is of no documented kind", err)
			}
			return
		}
		for _, s := range []*Set{p.Train, p.Test} {
			if err := s.Validate(); err != nil {
				t.Fatalf("Decode accepted an invalid set: %v", err)
			}
		}
		q, err := Decode(encodeVersion(t, p, 2))
		if err != nil {
			t.Fatalf("Decode of a re-encoded pack: %v", err)
		}
		checkPacksEqual(t, q, p)
	})
}
