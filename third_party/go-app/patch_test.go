// Package goapp holds the test that keeps third_party/go-app/module what
// its README says it is: go-app v10.1.11, as the Go module proxy serves
// it, with v10.1.11.patch applied, and nothing else.
package goapp

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const (
	upstream = "github.com/maxence-charriere/go-app/v10@v10.1.11"
	// upstreamSum is go.sum's hash of upstream, as it stood before the
	// replace directive: the patch applies to these bytes.
	upstreamSum = "h1:4JUSlVQ8zVIeL3acFJEpuerP6FLoEQWg6CUTtHcz7Ro="
)

// update rewrites module/ from upstream and the patch (make go-app-patch).
var update = flag.Bool("update", false, "rewrite module/ as upstream with the patch applied")

// kept reports whether the file at rel (slash-separated, in the module)
// is one the copy keeps: the module's go.mod and licence, and the
// non-test Go files of the two packages the page imports.
func kept(rel string) bool {
	switch {
	case rel == "go.mod" || rel == "LICENSE":
		return true
	case strings.HasSuffix(rel, "_test.go") || !strings.HasSuffix(rel, ".go"):
		return false
	}
	dir := filepath.ToSlash(filepath.Dir(rel))
	return dir == "pkg/app" || dir == "pkg/errors"
}

// TestModuleIsUpstreamPlusPatch downloads v10.1.11 through the module
// proxy (or takes it from the module cache), checks its hash, copies the
// kept files, applies v10.1.11.patch with git apply, and compares the
// result with module/, file by file. If it fails, run `make go-app-patch`
// (this test with -update, which rewrites module/) after changing the
// patch; module/ is never edited by hand.
func TestModuleIsUpstreamPlusPatch(t *testing.T) {
	gobin := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		gobin = "go"
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal("git is needed to apply the patch:", err)
	}
	cmd := exec.Command(gobin, "mod", "download", "-json", upstream)
	cmd.Dir = t.TempDir() // outside this module, whose replace directive would stand in
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GO111MODULE=on")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v\n%s", upstream, err, out)
	}
	var mod struct{ Dir, Sum string }
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatal(err)
	}
	if mod.Sum != upstreamSum {
		t.Fatalf("%s has hash %s, want %s", upstream, mod.Sum, upstreamSum)
	}
	work := t.TempDir()
	if err := copyKept(mod.Dir, work); err != nil {
		t.Fatal(err)
	}
	patch, err := filepath.Abs("v10.1.11.patch")
	if err != nil {
		t.Fatal(err)
	}
	apply := exec.Command(git, "apply", patch)
	apply.Dir = work
	if b, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("git apply %s: %v\n%s", patch, err, b)
	}
	want, err := files(work)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.RemoveAll("module"); err != nil {
			t.Fatal(err)
		}
		for rel, b := range want {
			path := filepath.Join("module", filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err := files("module")
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range sortedKeys(want) {
		if g, ok := got[rel]; !ok {
			t.Errorf("module/ lacks %s", rel)
		} else if !bytes.Equal(g, want[rel]) {
			t.Errorf("module/%s is not upstream's with the patch applied", rel)
		}
	}
	for _, rel := range sortedKeys(got) {
		if _, ok := want[rel]; !ok {
			t.Errorf("module/%s is neither upstream's nor the patch's", rel)
		}
	}
}

// copyKept copies the kept files of the module in src into dst.
func copyKept(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil || !kept(filepath.ToSlash(rel)) {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}

// files reads every regular file under dir, by slash-separated path.
func files(dir string) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	return out, err
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
