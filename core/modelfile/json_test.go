package modelfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"softmaxdemo/core/softmax"
)

var info = Info{Method: "sgd", LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: 5, Seed: 1,
	Dataset: "default", TestAccuracy: 0.9161, Saved: "2026-11-23T17:00:00Z"}

func TestJSONRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, d := range []int{1, 2, 784} {
		m := randomModel(r, d)
		b := encodeJSON(t, m, info)
		f, err := Decode(b, 0)
		if err != nil {
			t.Fatalf("d=%d: %v", d, err)
		}
		if !sameBits(f.Model, m) {
			t.Errorf("d=%d: the model changed on the way through JSON", d)
		}
		if f.Info != info || f.Format != "json" || f.Version != 2 {
			t.Errorf("d=%d: got %+v, format %s version %d", d, f.Info, f.Format, f.Version)
		}
		if !json.Valid(b) {
			t.Errorf("d=%d: the file is not valid JSON", d)
		}
	}
}

// TestJSONEncoderSteps: the encoder writes a class's weights a step,
// then the biases, K+1 steps in all, each ending a well-formed prefix of
// the file; the model changed after the encoder was made, as a run's next
// report changes it, does not change what it writes.
func TestJSONEncoderSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	m := randomModel(r, 784)
	want := encodeJSON(t, m, info)
	e, err := NewJSONEncoder(m, info)
	if err != nil {
		t.Fatal(err)
	}
	m.W[0], m.B[softmax.K-1] = 42, -42
	steps, last := 0, 0
	for more := true; more; steps++ {
		more = e.Step()
		n := len(e.Bytes())
		if n <= last || !bytes.Equal(e.Bytes(), want[:n]) {
			t.Fatalf("step %d wrote bytes %d to %d, not the file's", steps, last, n)
		}
		last = n
	}
	if steps != softmax.K+1 || !bytes.Equal(e.Bytes(), want) {
		t.Errorf("%d steps wrote %d bytes, want %d steps and the %d bytes EncodeJSON writes", steps, last, softmax.K+1, len(want))
	}
	if e.Step() || len(e.Bytes()) != len(want) {
		t.Error("a step after the last wrote more")
	}
	bad := &softmax.Model[float32]{D: 1, W: make([]float32, softmax.K), B: make([]float32, softmax.K)}
	bad.W[3] = float32(nanValue())
	if _, err := NewJSONEncoder(bad, info); !errors.Is(err, ErrNotFinite) {
		t.Errorf("an encoder for a model with a NaN: %v, want ErrNotFinite", err)
	}
}

func TestJSONLayout(t *testing.T) {
	m := softmax.New[float32](2)
	m.W[0*softmax.K+3] = 0.5 // θ[3][0]
	m.W[1*softmax.K+3] = -2  // θ[3][1]
	m.B[9] = 1e-45
	got := string(encodeJSON(t, m, Info{Seed: 7}))
	want := `{"format":"softmax-regression","version":2,"features":2,"classes":10,
"training":{"lr":0,"batch":0,"l2":0,"epochs":0,"seed":7,"deskew":false},
"theta":[
[0,0],
[0,0],
[0,0],
[0.5,-2],
[0,0],
[0,0],
[0,0],
[0,0],
[0,0],
[0,0]],
"bias":[0,0,0,0,0,0,0,0,0,1e-45]}`
	if got != want {
		t.Errorf("EncodeJSON wrote\n%s\nwant\n%s", got, want)
	}
}

func TestReadsVersion1(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	m := randomModel(r, 784)
	old, err := json.Marshal(m) // softmax.Model's MarshalJSON: "softmax-regression/v1"
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(old), `"format":"softmax-regression/v1"`) {
		t.Fatalf("softmax's JSON is not version 1: %.80s", old)
	}
	f, err := Decode(old, 784)
	if err != nil {
		t.Fatal(err)
	}
	if !sameBits(f.Model, m) || f.Version != 1 || f.Info != (Info{}) {
		t.Errorf("version 1 read back differently (version %d, info %+v)", f.Version, f.Info)
	}
}

// jsonModel returns a version 2 JSON model of d features with small
// values, for editing into bad files.
func jsonModel(t *testing.T, d int) string {
	return string(encodeJSON(t, trainedLike(rand.New(rand.NewPCG(1, 2)), d), info))
}

func TestDecodeJSONErrors(t *testing.T) {
	good := jsonModel(t, 3)
	edit := func(old, new string) func() []byte {
		return func() []byte {
			if !strings.Contains(good, old) {
				t.Fatalf("%q is not in the file", old)
			}
			return []byte(strings.Replace(good, old, new, 1))
		}
	}
	const theta = "\"theta\":[\n["
	tests := []struct {
		name     string
		input    func() []byte
		features int
		is       error
		text     string
	}{
		{"text that is not JSON is ErrFormat", func() []byte { return []byte("hello") }, 0, ErrFormat, "not JSON"},
		{"a JSON array is ErrFormat", func() []byte { return []byte("[1,2]") }, 0, ErrFormat, "field"},
		{"a JSON object without a format is ErrFormat", func() []byte { return []byte(`{"a":1}`) }, 0, ErrFormat, `no "format" field`},
		{"a truncated file is ErrTruncated", func() []byte { return []byte(good[:len(good)/2]) }, 0, ErrTruncated, "the JSON ends after"},
		{"an empty file is ErrTruncated", func() []byte { return nil }, 0, ErrTruncated, "ends after 0 bytes"},
		{"data after the model is ErrFormat", func() []byte { return []byte(good + "{}") }, 0, ErrFormat, "more than one model"},
		{"another format name is ErrFormat", edit(`"softmax-regression"`, `"linear-regression"`), 0, ErrFormat, `format "linear-regression"`},
		{"version 3 is ErrVersion", edit(`"version":2`, `"version":3`), 0, ErrVersion, "version 3, this code reads 1 and 2"},
		{"no version is ErrVersion", edit(`"version":2,`, ``), 0, ErrVersion, "no version"},
		{"format v7 is ErrVersion", edit(`"softmax-regression"`, `"softmax-regression/v7"`), 0, ErrVersion, `"softmax-regression/v7"`},
		{"a version that is a string is ErrFormat", edit(`"version":2`, `"version":"2"`), 0, ErrFormat, `field "version"`},
		{"783 features where 784 are needed is ErrShape", func() []byte { return []byte(jsonModel(t, 783)) }, 784, ErrShape, "783 features, want 784 (28×28 pixels)"},
		{"9 classes are ErrShape", edit(`"classes":10`, `"classes":9`), 0, ErrShape, "9 classes"},
		{"9 rows of theta are ErrShape", func() []byte {
			i := strings.Index(good, theta) + len(theta) - 1
			j := strings.Index(good[i:], "\n") + i + 1
			return []byte(good[:i] + good[j:])
		}, 0, ErrShape, "theta has 9 rows, want 10"},
		{"a ragged row is ErrShape", edit(theta, theta+"0.5,"), 0, ErrShape, "row 0 of theta has more entries"},
		{"a short row is ErrShape", func() []byte {
			i := strings.Index(good, theta) + len(theta)
			j := strings.Index(good[i:], ",") + i + 1
			return []byte(good[:i] + good[j:])
		}, 0, ErrShape, "row 0 of theta has 2 numbers, want 3"},
		{"11 biases are ErrShape", edit(`"bias":[`, `"bias":[1,`), 0, ErrShape, "bias has more entries"},
		{"a string weight is ErrFormat", edit(theta, theta+`"x",`), 0, ErrFormat, "θ[0][0] is not a number"},
		{"a null bias is ErrFormat", edit(`"bias":[`, `"bias":[null,`), 0, ErrFormat, "b[0] is not a number"},
		{"a NaN weight is ErrNotFinite", edit(theta, theta+`"NaN",`), 0, ErrNotFinite, "θ[0][0] is NaN"},
		{"an Infinity weight is ErrNotFinite", edit(theta, theta+`"Infinity",`), 0, ErrNotFinite, "θ[0][0] is Infinity"},
		{"a -Infinity bias is ErrNotFinite", edit(`"bias":[`, `"bias":["-Infinity",`), 0, ErrNotFinite, "b[0] is -Infinity"},
		{"a weight beyond float32 is ErrNotFinite", edit(theta, theta+`1e39,`), 0, ErrNotFinite, "θ[0][0] is 1e39, beyond float32"},
		{"a huge declared shape is ErrTooLarge", edit(`"features":3`, `"features":1000000000`), 0, ErrTooLarge, "1000000000 features"},
		{"zero features are ErrShape", edit(`"features":3`, `"features":0`), 0, ErrShape, "0 features"},
		{"no theta is ErrFormat", edit(`"theta"`, `"thetas"`), 0, ErrFormat, `no "theta"`},
		{"a file over the size limit is ErrTooLarge", func() []byte { return make([]byte, MaxBytes+1) }, 0, ErrTooLarge, "more than the limit"},
	}
	seen := refusals{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(tt.input(), tt.features)
			seen.check(t, tt.name, err, tt.is, tt.text)
		})
	}
}

// refusals checks Decode's refusals of bad files, keeping each message
// and the case that gave it: every refusal wraps its sentinel, starts with
// "modelfile: ", contains its text, ends in neither a period nor a space,
// and differs from every other case's message.
type refusals map[string]string

func (seen refusals) check(t *testing.T, name string, err, is error, text string) {
	t.Helper()
	if err == nil {
		t.Fatal("Decode succeeded, want an error")
	}
	msg := err.Error()
	if !errors.Is(err, is) {
		t.Errorf("error %q does not match %v", msg, is)
	}
	if !strings.HasPrefix(msg, "modelfile: ") || !strings.Contains(msg, text) {
		t.Errorf("error %q, want it to start with \"modelfile: \" and contain %q", msg, text)
	}
	if strings.HasSuffix(msg, ".") || msg != strings.TrimSpace(msg) {
		t.Errorf("error %q ends with a period or space", msg)
	}
	if other, ok := seen[msg]; ok {
		t.Errorf("error %q is the same as for %q", msg, other)
	}
	seen[msg] = name
}

func TestJSONPrefixesAreTruncated(t *testing.T) {
	b := encodeJSON(t, trainedLike(rand.New(rand.NewPCG(1, 2)), 3), info)
	for n := range len(b) {
		_, err := Decode(b[:n], 0)
		if !errors.Is(err, ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("the first %d of %d bytes: %v, want ErrTruncated", n, len(b), err)
		}
	}
}

func TestRead(t *testing.T) {
	b := encodeJSON(t, trainedLike(rand.New(rand.NewPCG(1, 2)), 784), info)
	errBoom := errors.New("boom")
	tests := []struct {
		name  string
		r     io.Reader
		limit int64
		is    error
	}{
		{"a model within the limit is read", bytes.NewReader(b), int64(len(b)), nil},
		{"a model over the limit is ErrTooLarge", bytes.NewReader(b), int64(len(b) - 1), ErrTooLarge},
		{"a read error is returned", io.MultiReader(bytes.NewReader(b[:100]), iotest.ErrReader(errBoom)), 1 << 20, errBoom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(tt.r, tt.limit, 784)
			if (tt.is == nil) != (err == nil) || tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("Read: %v, want %v", err, tt.is)
			}
		})
	}
	t.Run("a gigabyte stream is refused after at most the limit", func(t *testing.T) {
		r := &countingReader{n: 1 << 30}
		if _, err := Read(r, 1<<20, 784); !errors.Is(err, ErrTooLarge) {
			t.Errorf("Read: %v, want ErrTooLarge", err)
		}
		if r.read > 1<<20+1 {
			t.Errorf("Read read %d bytes of a limit of %d", r.read, 1<<20)
		}
	})
}

// countingReader is n bytes of spaces that counts what was read.
type countingReader struct{ n, read int64 }

func (r *countingReader) Read(p []byte) (int, error) {
	if r.read >= r.n {
		return 0, io.EOF
	}
	k := min(int64(len(p)), r.n-r.read)
	for i := range k {
		p[i] = ' '
	}
	r.read += k
	return int(k), nil
}

func TestEncodeRefusesBadModels(t *testing.T) {
	nan := softmax.New[float32](2)
	nan.W[5] = float32(nanValue())
	tests := []struct {
		name string
		m    *softmax.Model[float32]
		is   error
	}{
		{"a nil model is ErrShape", nil, ErrShape},
		{"a ragged model is ErrShape", &softmax.Model[float32]{D: 3, W: make([]float32, 20), B: make([]float32, 10)}, ErrShape},
		{"a NaN weight is ErrNotFinite", nan, ErrNotFinite},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, enc := range map[string]func(io.Writer) error{
				"json": func(w io.Writer) error { return EncodeJSON(w, tt.m, Info{}) },
				"npz":  func(w io.Writer) error { return EncodeNPZ(w, tt.m) },
			} {
				var buf bytes.Buffer
				if err := enc(&buf); !errors.Is(err, tt.is) || buf.Len() != 0 {
					t.Errorf("%s: %v after %d bytes, want %v and nothing written", name, err, buf.Len(), tt.is)
				}
			}
		})
	}
}
