package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// watchScript runs web/boot.js's softmaxWatchProgram under Node on each
// case of cases.json: the bytes are streamed in the chunks given, one per
// pull, and it prints how many bytes had been handed over when soon() was
// called, and how many times it was (-1 if never).
const watchScript = `
const fs = require("fs");
const src = fs.readFileSync(process.argv[2], "utf8");
const start = src.indexOf("globalThis.softmaxWatchProgram = ");
const end = src.indexOf("\n};\n", start);
if (start < 0 || end < 0) throw new Error("softmaxWatchProgram not found in boot.js");
eval(src.slice(start, end + 3));
const cases = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
(async () => {
  const out = [];
  for (const c of cases) {
    const bytes = Buffer.from(c.bytes || "", "base64");
    let given = 0, k = 0, at = -1, calls = 0;
    const body = new ReadableStream({
      pull(ctl) {
        if (c.failAt >= 0 && given >= c.failAt) return ctl.error(new Error("connection reset"));
        if (given >= bytes.length) return ctl.close();
        const n = Math.min(c.chunks[k++ % c.chunks.length], bytes.length - given);
        ctl.enqueue(new Uint8Array(bytes.subarray(given, given + n)));
        given += n;
      },
    }, { highWaterMark: 0 });
    await softmaxWatchProgram(new Response(body), () => { calls++; if (at < 0) at = given; });
    out.push({ at, calls });
  }
  console.log(JSON.stringify(out));
})();
`

// needProgram returns the path of the program name. Where it is missing it
// skips the test, which could not do what without it, or fails it under
// CI=true; the message names the Debian package pkg that installs it.
func needProgram(t *testing.T, name, pkg, what string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is missing (apt-get install -y %s)", name, pkg)
	}
	t.Skipf("%s is not installed (apt-get install -y %s): cannot %s", name, pkg, what)
	return ""
}

// TestWatchProgram: web/boot.js asks the worker for the pack once half of
// app.wasm's data section is in (softmaxWatchProgram), whatever the chunks
// the network delivers; one without a data section calls soon() at its
// end, one that is not WebAssembly or breaks at once; always once, and it
// never throws.
func TestWatchProgram(t *testing.T) {
	node := needProgram(t, "node", "nodejs", "run web/boot.js's watcher")
	// A module laid out as Go writes one: small sections, a custom one, the
	// code, then the data, whose size takes three bytes of LEB128.
	section := func(id byte, size int) []byte {
		b := []byte{id}
		for v := uint(size); ; {
			c := byte(v & 0x7f)
			v >>= 7
			if v == 0 {
				b = append(b, c)
				break
			}
			b = append(b, c|0x80)
		}
		return append(b, bytes.Repeat([]byte{byte(id) + 1}, size)...)
	}
	head := []byte("\x00asm\x01\x00\x00\x00")
	var wasm []byte
	wasm = append(wasm, head...)
	wasm = append(wasm, section(1, 65)...)
	wasm = append(wasm, section(0, 300)...)
	wasm = append(wasm, section(10, 70000)...)
	dataStart := len(wasm) + 4 // id and three bytes of size
	wasm = append(wasm, section(11, 40000)...)
	want := dataStart + 20000 // half way through the data

	noData := append(append([]byte{}, head...), section(10, 5000)...)
	type tc struct {
		name     string
		bytes    []byte
		chunks   []int
		failAt   int
		min, max int // soon() is called with this many bytes in
	}
	tests := []tc{
		{"one byte at a time", wasm, []int{1}, -1, want, want + 1},
		{"chunks that split the headers", wasm, []int{3, 7, 1, 1000}, -1, want, want + 1000},
		{"64 kB chunks", wasm, []int{64 << 10}, -1, want, want + 64<<10},
		{"all at once", wasm, []int{len(wasm)}, -1, len(wasm), len(wasm)},
		{"no data section: at the end", noData, []int{100}, -1, len(noData), len(noData)},
		{"not WebAssembly: at once", bytes.Repeat([]byte{0xff}, 5000), []int{100}, -1, 100, 100},
		{"HTML: at once", []byte(strings.Repeat("<html>not found</html>", 100)), []int{1}, -1, 1, 1},
		{"a section header over 6 bytes: at once", append(append([]byte{}, head...), 11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0), []int{1}, -1, 15, 15},
		{"empty", nil, []int{1}, -1, 0, 0},
		{"the stream breaks", wasm, []int{500}, 10000, 10000, 10000},
	}
	type jsCase struct {
		Bytes  []byte `json:"bytes"`
		Chunks []int  `json:"chunks"`
		FailAt int    `json:"failAt"`
	}
	var in []jsCase
	for _, tt := range tests {
		in = append(in, jsCase{tt.bytes, tt.chunks, tt.failAt})
	}
	dir := t.TempDir()
	script, cases := filepath.Join(dir, "watch.js"), filepath.Join(dir, "cases.json")
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cases, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte(watchScript), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, script, "../../web/boot.js", cases).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var got []struct{ At, Calls int }
	if err := json.Unmarshal(bytes.TrimSpace(out), &got); err != nil || len(got) != len(tests) {
		t.Fatalf("node printed %q (%v)", out, err)
	}
	for i, tt := range tests {
		if g := got[i]; g.Calls != 1 || g.At < tt.min || g.At > tt.max {
			t.Errorf("%s: soon() called %d times, with %d bytes in; want once, with %d to %d", tt.name, g.Calls, g.At, tt.min, tt.max)
		}
	}
	if strings.Contains(string(out), "Error") {
		t.Errorf("node printed an error: %s", out)
	}
}
