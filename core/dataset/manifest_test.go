package dataset

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
)

// manifests returns manifests to read: none, an empty one, the site's own
// and many drawn at random.
func manifests(t testing.TB) []Manifest {
	out := []Manifest{{}, {Version: 1, Packs: []PackInfo{}}}
	if b, err := os.ReadFile("../../web/data/manifest.json"); err == nil {
		var m Manifest
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	str := func() string {
		return []string{"", "default", "web/data/full.mnpk", "10,000 train / 2,000 test", "a \"<&>\" \u2028 数字 \x01"}[rng.IntN(5)]
	}
	num := func() int64 { return []int64{0, 1, -1, math.MaxInt64, math.MinInt64, rng.Int64()}[rng.IntN(6)] }
	for range 300 {
		m := Manifest{Version: int(num())}
		if n := rng.IntN(4); n > 0 {
			m.Packs = make([]PackInfo, n-1)
			for i := range m.Packs {
				m.Packs[i] = PackInfo{Name: str(), File: str(), Title: str(), Train: int(num()), Test: int(num()),
					Bytes: num(), GzipBytes: num(), SHA256: str(), TrainBytes: num(), TrainSHA256: str()}
			}
		}
		out = append(out, m)
	}
	return out
}

// TestReadManifestAsEncodingJSON: what encoding/json writes of a
// manifest, ReadManifest reads as encoding/json reads it.
func TestReadManifestAsEncodingJSON(t *testing.T) {
	for _, m := range manifests(t) {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var want Manifest
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		got, err := ReadManifest(b)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s reads as\n%#v\nwant\n%#v", b, got, want)
		}
	}
}

// TestReadManifestSkipsNewKeys: keys a newer manifest may add are
// skipped, whatever their values.
func TestReadManifestSkipsNewKeys(t *testing.T) {
	got, err := ReadManifest([]byte(`{"version":1,"mirrors":[{"a":[1,{"b":null}]}],"packs":[{"name":"default","train":5,"colour":"red"}]}`))
	if err != nil || got.Version != 1 || len(got.Packs) != 1 || got.Packs[0].Name != "default" || got.Packs[0].Train != 5 {
		t.Errorf("%#v, %v", got, err)
	}
}

// TestReadManifestRefusesCorruption: each a clear error, none a panic.
func TestReadManifestRefusesCorruption(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"nothing", ``, "want an object"},
		{"truncated", `{"version":1,"packs":[{"name":"def`, "a string without its end"},
		{"a list", `[]`, "want an object"},
		{"a version that is text", `{"version":"1"}`, "want a number"},
		{"a fractional size", `{"packs":[{"bytes":1.5}]}`, "1.5 is not an integer"},
		{"a size past int64", `{"packs":[{"bytes":99999999999999999999}]}`, "is not an integer"},
		{"NaN", `{"packs":[{"train":NaN}]}`, "want a number"},
		{"a name that is a number", `{"packs":[{"name":7}]}`, "want a string"},
		{"packs that are an object", `{"packs":{}}`, "want an array"},
		{"a key twice", `{"version":1,"version":2}`, `field "version" twice`},
		{"a key in another case", `{"Version":1}`, `field "Version", which is not "version"`},
		{"a pack's key in another case", `{"packs":[{"SHA256":"ab"}]}`, `which is not "sha256"`},
		{"bytes after it", `{"version":1}{}`, "bytes after the value"},
		{"nested too deep", `{"x":` + strings.Repeat("[", 1000) + `}`, "levels of nesting"},
		{"a string not UTF-8", "{\"packs\":[{\"name\":\"\xff\"}]}", "not UTF-8"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ReadManifest([]byte(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "manifest: ") {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// FuzzReadManifest: ReadManifest never panics, and what it reads,
// encoding/json reads too, to the same manifest.
func FuzzReadManifest(f *testing.F) {
	for _, m := range manifests(f)[:20] {
		b, _ := json.Marshal(m)
		f.Add(b)
	}
	f.Add([]byte(`{"version":1,"extra":{"a":[1,2,"x"]},"packs":[{"name":"a","Name":"b"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := ReadManifest(b)
		if err != nil {
			return
		}
		var want Manifest
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("ReadManifest reads %q, encoding/json refuses it: %v", b, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q reads as\n%#v\nencoding/json\n%#v", b, got, want)
		}
	})
}
