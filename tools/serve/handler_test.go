package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// pseudoWasm returns n bytes that start like a wasm module and compress
// roughly like one (to about a third), drawn from a fixed seed.
func pseudoWasm(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	words := make([][]byte, 512)
	for i := range words {
		w := make([]byte, 2+r.IntN(14))
		for j := range w {
			w[j] = byte(r.IntN(256))
		}
		words[i] = w
	}
	b := make([]byte, 0, n+16)
	b = append(b, "\x00asm\x01\x00\x00\x00"...)
	for len(b) < n {
		if r.IntN(4) == 0 {
			b = append(b, byte(r.IntN(256)))
		} else {
			b = append(b, words[r.IntN(len(words))]...)
		}
	}
	return b[:n]
}

// text returns a compressible text file of about n bytes starting with s.
func text(s string, n int) []byte {
	var b strings.Builder
	b.WriteString(s)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "\nline %d of %s", i, s)
	}
	return []byte(b.String())
}

// gzipped returns p gzipped. Writing to a bytes.Buffer cannot fail.
func gzipped(p []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(p)
	zw.Close()
	return buf.Bytes()
}

func gunzip(t testing.TB, p []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(p))
	if err != nil {
		t.Fatalf("gzip body: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gzip body: %v", err)
	}
	return out
}

func writeFile(t testing.TB, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// siteFiles is the test site, relative to its root.
var siteFiles = map[string][]byte{
	"index.html":                text("<!doctype html><title>demo</title>", 2000),
	"about.html":                text("<!doctype html><title>about</title>", 2000),
	"app.js":                    text("// go-app loader", 2000),
	"app.css":                   text("body { margin: 0 }", 2000),
	"manifest.webmanifest":      text(`{"name": "demo"}`, 2000),
	"web/app.wasm":              pseudoWasm(64 << 10),
	"web/worker.wasm":           pseudoWasm(32 << 10),
	"web/data.json":             text(`{"k": 10}`, 2000),
	"web/logo.svg":              text("<svg xmlns='http://www.w3.org/2000/svg'>", 2000),
	"web/icon.png":              append([]byte("\x89PNG\r\n\x1a\n"), pseudoWasm(4000)...),
	"web/favicon.ico":           pseudoWasm(2000),
	"web/data/train.mnpk":       pseudoWasm(8000),
	"web/robots.txt":            text("User-agent: *", 2000),
	"web/small.txt":             []byte("tiny\n"),
	"web/LICENSE":               text("no extension", 2000),
	"web/pre.js":                text("// original pre.js", 2000),
	"web/pre.js.br":             []byte("pretend brotli bytes"),
	"web/pre.js.gz":             gzipped([]byte("// precompressed gz")),
	"web/gzonly.js":             text("// original gzonly.js", 2000),
	"web/gzonly.js.gz":          gzipped([]byte("// gzonly.js.gz")),
	"web/stale.js":              text("// rebuilt stale.js", 2000),
	"web/stale.js.gz":           gzipped([]byte("// old build")),
	"docs/index.html":           text("<!doctype html><title>docs</title>", 100),
	"empty/.keep":               nil,
	".git/config":               []byte("[core]\n"),
	".cache/x":                  []byte("cache\n"),
	".ci/run.sh":                []byte("#!/bin/sh\n"),
	"web/.hidden.js":            []byte("hidden\n"),
	"web/data/.partial.mnpk":    []byte("partial\n"),
	"web/nested/deep/page.html": text("<p>deep</p>", 10),
}

// newSite writes siteFiles under dir/site, plus secrets beside it (outside
// the root) and symlinks into and out of it, and returns the root.
func newSite(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "site")
	// One modification time for all, since the files are written in map
	// order and a sibling older than its file is ignored.
	mod := time.Now().Add(-time.Minute).Truncate(time.Second)
	for name, data := range siteFiles {
		file := filepath.Join(root, filepath.FromSlash(name))
		writeFile(t, file, data)
		if err := os.Chtimes(file, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(dir, "go.mod"), []byte("module secret\n"))
	writeFile(t, filepath.Join(dir, "secret", "key.txt"), []byte("secret\n"))
	old := mod.Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(root, "web", "stale.js.gz"), old, old); err != nil {
		t.Fatal(err)
	}
	return root
}

// symlinkSite adds symlinks to newSite's root, or skips the test if the
// system cannot make them.
func symlinkSite(t *testing.T, root string) {
	t.Helper()
	links := map[string]string{
		"web/out.txt":   filepath.Join(root, "..", "secret", "key.txt"),
		"web/outdir":    filepath.Join(root, "..", "secret"),
		"web/updir":     "../..",
		"web/in.js":     "../app.js",
		"web/git.link":  "../.git",
		"web/loop.json": "loop.json",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))); err != nil {
			t.Skipf("symlinks unsupported: %v", err)
		}
	}
}

// get runs one request through h. header is alternating keys and values.
func get(t testing.TB, h http.Handler, method, target string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	resp := rec.Result()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// checkLength fails unless a 200 response's Content-Length is its body's
// length (or, for HEAD, wantLen).
func checkLength(t testing.TB, resp *http.Response, body []byte, wantLen int) {
	t.Helper()
	cl := resp.Header.Get("Content-Length")
	if cl != strconv.Itoa(wantLen) {
		t.Errorf("Content-Length = %q, want %d", cl, wantLen)
	}
	if resp.Request != nil && resp.Request.Method != http.MethodHead && len(body) != wantLen {
		t.Errorf("body has %d bytes, want %d", len(body), wantLen)
	}
}

func TestContentTypes(t *testing.T) {
	root := newSite(t)
	h := newHandler(root, nil)
	tests := []struct {
		name, path, want string
	}{
		{"wasm is application/wasm", "/web/app.wasm", "application/wasm"},
		{"js is text/javascript", "/app.js", "text/javascript; charset=utf-8"},
		{"html is text/html", "/index.html", "text/html; charset=utf-8"},
		{"css is text/css", "/app.css", "text/css; charset=utf-8"},
		{"json is application/json", "/web/data.json", "application/json"},
		{"webmanifest is manifest+json", "/manifest.webmanifest", "application/manifest+json"},
		{"png is image/png", "/web/icon.png", "image/png"},
		{"svg is image/svg+xml", "/web/logo.svg", "image/svg+xml"},
		{"ico is image/x-icon", "/web/favicon.ico", "image/x-icon"},
		{"mnpk is octet-stream", "/web/data/train.mnpk", "application/octet-stream"},
		{"txt is text/plain", "/web/robots.txt", "text/plain; charset=utf-8"},
		{"unknown extension is octet-stream, not sniffed", "/web/LICENSE", "application/octet-stream"},
		{"root is html", "/", "text/html; charset=utf-8"},
		{"gzipped file keeps its own type", "/web/worker.wasm", "application/wasm"},
		{"precompressed file keeps the original type", "/web/pre.js", "text/javascript; charset=utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, ae := range []string{"", "gzip, br"} {
				resp, _ := get(t, h, http.MethodGet, tt.path, "Accept-Encoding", ae)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("Accept-Encoding %q: status %d", ae, resp.StatusCode)
				}
				if got := resp.Header.Get("Content-Type"); got != tt.want {
					t.Errorf("Accept-Encoding %q: Content-Type = %q, want %q", ae, got, tt.want)
				}
			}
		})
	}
}

func TestCompression(t *testing.T) {
	root := newSite(t)
	h := newHandler(root, nil)
	tests := []struct {
		name, path, acceptEncoding string
		wantEncoding               string // "" for identity
		wantBody                   []byte // decoded body
	}{
		{"wasm is gzipped when accepted", "/web/app.wasm", "gzip, deflate, br, zstd", "gzip", siteFiles["web/app.wasm"]},
		{"html is gzipped when accepted", "/index.html", "gzip", "gzip", siteFiles["index.html"]},
		{"mnpk is gzipped when accepted", "/web/data/train.mnpk", "gzip", "gzip", siteFiles["web/data/train.mnpk"]},
		{"x-gzip counts as gzip", "/app.js", "x-gzip", "gzip", siteFiles["app.js"]},
		{"wildcard allows gzip", "/app.css", "*", "gzip", siteFiles["app.css"]},
		{"no gzip without Accept-Encoding", "/web/app.wasm", "", "", siteFiles["web/app.wasm"]},
		{"no gzip for identity only", "/web/app.wasm", "identity", "", siteFiles["web/app.wasm"]},
		{"no gzip when q=0", "/web/app.wasm", "gzip;q=0, br;q=0.0", "", siteFiles["web/app.wasm"]},
		{"no gzip when the wildcard is refused", "/web/app.wasm", "*;q=0", "", siteFiles["web/app.wasm"]},
		{"png is never gzipped", "/web/icon.png", "gzip", "", siteFiles["web/icon.png"]},
		{"ico is never gzipped", "/web/favicon.ico", "gzip", "", siteFiles["web/favicon.ico"]},
		{"small file is not gzipped", "/web/small.txt", "gzip", "", siteFiles["web/small.txt"]},
		{"br sibling is preferred over gz", "/web/pre.js", "gzip, br", "br", siteFiles["web/pre.js.br"]},
		{"br sibling is preferred whatever the order", "/web/pre.js", "br;q=0.5, gzip", "br", siteFiles["web/pre.js.br"]},
		{"gz sibling is used when br is not accepted", "/web/pre.js", "gzip", "gzip", []byte("// precompressed gz")},
		{"gz sibling is used when there is no br", "/web/gzonly.js", "br, gzip", "gzip", []byte("// gzonly.js.gz")},
		{"br-only client gets on-the-fly nothing", "/web/app.wasm", "br", "", siteFiles["web/app.wasm"]},
		{"stale sibling is ignored", "/web/stale.js", "gzip", "gzip", siteFiles["web/stale.js"]},
		{"precompressed file is identity without Accept-Encoding", "/web/pre.js", "", "", siteFiles["web/pre.js"]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(t, h, http.MethodGet, tt.path, "Accept-Encoding", tt.acceptEncoding)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d", resp.StatusCode)
			}
			if got := resp.Header.Get("Content-Encoding"); got != tt.wantEncoding {
				t.Fatalf("Content-Encoding = %q, want %q", got, tt.wantEncoding)
			}
			checkLength(t, resp, body, len(body))
			if tt.wantEncoding != "" {
				if got := resp.Header.Get("Vary"); got != "Accept-Encoding" {
					t.Errorf("Vary = %q, want Accept-Encoding", got)
				}
			}
			if tt.wantEncoding == "gzip" {
				body = gunzip(t, body)
			}
			if !bytes.Equal(body, tt.wantBody) {
				t.Errorf("decoded body differs: %d bytes, want %d", len(body), len(tt.wantBody))
			}
		})
	}
}

func TestGzipCache(t *testing.T) {
	t.Run("repeated requests return the same cached bytes", func(t *testing.T) {
		root := newSite(t)
		h := newHandler(root, nil)
		_, first := get(t, h, http.MethodGet, "/web/app.wasm", "Accept-Encoding", "gzip")
		_, second := get(t, h, http.MethodGet, "/web/app.wasm", "Accept-Encoding", "gzip")
		if !bytes.Equal(first, second) {
			t.Fatal("second response differs from the first")
		}
		hh := h.(*handler)
		hh.gz.mu.Lock()
		n := len(hh.gz.entries)
		hh.gz.mu.Unlock()
		if n != 1 {
			t.Errorf("cache has %d entries, want 1", n)
		}
	})
	t.Run("a rewritten file is compressed again", func(t *testing.T) {
		root := newSite(t)
		h := newHandler(root, nil)
		name := filepath.Join(root, "web", "app.wasm")
		resp1, body := get(t, h, http.MethodGet, "/web/app.wasm", "Accept-Encoding", "gzip")
		if got := gunzip(t, body); !bytes.Equal(got, siteFiles["web/app.wasm"]) {
			t.Fatal("first body is not the file")
		}
		next := text("rebuilt wasm", 5000)
		writeFile(t, name, next)
		later := time.Now().Add(time.Minute)
		if err := os.Chtimes(name, later, later); err != nil {
			t.Fatal(err)
		}
		resp2, body := get(t, h, http.MethodGet, "/web/app.wasm", "Accept-Encoding", "gzip")
		if got := gunzip(t, body); !bytes.Equal(got, next) {
			t.Errorf("second body is %d bytes, want the rewritten %d", len(got), len(next))
		}
		if resp1.Header.Get("Etag") == resp2.Header.Get("Etag") {
			t.Error("ETag did not change with the file")
		}
	})
	t.Run("concurrent first requests all get the file", func(t *testing.T) {
		root := newSite(t)
		h := newHandler(root, nil)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				_, body := get(t, h, http.MethodGet, "/web/app.wasm", "Accept-Encoding", "gzip")
				if got := gunzip(t, body); !bytes.Equal(got, siteFiles["web/app.wasm"]) {
					t.Error("body is not the file")
				}
			})
		}
		wg.Wait()
	})
}

func TestHead(t *testing.T) {
	root := newSite(t)
	h := newHandler(root, nil)
	tests := []struct {
		name, path, acceptEncoding string
	}{
		{"gzipped wasm", "/web/app.wasm", "gzip"},
		{"identity wasm", "/web/app.wasm", ""},
		{"precompressed br", "/web/pre.js", "br"},
		{"index", "/", "gzip"},
	}
	for _, tt := range tests {
		t.Run("HEAD of "+tt.name+" has no body but GET's headers", func(t *testing.T) {
			getResp, getBody := get(t, h, http.MethodGet, tt.path, "Accept-Encoding", tt.acceptEncoding)
			headResp, headBody := get(t, h, http.MethodHead, tt.path, "Accept-Encoding", tt.acceptEncoding)
			if headResp.StatusCode != http.StatusOK {
				t.Fatalf("status %d", headResp.StatusCode)
			}
			if len(headBody) != 0 {
				t.Errorf("HEAD body has %d bytes", len(headBody))
			}
			checkLength(t, headResp, headBody, len(getBody))
			for _, k := range []string{"Content-Type", "Content-Encoding", "Etag", "Last-Modified", "Vary", "Cache-Control"} {
				if g, h := getResp.Header.Get(k), headResp.Header.Get(k); g != h {
					t.Errorf("%s: GET %q, HEAD %q", k, g, h)
				}
			}
		})
	}
}

// rejectedPaths must all be 404 and never show a secret or a listing.
var rejectedPaths = []struct{ name, target string }{
	{"dot-dot to go.mod outside the root", "/../go.mod"},
	{"encoded dot-dot", "/%2e%2e/"},
	{"encoded dot-dot to go.mod", "/%2e%2e/go.mod"},
	{"encoded slash and dot-dot", "/web%2f..%2f..%2fgo.mod"},
	{"dot-dot through a subdirectory", "/web/../../etc/passwd"},
	{"dot-dot staying inside the root", "/web/../index.html"},
	{"backslash dot-dot", "/..\\go.mod"},
	{"double slash absolute path", "//etc/passwd"},
	{"empty segment", "/web//app.wasm"},
	{"dot segment", "/./index.html"},
	{"git config", "/.git/config"},
	{"git directory", "/.git/"},
	{"cache file", "/.cache/x"},
	{"ci script", "/.ci/run.sh"},
	{"hidden file", "/web/.hidden.js"},
	{"hidden file in a subdirectory", "/web/data/.partial.mnpk"},
	{"NUL byte", "/index.html%00.png"},
	{"missing file", "/web/missing.wasm"},
	{"missing page", "/nope"},
	{"file with a trailing slash", "/index.html/"},
	{"directory without index.html", "/web/"},
	{"directory without index.html and slash", "/web"},
	{"empty directory", "/empty/"},
}

func TestRejects(t *testing.T) {
	root := newSite(t)
	h := newHandler(root, nil)
	for _, tt := range rejectedPaths {
		t.Run(tt.name+" is 404", func(t *testing.T) {
			resp, body := get(t, h, http.MethodGet, tt.target)
			checkNotFound(t, resp, body)
		})
	}
}

// TestRejectsOverTheWire sends the request targets byte for byte, so no
// client library cleans them first.
func TestRejectsOverTheWire(t *testing.T) {
	root := newSite(t)
	srv := httptest.NewServer(newHandler(root, nil))
	defer srv.Close()
	for _, tt := range rejectedPaths {
		t.Run(tt.name+" is 404", func(t *testing.T) {
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", tt.target)
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			checkNotFound(t, resp, body)
		})
	}
}

func checkNotFound(t *testing.T, resp *http.Response, body []byte) {
	t.Helper()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("status %d, want 404; body %.80q", resp.StatusCode, body)
	}
	if string(body) != "404 page not found\n" {
		t.Errorf("body %.80q, want the short 404 text", body)
	}
	if got := resp.Header.Get("Content-Type"); got != "text/plain; charset=utf-8" {
		t.Errorf("Content-Type %q", got)
	}
}

func TestSymlinks(t *testing.T) {
	root := newSite(t)
	symlinkSite(t, root)
	h := newHandler(root, nil)
	tests := []struct {
		name, target string
		wantStatus   int
	}{
		{"file symlink outside the root is 404", "/web/out.txt", http.StatusNotFound},
		{"directory symlink outside the root is 404", "/web/outdir/key.txt", http.StatusNotFound},
		{"relative symlink climbing out is 404", "/web/updir/go.mod", http.StatusNotFound},
		// The dot-segment rule is about URL paths; a link the site's author
		// made inside the root is followed.
		{"symlink inside the root to a dot directory is followed", "/web/git.link/config", http.StatusOK},
		{"symlink loop is 404", "/web/loop.json", http.StatusNotFound},
		{"symlink inside the root is served", "/web/in.js", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(t, h, http.MethodGet, tt.target)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d; body %.80q", resp.StatusCode, tt.wantStatus, body)
			}
			if bytes.Contains(body, []byte("secret")) {
				t.Errorf("body shows a secret: %.80q", body)
			}
		})
	}
}

func TestDirectories(t *testing.T) {
	root := newSite(t)
	h := newHandler(root, nil)
	tests := []struct {
		name, target string
		wantStatus   int
		wantBody     []byte
		wantLocation string
	}{
		{"root serves index.html", "/", http.StatusOK, siteFiles["index.html"], ""},
		{"index.html is served by name", "/index.html", http.StatusOK, siteFiles["index.html"], ""},
		{"directory with index.html serves it", "/docs/", http.StatusOK, siteFiles["docs/index.html"], ""},
		{"directory without slash redirects", "/docs", http.StatusMovedPermanently, nil, "/docs/"},
		{"redirect keeps the query", "/docs?x=1", http.StatusMovedPermanently, nil, "/docs/?x=1"},
		{"page without extension serves its html", "/about", http.StatusOK, siteFiles["about.html"], ""},
		{"nested page without extension", "/web/nested/deep/page", http.StatusOK, siteFiles["web/nested/deep/page.html"], ""},
		{"query string is ignored", "/index.html?v=2", http.StatusOK, siteFiles["index.html"], ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := get(t, h, http.MethodGet, tt.target)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if tt.wantBody != nil && !bytes.Equal(body, tt.wantBody) {
				t.Errorf("body %.60q, want %.60q", body, tt.wantBody)
			}
			if got := resp.Header.Get("Location"); got != tt.wantLocation {
				t.Errorf("Location %q, want %q", got, tt.wantLocation)
			}
		})
	}
}

func TestMethods(t *testing.T) {
	h := newHandler(newSite(t), nil)
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodOptions} {
		t.Run(method+" is 405", func(t *testing.T) {
			resp, _ := get(t, h, method, "/index.html")
			if resp.StatusCode != http.StatusMethodNotAllowed {
				t.Fatalf("status %d, want 405", resp.StatusCode)
			}
			if got := resp.Header.Get("Allow"); got != "GET, HEAD" {
				t.Errorf("Allow %q", got)
			}
		})
	}
}

func TestHeaders(t *testing.T) {
	h := newHandler(newSite(t), nil)
	tests := []struct {
		name, method, target, acceptEncoding string
	}{
		{"identity file", http.MethodGet, "/web/icon.png", ""},
		{"gzipped file", http.MethodGet, "/web/app.wasm", "gzip"},
		{"precompressed file", http.MethodGet, "/web/pre.js", "br"},
		{"not found", http.MethodGet, "/missing", ""},
		{"method not allowed", http.MethodPost, "/", ""},
		{"redirect", http.MethodGet, "/docs", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name+" has nosniff and no-cache", func(t *testing.T) {
			resp, _ := get(t, h, tt.method, tt.target, "Accept-Encoding", tt.acceptEncoding)
			if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q", got)
			}
			if got := resp.Header.Get("Cache-Control"); got != "no-cache" {
				t.Errorf("Cache-Control %q", got)
			}
			if resp.StatusCode == http.StatusOK {
				if resp.Header.Get("Etag") == "" || resp.Header.Get("Last-Modified") == "" {
					t.Errorf("missing validators: Etag %q, Last-Modified %q",
						resp.Header.Get("Etag"), resp.Header.Get("Last-Modified"))
				}
			}
		})
	}
}

func TestConditional(t *testing.T) {
	h := newHandler(newSite(t), nil)
	tests := []struct {
		name, path, acceptEncoding string
	}{
		{"identity", "/web/app.wasm", ""},
		{"gzip", "/web/app.wasm", "gzip"},
		{"br sibling", "/web/pre.js", "br"},
		{"directory index", "/", "gzip"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" ETag round trip is 304", func(t *testing.T) {
			resp, _ := get(t, h, http.MethodGet, tt.path, "Accept-Encoding", tt.acceptEncoding)
			tag := resp.Header.Get("Etag")
			if tag == "" {
				t.Fatal("no ETag")
			}
			resp, body := get(t, h, http.MethodGet, tt.path, "Accept-Encoding", tt.acceptEncoding, "If-None-Match", tag)
			if resp.StatusCode != http.StatusNotModified {
				t.Fatalf("status %d, want 304", resp.StatusCode)
			}
			if len(body) != 0 {
				t.Errorf("304 has a %d-byte body", len(body))
			}
			if got := resp.Header.Get("Etag"); got != tag {
				t.Errorf("304 ETag %q, want %q", got, tag)
			}
			if resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Content-Length") != "" {
				t.Errorf("304 has Content-Encoding %q, Content-Length %q",
					resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Length"))
			}
		})
		t.Run(tt.name+" weak ETag in a list is 304", func(t *testing.T) {
			resp, _ := get(t, h, http.MethodGet, tt.path, "Accept-Encoding", tt.acceptEncoding)
			inm := `"other", W/` + resp.Header.Get("Etag")
			resp, _ = get(t, h, http.MethodGet, tt.path, "Accept-Encoding", tt.acceptEncoding, "If-None-Match", inm)
			if resp.StatusCode != http.StatusNotModified {
				t.Fatalf("status %d, want 304", resp.StatusCode)
			}
		})
		t.Run(tt.name+" If-Modified-Since is 304", func(t *testing.T) {
			resp, _ := get(t, h, http.MethodGet, tt.path, "Accept-Encoding", tt.acceptEncoding)
			lm := resp.Header.Get("Last-Modified")
			resp, _ = get(t, h, http.MethodGet, tt.path, "Accept-Encoding", tt.acceptEncoding, "If-Modified-Since", lm)
			if resp.StatusCode != http.StatusNotModified {
				t.Fatalf("status %d, want 304", resp.StatusCode)
			}
		})
	}
	t.Run("gzip ETag does not match the identity representation", func(t *testing.T) {
		resp, _ := get(t, h, http.MethodGet, "/web/app.wasm", "Accept-Encoding", "gzip")
		resp, body := get(t, h, http.MethodGet, "/web/app.wasm", "If-None-Match", resp.Header.Get("Etag"))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d, want 200", resp.StatusCode)
		}
		if !bytes.Equal(body, siteFiles["web/app.wasm"]) {
			t.Error("body is not the file")
		}
	})
	t.Run("stale ETag is 200", func(t *testing.T) {
		resp, _ := get(t, h, http.MethodGet, "/web/app.wasm", "Accept-Encoding", "gzip", "If-None-Match", `"stale-gzip"`)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d, want 200", resp.StatusCode)
		}
	})
}

func TestRequestLog(t *testing.T) {
	root := newSite(t)
	t.Run("each request logs one line", func(t *testing.T) {
		var buf bytes.Buffer
		h := newHandler(root, &buf)
		get(t, h, http.MethodGet, "/web/app.wasm", "Accept-Encoding", "gzip")
		get(t, h, http.MethodGet, "/missing%0aforged")
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		if len(lines) != 2 {
			t.Fatalf("got %d lines, want 2:\n%s", len(lines), buf.String())
		}
		if !strings.Contains(lines[0], "GET /web/app.wasm 200 ") || !strings.Contains(lines[0], " gzip ") {
			t.Errorf("line %q", lines[0])
		}
		if !strings.Contains(strings.ToLower(lines[1]), "get /missing%0aforged 404 ") {
			t.Errorf("line %q", lines[1])
		}
	})
	t.Run("nil writer logs nothing", func(t *testing.T) {
		h := newHandler(root, nil)
		get(t, h, http.MethodGet, "/")
		if h.(*handler).log != nil {
			t.Error("handler has a logger")
		}
	})
}

func TestAcceptsEncoding(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		coding string
		want   bool
	}{
		{"empty header refuses", nil, "gzip", false},
		{"listed coding is accepted", []string{"gzip, deflate"}, "gzip", true},
		{"unlisted coding is refused", []string{"deflate"}, "gzip", false},
		{"case is ignored", []string{"GZip"}, "gzip", true},
		{"q=0 refuses", []string{"gzip;q=0"}, "gzip", false},
		{"q with spaces", []string{"gzip ; q = 0.5"}, "gzip", true},
		{"q=0.000 refuses", []string{"br;q=0.000"}, "br", false},
		{"bad q refuses", []string{"gzip;q=x"}, "gzip", false},
		{"wildcard accepts", []string{"*"}, "br", true},
		{"explicit refusal beats wildcard", []string{"*, br;q=0"}, "br", false},
		{"explicit acceptance beats refused wildcard", []string{"*;q=0, gzip"}, "gzip", true},
		{"x-gzip is gzip", []string{"x-gzip"}, "gzip", true},
		{"several header lines", []string{"deflate", "br"}, "br", true},
		{"empty entries are skipped", []string{" , ,gzip"}, "gzip", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := acceptsEncoding(tt.values, tt.coding); got != tt.want {
				t.Errorf("acceptsEncoding(%q, %q) = %v, want %v", tt.values, tt.coding, got, tt.want)
			}
		})
	}
}

func TestCleanPath(t *testing.T) {
	tests := []struct {
		name, in, wantName string
		wantDir, wantOK    bool
	}{
		{"root is dot", "/", ".", true, true},
		{"file", "/web/app.wasm", "web/app.wasm", false, true},
		{"directory", "/web/", "web", true, true},
		{"no leading slash", "web/app.wasm", "", false, false},
		{"empty", "", "", false, false},
		{"dot-dot", "/a/../b", "", false, false},
		{"dot", "/a/./b", "", false, false},
		{"dot file", "/.env", "", false, false},
		{"double slash", "//a", "", false, false},
		{"two trailing slashes", "/a//", "", false, false},
		{"backslash", "/a\\b", "", false, false},
		{"NUL", "/a\x00", "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, dir, ok := cleanPath(tt.in)
			if name != tt.wantName || dir != tt.wantDir || ok != tt.wantOK {
				t.Errorf("cleanPath(%q) = %q, %v, %v; want %q, %v, %v",
					tt.in, name, dir, ok, tt.wantName, tt.wantDir, tt.wantOK)
			}
		})
	}
}

// discardWriter is a ResponseWriter that keeps only the headers.
type discardWriter struct {
	h    http.Header
	code int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }

func BenchmarkServeWasm(b *testing.B) {
	root := b.TempDir()
	wasm := pseudoWasm(3 << 20)
	writeFile(b, filepath.Join(root, "web", "app.wasm"), wasm)
	h := newHandler(root, nil)
	req := httptest.NewRequest(http.MethodGet, "/web/app.wasm", nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")

	// Check the response once, which also fills the cache.
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" {
		b.Fatalf("status %d, Content-Encoding %q", rec.Code, rec.Header().Get("Content-Encoding"))
	}
	if !bytes.Equal(gunzip(b, rec.Body.Bytes()), wasm) {
		b.Fatal("body does not decompress to the file")
	}
	ratio := float64(rec.Body.Len()) / float64(len(wasm))

	w := &discardWriter{h: make(http.Header)}
	b.SetBytes(int64(len(wasm))) // bytes of the file delivered per request
	b.ReportAllocs()
	for b.Loop() {
		clear(w.h)
		h.ServeHTTP(w, req)
	}
	if w.code != http.StatusOK {
		b.Fatalf("status %d", w.code)
	}
	b.ReportMetric(ratio, "gzip-ratio")
}

func TestVersionedCaching(t *testing.T) {
	root := newSite(t)
	for _, name := range []string{"web/app.3f2a9c1d.wasm", "web/app.abc.wasm"} {
		writeFile(t, filepath.Join(root, filepath.FromSlash(name)), pseudoWasm(4000))
	}
	h := newHandler(root, nil)
	tests := []struct {
		name, target, acceptEncoding string
		status                       int
		immutable                    bool
	}{
		{"a ?v= query is cached for good", "/web/app.wasm?v=eee97287", "gzip", http.StatusOK, true},
		{"a ?v= query on a precompressed file is cached for good", "/web/pre.js?v=2", "br", http.StatusOK, true},
		{"a ?v= query among others is cached for good", "/web/worker.wasm?a=1&v=7", "", http.StatusOK, true},
		{"a hash in the name is cached for good", "/web/app.3f2a9c1d.wasm", "", http.StatusOK, true},
		{"an unversioned file is revalidated", "/web/app.wasm", "gzip", http.StatusOK, false},
		{"an empty v is no version", "/web/app.wasm?v=", "", http.StatusOK, false},
		{"another query is no version", "/web/app.wasm?x=1", "", http.StatusOK, false},
		{"three hex digits are no hash", "/web/app.abc.wasm", "", http.StatusOK, false},
		{"HTML is always revalidated", "/index.html?v=1", "", http.StatusOK, false},
		{"the root page is always revalidated", "/?v=1", "", http.StatusOK, false},
		{"a go-app page is always revalidated", "/about?v=1", "", http.StatusOK, false},
		{"a missing file is not cached", "/web/missing.wasm?v=1", "", http.StatusNotFound, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, _ := get(t, h, http.MethodGet, tt.target, "Accept-Encoding", tt.acceptEncoding)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			want := "no-cache"
			if tt.immutable {
				want = immutableCache
			}
			if got := resp.Header.Get("Cache-Control"); got != want {
				t.Errorf("Cache-Control %q, want %q", got, want)
			}
			if tag := resp.Header.Get("Etag"); tt.status == http.StatusOK && tag != "" {
				again, _ := get(t, h, http.MethodGet, tt.target, "Accept-Encoding", tt.acceptEncoding, "If-None-Match", tag)
				if again.StatusCode != http.StatusNotModified || again.Header.Get("Cache-Control") != want {
					t.Errorf("revalidation: status %d, Cache-Control %q; want 304, %q",
						again.StatusCode, again.Header.Get("Cache-Control"), want)
				}
			}
		})
	}
}
