package browsertest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// wasmBudget is what every first visit may download of WebAssembly, with
// brotli: app.wasm and web/kernels.wasm together. `make size` says what
// each package costs; docs/network.md what a first visit downloads;
// docs/decisions/0055-the-class-in-the-program.md why it is this.
const wasmBudget = 1_900_000

// TestWasmWithinBudget adds up the shipped WebAssembly (every web/*.wasm)
// as a static host sends it with brotli: the .br copy make site wrote, or,
// where it is missing or older than the file, the brotli command's
// output at make site's settings. It fails above wasmBudget.
func TestWasmWithinBudget(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root, "web", "*.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 || !slices.Contains(files, filepath.Join(root, "web", "app.wasm")) {
		t.Fatal("web/app.wasm is missing: run `make site` first (make test does)")
	}
	total := 0
	for _, f := range files {
		n, err := brotliSize(t, f)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d B with brotli", filepath.Base(f), n)
		total += n
	}
	if total > wasmBudget {
		t.Errorf("the shipped WebAssembly is %d B with brotli, over its budget of %d B: `make size` says what it is made of", total, wasmBudget)
	}
}

// brotliSize is the size of the file at path with brotli -q 11 and a
// window of 22 bits, make site's settings for WebAssembly.
func brotliSize(t *testing.T, path string) (int, error) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	if bi, err := os.Stat(path + ".br"); err == nil && !bi.ModTime().Before(fi.ModTime()) {
		return int(bi.Size()), nil
	}
	bin, err := exec.LookPath("brotli")
	if err != nil {
		msg := "the brotli command is not installed (apt-get install -y brotli), so " + filepath.Base(path) + "'s size with brotli is unknown"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(bin, "-c", "-q", "11", "-w", "22")
	cmd.Stdin = bytes.NewReader(b)
	out, err := cmd.Output()
	return len(out), err
}
