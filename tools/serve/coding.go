package main

import (
	"io"
	"net/http"
	"strconv"
	"strings"
)

// codings are the precompressed siblings a file may have, preferred first.
var codings = [...]struct{ coding, suffix string }{{"br", ".br"}, {"gzip", ".gz"}}

// acceptsEncoding reports whether the Accept-Encoding field values allow the
// content coding (RFC 9110 §12.5.3): an entry for it, or else "*", with a
// q-value above 0. "x-gzip" counts as "gzip".
func acceptsEncoding(values []string, coding string) bool {
	q, star := -1.0, -1.0
	for _, v := range values {
		for entry := range strings.SplitSeq(v, ",") {
			name, params, _ := strings.Cut(entry, ";")
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			w := 1.0
			for p := range strings.SplitSeq(params, ";") {
				k, val, _ := strings.Cut(p, "=")
				if strings.EqualFold(strings.TrimSpace(k), "q") {
					f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
					if err != nil || f < 0 {
						f = 0
					}
					w = f
				}
			}
			switch {
			case strings.EqualFold(name, coding),
				coding == "gzip" && strings.EqualFold(name, "x-gzip"):
				q = max(q, w)
			case name == "*":
				star = max(star, w)
			}
		}
	}
	if q >= 0 {
		return q > 0
	}
	return star > 0
}

// codedWriter sets Content-Encoding on a 200 or 206 as it is written.
// Told in advance, ServeContent would leave out a whole response's
// Content-Length, and a 412, which has no body, would carry the coding.
type codedWriter struct {
	http.ResponseWriter
	coding string
}

func (c codedWriter) WriteHeader(code int) {
	if code == http.StatusOK || code == http.StatusPartialContent {
		c.Header().Set("Content-Encoding", c.coding)
	}
	c.ResponseWriter.WriteHeader(code)
}

// ReadFrom keeps the server's sendfile path for a precompressed sibling.
func (c codedWriter) ReadFrom(r io.Reader) (int64, error) { return io.Copy(c.ResponseWriter, r) }

// Unwrap lets http.ResponseController reach the underlying writer.
func (c codedWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
