package protocol

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"softmaxdemo/core/plane"
)

// The bodies are written and read by hand (fields.go, body.go); these
// tests hold them to encoding/json's wire form and values, which is what
// they replaced: encoding/json appears here, in the tests, and nowhere in
// the program.

// jsonFields returns a copy of the message p points to with the fields
// that travel as bulk bytes (`json:"-"`) zeroed: what its body carries.
func jsonFields(p any) any {
	v := reflect.ValueOf(p).Elem()
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	for i := range c.NumField() {
		if c.Type().Field(i).Tag.Get("json") == "-" {
			c.Field(i).SetZero()
		}
	}
	return c.Interface()
}

// pointer returns a pointer to a copy of m.
func pointer(m Msg) any {
	p := reflect.New(reflect.TypeOf(m))
	p.Elem().Set(reflect.ValueOf(m))
	return p.Interface()
}

// fill sets v, and every field of it that JSON carries, to values drawn
// from rng: zeros, small and large numbers, numbers that JSON writes with
// an exponent, strings that need escaping, nil and empty slices.
func fill(v reflect.Value, rng *rand.Rand) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).Tag.Get("json") != "-" && v.Type().Field(i).IsExported() {
				fill(v.Field(i), rng)
			}
		}
	case reflect.Pointer:
		if rng.IntN(3) == 0 {
			v.SetZero()
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), rng)
	case reflect.Slice:
		switch rng.IntN(4) {
		case 0:
			v.SetZero()
		default:
			n := rng.IntN(5)
			v.Set(reflect.MakeSlice(v.Type(), n, n))
			for i := range n {
				fill(v.Index(i), rng)
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), rng)
		}
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Int, reflect.Int64:
		v.SetInt([]int64{0, 1, -7, int64(rng.Uint64()), math.MaxInt64, math.MinInt64, 1 << 53}[rng.IntN(7)])
	case reflect.Uint8:
		v.SetUint(rng.Uint64N(256))
	case reflect.Uint64:
		v.SetUint([]uint64{0, 1, rng.Uint64(), math.MaxUint64}[rng.IntN(4)])
	case reflect.Float64, reflect.Float32:
		f := []float64{0, 1, -0.5, 1e-7, 1e21, -1e300, 5e-324, rng.NormFloat64(), rng.NormFloat64() * 1e-9, 1 / 3.0}[rng.IntN(10)]
		if v.Kind() == reflect.Float32 {
			f = float64(float32(f))
			if math.IsInf(f, 0) {
				f = 3e38
			}
		}
		v.SetFloat(f)
	case reflect.String:
		v.SetString([]string{"", "newton", "a \"quote\" \\ <b> & \u2028 \u2029 é 数字 \x01\t\n\b\f 😀", strings.Repeat("x", rng.IntN(40))}[rng.IntN(4)])
	default:
		panic("fill: no values for " + v.Type().String())
	}
}

// TestBodiesAsEncodingJSON: for every message type, the zero message and
// many filled at random have the body encoding/json writes, byte for byte;
// the body encoding/json writes reads back to the values that
// encoding/json reads from it; and so does encoding/json's reading of the
// body written here.
func TestBodiesAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, e := range messages {
		typ := reflect.TypeOf(e.zero)
		for i := range 300 {
			p := reflect.New(typ)
			if i > 0 {
				fill(p.Elem(), rng)
			}
			std, err := json.Marshal(jsonFields(p.Interface()))
			if err != nil {
				t.Fatal(err)
			}
			// the values as encoding/json brings them through
			ref := reflect.New(typ)
			if err := json.Unmarshal(std, ref.Interface()); err != nil {
				t.Fatal(err)
			}
			want := ref.Elem().Interface()
			env, _, err := Encode(p.Interface().(Msg))
			if err != nil {
				t.Fatalf("%s: %v", e.name, err)
			}
			body := strings.TrimSuffix(strings.TrimPrefix(string(env), `{"v":1,"type":"`+e.name+`","body":`), "}")
			if body != string(std) {
				t.Fatalf("%s: the body\n%s\nencoding/json's\n%s", e.name, body, std)
			}
			got, err := e.unmarshal(std)
			if err != nil {
				t.Fatalf("%s: reading encoding/json's %s: %v", e.name, std, err)
			}
			if !reflect.DeepEqual(jsonFields(pointer(got)), want) {
				t.Fatalf("%s: encoding/json's %s reads back as\n%#v\nwant\n%#v", e.name, std, got, want)
			}
			back := reflect.New(typ)
			if err := json.Unmarshal([]byte(body), back.Interface()); err != nil {
				t.Fatalf("%s: encoding/json reads %s: %v", e.name, body, err)
			}
			if !reflect.DeepEqual(jsonFields(back.Interface()), want) {
				t.Fatalf("%s: encoding/json reads %s as\n%#v\nwant\n%#v", e.name, body, back.Interface(), want)
			}
		}
	}
}

// TestStringsAsEncodingJSON: strings that are not UTF-8, or that hold
// what JSON or HTML escapes, are written as encoding/json writes them.
func TestStringsAsEncodingJSON(t *testing.T) {
	for _, s := range []string{"\xff", "a\xc3", "\xed\xa0\x80", "\u2028\u2029", "<script>&amp;</script>", "\x00\x1f\x7f", "\\\"/"} {
		m := Failed{Message: s}
		env, _, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		std, _ := json.Marshal(m)
		if !strings.Contains(string(env), string(std)) {
			t.Errorf("%q: %s, encoding/json %s", s, env, std)
		}
	}
}

// TestDecodeRefusesWhatJSONRefuses is the corruption table of the bodies:
// each a clear error, none a panic.
func TestDecodeRefusesWhatJSONRefuses(t *testing.T) {
	tests := []struct{ name, env, want string }{
		{"a truncated envelope", `{"v":1,"type":"progress","body":{"run":1`, "bad envelope"},
		{"a truncated string", `{"v":1,"type":"failed","body":{"message":"ab`, "a string without its end"},
		{"bytes after the envelope", `{"v":1,"type":"pause","body":{}} x`, "bytes after the value"},
		{"an unknown envelope key", `{"v":1,"type":"pause","body":{},"extra":1}`, `unknown field "extra"`},
		{"a version that is text", `{"v":"1","type":"pause"}`, "want a number"},
		{"a type that is a number", `{"v":1,"type":7}`, "want a string"},
		{"a string for an integer", `{"v":1,"type":"progress","body":{"run":"1"}}`, "want a number"},
		{"a fraction for an integer", `{"v":1,"type":"progress","body":{"run":1.5}}`, "1.5 is not an integer"},
		{"an exponent for an integer", `{"v":1,"type":"progress","body":{"run":1e3}}`, "1e3 is not an integer"},
		{"an integer past int64", `{"v":1,"type":"progress","body":{"run":9223372036854775808}}`, "is not an integer"},
		{"a negative heap", `{"v":1,"type":"progress","body":{"heap":-1}}`, "is not an integer from 0"},
		{"a label past 255", `{"v":1,"type":"picked","body":{"label":256}}`, "is not an integer from 0 to 255"},
		{"a float past float64", `{"v":1,"type":"pace","body":{"stepsPerSecond":1e400}}`, "beyond float64's range"},
		{"a probability past float32", `{"v":1,"type":"examples","body":{"probs":[1e39]}}`, "beyond float32's range"},
		{"NaN", `{"v":1,"type":"pace","body":{"stepsPerSecond":NaN}}`, "want a number"},
		{"Infinity", `{"v":1,"type":"planeAbove","body":{"times":Infinity}}`, "want a number"},
		{"a number with a bare point", `{"v":1,"type":"pace","body":{"stepsPerSecond":1.}}`, "without digits after its point"},
		{"a leading plus", `{"v":1,"type":"pace","body":{"stepsPerSecond":+1}}`, "want a number"},
		{"a bool that is text", `{"v":1,"type":"planeTrain","body":{"on":"true"}}`, "want true or false"},
		{"an unknown field", `{"v":1,"type":"planeTrain","body":{"on":true,"off":false}}`, `unknown field "off"`},
		{"a field twice", `{"v":1,"type":"planeTrain","body":{"on":true,"on":false}}`, `field "on" twice`},
		{"a short point", `{"v":1,"type":"planePoint","body":{"at":[1]}}`, "1 values, want 2"},
		{"a long point", `{"v":1,"type":"planePoint","body":{"at":[1,2,3]}}`, "more than 2 values"},
		{"a confusion row too short", `{"v":1,"type":"evaluated","body":{"confusion":[[1]]}}`, "a row of 1 counts"},
		{"an object for a list", `{"v":1,"type":"planeTheta","body":{"w":{}}}`, "want an array"},
		{"bad base64 labels", `{"v":1,"type":"samples","body":{"labels":"!!"}}`, "bad base64"},
		{"a string not UTF-8", "{\"v\":1,\"type\":\"failed\",\"body\":{\"message\":\"\xff\"}}", "not UTF-8"},
		{"a control character in a string", "{\"v\":1,\"type\":\"failed\",\"body\":{\"message\":\"\x01\"}}", "a control character"},
		{"a bad escape", `{"v":1,"type":"failed","body":{"message":"\q"}}`, `a bad escape \q`},
		{"a body nested too deep", `{"v":1,"type":"pause","body":` + strings.Repeat("[", 100000) + `}`, "levels of nesting"},
		{"a refusal that is a list", `{"v":1,"type":"planeState","body":{"refused":[]}}`, "want an object"},
		{"a body that is a list", `{"v":1,"type":"pause","body":[]}`, "want an object"},
		{"an unknown message", `{"v":1,"type":"planeExplode","body":{}}`, `unknown message type "planeExplode"`},
		{"an empty envelope", ``, "want an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.env), nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestNaNIsNotSent: a number JSON cannot hold is an error of Encode, as
// it was of encoding/json, and nothing is sent.
func TestNaNIsNotSent(t *testing.T) {
	for _, m := range []Msg{Progress{Loss: math.NaN()}, PlanePoint{At: [2]float64{math.Inf(1), 0}}, Examples{Probs: []float32{float32(math.Inf(-1))}}} {
		if env, _, err := Encode(m); err == nil || env != nil {
			t.Errorf("%s: %s, %v; want an error", Name(m), env, err)
		}
	}
}

// stdEnvelope is the envelope as encoding/json wrote and read it.
type stdEnvelope struct {
	V    int             `json:"v"`
	Type string          `json:"type"`
	Body json.RawMessage `json:"body"`
}

// BenchmarkBody: a Progress (sent several times a second while training)
// and a PlaneState with its points (sent whenever the plane's data
// change), envelope and body, encoded and decoded here and by
// encoding/json, which they replaced. Neither has bulk bytes.
func BenchmarkBody(b *testing.B) {
	points := make([]plane.Point, 60)
	for i := range points {
		points[i] = plane.Point{X: [2]float64{float64(i) / 7, -float64(i) / 3}, Class: i % 3}
	}
	for _, m := range []Msg{
		Progress{Run: 3, State: "training", Epoch: 2, Epochs: 5, Step: 812, Seen: 81200, PerEpoch: 10000, Loss: 0.2981, Rate: 0.5, PerSecond: 180234.5, Method: "sgd"},
		PlaneState{Setup: 2, Seq: 14, State: "training", Name: "blobs", Data: plane.Data{K: 3, Points: points}, Settings: plane.Defaults()},
	} {
		env, _, err := Encode(m)
		if err != nil {
			b.Fatal(err)
		}
		e := find(m)
		body, err := json.Marshal(m)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(e.name+"/encode/by-hand", func(b *testing.B) {
			for b.Loop() {
				if _, _, err := Encode(m); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(e.name+"/encode/encoding-json", func(b *testing.B) {
			for b.Loop() {
				body, err := json.Marshal(m)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(stdEnvelope{V: Version, Type: e.name, Body: body}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(e.name+"/decode/by-hand", func(b *testing.B) {
			for b.Loop() {
				if _, err := Decode(env, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(e.name+"/decode/encoding-json", func(b *testing.B) {
			p := reflect.New(reflect.TypeOf(m)).Interface()
			var env2 stdEnvelope
			for b.Loop() {
				if err := json.Unmarshal(env, &env2); err != nil {
					b.Fatal(err)
				}
				if err := json.Unmarshal(body, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
