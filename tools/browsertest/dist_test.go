package browsertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDistUnderPrefix builds the deployable site with `make dist` under a
// sub-path, as the GitHub Pages workflow does, serves its parent directory,
// and trains in it: every file the page asks for must be under the prefix,
// or it is not found and the page never gets ready.
func TestDistUnderPrefix(t *testing.T) {
	needBrowser(t)
	parent := t.TempDir()
	const prefix = "/softmax-demo"
	dist := filepath.Join(parent, strings.TrimPrefix(prefix, "/"))
	cmd := exec.Command("make", "--no-print-directory", "dist", "DIST="+dist, "PREFIX="+prefix)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make dist: %v\n%s", err, out)
	}
	for _, f := range []string{"index.html", "app.js", "app-worker.js", "manifest.webmanifest", "web/app.wasm", "web/worker.js", "web/data/default.mnpk", "web/data/manifest.json"} {
		if _, err := os.Stat(filepath.Join(dist, f)); err != nil {
			t.Errorf("dist lacks %s", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dist, "web/app.wasm.gz")); err != nil {
		t.Error("dist is not precompressed: no web/app.wasm.gz")
	}
	index, err := os.ReadFile(filepath.Join(dist, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(index), `src="`+prefix+`/web/boot.js"`) {
		t.Errorf("dist/index.html does not load its scripts under %s", prefix)
	}
	log := &requestLog{}
	srv := startServerWith(t, parent, log)
	ctx := openReady(t, strings.TrimSuffix(srv.URL, "/")+prefix+"/")
	setField(t, ctx, "epochs", "1")
	trainRun(t, ctx, 60*time.Second)
	for _, line := range log.take() {
		if strings.Contains(line, " 404 ") || strings.Contains(line, "HEAD ") {
			t.Errorf("under %s the page asked for a missing file or probed one: %s", prefix, line)
		}
	}
	// Without FULL=1 the full pack is left out, and so out of the manifest:
	// the page offers exactly the manifest's packs.
	man, err := os.ReadFile(filepath.Join(dist, "web/data/manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(man), "full.mnpk") {
		t.Errorf("dist's manifest lists the full pack, which dist leaves out:\n%s", man)
	}
	if n, err := eval[int](ctx, `document.querySelectorAll("#dataset option").length`); err != nil || n != 1 {
		t.Errorf("the page offers %d packs (%v), want the default one only", n, err)
	}
}
