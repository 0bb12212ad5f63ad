package browsertest

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"softmaxdemo/tools/internal/headless"

	"github.com/chromedp/chromedp"
)

// classHost is the name the classroom test's browser gives the loopback
// address: not "localhost" nor an IP of loopback, which browsers treat as
// secure, so that the page is on a plain-HTTP address as on a teacher's
// laptop on the room's Wi-Fi.
const classHost = "classroom.test"

// TestClassroomServerOnPlainHTTP serves the site with tools/serve -class
// (bound to loopback: tests listen on no other interface) and opens it
// at http://classroom.test:<port>/, which the browser resolves to
// loopback and, not being localhost, treats as an insecure context: no
// service worker, no clipboard, no crypto.subtle, as a phone on the
// room's Wi-Fi sees the teacher's laptop. The page must get ready and
// train all the same, Copy link must show the link in a selected field
// and say to copy it from there, and the lesson's QR code must carry the
// classroom address.
func TestClassroomServerOnPlainHTTP(t *testing.T) {
	needBrowser(t)
	port := startClassServer(t)
	url := "http://" + classHost + ":" + port + "/"

	opts := append(headless.Options(chrome, t.TempDir()), chromedp.WindowSize(1400, 1100),
		chromedp.Flag("host-resolver-rules", "MAP "+classHost+" 127.0.0.1"))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	ctx, cancelT := context.WithTimeout(ctx, 4*time.Minute)
	h := &browserHandle{}
	openBrowsers.Add(1)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA(); h.close() })
	beforeScripts(t, ctx, commandLog)
	beforeScripts(t, ctx, fullPageView)

	if err := chromedp.Do(ctx, chromedp.Navigate(url+"#lang=en")); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, 90*time.Second, "ready")
	env, err := eval[struct{ Secure, ServiceWorker, Subtle bool }](ctx, `({secure: isSecureContext, serviceWorker: "serviceWorker" in navigator, subtle: !!(globalThis.crypto && crypto.subtle)})`)
	if err != nil {
		t.Fatal(err)
	}
	if env.Secure || env.ServiceWorker || env.Subtle {
		t.Fatalf("http://%s is a secure context (%+v): the test would not see what a phone on the room's Wi-Fi sees", classHost, env)
	}
	trainDefault(t, ctx)

	click(t, ctx, "copy-link")
	status := waitAttrText(t, ctx, "#copy-link-status")
	if !strings.Contains(status, "Copy the link from here") {
		t.Errorf("Copy link says %q, want that the link is to be copied by hand", status)
	}
	field, err := eval[struct {
		Value, Href string
		Start, End  int
	}](ctx, `(() => { const e = document.getElementById("link"); return {value: e.value, href: location.href, start: e.selectionStart, end: e.selectionEnd}; })()`)
	if err != nil {
		t.Fatal(err)
	}
	if field.Value != field.Href || !strings.HasPrefix(field.Value, url) {
		t.Errorf("the field shows %q, the page is at %q", field.Value, field.Href)
	}
	if field.Start != 0 || field.End != len(field.Value) {
		t.Errorf("the field's text is selected from %d to %d of %d, want all of it, ready to copy", field.Start, field.End, len(field.Value))
	}

	// A new load (another query), not a link pasted into the open page.
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"?class#lesson=1&lang=en")); err != nil {
		t.Fatal(err)
	}
	waitState(t, ctx, 90*time.Second, "ready")
	waitChapter(t, ctx, 1)
	click(t, ctx, "lesson-qr-show")
	link := waitAttr(t, ctx, 10*time.Second, "#lesson-qr", "data-link", func(v string) bool { return v != "" && v != "<missing>" })
	if !strings.HasPrefix(link, url) {
		t.Errorf("the lesson's QR code carries %q, want the classroom address %s", link, url)
	}
}

// waitAttrText waits until the element sel has text, and returns it.
func waitAttrText(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	var text string
	if !eventually(5*time.Second, func() bool {
		text, _ = eval[string](ctx, `(document.querySelector("`+sel+`")||{}).textContent||""`)
		return text != ""
	}) {
		t.Fatalf("%s shows no text", sel)
	}
	return text
}

// classLine is tools/serve -class's first line, the presenter's address
// with its key.
var classLine = regexp.MustCompile(`^presenter: http://127\.0\.0\.1:([0-9]+)/\?class&key=[0-9a-f]{32}$`)

// startClassServer builds tools/serve and runs it with -class on a free
// port of loopback, serving the repository, with the class's folder in
// the test's temporary folder, and returns the port.
func startClassServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "serve")
	if out, err := exec.Command("go", "build", "-o", bin, "../serve").CombinedOutput(); err != nil {
		t.Fatalf("building tools/serve: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-class", "-addr", "127.0.0.1:0", "-root", root, "-quiet", "-class-dir", t.TempDir())
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	r := bufio.NewReader(stdout)
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("reading the server's address: %v", err)
	}
	m := classLine.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		t.Fatalf("tools/serve -class printed %q", line)
	}
	go io.Copy(io.Discard, r) // the students' address, the class's instructions and QR code
	return m[1]
}
