package main

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"log"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// contentTypes maps a lower-case file extension to the Content-Type we send.
// It is explicit so that the host's /etc/mime.types cannot change it; an
// extension not listed is served as application/octet-stream, never sniffed.
var contentTypes = map[string]string{
	".css":         "text/css; charset=utf-8",
	".html":        "text/html; charset=utf-8",
	".ico":         "image/x-icon",
	".jpeg":        "image/jpeg",
	".jpg":         "image/jpeg",
	".js":          "text/javascript; charset=utf-8",
	".json":        "application/json",
	".map":         "application/json",
	".mjs":         "text/javascript; charset=utf-8",
	".mnpk":        "application/octet-stream", // our dataset pack
	".png":         "image/png",
	".svg":         "image/svg+xml",
	".txt":         "text/plain; charset=utf-8",
	".wasm":        "application/wasm",
	".webmanifest": "application/manifest+json",
	".webp":        "image/webp",
	".woff2":       "font/woff2",
	".xml":         "application/xml",
}

// compressible lists the extensions worth gzipping on the fly. Images and
// fonts are already compressed.
var compressible = map[string]bool{
	".css": true, ".html": true, ".js": true, ".json": true, ".map": true,
	".mjs": true, ".mnpk": true, ".svg": true, ".txt": true, ".wasm": true,
	".webmanifest": true, ".xml": true,
}

// Limits for on-the-fly gzip. Smaller files gain too little to be worth a
// Content-Encoding; larger ones are served as they are rather than held in
// memory.
const (
	minGzipSize = 1 << 10
	maxGzipSize = 64 << 20
)

// handler serves the files under root; see newHandler.
type handler struct {
	root string      // absolute
	log  *log.Logger // nil: no request log
	gz   gzipCache
}

// newHandler returns a handler that serves the site rooted at the directory
// root, logging one line per request to logw (nil logs nothing).
//
// Only GET and HEAD are allowed (405 otherwise). A path is served only if
// every segment is non-empty and does not start with '.', and it resolves,
// through symlinks too, to a regular file inside root; anything else is 404
// with a short text body. A directory serves its index.html (a path without
// the trailing slash is redirected to one) or is 404: there are no listings.
// As on GitHub Pages, go-app's /page is served from page.html when page does
// not exist.
//
// Every response has X-Content-Type-Options: nosniff and
// Cache-Control: no-cache, except a file whose URL names its version (see
// versioned), which gets Cache-Control: public, max-age=31536000,
// immutable, so that a second visit does not even revalidate it. When
// Accept-Encoding allows it, a file is served from a sibling file.br or
// file.gz no older than the file (br preferred), or, for compressible types
// of at least minGzipSize bytes, gzipped in memory; the gzipped bytes are
// cached per path until the file's modification time or size changes. A
// coded response carries the file's Content-Type, and one that could have
// been coded carries Vary: Accept-Encoding. Each representation is served
// by http.ServeContent with its own strong ETag and Last-Modified, so
// conditional requests and Range work on whichever was chosen.
//
// The root directory is opened per request with os.OpenRoot, so the handler
// holds no file descriptors and sees the root replaced by a rebuild.
func newHandler(root string, logw io.Writer) http.Handler {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	h := &handler{root: root}
	if logw != nil {
		h.log = newLogger(logw)
	}
	return h
}

// newLogger returns a logger that prefixes each line with the time of day.
func newLogger(w io.Writer) *log.Logger { return log.New(w, "", log.Ltime) }

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.log == nil {
		h.serve(w, r)
		return
	}
	start := time.Now()
	lw := &loggingWriter{ResponseWriter: w}
	h.serve(lw, r)
	if lw.status == 0 {
		lw.status = http.StatusOK
	}
	enc := ""
	if e := w.Header().Get("Content-Encoding"); e != "" && lw.status < 300 {
		enc = " " + e
	}
	h.log.Printf("%s %s %d %dB%s %s", r.Method, r.URL.EscapedPath(), lw.status,
		lw.n, enc, time.Since(start).Round(10*time.Microsecond))
}

func (h *handler) serve(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Cache-Control", "no-cache")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hdr.Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, dirPath, ok := cleanPath(r.URL.Path)
	if !ok {
		notFound(w)
		return
	}
	root, err := os.OpenRoot(h.root)
	if err != nil {
		h.logf("open root: %v", err)
		http.Error(w, "500 site root unavailable", http.StatusInternalServerError)
		return
	}
	defer root.Close()

	fi, err := root.Stat(name)
	switch {
	case err != nil && !dirPath && path.Ext(name) == "":
		// go-app's static site stores the page /about as about.html.
		name += ".html"
		fi, err = root.Stat(name)
		if err != nil || !fi.Mode().IsRegular() {
			notFound(w)
			return
		}
	case err != nil:
		notFound(w)
		return
	case fi.IsDir():
		index := path.Join(name, "index.html")
		ifi, err := root.Stat(index)
		if err != nil || !ifi.Mode().IsRegular() {
			notFound(w)
			return
		}
		if !dirPath {
			u := url.URL{Path: r.URL.Path + "/", RawQuery: r.URL.RawQuery}
			hdr.Set("Location", u.String())
			w.WriteHeader(http.StatusMovedPermanently)
			return
		}
		name, fi = index, ifi
	case !fi.Mode().IsRegular() || dirPath:
		notFound(w) // devices, pipes, and "file/"
		return
	}
	h.serveFile(w, r, root, name, fi)
}

// serveFile serves the regular file name, which Stat returned as fi.
func (h *handler) serveFile(w http.ResponseWriter, r *http.Request, root *os.Root, name string, fi fs.FileInfo) {
	hdr := w.Header()
	ext := strings.ToLower(path.Ext(name))
	if versioned(r.URL, ext) {
		hdr.Set("Cache-Control", immutableCache)
	}
	ctype, ok := contentTypes[ext]
	if !ok {
		ctype = "application/octet-stream"
	}
	hdr.Set("Content-Type", ctype)
	ae := r.Header.Values("Accept-Encoding")
	// The response varies with Accept-Encoding if the file has a coded
	// representation at all, whether or not this client gets it.
	gzippable := compressible[ext] && fi.Size() >= minGzipSize && fi.Size() <= maxGzipSize
	vary := gzippable

	for _, enc := range codings {
		if !acceptsEncoding(ae, enc.coding) {
			if sfi, err := root.Stat(name + enc.suffix); err == nil && fresh(sfi, fi) {
				vary = true
			}
			continue
		}
		f, sfi, err := openRegular(root, name+enc.suffix)
		if err != nil {
			continue
		}
		if !fresh(sfi, fi) {
			f.Close()
			h.logf("%s%s is older than %s; ignoring it", name, enc.suffix, name)
			continue
		}
		hdr.Add("Vary", "Accept-Encoding")
		serveContent(w, r, enc.coding, sfi.ModTime(), sfi.Size(), f)
		f.Close()
		return
	}
	if vary {
		hdr.Add("Vary", "Accept-Encoding")
	}

	if gzippable && acceptsEncoding(ae, "gzip") {
		data, err := h.gz.get(root, name, fi)
		if err == nil {
			serveContent(w, r, "gzip", fi.ModTime(), int64(len(data)), bytes.NewReader(data))
			return
		}
		h.logf("gzip %s: %v; serving it uncompressed", name, err)
	}

	f, ofi, err := openRegular(root, name)
	if err != nil {
		notFound(w)
		return
	}
	defer f.Close()
	serveContent(w, r, "", ofi.ModTime(), ofi.Size(), f)
}

// fresh reports whether the sibling sfi may stand for the file fi: one
// older than the file is left over from an earlier build.
func fresh(sfi, fi fs.FileInfo) bool {
	return sfi.Mode().IsRegular() && !sfi.ModTime().Before(fi.ModTime())
}

// serveContent serves body, the size bytes of a file's representation in
// the content coding ("" for identity), with http.ServeContent: it answers
// If-Match, If-Unmodified-Since, If-None-Match, If-Modified-Since, If-Range
// and Range against the representation's own ETag, so a range of a coded
// representation is a range of its coded bytes. Content-Type must be set.
func serveContent(w http.ResponseWriter, r *http.Request, coding string, modtime time.Time, size int64, body io.ReadSeeker) {
	w.Header().Set("Etag", etag(modtime, size, coding))
	if coding != "" {
		w = codedWriter{w, coding}
	}
	http.ServeContent(w, r, "", modtime, body)
}

// immutableCache is the Cache-Control of a versioned file: a year, and no
// revalidation on reload.
const immutableCache = "public, max-age=31536000, immutable"

// hashedName matches a file name that carries a content hash before its
// extension, as in app.3f2a9c1d.wasm: at least 8 hexadecimal digits.
var hashedName = regexp.MustCompile(`\.[0-9a-f]{8,}\.[^./]+$`)

// versioned reports whether the URL u of a file with extension ext names
// one version of it, so that it may be cached for good: its query has a
// non-empty v parameter (app.wasm?v=eee97287) or its name carries a hash
// (app.3f2a9c1d.wasm). HTML never counts: a page is where the versions
// are named, so it must always be revalidated.
func versioned(u *url.URL, ext string) bool {
	if ext == ".html" {
		return false
	}
	return u.Query().Get("v") != "" || hashedName.MatchString(path.Base(u.Path))
}

// logf logs a server-side problem if request logging is on.
func (h *handler) logf(format string, args ...any) {
	if h.log != nil {
		h.log.Printf(format, args...)
	}
}

// cleanPath maps the URL path p to a name for os.Root. It reports whether
// p ended in a slash (dirPath) and whether p is acceptable at all: it must
// start with '/', and every segment must be non-empty, must not start with
// '.' (which rules out "." and "..") and must contain no '\\' or NUL. The
// root itself is ".".
func cleanPath(p string) (name string, dirPath, ok bool) {
	rest, found := strings.CutPrefix(p, "/")
	if !found {
		return "", false, false
	}
	if rest == "" {
		return ".", true, true
	}
	rest, dirPath = strings.CutSuffix(rest, "/")
	for seg := range strings.SplitSeq(rest, "/") {
		if seg == "" || seg[0] == '.' || strings.ContainsAny(seg, "\\\x00") {
			return "", false, false
		}
	}
	return rest, dirPath, true
}

// openRegular opens name in root and returns it with its FileInfo if it is
// a regular file.
func openRegular(root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, errors.New("not a regular file")
	}
	return f, fi, nil
}

// notFound writes the 404 response.
func notFound(w http.ResponseWriter) {
	http.Error(w, "404 page not found", http.StatusNotFound)
}

// etag returns a strong entity tag for the version of a file last modified
// at modtime, in the given content coding ("" for identity) and size in that
// coding. The on-the-fly gzip is a function of the file's version; its size
// is in the tag too, so that a change of compressor between runs changes
// the tag as well as the bytes, and a stale If-Range cannot splice them.
func etag(modtime time.Time, size int64, coding string) string {
	t := `"` + strconv.FormatInt(modtime.UnixNano(), 36) + "-" + strconv.FormatInt(size, 36)
	if coding != "" {
		t += "-" + coding
	}
	return t + `"`
}

// loggingWriter records the status and body size of a response for the
// request log.
type loggingWriter struct {
	http.ResponseWriter
	status int
	n      int64
}

func (l *loggingWriter) WriteHeader(code int) {
	if l.status == 0 && code >= 200 {
		l.status = code
	}
	l.ResponseWriter.WriteHeader(code)
}

func (l *loggingWriter) Write(p []byte) (int, error) {
	if l.status == 0 {
		l.status = http.StatusOK
	}
	n, err := l.ResponseWriter.Write(p)
	l.n += int64(n)
	return n, err
}

// ReadFrom keeps the server's sendfile path for ServeContent.
func (l *loggingWriter) ReadFrom(r io.Reader) (int64, error) {
	if l.status == 0 {
		l.status = http.StatusOK
	}
	n, err := io.Copy(l.ResponseWriter, r)
	l.n += n
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (l *loggingWriter) Unwrap() http.ResponseWriter { return l.ResponseWriter }
