package browsertest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"softmaxdemo/tools/internal/headless"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// presenterLine is tools/serve -class's first line: the presenter's
// address, with its key.
var presenterLine = regexp.MustCompile(`^presenter: (http://127\.0\.0\.1:([0-9]+)/\?class&key=[0-9a-f]{32})$`)

// classServer is tools/serve -class on a loopback port, which a test can
// stop and start again on the same port and folder, as a teacher's laptop
// restarted mid-lesson.
type classServer struct {
	t         testing.TB
	bin, dir  string
	presenter string // the presenter's address, with its key
	students  string // the students' address
	port      string
	cmd       *exec.Cmd
}

// startClass builds tools/serve and runs it with -class on a free
// loopback port.
func startClass(t testing.TB) *classServer {
	t.Helper()
	s := &classServer{t: t, bin: filepath.Join(t.TempDir(), "serve"), dir: t.TempDir()}
	if out, err := exec.Command("go", "build", "-o", s.bin, "../serve").CombinedOutput(); err != nil {
		t.Fatalf("building tools/serve: %v\n%s", err, out)
	}
	s.start("127.0.0.1:0")
	t.Cleanup(s.stop)
	return s
}

func (s *classServer) start(addr string) {
	t := s.t
	t.Helper()
	s.cmd = exec.Command(s.bin, "-class", "-addr", addr, "-root", root, "-quiet", "-class-dir", s.dir)
	s.cmd.Stderr = os.Stderr
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(stdout)
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("reading the server's address: %v", err)
	}
	m := presenterLine.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		t.Fatalf("tools/serve -class printed %q", line)
	}
	if s.presenter != "" && m[1] != s.presenter {
		t.Fatalf("restarted, the server gives the presenter %s, not %s: its folder keeps the key", m[1], s.presenter)
	}
	s.presenter, s.port = m[1], m[2]
	line, err = r.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "students: ") {
		t.Fatalf("tools/serve -class printed %q after the presenter's line (%v)", line, err)
	}
	s.students = strings.TrimSpace(strings.TrimPrefix(line, "students: "))
	go io.Copy(io.Discard, r)
}

func (s *classServer) stop() {
	if s.cmd != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
		s.cmd = nil
	}
}

// restart stops the server and starts it again on the same port and
// folder.
func (s *classServer) restart() {
	s.stop()
	s.start("127.0.0.1:" + s.port)
}

// classPage is one page of a class: the projector's or a phone's, each in
// a browser context of its own (its own storage, so its own phone id) in
// one browser.
type classPage struct {
	name  string
	ctx   context.Context
	close context.CancelFunc // closes its tab
}

// streamLog keeps the class's streams opened and the events they
// delivered, the latest last (softmaxStreamLog), for a failure to show.
const streamLog = `(() => {
  const E = globalThis.EventSource;
  const log = (globalThis.softmaxStreamLog = []);
  globalThis.EventSource = function (u) {
    log.push("open " + u);
    const e = new E(u);
    const add = e.addEventListener.bind(e);
    e.addEventListener = (n, f) => add(n, (ev) => { log.push(n + " " + ev.data.slice(0, 80)); f(ev); });
    return e;
  };
})();`

// waitClass waits until js, evaluated on the page, is true, and fails
// with what #class says if it never is.
func (c classPage) waitClass(t testing.TB, d time.Duration, what, js string) {
	t.Helper()
	if !eventually(d, func() bool {
		ok, err := eval[bool](c.ctx, js)
		return err == nil && ok
	}) {
		bar, _ := eval[string](c.ctx, `(() => { const e = document.getElementById("class"); return (e ? e.outerHTML : "no #class") + " " + (document.getElementById("class-pad-panel")?.innerText || "").replace(/\s+/g, " ") + " events: " + JSON.stringify((globalThis.softmaxStreamLog || []).slice(-12)); })()`)
		t.Fatalf("%s: %s never came: %s", c.name, what, bar)
	}
}

func (c classPage) attr(t testing.TB, sel, name string) string { return attr(t, c.ctx, sel, name) }

// classBrowser starts one browser for a class's pages, which resolves
// classHost to loopback, and returns how to open a page in it: each in a
// browser context of its own, a phone's on a phone's screen with touch,
// once ready.
func classBrowser(t testing.TB) func(name, url string, phone bool) classPage {
	t.Helper()
	opts := append(headless.Options(chrome, t.TempDir()), chromedp.WindowSize(1400, 1100),
		chromedp.Flag("host-resolver-rules", "MAP "+classHost+" 127.0.0.1"))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelB := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	bctx, cancelT := context.WithTimeout(bctx, 5*time.Minute)
	h := &browserHandle{}
	openBrowsers.Add(1)
	t.Cleanup(func() { cancelT(); cancelB(); cancelA(); h.close() })
	if err := chromedp.Do(bctx); err != nil { // the browser starts
		t.Fatal(err)
	}
	return func(name, url string, phone bool) classPage {
		t.Helper()
		ctx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
		t.Cleanup(cancel)
		beforeScripts(t, ctx, commandLog)
		beforeScripts(t, ctx, streamLog)
		if phone {
			screen(t, ctx, 390, 844, true)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
			t.Fatal(err)
		}
		waitState(t, ctx, 90*time.Second, "ready")
		return classPage{name: name, ctx: ctx, close: cancel}
	}
}

// TestClassFollowsTheProjector is a class: the projector's page (the
// presenter's address, with its key) and three phones (touch, a phone's
// screen, the students' address on plain HTTP) join; the phones follow
// two chapter changes with the projector's θ, bit for bit (data-theta);
// they answer the first chapter's question and the projector counts the
// answers (#class-answers); one phone goes offline, changes its answer
// and comes back: it follows again, and its answer is counted once; the
// projector reveals the answer on every phone; a phone that went its own
// way comes back with #class-rejoin; the server restarts, and the class
// goes on; the projector's tab closes, and the phones wait for it.
func TestClassFollowsTheProjector(t *testing.T) {
	needBrowser(t)
	srv := startClass(t)
	presenterURL, port := srv.presenter, srv.port
	studentURL := "http://" + classHost + ":" + port + "/?class#lang=en"

	open := classBrowser(t)

	proj := open("projector", presenterURL+"#lang=en", false)
	proj.waitClass(t, 30*time.Second, "presenting", `document.getElementById("class")?.dataset.role === "presenter" && document.getElementById("class")?.dataset.state === "joined"`)
	if href, _ := eval[string](proj.ctx, `location.href`); strings.Contains(href, "key=") {
		t.Errorf("the presenter's key is still in the address bar: %s", href)
	}
	// A model to follow: the projector trains a few steps.
	setField(t, proj.ctx, "epochs", "1")
	click(t, proj.ctx, "train")
	waitState(t, proj.ctx, 90*time.Second, "done")

	click(t, proj.ctx, "lesson-toggle") // the lesson's first chapter
	proj.waitClass(t, 10*time.Second, "chapter 1", `document.getElementById("lesson")?.dataset.chapter === "1"`)
	// The projector's QR code carries the students' address, not its own
	// (loopback, and its key).
	click(t, proj.ctx, "lesson-qr-show")
	if link := waitAttr(t, proj.ctx, 10*time.Second, "#lesson-qr", "data-link", func(v string) bool { return v != "" && v != "<missing>" }); !strings.HasPrefix(link, srv.students+"#") || strings.Contains(link, "key=") {
		t.Errorf("the projector's QR code carries %s, want the students' address %s with the chapter's fragment", link, srv.students)
	}
	click(t, proj.ctx, "lesson-qr-close")

	// Phone 3 reaches the server through a link that can drop.
	wifi := newDropper(t, "127.0.0.1:"+port)
	phones := []classPage{open("phone 1", studentURL, true), open("phone 2", studentURL, true),
		open("phone 3", "http://"+classHost+":"+wifi.port()+"/?class#lang=en", true)}
	proj.waitClass(t, 30*time.Second, "three phones joined", `document.getElementById("class")?.dataset.students === "3"`)

	theta := func() string { return proj.attr(t, "#class", "data-theta") }
	if theta() == "" {
		t.Fatal("the projector shows no θ's checksum")
	}
	follows := func(chapter string) {
		t.Helper()
		for _, p := range phones {
			p.waitClass(t, 30*time.Second, "chapter "+chapter+" with the projector's θ "+theta(),
				`document.getElementById("lesson")?.dataset.chapter === "`+chapter+`" && document.getElementById("class")?.dataset.theta === "`+theta()+`" && document.getElementById("class")?.dataset.state === "joined"`)
		}
	}
	follows("1")
	for _, want := range []string{"2", "3"} {
		if err := chromedp.Do(proj.ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
		proj.waitClass(t, 10*time.Second, "chapter "+want, `document.getElementById("lesson")?.dataset.chapter === "`+want+`"`)
		follows(want)
	}
	// Back to the first chapter, whose question the class answers.
	for range 2 {
		if err := chromedp.Do(proj.ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
			t.Fatal(err)
		}
	}
	follows("1")
	counts := func() map[string]int {
		var c map[string]int
		json.Unmarshal([]byte(proj.attr(t, "#class-answers", "data-counts")), &c)
		return c
	}
	proj.waitClass(t, 10*time.Second, "#class-answers", `!!document.getElementById("class-answers")`)
	for i, choice := range []string{"0", "1", "1"} {
		tapChoice(t, phones[i], choice)
	}
	proj.waitClass(t, 10*time.Second, `counts {"0":1,"1":2,"2":0}`, `document.getElementById("class-answers")?.dataset.counts === '{"0":1,"1":2,"2":0}'`)

	// Phone 3 goes offline, changes its answer, and comes back.
	p3 := phones[2]
	wifi.drop(true)
	p3.waitClass(t, 15*time.Second, "reconnecting", `document.getElementById("class")?.dataset.state === "reconnecting"`)
	tapChoice(t, p3, "2")
	time.Sleep(2 * time.Second) // its requests fail meanwhile
	if c := counts(); c["2"] != 0 {
		t.Fatalf("an offline phone's answer was counted: %v", c)
	}
	wifi.drop(false)
	proj.waitClass(t, 30*time.Second, `counts {"0":1,"1":1,"2":1}`, `document.getElementById("class-answers")?.dataset.counts === '{"0":1,"1":1,"2":1}'`)
	// The teacher reveals the answer with a choice on the projector: every
	// phone shows it, and takes no more answers.
	tapChoice(t, proj, "1")
	for _, p := range phones {
		p.waitClass(t, 10*time.Second, "the answer revealed", `document.querySelector("[data-predict]")?.dataset.state === "answered" && !document.querySelector("[data-answer]").hidden`)
	}
	// It follows again: the next chapter, with the same θ.
	if err := chromedp.Do(proj.ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	follows("2")

	// Phone 1 goes its own way, and comes back with one button.
	click(t, phones[0].ctx, "lesson-next")
	phones[0].waitClass(t, 10*time.Second, "alone in chapter 3", `document.getElementById("class")?.dataset.state === "alone" && document.getElementById("lesson")?.dataset.chapter === "3"`)
	if err := chromedp.Do(proj.ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	proj.waitClass(t, 10*time.Second, "chapter 1", `document.getElementById("lesson")?.dataset.chapter === "1"`)
	time.Sleep(time.Second) // a phone alone does not follow
	if ch := phones[0].attr(t, "#lesson", "data-chapter"); ch != "3" {
		t.Fatalf("a phone looking around alone followed the projector to chapter %s", ch)
	}
	click(t, phones[0].ctx, "class-rejoin")
	follows("1")

	// The teacher's laptop restarts mid-lesson: every page reconnects by
	// itself, the projector presents again, and the phones follow it.
	srv.restart()
	if err := chromedp.Do(proj.ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	proj.waitClass(t, 30*time.Second, "presenting again", `document.getElementById("class")?.dataset.state === "joined" && document.getElementById("lesson")?.dataset.chapter === "2"`)
	follows("2")

	// The projector's page is left for another, and comes back: the phones
	// wait for the teacher meanwhile, and follow again.
	waiting := func() {
		t.Helper()
		for _, p := range phones {
			p.waitClass(t, 30*time.Second, "waiting for the teacher", `document.getElementById("class")?.dataset.state === "waiting"`)
		}
	}
	if err := chromedp.Do(proj.ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	waiting()
	if _, err := eval[bool](proj.ctx, `(history.back(), true)`); err != nil { // from the back-forward cache, or loaded again
		t.Fatal(err)
	}
	for _, p := range phones {
		p.waitClass(t, 30*time.Second, "the teacher back", `document.getElementById("class")?.dataset.state === "joined"`)
	}
	// The projector's tab closes: the class stays, and the phones say they
	// wait for the teacher.
	proj.close()
	waiting()
}

// tapChoice taps a choice of the chapter's question on a phone.
func tapChoice(t *testing.T, p classPage, choice string) {
	t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Click(`[data-predict] [data-choice="`+choice+`"]`)); err != nil {
		t.Fatalf("%s: tapping choice %s: %v", p.name, choice, err)
	}
}

// dropper is a TCP proxy to the class's server that can drop every
// connection through it and refuse new ones, as a phone's Wi-Fi drops,
// and let them through again.
type dropper struct {
	ln       net.Listener
	upstream string
	mu       sync.Mutex
	down     bool
	conns    map[net.Conn]struct{}
}

func newDropper(t *testing.T, upstream string) *dropper {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d := &dropper{ln: ln, upstream: upstream, conns: map[net.Conn]struct{}{}}
	t.Cleanup(func() { ln.Close(); d.drop(true) })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go d.serve(c)
		}
	}()
	return d
}

// port is the proxy's port.
func (d *dropper) port() string { return strconv.Itoa(d.ln.Addr().(*net.TCPAddr).Port) }

func (d *dropper) serve(c net.Conn) {
	d.mu.Lock()
	if d.down {
		d.mu.Unlock()
		c.Close()
		return
	}
	up, err := net.Dial("tcp", d.upstream)
	if err != nil {
		d.mu.Unlock()
		c.Close()
		return
	}
	d.conns[c], d.conns[up] = struct{}{}, struct{}{}
	d.mu.Unlock()
	go func() { io.Copy(up, c); up.Close() }()
	io.Copy(c, up)
	c.Close()
	d.mu.Lock()
	delete(d.conns, c)
	delete(d.conns, up)
	d.mu.Unlock()
}

// drop cuts every connection and refuses new ones (on), or lets them
// through again.
func (d *dropper) drop(on bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.down = on
	if on {
		for c := range d.conns {
			c.Close()
		}
	}
}

// TestClassDigits is the class's own digits: three phones (touch, a
// phone's screen) each draw a digit with a finger, label it and send it;
// the projector's #class-digits counts them and reads them with its
// model (data-label, data-predicted on each); a confusion cell opens its
// drawings; the teacher removes one; and training on the class's digits
// makes them the instrument's my digits.
func TestClassDigits(t *testing.T) {
	needBrowser(t)
	srv := startClass(t)
	open := classBrowser(t)
	proj := open("projector", srv.presenter+"#lang=en&epochs=1", false)
	proj.waitClass(t, 30*time.Second, "presenting", `document.getElementById("class")?.dataset.state === "joined"`)
	click(t, proj.ctx, "train")
	waitState(t, proj.ctx, 90*time.Second, "done")
	student := "http://" + classHost + ":" + srv.port + "/?class#lang=en"
	sent := []struct {
		label   string
		strokes [][][2]float64
	}{{"2", strokeTwo}, {"3", strokeThree}, {"6", strokeSix}}
	for i, s := range sent {
		p := open(fmt.Sprintf("phone %d", i+1), student, true)
		p.waitClass(t, 30*time.Second, "following", `document.getElementById("class")?.dataset.state === "joined"`)
		drawWithFingerOn(t, p.ctx, "class-pad", s.strokes...)
		p.waitClass(t, 10*time.Second, "ink read by the projector's model", `document.getElementById("class-pad")?.dataset.read !== "-1"`)
		click(t, p.ctx, "class-label-"+s.label)
		p.waitClass(t, 10*time.Second, "label "+s.label+" chosen", `document.getElementById("class-label-`+s.label+`")?.getAttribute("aria-pressed") === "true" && !document.getElementById("class-send").disabled`)
		click(t, p.ctx, "class-send")
		p.waitClass(t, 10*time.Second, "sent", `document.getElementById("class-send")?.dataset.state === "sent"`)
	}
	proj.waitClass(t, 10*time.Second, "three drawings", `document.getElementById("class-digits")?.dataset.count === "3"`)
	type drawing struct{ N, Label, Predicted string }
	drawings := func() []drawing {
		s, err := eval[string](proj.ctx, `JSON.stringify([...document.querySelectorAll("#class-drawings [data-n]")].map(e => ({N: e.dataset.n, Label: e.dataset.label, Predicted: e.dataset.predicted})))`)
		if err != nil {
			t.Fatal(err)
		}
		var ds []drawing
		json.Unmarshal([]byte(s), &ds)
		return ds
	}
	ds := drawings()
	labels := map[string]bool{}
	right := 0
	for _, d := range ds {
		labels[d.Label] = true
		if d.Predicted < "0" || d.Predicted > "9" {
			t.Errorf("drawing %s was not read: data-predicted %q", d.N, d.Predicted)
		}
		if d.Predicted == d.Label {
			right++
		}
	}
	if len(ds) != 3 || !labels["2"] || !labels["3"] || !labels["6"] {
		t.Fatalf("the projector shows %+v, want the three drawings labelled 2, 3 and 6", ds)
	}
	if acc := proj.attr(t, "#class-digits", "data-accuracy"); acc != strconv.FormatFloat(float64(right)/3, 'g', -1, 64) {
		t.Errorf("data-accuracy %s, want %d/3 (the drawings read right)", acc, right)
	}
	// A confusion cell opens its drawings.
	d := ds[0]
	cell := `#class-confusion td[data-true="` + d.Label + `"][data-predicted="` + d.Predicted + `"] button`
	if err := chromedp.Do(proj.ctx, chromedp.Click(cell)); err != nil {
		t.Fatal(err)
	}
	proj.waitClass(t, 10*time.Second, "the cell's drawings", `document.getElementById("class-drawings")?.dataset.cell === "`+d.Label+","+d.Predicted+`"`)
	for _, o := range drawings() {
		if o.Label != d.Label || o.Predicted != d.Predicted {
			t.Errorf("cell %s,%s shows drawing %+v", d.Label, d.Predicted, o)
		}
	}
	click(t, proj.ctx, "class-all")
	proj.waitClass(t, 10*time.Second, "every drawing", `!document.getElementById("class-drawings")?.dataset.cell && document.querySelectorAll("#class-drawings [data-n]").length === 3`)
	// The teacher removes one.
	if err := chromedp.Do(proj.ctx, chromedp.Click(`[data-remove="`+d.N+`"]`)); err != nil {
		t.Fatal(err)
	}
	proj.waitClass(t, 10*time.Second, "two drawings", `document.getElementById("class-digits")?.dataset.count === "2"`)
	for _, o := range drawings() {
		if o.N == d.N {
			t.Errorf("drawing %s is still shown after its removal", d.N)
		}
	}
	// Train on them: they become my digits.
	click(t, proj.ctx, "class-train")
	proj.waitClass(t, 10*time.Second, "two of my digits", `document.getElementById("my-digits")?.dataset.count === "2"`)
	proj.waitClass(t, 10*time.Second, "what training on them changes", `(document.getElementById("class-trained")?.textContent || "").startsWith("Before training on the class's digits")`)
}

// TestClassLinesInThePlane is the class in the plane: the projector opens
// the hand chapter, three phones follow, each sets its own line by typing
// θ and sends it (#plane-send); the projector's #plane-class draws the
// three lines (data-lines) with their J, each the J the phone itself
// shows for its line, on the same data.
func TestClassLinesInThePlane(t *testing.T) {
	needBrowser(t)
	srv := startClass(t)
	open := classBrowser(t)
	hand := strconv.Itoa(chapterOf(t, "hand"))
	proj := open("projector", srv.presenter+"#lang=en&pace=full&lesson="+hand, false)
	proj.waitClass(t, 30*time.Second, "presenting the hand chapter", `document.getElementById("class")?.dataset.state === "joined" && document.getElementById("lesson")?.dataset.chapter === "`+hand+`"`)
	student := "http://" + classHost + ":" + srv.port + "/?class#lang=en&pace=full"
	var js []float64
	for i, v := range []string{"-1", "-1.5", "-3"} {
		p := open(fmt.Sprintf("phone %d", i+1), student, true)
		p.waitClass(t, 30*time.Second, "the hand chapter", `document.getElementById("lesson")?.dataset.chapter === "`+hand+`" && !!document.getElementById("plane-send")`)
		waitAttr(t, p.ctx, 20*time.Second, "#plane-status", "data-theta", is("0,-2,0,2,0,0"))
		setField(t, p.ctx, thetaID(1, "1"), v)
		f, _ := strconv.ParseFloat(v, 32)
		waitTheta(t, p.ctx, 2, thetaIndex(1, "1", 2), float32(f))
		loss, err := strconv.ParseFloat(attr(t, p.ctx, "#plane-status", "data-loss"), 64)
		if err != nil {
			t.Fatalf("%s: J %v", p.name, err)
		}
		js = append(js, loss)
		click(t, p.ctx, "plane-send")
		p.waitClass(t, 10*time.Second, "the line taken", `document.getElementById("plane-send-status")?.dataset.state === "sent"`)
	}
	proj.waitClass(t, 20*time.Second, "three lines", `document.getElementById("plane-class")?.dataset.lines === "3"`)
	s, err := eval[string](proj.ctx, `JSON.stringify([...document.querySelectorAll("#plane-class-lines [data-j]")].map(e => parseFloat(e.dataset.j)))`)
	if err != nil {
		t.Fatal(err)
	}
	var got []float64
	json.Unmarshal([]byte(s), &got)
	slices.Sort(got)
	slices.Sort(js)
	if len(got) != 3 {
		t.Fatalf("the projector lists %d lines' J, want 3", len(got))
	}
	for i := range got {
		if math.Abs(got[i]-js[i]) > 1e-6*math.Max(1, math.Abs(js[i])) {
			t.Errorf("the projector's J of the lines %v, the phones' own %v", got, js)
			break
		}
	}
}
