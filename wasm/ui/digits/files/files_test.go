package files

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"softmaxdemo/core/dataset"
	"softmaxdemo/core/modelfile"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/kit"
	"strings"
	"testing"
	"time"
)

// randomModel returns a 784×10 model with small random parameters.
func randomModel() *softmax.Model[float32] {
	r := rand.New(rand.NewPCG(1, 2))
	m := &softmax.Model[float32]{D: 784, W: make([]float32, 7840), B: make([]float32, 10)}
	for i := range m.W {
		m.W[i] = float32(r.NormFloat64() * 0.01)
	}
	for i := range m.B {
		m.B[i] = float32(r.NormFloat64())
	}
	return m
}

func TestModelInfoIsFilledFromTheRun(t *testing.T) {
	saved := time.Date(2026, 11, 23, 17, 30, 0, 0, time.FixedZone("CST", 8*3600))
	c := protocol.Config{LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: 5, Seed: 7, Deskew: true, MyDigitsRate: 0.1}
	pr := protocol.Progress{Run: 3, Epoch: 5, Step: 500}
	ev := &protocol.Evaluated{Run: 3, Accuracy: 0.9165}
	got := ModelInfo("sgd", c, pr, ev, "default.mnpk", 12, saved)
	want := modelfile.Info{Method: "sgd", LearningRate: 0.5, BatchSize: 100, L2: 1e-4, Epochs: 5, Steps: 500, Seed: 7,
		Dataset: "default.mnpk", Deskew: true, MyDigits: 12, MyDigitsRate: 0.1, TestAccuracy: 0.9165, Saved: "2026-11-23T09:30:00Z"}
	if got != want {
		t.Errorf("modelInfo:\n got %+v\nwant %+v", got, want)
	}
	t.Run("Newton has no α or B", func(t *testing.T) {
		c := protocol.Config{LearningRate: 0.5, BatchSize: 100, Method: "newton"}
		if i := ModelInfo("newton", c, pr, nil, "", 0, saved); i.Method != "newton" || i.LearningRate != 0 || i.BatchSize != 0 {
			t.Errorf("newton: %+v", i)
		}
	})
	t.Run("no run, no settings", func(t *testing.T) {
		if i := ModelInfo("", c, pr, ev, "", 12, saved); i.Method != "" || i.LearningRate != 0 || i.MyDigits != 0 || i.Steps != 500 {
			t.Errorf("%+v", i)
		}
	})
	t.Run("no my digits, no rate", func(t *testing.T) {
		if i := ModelInfo("sgd", c, pr, ev, "", 0, saved); i.MyDigits != 0 || i.MyDigitsRate != 0 {
			t.Errorf("%+v", i)
		}
	})
}

func TestEncodedModelsDecodeToTheSameBits(t *testing.T) {
	m := randomModel()
	info := modelfile.Info{Method: "sgd", LearningRate: 0.5, Epochs: 2, Saved: "2026-11-23T09:30:00Z"}
	for _, kind := range []string{"json", "npz"} {
		t.Run(kind, func(t *testing.T) {
			b, name, mime, err := EncodeModel(m, info, kind)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(name, "."+kind) || mime == "" {
				t.Errorf("name %q, type %q", name, mime)
			}
			f, err := modelfile.Decode(b, 784)
			if err != nil {
				t.Fatal(err)
			}
			if kit.Checksum(f.Model) != kit.Checksum(m) {
				t.Error("the decoded model differs")
			}
			if kind == "json" && f.Info != info {
				t.Errorf("info %+v, want %+v", f.Info, info)
			}
		})
	}
	t.Run("a diverged model is not saved", func(t *testing.T) {
		bad := randomModel()
		bad.W[5] = float32(math.NaN())
		if _, _, _, err := EncodeModel(bad, info, "json"); ErrKind(err) != "notFinite" {
			t.Errorf("error %v, kind %q", err, ErrKind(err))
		}
	})
}

func TestFileErrKindNamesEveryRefusal(t *testing.T) {
	good, _, _, _ := EncodeModel(randomModel(), modelfile.Info{}, "json")
	tests := []struct {
		name string
		file []byte
		want string
	}{
		{"not JSON", []byte("hello, world"), "format"},
		{"truncated", good[:len(good)/2], "truncated"},
		{"wrong format name", bytes.Replace(good, []byte(`"softmax-regression"`), []byte(`"linear-regression"`), 1), "format"},
		{"wrong version", bytes.Replace(good, []byte(`"version":2`), []byte(`"version":9`), 1), "version"},
		{"wrong shape", bytes.Replace(good, []byte(`"features":784`), []byte(`"features":783`), 1), "shape"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := modelfile.Decode(tt.file, 784)
			if err == nil {
				t.Fatal("accepted")
			}
			if got := ErrKind(err); got != tt.want {
				t.Errorf("kind %q, want %q (%v)", got, tt.want, err)
			}
		})
	}
	if got := ErrKind(modelfile.CheckSize(1 << 30)); got != "tooLarge" {
		t.Errorf("a 1 GB file: kind %q", got)
	}
	if got := ErrKind(errors.New("NotReadableError")); got != "read" {
		t.Errorf("a browser's error: kind %q", got)
	}
	for kind, key := range ErrText {
		if i18n.CatalogEN[key] == "" || i18n.CatalogZH[key] == "" {
			t.Errorf("kind %q has no text %q", kind, key)
		}
	}
}

func TestKeptDigitsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	m := protocol.Samples{Labels: []uint8{7, 1, 0}, Pixels: make([]byte, 3*784)}
	for i := range m.Pixels {
		if r.IntN(5) == 0 {
			m.Pixels[i] = uint8(r.IntN(256))
		}
	}
	s, err := EncodeDigits(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeDigits(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Labels, m.Labels) || !bytes.Equal(got.Pixels, m.Pixels) {
		t.Error("the digits changed on the way through storage")
	}
	empty, err := EncodeDigits(protocol.Samples{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := DecodeDigits(empty); err != nil || len(got.Labels) != 0 {
		t.Errorf("no digits: %v, %d", err, len(got.Labels))
	}
	for _, bad := range []string{"not base64!", s[:len(s)/2], "QUJD"} {
		if _, err := DecodeDigits(bad); err == nil {
			t.Errorf("corrupt %q accepted", bad)
		}
	}
}

// TestKeptRecordIsWhole: the kept record round-trips; every proper prefix
// of it (a write cut short) and a record of another version are refused,
// never half read.
func TestKeptRecordIsWhole(t *testing.T) {
	m := softmax.New[float32](dataset.Pixels)
	for i := range m.W {
		m.W[i] = float32(i%7) / 8
	}
	model, _, _, err := EncodeModel(m, modelfile.Info{Epochs: 2}, "json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := EncodeKept(model, "lr=0.3&seed=2")
	if err != nil {
		t.Fatal(err)
	}
	k, err := ReadKept(s)
	if err != nil {
		t.Fatal(err)
	}
	f, err := k.File()
	if err != nil {
		t.Fatal(err)
	}
	if k.Settings != "lr=0.3&seed=2" || kit.Checksum(f.Model) != kit.Checksum(m) {
		t.Errorf("round trip: settings %q, model %s, want %s", k.Settings, kit.Checksum(f.Model), kit.Checksum(m))
	}
	t.Run("proper prefixes are refused", func(t *testing.T) {
		// Every prefix near either end, and every 97th between: the
		// record is over 100 kB, and each decode reads the whole prefix.
		for n := 0; n < len(s); n++ {
			if n > 200 && n < len(s)-200 && n%97 != 0 {
				continue
			}
			if _, err := ReadKept(s[:n]); err == nil {
				t.Fatalf("the first %d of %d bytes decoded", n, len(s))
			}
		}
	})
	t.Run("another version is ErrKeptVersion", func(t *testing.T) {
		other := strings.Replace(s, `"v":2`, `"v":3`, 1)
		if _, err := ReadKept(other); !errors.Is(err, ErrKeptVersion) {
			t.Errorf("version 3: %v", err)
		}
	})
	t.Run("a record without a model is refused", func(t *testing.T) {
		if _, err := ReadKept(`{"v":2,"settings":"lr=1"}`); !errors.Is(err, modelfile.ErrFormat) {
			t.Errorf("no model: %v", err)
		}
	})
}

// TestKeptRecordAroundTheModel: the record is put together around the
// model's bytes, so settings of any characters still read back, and a
// model that is not one JSON object is refused rather than kept broken.
func TestKeptRecordAroundTheModel(t *testing.T) {
	model, _, _, err := EncodeModel(softmax.New[float32](dataset.Pixels), modelfile.Info{}, "json")
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []string{"", `lr=0.5&lang=zh`, "quote\" back\\slash\nline \u2028 θ 学习率 \x00"} {
		s, err := EncodeKept(model, set)
		if err != nil {
			t.Fatal(err)
		}
		k, err := ReadKept(s)
		if err != nil || k.Settings != set {
			t.Errorf("settings %q: read back %+v, %v", set, k, err)
			continue
		}
		if _, err := k.File(); err != nil {
			t.Errorf("settings %q: the model does not read back: %v", set, err)
		}
	}
	for _, bad := range []string{"", "  ", "[1,2]", `{"format"`, "null"} {
		if _, err := EncodeKept([]byte(bad), "lr=1"); err == nil {
			t.Errorf("model %q was kept", bad)
		}
	}
}

func BenchmarkEncodeKept(b *testing.B) {
	m := softmax.New[float32](dataset.Pixels)
	for i := range m.W {
		m.W[i] = float32(i%13)/7 - 0.9
	}
	model, _, _, err := EncodeModel(m, modelfile.Info{Epochs: 2}, "json")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := EncodeKept(model, "lr=0.5&epochs=2"); err != nil {
			b.Fatal(err)
		}
	}
}
