package main

import (
	"bufio"
	"context"
	"image"
	"image/color"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"softmaxdemo/tools/internal/syncbuf"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// classLines matches -class's first two lines: the presenter's address
// with its key, and the students'.
var classLines = regexp.MustCompile(`^presenter: (http://127\.0\.0\.1:[1-9][0-9]*/)\?class&key=([0-9a-f]{32})\nstudents: (http://127\.0\.0\.1:[1-9][0-9]*/)\?class\n`)

// startClass runs -class bound to loopback (tests never listen on
// another interface) with args added, until the test ends, and returns
// what it printed once it printed all of it, and its stderr.
func startClass(t *testing.T, args ...string) (out string, stderr *syncbuf.Buffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout := &syncbuf.Buffer{}
	stderr = &syncbuf.Buffer{}
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, append([]string{"-class", "-addr", "127.0.0.1:0", "-quiet"}, args...), stdout, stderr)
	}()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			if err := <-errc; err != nil {
				t.Errorf("run: %v", err)
			}
		}
	}
	t.Cleanup(stop)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stdout.String(), "Ctrl-C stops.") {
		if time.Now().After(deadline) {
			t.Fatalf("-class printed %q (stderr %q)", stdout.String(), stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return stdout.String(), stderr
}

// TestClass runs -class: the presenter's and the students' lines, the
// students' address with a QR code that a decoder other than the encoder
// reads back as that address (never with the key), what the network must
// allow, the class's paths, and the site's rules as without -class.
func TestClass(t *testing.T) {
	root := newSite(t)
	dir := filepath.Join(t.TempDir(), "class")
	out, _ := startClass(t, "-root", root, "-class-dir", dir)
	m := classLines.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the first lines of\n%s\ndo not match %v", out, classLines)
	}
	base, key, students := m[1], m[2], m[3]+"?class"
	if m[3] != base {
		t.Errorf("the students' address %s is not the presenter's %s on loopback", m[3], base)
	}
	rest := out[len(m[0]):]
	if !strings.Contains(rest, "The class opens "+students+" ") {
		t.Errorf("the class's address is not %s:\n%s", students, rest)
	}
	for _, s := range []string{"same Wi-Fi", "firewall", "no accounts", "this machine alone", "no offline copy", "Copy link", dir, "delete the folder"} {
		if !strings.Contains(rest, s) {
			t.Errorf("the instructions do not say %q:\n%s", s, rest)
		}
	}
	if strings.Contains(rest, key) {
		t.Errorf("the key is printed again after the presenter's line:\n%s", rest)
	}
	if got := decodeQRText(t, rest); got != students {
		t.Errorf("the QR code reads %q, want %q", got, students)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "presenter.key")); err != nil || strings.TrimSpace(string(b)) != key {
		t.Errorf("the class's folder keeps the key %q (%v), want %s", b, err, key)
	}
	if fi, err := os.Stat(filepath.Join(dir, "presenter.key")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the key's file: %v, %v; want mode 0600", fi.Mode(), err)
	}

	if got := fetchBody(t, strings.TrimSuffix(base, "/")+"/class/address?key="+key); got != students {
		t.Errorf("GET /class/address = %q, want the students' address %q", got, students)
	}

	for _, tt := range []struct {
		path, encoding string
		status         int
		ctype          string
	}{
		{"/", "", http.StatusOK, "text/html; charset=utf-8"},
		{"/web/app.wasm", "gzip", http.StatusOK, "application/wasm"},
		{"/web/pre.js", "br", http.StatusOK, "text/javascript; charset=utf-8"}, // its .br copy
		{"/web/", "", http.StatusNotFound, ""},                                 // no listing
		{"/../site", "", http.StatusNotFound, ""},                              // no traversal
		{"/.git/config", "", http.StatusNotFound, ""},
		{"/class/presenter.key", "", http.StatusNotFound, "application/json"}, // the class's paths, none a file
		{"/class/theta", "", http.StatusNotFound, "application/json"},         // no θ yet
		{"/class/digits.npz", "", http.StatusForbidden, "application/json"},   // without the key
		{"/class/digits.npz?key=" + key, "", http.StatusOK, "application/octet-stream"},
		{"/class/address", "", http.StatusForbidden, "application/json"},
		{"/class/address?key=" + key, "", http.StatusOK, "text/plain; charset=utf-8"},
	} {
		req, _ := http.NewRequest(http.MethodGet, strings.TrimSuffix(base, "/")+tt.path, nil)
		if tt.encoding != "" {
			req.Header.Set("Accept-Encoding", tt.encoding)
		}
		resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("%s: status %d, want %d", tt.path, resp.StatusCode, tt.status)
		}
		if tt.ctype != "" && resp.Header.Get("Content-Type") != tt.ctype {
			t.Errorf("%s: Content-Type %q, want %q", tt.path, resp.Header.Get("Content-Type"), tt.ctype)
		}
		if tt.status == http.StatusOK && tt.encoding != "" && resp.Header.Get("Content-Encoding") != tt.encoding {
			t.Errorf("%s with Accept-Encoding %s: Content-Encoding %q", tt.path, tt.encoding, resp.Header.Get("Content-Encoding"))
		}
	}
	req, _ := http.NewRequest(http.MethodPut, base+"index.html", strings.NewReader("x"))
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else if resp.Body.Close(); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("PUT: status %d, want %d: the site is read-only", resp.StatusCode, http.StatusMethodNotAllowed)
	}
}

// TestClassStreamThroughTheServer: a phone's event stream through the
// server's handler and its request log, flushed event by event; without
// -class there are no class paths.
func TestClassStreamThroughTheServer(t *testing.T) {
	root := newSite(t)
	out, stderr := startClass(t, "-root", root, "-class-dir", t.TempDir(), "-quiet=false")
	m := classLines.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("printed %q", out)
	}
	resp, err := http.Get(m[1] + "class/events?id=3f0c0000000000000000000000000001")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("the stream: %s, %q", resp.Status, resp.Header.Get("Content-Type"))
	}
	lines := make(chan string, 16)
	go func() {
		r := bufio.NewReader(resp.Body)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- line
		}
	}()
	var got []string
	for !slices.Contains(got, "event: hello\n") || !strings.HasPrefix(got[len(got)-1], "data: ") {
		select {
		case line := <-lines:
			got = append(got, line)
		case <-time.After(10 * time.Second):
			t.Fatalf("the stream gave %q and no hello: not flushed", got)
		}
	}
	if !strings.HasPrefix(got[0], "retry: ") {
		t.Errorf("the stream starts with %q", got[0])
	}
	if resp, err := http.Get(m[1] + "class/theta?key=" + m[2]); err == nil {
		resp.Body.Close()
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stderr.String(), "GET /class/theta 404") {
		if time.Now().After(deadline) {
			t.Fatalf("the class's requests are not logged: %q", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if strings.Contains(stderr.String(), m[2]) {
		t.Errorf("the log shows the key: %q", stderr.String())
	}

	_, url, _, _ := startRun(t, "-addr", "127.0.0.1:0", "-root", root, "-quiet")
	if resp, err := http.Get(url + "class/events?id=3f0c0000000000000000000000000001"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("without -class, the class's stream: %v %v", resp.Status, err)
	}
}

// TestClassKeyOutlivesARestart: a server started again on the same
// folder prints the same key, so that the presenter's page presents
// again; -class-new-key prints another and keeps it.
func TestClassKeyOutlivesARestart(t *testing.T) {
	root := newSite(t)
	dir := t.TempDir()
	keyOf := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		stdout, errc := &syncbuf.Buffer{}, make(chan error, 1)
		go func() {
			errc <- run(ctx, append([]string{"-class", "-addr", "127.0.0.1:0", "-quiet", "-root", root, "-class-dir", dir}, args...), stdout, io.Discard)
		}()
		for !strings.Contains(stdout.String(), "Ctrl-C stops.") {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
		m := classLines.FindStringSubmatch(stdout.String())
		if m == nil {
			t.Fatalf("printed %q", stdout.String())
		}
		return m[2]
	}
	first := keyOf()
	if again := keyOf(); again != first {
		t.Errorf("restarted, the key is %s, was %s", again, first)
	}
	fresh := keyOf("-class-new-key")
	if fresh == first {
		t.Error("-class-new-key printed the same key")
	}
	if again := keyOf(); again != fresh {
		t.Errorf("after -class-new-key, the key is %s, want the new %s", again, fresh)
	}
}

// TestClassFolderInsideTheRootIsNotServed: the class's folder inside the
// site's root is no file of the site, whatever its letters' case.
func TestClassFolderInsideTheRootIsNotServed(t *testing.T) {
	root := newSite(t)
	dir := filepath.Join(root, "web", "lesson-3")
	out, _ := startClass(t, "-root", root, "-class-dir", dir)
	m := classLines.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("printed %q", out)
	}
	for _, p := range []string{"web/lesson-3/presenter.key", "web/Lesson-3/presenter.key", "web/lesson-3/drawings.bin", "web/lesson-3/"} {
		resp, err := http.Get(m[1] + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, resp.StatusCode)
		}
	}
	if resp, err := http.Get(m[1] + "web/pre.js"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("the rest of web/ is not served: %v %v", resp, err)
	}
}

// ansi matches the terminal's colour codes around the QR code's lines.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// decodeQRText reads the QR code qrText drew in out back into modules,
// two per character (▀ ▄ █ or a space), and decodes it with gozxing.
func decodeQRText(t *testing.T, out string) string {
	t.Helper()
	var rows [][]bool
	for _, line := range strings.Split(out, "\n") {
		if !strings.Contains(line, "\x1b[30;47m") {
			continue
		}
		line = ansi.ReplaceAllString(strings.TrimPrefix(line, "  "), "")
		var top, bottom []bool
		for _, r := range line {
			top = append(top, r == '█' || r == '▀')
			bottom = append(bottom, r == '█' || r == '▄')
		}
		rows = append(rows, top, bottom)
	}
	if len(rows) == 0 {
		t.Fatal("no QR code in the output")
	}
	const scale = 4
	img := image.NewGray(image.Rect(0, 0, len(rows[0])*scale, len(rows)*scale))
	for y, row := range rows {
		for x, dark := range row {
			c := color.Gray{255}
			if dark {
				c = color.Gray{0}
			}
			for dy := range scale {
				for dx := range scale {
					img.SetGray(x*scale+dx, y*scale+dy, c)
				}
			}
		}
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	got, err := qrcode.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		t.Fatalf("decoding the QR code: %v", err)
	}
	return got.GetText()
}

func TestUsableAddresses(t *testing.T) {
	addrs := []lanAddress{
		{"docker0", net.ParseIP("172.17.0.1")},
		{"eth1", net.ParseIP("203.0.113.9")},
		{"wlan0", net.ParseIP("192.168.1.23")},
		{"wlan0", net.ParseIP("fe80::1")},
		{"eth2", net.ParseIP("169.254.10.1")},
		{"lo", net.ParseIP("127.0.0.1")},
		{"wlan0", net.ParseIP("2001:db8::1")},
	}
	var got []string
	for _, a := range usable(addrs) {
		got = append(got, a.iface+" "+a.ip.String())
	}
	want := []string{"docker0 172.17.0.1", "wlan0 192.168.1.23", "eth1 203.0.113.9"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("usable addresses %v, want %v: IPv4 only, private first, no loopback or link-local", got, want)
	}
}

func TestClassURL(t *testing.T) {
	lan := []lanAddress{{"wlan0", net.ParseIP("192.168.1.23").To4()}}
	bound := &net.TCPAddr{IP: net.IPv4zero, Port: 8080}
	for _, tt := range []struct {
		flag  string
		bound net.Addr
		lan   []lanAddress
		want  string
	}{
		{":8080", bound, lan, "http://192.168.1.23:8080/"},
		{"0.0.0.0:8080", bound, lan, "http://192.168.1.23:8080/"},
		{":8080", bound, nil, "http://127.0.0.1:8080/"},
		{"127.0.0.1:0", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 41234}, lan, "http://127.0.0.1:41234/"},
		{"192.168.1.23:9000", &net.TCPAddr{IP: net.IPv4(192, 168, 1, 23), Port: 9000}, lan, "http://192.168.1.23:9000/"},
	} {
		if got := classURL(tt.flag, tt.bound, tt.lan); got != tt.want {
			t.Errorf("classURL(%q, %v) = %q, want %q", tt.flag, tt.bound, got, tt.want)
		}
	}
}

// fetchBody returns the body of a GET of u, failing unless it is a 200.
func fetchBody(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %s", u, resp.Status, b)
	}
	return string(b)
}
