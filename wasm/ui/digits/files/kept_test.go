package files

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"softmaxdemo/core/modelfile"
)

// keptJSON is Kept as encoding/json read it before the record was read
// by hand: the reference of these tests.
type keptJSON struct {
	Version  int             `json:"v"`
	Model    json.RawMessage `json:"model"`
	Settings string          `json:"settings"`
}

var keptSettings = []string{"", "lr=0.5&lang=zh", "quote\" back\\slash\nline \u2028 θ 学习率 \x00 <&>", "\xff"}

// TestEncodeKeptAsEncodingJSON: the record is the bytes it was when
// encoding/json wrote its settings.
func TestEncodeKeptAsEncodingJSON(t *testing.T) {
	model := []byte(`{"format":"softmax","theta":[[1.5,-2]],"bias":[0]}`)
	for _, set := range keptSettings {
		got, err := EncodeKept(model, set)
		if err != nil {
			t.Fatal(err)
		}
		q, _ := json.Marshal(set)
		if want := `{"v":2,"model":` + string(model) + `,"settings":` + string(q) + `}`; got != want {
			t.Errorf("settings %q:\n got %s\nwant %s", set, got, want)
		}
	}
}

// keptRecords are records to read: as EncodeKept writes them, with their
// keys in another order and spaces between, with keys of a later version.
func keptRecords() []string {
	out := []string{}
	for _, set := range keptSettings {
		q, _ := json.Marshal(set)
		out = append(out,
			`{"v":2,"model":{"a":[1,2,{"b":null}],"c":"d"},"settings":`+string(q)+`}`,
			` { "settings" : `+string(q)+` , "model" : [ 1 , 2 ] , "v" : 2 } `,
			`{"v":2,"model":{},"settings":`+string(q)+`,"later":{"x":[true,false,null]}}`,
			`{"v":1,"model":"text","settings":`+string(q)+`}`,
		)
	}
	return out
}

// TestReadKeptAsEncodingJSON: ReadKept reads a record as encoding/json
// reads it, the model's bytes as they are.
func TestReadKeptAsEncodingJSON(t *testing.T) {
	for _, s := range keptRecords() {
		var want keptJSON
		jerr := json.Unmarshal([]byte(s), &want)
		k, err := ReadKept(s)
		if jerr != nil || want.Version != KeptVersion {
			if err == nil {
				t.Errorf("%s: read, encoding/json %v, version %d", s, jerr, want.Version)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if k.Version != want.Version || !bytes.Equal(k.Model, want.Model) || k.Settings != want.Settings {
			t.Errorf("%s reads as %+v, encoding/json %+v", s, k, want)
		}
	}
}

// TestReadKeptRefusesCorruption: each a clear error, modelfile.ErrFormat,
// none a panic.
func TestReadKeptRefusesCorruption(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"nothing", ``, "want an object"},
		{"truncated in the model", `{"v":2,"model":{"a":[1,`, "want a value"},
		{"a version that is text", `{"v":"2","model":{}}`, "want a number"},
		{"a fractional version", `{"v":2.5,"model":{}}`, "not an integer"},
		{"an overlong version", `{"v":1e999,"model":{}}`, "not an integer"},
		{"NaN in the model", `{"v":2,"model":[NaN]}`, "want a number"},
		{"settings that are a number", `{"v":2,"model":{},"settings":3}`, "want a string"},
		{"a key twice", `{"v":2,"v":2,"model":{}}`, `field "v" twice`},
		{"a key in another case", `{"v":2,"Model":{}}`, `which is not "model"`},
		{"a model nested too deep", `{"v":2,"model":` + strings.Repeat("[", 10000), "levels of nesting"},
		{"bytes after it", `{"v":2,"model":{}} {}`, "bytes after the value"},
		{"no model", `{"v":2}`, "without a model"},
		{"a null model", `{"v":2,"model":null}`, "without a model"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadKept(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, modelfile.ErrFormat) {
				t.Errorf("error %v, want modelfile.ErrFormat containing %q", err, tt.want)
			}
		})
	}
}

// FuzzReadKept: ReadKept never panics, and a record it reads, encoding/json
// reads too, to the same version, model bytes and settings.
func FuzzReadKept(f *testing.F) {
	for _, s := range keptRecords() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := ReadKept(s)
		if err != nil {
			return
		}
		var want keptJSON
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatalf("ReadKept reads %q, encoding/json refuses it: %v", s, err)
		}
		if k.Version != want.Version || !bytes.Equal(k.Model, want.Model) || k.Settings != want.Settings {
			t.Fatalf("%q reads as %+v, encoding/json %+v", s, k, want)
		}
	})
}
