package dataset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// buildV3 returns a version 3 pack with the given counts, train part
// length t and payload parts, and correct checksums (the train part's over
// the first t bytes of parts), so that the decoder gets past them.
func buildV3(n0, n1, nnz0, nnz1, t uint32, parts ...byte) []byte {
	payload := binary.LittleEndian.AppendUint32(nil, t)
	payload = append(payload, 0, 0, 0, 0)
	payload = append(payload, parts...)
	b := buildVersion(3, n0, n1, nnz0, nnz1, payload...)
	if int(headerSize+partsOffset+t) <= len(b) {
		sealV3(b)
	}
	binary.LittleEndian.PutUint32(b[crcOffset:], crc32.Update(crc32.ChecksumIEEE(b[:crcOffset]), crc32.IEEETable, b[headerSize:]))
	return b
}

func TestEncodeV3Layout(t *testing.T) {
	// Worked out by hand from the table in doc.go for tinyPack.
	header := tinyHeader(3, 25) // payload length: 8 + 11 + 6
	train := []byte{
		7, 0, // labels
		2, 0, 2, 28, 1, // image 0: 2 runs, pixels 0–1 and 30
		0,           // image 1: no runs
		255, 128, 9, // grey levels
	}
	test := []byte{9, 1, 0x8f, 6, 1, 1}
	length := []byte{11, 0, 0, 0}
	trainSum := crc32.ChecksumIEEE(append(append(bytes.Clone(header), length...), train...))
	payload := append(append(binary.LittleEndian.AppendUint32(length, trainSum), train...), test...)
	checkLayout(t, 3, header, payload)
}

// TestTrainPrefix reads every prefix of version 3 packs as a download
// delivers them: TrainPrefix knows the training images' end from the 36th
// byte on, DecodeTrain gives them from that end on, and DecodeTest and
// Decode need every byte.
func TestTrainPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, p := range []*Pack{
		tinyPack(),
		{Train: strokeSet(r, 5), Test: noiseSet(r, 2)},
		{Train: NewSet(0, 0), Test: strokeSet(r, 1)},
		{Train: strokeSet(r, 2), Test: NewSet(0, 0)},
	} {
		enc := encodeVersion(t, p, 3)
		end := headerSize + partsOffset + int(binary.LittleEndian.Uint32(enc[headerSize:]))
		for n := range len(enc) + 1 {
			got, err := TrainPrefix(enc[:n])
			switch {
			case n < headerSize+4:
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("TrainPrefix of %d bytes: %d, %v, want io.ErrUnexpectedEOF", n, got, err)
				}
			case err != nil || got != end:
				t.Fatalf("TrainPrefix of %d bytes: %d, %v, want %d", n, got, err, end)
			}
			train, err := DecodeTrain(enc[:n])
			if n < end {
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("DecodeTrain of %d of %d bytes: %v, want io.ErrUnexpectedEOF", n, end, err)
				}
			} else if err != nil {
				t.Fatalf("DecodeTrain of %d bytes (the training images end at %d): %v", n, end, err)
			} else if !equalSets(train, p.Train) {
				t.Fatalf("DecodeTrain of %d bytes gives other images", n)
			}
			test, err := DecodeTest(enc[:n])
			if n < len(enc) {
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("DecodeTest of %d of %d bytes: %v, want io.ErrUnexpectedEOF", n, len(enc), err)
				}
			} else if err != nil || !equalSets(test, p.Test) {
				t.Fatalf("DecodeTest of the whole pack: %v, or other images", err)
			}
		}
	}
}

// TestVersion1HasNoTrainPrefix: version 1 interleaves the sets, so
// TrainPrefix says 0 and DecodeTrain and DecodeTest need the whole pack.
func TestVersion1HasNoTrainPrefix(t *testing.T) {
	p := tinyPack()
	enc := encodeVersion(t, p, 1)
	if n, err := TrainPrefix(enc); n != 0 || err != nil {
		t.Errorf("TrainPrefix = %d, %v, want 0, nil", n, err)
	}
	if train, err := DecodeTrain(enc); err != nil || !equalSets(train, p.Train) {
		t.Errorf("DecodeTrain of the whole pack: %v, or other images", err)
	}
	if test, err := DecodeTest(enc); err != nil || !equalSets(test, p.Test) {
		t.Errorf("DecodeTest of the whole pack: %v, or other images", err)
	}
	if _, err := DecodeTrain(enc[:len(enc)-1]); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("DecodeTrain of all but the last byte: %v, want io.ErrUnexpectedEOF", err)
	}
}

// TestVersion2IsRefused: every entry point refuses a version 2 header with
// ErrVersion, whatever follows it.
func TestVersion2IsRefused(t *testing.T) {
	b := encodeVersion(t, tinyPack(), 1)
	b[4] = 2
	for _, f := range append(slices.Clip(decoders),
		entryPoint{"TrainPrefix", func(b []byte) error { _, err := TrainPrefix(b); return err }},
		entryPoint{"Counts", func(b []byte) error { _, _, err := Counts(b); return err }},
		entryPoint{"Read", func(b []byte) error { _, err := Read(bytes.NewReader(b), 1<<20); return err }},
	) {
		for _, n := range []int{6, len(b)} {
			err := f.call(b[:n])
			if !errors.Is(err, ErrVersion) || !strings.Contains(fmt.Sprint(err), "version 2, want 1 or 3") {
				t.Errorf("%s of the first %d bytes of a version 2 pack: %v, want ErrVersion naming versions 1 and 3", f.name, n, err)
			}
		}
	}
}

func TestDecodeV3Errors(t *testing.T) {
	tiny := func(edit func(b []byte) []byte) func() []byte {
		return func() []byte {
			b := edit(encodeVersion(t, tinyPack(), 3))
			// Recompute the whole checksum, so that the decoder reaches
			// what was edited (the train part keeps its own).
			binary.LittleEndian.PutUint32(b[crcOffset:], crc32.Update(crc32.ChecksumIEEE(b[:crcOffset]), crc32.IEEETable, b[headerSize:]))
			return b
		}
	}
	const (
		trainGrey = headerSize + partsOffset + 8 // tinyPack's first grey level
		testLabel = headerSize + partsOffset + 11
	)
	tests := []struct {
		name  string
		input func() []byte
		train bool   // DecodeTrain fails too
		test  bool   // DecodeTest fails too (it decodes only the test part)
		is    error  // wanted sentinel, or
		text  string // wanted substring of a FormatError
	}{
		{"a changed training grey level returns ErrChecksum", tiny(func(b []byte) []byte { b[trainGrey]--; return b }), true, true, ErrChecksum, "training images: computed"},
		{"a changed train part checksum returns ErrChecksum", tiny(func(b []byte) []byte { b[headerSize+4]++; return b }), true, true, ErrChecksum, "the pack says"},
		{"a changed test label is found by the whole checksum", func() []byte {
			b := encodeVersion(t, tinyPack(), 3)
			b[testLabel] = 8
			return b
		}, false, true, ErrChecksum, "header says"},
		{"a test label of 10 is rejected", tiny(func(b []byte) []byte { b[testLabel] = 10; return b }), false, true, nil, "test image 0: label 10"},
		{"a payload too short for the part length is rejected", func() []byte { return buildVersion(3, 0, 0, 0, 0, 0, 0, 0) }, true, true, nil, "payload of 3 bytes, want at least 8"},
		{"a train part shorter than its counts is rejected", func() []byte { return buildV3(1, 0, 1, 0, 2, 3, 1, 0, 1) }, true, true, nil, "train part of 2 bytes, want 3 to 4"},
		{"a train part past the test part's room is rejected", func() []byte { return buildV3(1, 1, 0, 0, 3, 3, 0, 0, 4) }, true, true, nil, "train part of 3 bytes, want 2 to 2"},
		{"a training label of 10 is rejected", func() []byte { return buildV3(1, 0, 0, 0, 2, 10, 0) }, true, false, nil, "train image 0: label 10"},
		{"a zero training grey level is rejected", func() []byte { return buildV3(1, 0, 1, 0, 5, 3, 1, 0, 1, 0) }, true, false, nil, "train grey level 0 of 1 is zero"},
		{"unused train run header bytes are rejected", func() []byte { return buildV3(1, 0, 0, 0, 3, 3, 0, 0) }, true, false, nil, "1 unused bytes after the train run headers"},
		{"unused test run header bytes are rejected", func() []byte { return buildV3(0, 1, 0, 0, 0, 3, 0, 0) }, false, true, nil, "1 unused bytes after the test run headers"},
		{"test runs past pixel 784 are rejected", func() []byte { return buildV3(0, 1, 0, 2, 0, 3, 1, 0x8e, 6, 3, 5, 5) }, false, true, nil, "test image 0: run ends at pixel 785"},
	}
	seen := map[string]string{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.input()
			_, err := Decode(b)
			if err == nil {
				t.Fatal("Decode succeeded, want an error")
			}
			// check checks what the decoder what returned: an error that
			// tt describes if want, else none; true for no error.
			check := func(what string, want bool, err error) bool {
				switch {
				case want && err == nil:
					t.Errorf("%s succeeded, want an error", what)
				case want:
					msg := err.Error()
					if tt.is != nil && !errors.Is(err, tt.is) {
						t.Errorf("%s error %q does not match %v", what, msg, tt.is)
					}
					var fe FormatError
					if tt.is == nil && !errors.As(err, &fe) {
						t.Errorf("%s error %q is not a FormatError", what, msg)
					}
					if !strings.HasPrefix(msg, "dataset: ") || !strings.Contains(msg, tt.text) {
						t.Errorf("%s error %q, want it to start with \"dataset: \" and contain %q", what, msg, tt.text)
					}
				case err != nil:
					t.Errorf("%s: %v, want the intact part", what, err)
				default:
					return true
				}
				return false
			}
			check("Decode", true, err)
			if other, ok := seen[err.Error()]; ok {
				t.Errorf("Decode error %q is the same as for %q", err, other)
			}
			seen[err.Error()] = tt.name
			_, err = DecodeTest(b)
			check("DecodeTest", tt.test, err)
			train, err := DecodeTrain(b)
			if check("DecodeTrain", tt.train, err) && !equalSets(train, tinyPack().Train) && train.Len() != 0 {
				t.Error("DecodeTrain gave other training images")
			}
		})
	}
}

// FuzzDecodeV3Parts fuzzes the version 3 decoder behind correct checksums,
// which FuzzDecode's inputs seldom have: the input is the counts, the train
// part's length and the parts.
func FuzzDecodeV3Parts(f *testing.F) {
	add := func(p *Pack) {
		enc := encodeVersion(f, p, 3)
		f.Add(uint8(p.Train.Len()), uint8(p.Test.Len()), uint16(p.Train.NNZ()), uint16(p.Test.NNZ()),
			binary.LittleEndian.Uint32(enc[headerSize:]), enc[headerSize+partsOffset:])
	}
	add(tinyPack())
	r := rand.New(rand.NewPCG(1, 2))
	add(&Pack{Train: strokeSet(r, 2), Test: noiseSet(r, 1)})
	f.Fuzz(func(t *testing.T, n0, n1 uint8, nnz0, nnz1 uint16, tl uint32, parts []byte) {
		b := buildV3(uint32(n0), uint32(n1), uint32(nnz0), uint32(nnz1), tl, parts...)
		p, err := Decode(b)
		train, terr := DecodeTrain(b)
		test, serr := DecodeTest(b)
		if err != nil {
			var fe FormatError
			if !errors.As(err, &fe) && !errors.Is(err, ErrChecksum) {
				t.Fatalf("Decode error %v is of no documented kind", err)
			}
			if terr == nil && serr == nil {
				t.Fatalf("Decode error %v, but DecodeTrain and DecodeTest succeed", err)
			}
			if terr == nil {
				if err := train.Validate(); err != nil {
					t.Fatalf("DecodeTrain accepted an invalid set: %v", err)
				}
			}
			return
		}
		if terr != nil || serr != nil || !equalSets(train, p.Train) || !equalSets(test, p.Test) {
			t.Fatalf("Decode succeeds, but DecodeTrain: %v, DecodeTest: %v, or they give other images", terr, serr)
		}
		for _, s := range []*Set{p.Train, p.Test} {
			if err := s.Validate(); err != nil {
				t.Fatalf("Decode accepted an invalid set: %v", err)
			}
		}
		q, err := Decode(encodeVersion(t, p, 3))
		if err != nil {
			t.Fatalf("Decode of a re-encoded pack: %v", err)
		}
		checkPacksEqual(t, q, p)
	})
}

func TestCounts(t *testing.T) {
	enc := encodeVersion(t, tinyPack(), 3)
	if n0, n1, err := Counts(enc[:headerSize]); n0 != 2 || n1 != 1 || err != nil {
		t.Errorf("Counts of tinyPack's header = %d, %d, %v, want 2, 1, nil", n0, n1, err)
	}
	if _, _, err := Counts(enc[:headerSize-1]); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("Counts of a short header: %v, want io.ErrUnexpectedEOF", err)
	}
	enc[4] = 9
	if _, _, err := Counts(enc); !errors.Is(err, ErrVersion) {
		t.Errorf("Counts of a version 9 header: %v, want ErrVersion", err)
	}
}
