package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// representation names one response body the handler can choose for a
// path: the file itself, a precompressed sibling or the gzip made on the fly.
type representation struct {
	name, path, acceptEncoding, encoding string
}

var representations = []representation{
	{"plain file", "/web/app.wasm", "", ""},
	{"gzip made on the fly", "/web/app.wasm", "gzip", "gzip"},
	{"plain file with siblings", "/web/pre.js", "", ""},
	{"br sibling", "/web/pre.js", "gzip, br", "br"},
	{"gz sibling", "/web/pre.js", "gzip", "gzip"},
}

// whole GETs the whole representation and checks that it is the one meant.
func whole(t *testing.T, h http.Handler, rep representation) (*http.Response, []byte) {
	t.Helper()
	resp, body := get(t, h, http.MethodGet, rep.path, "Accept-Encoding", rep.acceptEncoding)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != rep.encoding {
		t.Fatalf("%s: status %d, Content-Encoding %q; want 200, %q",
			rep.name, resp.StatusCode, resp.Header.Get("Content-Encoding"), rep.encoding)
	}
	if resp.Header.Get("Etag") == "" || resp.Header.Get("Last-Modified") == "" {
		t.Fatalf("%s: no validators", rep.name)
	}
	return resp, body
}

func TestRange(t *testing.T) {
	h := newHandler(newSite(t), nil)
	wasmSize := len(siteFiles["web/app.wasm"])
	tests := []struct {
		name string
		rep  representation
		rng  string
		lo   int    // the range is whole[lo:hi]; hi < 0 counts from the end
		hi   int    //
		want string // if not empty, the range's bytes
	}{
		{"plain file", representations[0], "bytes=0-3", 0, 4, "\x00asm"},
		{"plain file, suffix range", representations[0], "bytes=-5", wasmSize - 5, wasmSize, ""},
		{"plain file, open-ended", representations[0], fmt.Sprintf("bytes=%d-", wasmSize-100), wasmSize - 100, wasmSize, ""},
		{"gzip made on the fly is ranged in its coded bytes", representations[1], "bytes=0-1", 0, 2, "\x1f\x8b"},
		{"gzip made on the fly, middle", representations[1], "bytes=10-99", 10, 100, ""},
		{"br sibling is ranged in its coded bytes", representations[3], "bytes=0-6", 0, 7, "pretend"},
		{"br sibling, suffix range", representations[3], "bytes=-5", -5, -1, "bytes"},
		{"gz sibling is ranged in its coded bytes", representations[4], "bytes=0-2", 0, 3, "\x1f\x8b\x08"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			full, all := whole(t, h, tt.rep)
			lo, hi := tt.lo, tt.hi
			if hi < 0 {
				lo, hi = len(all)+lo, len(all)
			}
			resp, body := get(t, h, http.MethodGet, tt.rep.path, "Accept-Encoding", tt.rep.acceptEncoding, "Range", tt.rng)
			if resp.StatusCode != http.StatusPartialContent {
				t.Fatalf("status %d, want 206", resp.StatusCode)
			}
			if !bytes.Equal(body, all[lo:hi]) {
				t.Errorf("body %.20q, want bytes %d-%d of the representation", body, lo, hi-1)
			}
			if tt.want != "" && string(body) != tt.want {
				t.Errorf("body %q, want %q", body, tt.want)
			}
			wantRange := fmt.Sprintf("bytes %d-%d/%d", lo, hi-1, len(all))
			if got := resp.Header.Get("Content-Range"); got != wantRange {
				t.Errorf("Content-Range %q, want %q", got, wantRange)
			}
			checkLength(t, resp, body, hi-lo)
			for _, k := range []string{"Content-Encoding", "Content-Type", "Etag", "Vary"} {
				if got, want := resp.Header.Get(k), full.Header.Get(k); got != want {
					t.Errorf("%s %q, want the whole response's %q", k, got, want)
				}
			}
		})
	}
	for _, rep := range representations {
		t.Run(rep.name+", unsatisfiable range is 416", func(t *testing.T) {
			_, all := whole(t, h, rep)
			resp, _ := get(t, h, http.MethodGet, rep.path, "Accept-Encoding", rep.acceptEncoding, "Range", "bytes=99999999-")
			if resp.StatusCode != http.StatusRequestedRangeNotSatisfiable {
				t.Fatalf("status %d, want 416", resp.StatusCode)
			}
			if got, want := resp.Header.Get("Content-Range"), fmt.Sprintf("bytes */%d", len(all)); got != want {
				t.Errorf("Content-Range %q, want %q", got, want)
			}
			if got := resp.Header.Get("Content-Encoding"); got != "" {
				t.Errorf("416 has Content-Encoding %q", got)
			}
		})
	}
}

// TestETagPerEncoding sends each representation's ETag in If-None-Match to
// every representation of the same path: only its own answers 304.
func TestETagPerEncoding(t *testing.T) {
	h := newHandler(newSite(t), nil)
	tags := make(map[string]string)
	for _, rep := range representations {
		resp, _ := whole(t, h, rep)
		tag := resp.Header.Get("Etag")
		for other, otherTag := range tags {
			if tag == otherTag {
				t.Fatalf("%s and %s share the ETag %s", rep.name, other, tag)
			}
		}
		tags[rep.name] = tag
	}
	for _, rep := range representations {
		for _, sent := range representations {
			if sent.path != rep.path {
				continue
			}
			own := sent.name == rep.name
			name := rep.name + " with the ETag of " + sent.name
			if own {
				name = rep.name + " with its own ETag"
			}
			t.Run(name, func(t *testing.T) {
				resp, body := get(t, h, http.MethodGet, rep.path, "Accept-Encoding", rep.acceptEncoding, "If-None-Match", tags[sent.name])
				if !own {
					if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != rep.encoding {
						t.Fatalf("status %d, Content-Encoding %q; want 200, %q",
							resp.StatusCode, resp.Header.Get("Content-Encoding"), rep.encoding)
					}
					return
				}
				if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
					t.Fatalf("status %d with %d bytes, want an empty 304", resp.StatusCode, len(body))
				}
				if got := resp.Header.Get("Etag"); got != tags[rep.name] {
					t.Errorf("304 ETag %q, want %q", got, tags[rep.name])
				}
				for _, k := range []string{"Content-Encoding", "Content-Length", "Content-Type"} {
					if got := resp.Header.Get(k); got != "" {
						t.Errorf("304 has %s %q", k, got)
					}
				}
				if rep.path == "/web/pre.js" || rep.encoding != "" {
					if got := resp.Header.Get("Vary"); got != "Accept-Encoding" {
						t.Errorf("304 Vary %q, want Accept-Encoding", got)
					}
				}
			})
		}
	}
}

// TestIfRange checks that a Range is honoured only while If-Range names the
// representation's current version, compared strongly.
func TestIfRange(t *testing.T) {
	h := newHandler(newSite(t), nil)
	tests := []struct {
		name    string
		ifRange func(full *http.Response, otherTag string) string
		partial bool
	}{
		{"current ETag gives the range", func(full *http.Response, _ string) string { return full.Header.Get("Etag") }, true},
		{"current Last-Modified gives the range", func(full *http.Response, _ string) string { return full.Header.Get("Last-Modified") }, true},
		{"stale ETag gives the whole file", func(*http.Response, string) string { return `"0-0"` }, false},
		{"another encoding's ETag gives the whole file", func(_ *http.Response, other string) string { return other }, false},
		{"weak current ETag gives the whole file", func(full *http.Response, _ string) string { return "W/" + full.Header.Get("Etag") }, false},
		{"earlier date gives the whole file", func(full *http.Response, _ string) string {
			lm, err := http.ParseTime(full.Header.Get("Last-Modified"))
			if err != nil {
				return "unparsable " + err.Error()
			}
			return lm.Add(-time.Hour).Format(http.TimeFormat)
		}, false},
	}
	for _, rep := range representations {
		// Another representation of the same path, for its ETag.
		other := representations[0]
		for _, o := range representations {
			if o.path == rep.path && o.name != rep.name {
				other = o
			}
		}
		otherResp, _ := whole(t, h, other)
		for _, tt := range tests {
			t.Run(rep.name+", "+tt.name, func(t *testing.T) {
				full, all := whole(t, h, rep)
				ifRange := tt.ifRange(full, otherResp.Header.Get("Etag"))
				resp, body := get(t, h, http.MethodGet, rep.path, "Accept-Encoding", rep.acceptEncoding,
					"Range", "bytes=1-4", "If-Range", ifRange)
				if got := resp.Header.Get("Content-Encoding"); got != rep.encoding {
					t.Errorf("Content-Encoding %q, want %q", got, rep.encoding)
				}
				if tt.partial {
					if resp.StatusCode != http.StatusPartialContent || !bytes.Equal(body, all[1:5]) {
						t.Fatalf("If-Range %s: status %d body %q, want 206 %q", ifRange, resp.StatusCode, body, all[1:5])
					}
					return
				}
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("If-Range %s: status %d, want 200", ifRange, resp.StatusCode)
				}
				if !bytes.Equal(body, all) || resp.Header.Get("Content-Range") != "" {
					t.Errorf("If-Range %s: %d bytes, Content-Range %q; want the whole %d bytes",
						ifRange, len(body), resp.Header.Get("Content-Range"), len(all))
				}
				checkLength(t, resp, body, len(all))
			})
		}
	}
}

// TestHeadConditional sends HEAD with the headers that change a GET's
// status: the status and headers are GET's, the body is empty.
func TestHeadConditional(t *testing.T) {
	h := newHandler(newSite(t), nil)
	tests := []struct {
		name       string
		header     func(full *http.Response) []string
		wantStatus int
		wantLength func(all []byte) string // Content-Length
	}{
		{"plain HEAD", func(*http.Response) []string { return nil }, http.StatusOK,
			func(all []byte) string { return strconv.Itoa(len(all)) }},
		{"HEAD with a Range", func(*http.Response) []string { return []string{"Range", "bytes=2-5"} }, http.StatusPartialContent,
			func([]byte) string { return "4" }},
		{"HEAD with its own ETag", func(full *http.Response) []string { return []string{"If-None-Match", full.Header.Get("Etag")} },
			http.StatusNotModified, func([]byte) string { return "" }},
		{"HEAD with a failed If-Match", func(*http.Response) []string { return []string{"If-Match", `"0-0"`} },
			http.StatusPreconditionFailed, func([]byte) string { return "" }},
	}
	for _, rep := range representations {
		for _, tt := range tests {
			t.Run(rep.name+", "+tt.name, func(t *testing.T) {
				full, all := whole(t, h, rep)
				header := append([]string{"Accept-Encoding", rep.acceptEncoding}, tt.header(full)...)
				getResp, _ := get(t, h, http.MethodGet, rep.path, header...)
				resp, body := get(t, h, http.MethodHead, rep.path, header...)
				if resp.StatusCode != tt.wantStatus || getResp.StatusCode != tt.wantStatus {
					t.Fatalf("HEAD status %d, GET status %d; want %d", resp.StatusCode, getResp.StatusCode, tt.wantStatus)
				}
				if len(body) != 0 {
					t.Errorf("HEAD has a %d-byte body", len(body))
				}
				if got, want := resp.Header.Get("Content-Length"), tt.wantLength(all); got != want {
					t.Errorf("Content-Length %q, want %q", got, want)
				}
				wantEncoding := ""
				if tt.wantStatus < 300 {
					wantEncoding = rep.encoding
				}
				if got := resp.Header.Get("Content-Encoding"); got != wantEncoding {
					t.Errorf("Content-Encoding %q, want %q", got, wantEncoding)
				}
				for _, k := range []string{"Content-Type", "Content-Encoding", "Content-Range", "Etag", "Vary", "Cache-Control"} {
					if g, h := getResp.Header.Get(k), resp.Header.Get(k); g != h {
						t.Errorf("%s: GET %q, HEAD %q", k, g, h)
					}
				}
			})
		}
	}
}

// TestVary checks that a response carries Vary: Accept-Encoding exactly
// when the file has a coded representation, even if this client is not
// given it.
func TestVary(t *testing.T) {
	root := newSite(t)
	mod := time.Now().Add(-time.Minute)
	for name, data := range map[string][]byte{
		"web/photo.png":    pseudoWasm(3000),
		"web/photo.png.br": []byte("pretend brotli png"),
		"web/old.png":      pseudoWasm(3000),
		"web/old.png.gz":   gzipped([]byte("old")),
	} {
		file := filepath.Join(root, filepath.FromSlash(name))
		writeFile(t, file, data)
		if err := os.Chtimes(file, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	old := mod.Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(root, "web", "old.png.gz"), old, old); err != nil {
		t.Fatal(err)
	}
	h := newHandler(root, nil)
	tests := []struct {
		name, path, acceptEncoding string
		want                       string
	}{
		{"image with a br sibling, br accepted", "/web/photo.png", "br", "Accept-Encoding"},
		{"image with a br sibling, br not accepted", "/web/photo.png", "gzip", "Accept-Encoding"},
		{"image with a br sibling, no Accept-Encoding", "/web/photo.png", "", "Accept-Encoding"},
		{"image with only a stale sibling", "/web/old.png", "gzip", ""},
		{"image without siblings", "/web/icon.png", "gzip, br", ""},
		{"small text, never coded", "/web/small.txt", "gzip", ""},
		{"compressible file, gzip not accepted", "/web/app.wasm", "", "Accept-Encoding"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, _ := get(t, h, http.MethodGet, tt.path, "Accept-Encoding", tt.acceptEncoding)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d", resp.StatusCode)
			}
			if got := resp.Header.Values("Vary"); len(got) > 1 || resp.Header.Get("Vary") != tt.want {
				t.Errorf("Vary %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCodedOverTheWire reads coded responses through a real server and
// client, with the request log on, so that every wrapper of the
// ResponseWriter is in the way: Content-Length must match what is sent.
func TestCodedOverTheWire(t *testing.T) {
	srv := httptest.NewServer(newHandler(newSite(t), io.Discard))
	defer srv.Close()
	tests := []struct {
		name, path, acceptEncoding, rng string
		wantStatus                      int
		wantBody                        []byte // nil: not checked
	}{
		{"br sibling", "/web/pre.js", "br", "", http.StatusOK, siteFiles["web/pre.js.br"]},
		{"br sibling, ranged", "/web/pre.js", "br", "bytes=8-13", http.StatusPartialContent, []byte("brotli")},
		{"gzip made on the fly", "/web/app.wasm", "gzip", "", http.StatusOK, nil},
		{"plain file", "/web/app.wasm", "identity", "", http.StatusOK, siteFiles["web/app.wasm"]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, srv.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			// Set by hand, the transport leaves the body coded.
			req.Header.Set("Accept-Encoding", tt.acceptEncoding)
			if tt.rng != "" {
				req.Header.Set("Range", tt.rng)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatalf("reading the body: %v", err)
			}
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if resp.ContentLength != int64(len(body)) {
				t.Errorf("Content-Length %d, body %d bytes", resp.ContentLength, len(body))
			}
			if tt.wantBody != nil && !bytes.Equal(body, tt.wantBody) {
				t.Errorf("body %.40q, want %.40q", body, tt.wantBody)
			}
			if tt.wantBody == nil && !bytes.Equal(gunzip(t, body), siteFiles["web/app.wasm"]) {
				t.Error("body does not decompress to the file")
			}
		})
	}
}
