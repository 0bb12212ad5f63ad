package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"softmaxdemo/tools/internal/syncbuf"
)

var urlLine = regexp.MustCompile(`^serving (.+) at (http://127\.0\.0\.1:[1-9][0-9]*/)$`)

// startRun starts run with args in a goroutine and returns the printed root
// and URL, a function that cancels run and returns its error, and stderr.
func startRun(t *testing.T, args ...string) (root, url string, stop func() error, stderr *syncbuf.Buffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	stderr = &syncbuf.Buffer{}
	errc := make(chan error, 1)
	go func() {
		err := run(ctx, args, pw, stderr)
		pw.CloseWithError(io.EOF)
		errc <- err
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("reading the URL line: %v (run: %v; stderr %q)", err, <-errc, stderr.String())
	}
	m := urlLine.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
	if m == nil {
		cancel()
		t.Fatalf("stdout line %q does not match %v", line, urlLine)
	}
	stopped := false
	stop = func() error {
		t.Helper()
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-errc:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("run did not return after cancel")
			return nil
		}
	}
	t.Cleanup(func() { stop() })
	return m[1], m[2], stop, stderr
}

func TestRun(t *testing.T) {
	root := newSite(t)
	t.Run("port 0 prints the URL line and serves the root", func(t *testing.T) {
		gotRoot, url, stop, stderr := startRun(t, "-addr", "127.0.0.1:0", "-root", root)
		if gotRoot != root {
			t.Errorf("printed root %q, want %q", gotRoot, root)
		}
		resp, err := http.Get(url + "web/app.wasm")
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/wasm" {
			t.Fatalf("status %d, Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		// The client asked for gzip and decompressed transparently.
		if !resp.Uncompressed || !bytes.Equal(body, siteFiles["web/app.wasm"]) {
			t.Errorf("uncompressed %v, body %d bytes; want gzip of the %d-byte file",
				resp.Uncompressed, len(body), len(siteFiles["web/app.wasm"]))
		}
		if err := stop(); err != nil {
			t.Errorf("run returned %v after cancel, want nil", err)
		}
		if !strings.Contains(stderr.String(), "GET /web/app.wasm 200 ") {
			t.Errorf("stderr has no request log: %q", stderr.String())
		}
		if _, err := http.Get(url); err == nil {
			t.Error("server still answers after shutdown")
		}
	})
	t.Run("quiet logs no requests", func(t *testing.T) {
		_, url, stop, stderr := startRun(t, "-addr", "127.0.0.1:0", "-root", root, "-quiet")
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if s := stderr.String(); s != "" {
			t.Errorf("stderr %q, want nothing", s)
		}
	})
	t.Run("relative root is printed absolute", func(t *testing.T) {
		t.Chdir(filepath.Dir(root))
		gotRoot, _, stop, _ := startRun(t, "-addr", "127.0.0.1:0", "-root", "site", "-quiet")
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if gotRoot != root {
			t.Errorf("printed root %q, want %q", gotRoot, root)
		}
	})
}

func TestRunErrors(t *testing.T) {
	root := newSite(t)
	// A listener that keeps its port busy.
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	tests := []struct {
		name    string
		args    []string
		wantErr error  // checked with errors.Is, if set
		wantMsg string // in the error text, if set
	}{
		{"unknown flag is a usage error", []string{"-bogus"}, errUsage, ""},
		{"extra argument is a usage error", []string{"site"}, errUsage, ""},
		{"help returns flag.ErrHelp", []string{"-h"}, flag.ErrHelp, ""},
		{"missing root is an error", []string{"-root", filepath.Join(root, "nope")}, nil, "no such file"},
		{"file as root is an error", []string{"-root", filepath.Join(root, "index.html")}, nil, "not a directory"},
		{"busy port is an error", []string{"-root", root, "-addr", busy.Addr().String()}, nil, "address already in use"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout bytes.Buffer
			stderr := &syncbuf.Buffer{}
			err := run(t.Context(), tt.args, &stdout, stderr)
			if err == nil {
				t.Fatal("run returned nil")
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("error %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q does not mention %q", err, tt.wantMsg)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout %q, want nothing", stdout.String())
			}
		})
	}
}

func TestSiteURL(t *testing.T) {
	tcp := func(s string) net.Addr {
		a, err := net.ResolveTCPAddr("tcp", s)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	tests := []struct {
		name, flagAddr string
		bound          net.Addr
		want           string
	}{
		{"loopback is shown as is", "127.0.0.1:0", tcp("127.0.0.1:41234"), "http://127.0.0.1:41234/"},
		{"empty host is shown as loopback", ":8080", tcp("[::]:8080"), "http://127.0.0.1:8080/"},
		{"IPv4 wildcard is shown as loopback", "0.0.0.0:8080", tcp("0.0.0.0:8080"), "http://127.0.0.1:8080/"},
		{"IPv6 wildcard is shown as IPv6 loopback", "[::]:8080", tcp("[::]:8080"), "http://[::1]:8080/"},
		{"IPv6 loopback is bracketed", "[::1]:0", tcp("[::1]:5000"), "http://[::1]:5000/"},
		{"localhost is shown as the bound address", "localhost:0", tcp("127.0.0.1:5000"), "http://127.0.0.1:5000/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := siteURL(tt.flagAddr, tt.bound); got != tt.want {
				t.Errorf("siteURL(%q, %v) = %q, want %q", tt.flagAddr, tt.bound, got, tt.want)
			}
		})
	}
}
