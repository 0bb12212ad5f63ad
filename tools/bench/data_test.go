package main

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"softmaxdemo/core/dataset"
)

func TestWriteDense(t *testing.T) {
	img := func(v uint8) []uint8 {
		p := make([]uint8, dataset.Pixels)
		p[0], p[783] = v, 255
		return p
	}
	train, test := dataset.NewSet(2, 2), dataset.NewSet(1, 2)
	train.Append(3, img(51))
	train.Append(7, img(102))
	test.Append(9, img(0))
	var buf bytes.Buffer
	if err := dataset.Encode(&buf, &dataset.Pack{Train: train, Test: test}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pack := filepath.Join(dir, "tiny.mnpk")
	if err := os.WriteFile(pack, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "tiny")
	if err := writeDense(pack, out); err != nil {
		t.Fatal(err)
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if y := read("train-y.u8"); !bytes.Equal(y, []byte{3, 7}) {
		t.Errorf("train labels %v", y)
	}
	if y := read("test-y.u8"); !bytes.Equal(y, []byte{9}) {
		t.Errorf("test labels %v", y)
	}
	x := read("train-x.f32")
	if len(x) != 2*4*dataset.Pixels {
		t.Fatalf("train-x.f32 has %d bytes, want %d", len(x), 2*4*dataset.Pixels)
	}
	at := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(x[4*i:])) }
	for i, want := range map[int]float32{0: 0.2, 1: 0, 783: 1, 784: 0.4, 1567: 1} {
		if got := at(i); got != want {
			t.Errorf("train pixel %d = %v, want %v", i, got, want)
		}
	}
	if n := len(read("test-x.f32")); n != 4*dataset.Pixels {
		t.Errorf("test-x.f32 has %d bytes", n)
	}
}

func TestHandler(t *testing.T) {
	root, data := t.TempDir(), t.TempDir()
	for path, body := range map[string]string{
		filepath.Join(root, "web", "app.wasm"):      "\x00asm",
		filepath.Join(root, peersDir, "page.html"):  "<p>bench</p>",
		filepath.Join(root, "tools", "x.go"):        "package x",
		filepath.Join(root, "secret.txt"):           "no",
		filepath.Join(data, "full", "train-y.u8"):   "\x01\x02",
		filepath.Join(root, "web", "data", "x.txt"): "x",
		filepath.Join(root, "wasm_exec.js"):         "// go",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(newHandler(root, data))
	defer srv.Close()
	for _, c := range []struct {
		path, body, ctype string
		status            int
	}{
		{"/web/app.wasm", "\x00asm", "application/wasm", 200},
		{"/wasm_exec.js", "// go", "", 200},
		{"/peers/page.html", "<p>bench</p>", "text/html; charset=utf-8", 200},
		{"/tools/x.go", "", "", 404},
		{"/peers/../secret.txt", "", "", 404},
		{"/data/full/train-y.u8", "\x01\x02", "", 200},
		{"/secret.txt", "", "", 404},
	} {
		resp, err := http.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("GET %s: status %d, want %d", c.path, resp.StatusCode, c.status)
			continue
		}
		if c.status != 200 {
			continue
		}
		if string(body) != c.body {
			t.Errorf("GET %s: body %q, want %q", c.path, body, c.body)
		}
		if ct := resp.Header.Get("Content-Type"); c.ctype != "" && ct != c.ctype {
			t.Errorf("GET %s: Content-Type %q, want %q", c.path, ct, c.ctype)
		}
	}
}
