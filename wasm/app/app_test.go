//go:build !(js && wasm)

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"softmaxdemo/wasm/ui/i18n"
	"testing"
)

func TestCanonicalHTMLSortsAttributes(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"attributes in any order", `<span id="a" class="b" data-x="1">t</span>`, `<span class="b" data-x="1" id="a">t</span>`},
		{"a bare attribute", `<input value="1" disabled type="text">`, `<input disabled type="text" value="1">`},
		{"a self-closing tag", `<meta name="a" content="b" />`, `<meta content="b" name="a"/>`},
		{"quoted text with spaces and brackets", `<p title="a > b" id="x">`, `<p id="x" title="a > b">`},
		{"tags without attributes are untouched", `<div><p>x</p></div>`, `<div><p>x</p></div>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(canonicalHTML([]byte(tt.in))); got != tt.want {
				t.Errorf("got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestIndexHTMLIsCurrent regenerates the static site and compares its
// index.html with the committed one. If it fails, run `make site` and
// commit index.html.
func TestIndexHTMLIsCurrent(t *testing.T) {
	out := t.TempDir()
	t.Chdir("../..")
	if err := run([]string{"-out", out}); err != nil {
		t.Fatal(err)
	}
	got := sameFile(t, filepath.Join(out, "index.html"), "index.html", "index.html is out of date: run `make site` and commit it")
	for _, s := range [][]byte{[]byte(`src="http`), []byte(`href="http`)} {
		if bytes.Contains(got, s) {
			t.Errorf("index.html loads something from another host (%s)", s)
		}
	}
	// A bare link opens the lesson (wasm/ui/chapters.go), so the page
	// a browser shows before the program runs is its first chapter: the
	// status, the lesson's bar, the chapter's text in both languages and
	// its still picture.
	for _, id := range []string{"status", "error", "lesson-toggle", "lesson", "lesson-next", "chapter-title", "chapter-title-twin", "lesson-digit", "lesson-strip"} {
		if !bytes.Contains(got, []byte(`id="`+id+`"`)) {
			t.Errorf("the page has no element with id %q", id)
		}
	}
	for _, s := range []string{`data-chapter-id="task"`, `data-chapter="1"`, `src="data:image/png;base64,`, "<math", i18n.ZH.T("lesson.task.title"), i18n.EN.T("lesson.task.title")} {
		if !bytes.Contains(got, []byte(s)) {
			t.Errorf("the first chapter lacks %.60q", s)
		}
	}
}

// TestKernelsWasmIsCurrent: web/kernels.wasm is committed; it must be what
// wat2wasm makes of web/kernels.wat.
func TestKernelsWasmIsCurrent(t *testing.T) {
	bin := needProgram(t, "wat2wasm", "wabt", "check web/kernels.wasm")
	out := filepath.Join(t.TempDir(), "kernels.wasm")
	if b, err := exec.Command(bin, "../../web/kernels.wat", "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("wat2wasm: %v\n%s", err, b)
	}
	sameFile(t, out, "../../web/kernels.wasm", "web/kernels.wasm is not web/kernels.wat assembled: run `make site` and commit it")
}

// sameFile reports stale, how to bring the committed file up to date,
// unless the file just made holds what the committed one does; it returns
// what was made.
func sameFile(t *testing.T, made, committed, stale string) []byte {
	t.Helper()
	got, err := os.ReadFile(made)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error(stale)
	}
	return got
}
