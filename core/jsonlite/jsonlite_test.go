package jsonlite

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// FuzzAsEncodingJSON: a string and a float64 (and the float32 nearest
// it) are written as encoding/json writes them, and read back as
// encoding/json reads what it wrote.
func FuzzAsEncodingJSON(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "<&>", "\u2028\u2029", "\xff\xc3", "\x00\x1f\b\f\n\r\t", "数字 😀"} {
		f.Add(s, 0.0)
	}
	for _, v := range []float64{1e-7, 1e21, 1e20, math.Copysign(0, -1), 5e-324, math.MaxFloat64, 1.0 / 3, 123456789} {
		f.Add("", v)
	}
	f.Fuzz(func(t *testing.T, s string, v float64) {
		var w Writer
		w.OpenArray()
		w.Str(s)
		w.Float(v, 64)
		w.Float(float64(float32(v)), 32)
		w.CloseArray()
		std, err := json.Marshal([]any{s, v, float32(v)})
		if err != nil { // NaN, an infinity
			if w.Err == nil {
				t.Fatalf("%v written without an error", v)
			}
			return
		}
		if w.Err != nil || string(w.B) != string(std) {
			t.Fatalf("wrote %s (%v), encoding/json %s", w.B, w.Err, std)
		}
		r := Reader{B: w.B}
		var got []any
		err = r.Array(func() error {
			if len(got) == 0 {
				s, err := r.Str()
				got = append(got, s)
				return err
			}
			x, err := r.Float(64 / len(got))
			got = append(got, x)
			return err
		})
		if err == nil {
			err = r.End()
		}
		var want struct {
			S string
			F float64
			G float32
		}
		var back []json.RawMessage
		if json.Unmarshal(std, &back) != nil || json.Unmarshal(back[0], &want.S) != nil ||
			json.Unmarshal(back[1], &want.F) != nil || json.Unmarshal(back[2], &want.G) != nil {
			t.Fatalf("encoding/json does not read back %s", std)
		}
		if err != nil || got[0] != want.S || got[1] != want.F || float32(got[2].(float64)) != want.G {
			t.Fatalf("%s reads back as %v (%v), encoding/json %+v", w.B, got, err, want)
		}
	})
}

// TestReaderRefusesCorruption: each a clear error, none a panic.
func TestReaderRefusesCorruption(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		read     func(r *Reader) error
		want     string
	}{
		{"nested too deep", strings.Repeat("[", 100), func(r *Reader) error { _, err := r.Skip(); return err }, "more than 64 levels"},
		{"truncated", `[1,`, func(r *Reader) error { _, err := r.Skip(); return err }, "want a value"},
		{"NaN", `NaN`, func(r *Reader) error { _, err := r.Float(64); return err }, "want a number"},
		{"overlong float64", `1e309`, func(r *Reader) error { _, err := r.Float(64); return err }, "beyond float64's range"},
		{"overlong float32", `3.5e38`, func(r *Reader) error { _, err := r.Float(32); return err }, "beyond float32's range"},
		{"overlong integer", `99999999999999999999`, func(r *Reader) error { _, err := r.Int(math.MinInt64, math.MaxInt64); return err }, "not an integer"},
		{"a fraction for an integer", `1.0`, func(r *Reader) error { _, err := r.Uint(9); return err }, "not an integer"},
		{"a leading zero", `01`, func(r *Reader) error { _, err := r.Skip(); _ = err; return r.End() }, "bytes after the value"},
		{"bad base64", `"@@@@"`, func(r *Reader) error { _, err := r.Base64(); return err }, "bad base64"},
		{"a key twice", `{"a":1,"a":2}`, func(r *Reader) error { _, err := r.Skip(); return err }, `field "a" twice`},
		{"a key in another case", `{"A":1}`, func(r *Reader) error {
			return r.Object(func(k string) error { return r.SkipUnknown(k, "a") })
		}, `field "A", which is not "a"`},
		{"a lone backslash", `"\`, func(r *Reader) error { _, err := r.Str(); return err }, "a string without its end"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.read(&Reader{B: []byte(tt.in)}); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
