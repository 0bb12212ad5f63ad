package classhub

import (
	"bytes"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/class"
	"softmaxdemo/tools/internal/classclient"
)

// TestDrawingsAreWrittenAsTheyArrive: each drawing is in the file once
// acknowledged, before any sync or close, and a removal after it.
func TestDrawingsAreWrittenAsTheyArrive(t *testing.T) {
	dir := t.TempDir()
	tc := newClass(t, dir, nil)
	ctx := tc.ctx()
	path := filepath.Join(dir, DrawingsFile)
	r := newRand()
	p := tc.phone()
	for i := range 3 {
		px := digit(r)
		ack, err := p.Draw(ctx, uint8(i), px)
		if err != nil || ack.Drawing != uint32(i+1) {
			t.Fatalf("drawing %d: %+v %v", i, ack, err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != 8+(i+1)*addSize {
			t.Fatalf("after %d drawings the file is %d bytes, want %d", i+1, len(b), 8+(i+1)*addSize)
		}
		rec, _, ok, _ := parseRecord(b[8+i*addSize:])
		if !ok || rec.d.pixels != px || rec.d.label != uint8(i) || rec.d.phone != p.Phone || rec.d.seq != uint32(i+1) || rec.d.n != uint32(i+1) {
			t.Errorf("record %d: %+v", i, rec)
		}
	}
	if err := tc.presenter().Remove(ctx, 2); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if want := append(bytes.Clone(b[:8+3*addSize]), removeRecord(2)...); !bytes.Equal(b, want) {
		t.Errorf("after the removal the file is %d bytes, want %d ending in the removal", len(b), len(want))
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode is %v (%v), want 0600", fi.Mode(), err)
	}
}

// TestRestartKeepsTheDrawings: a server started again on the class's
// folder has the drawings and the removals, numbers on from the last,
// and a drawing its phone sends again (it never heard back) is the same
// drawing, not a new one; the key is the same.
func TestRestartKeepsTheDrawings(t *testing.T) {
	dir := t.TempDir()
	key, made, err := LoadKey(dir, false)
	if err != nil || !made {
		t.Fatalf("LoadKey: %v, made %v", err, made)
	}
	tc := newClass(t, dir, nil)
	ctx := tc.ctx()
	r := newRand()
	a, b := tc.phone(), tc.phone()
	for _, c := range []int{0, 1, 0} {
		p := []*classclient.Client{a, b}[c]
		if _, err := p.Draw(ctx, uint8(c+4), digit(r)); err != nil {
			t.Fatal(err)
		}
	}
	tc.presenter().Remove(ctx, 1)
	before, _ := tc.presenter().Drawings(ctx, 0)
	tc.hub.Close()
	tc.srv.Close()

	again, made, err := LoadKey(dir, false)
	if err != nil || made || again != key {
		t.Errorf("the key after a restart: %v (made %v, %v), want %v", again, made, err, key)
	}
	tc2 := newClass(t, dir, nil)
	after, err := tc2.presenter().Drawings(ctx, 0)
	if err != nil || len(after) != 2 || len(before) != 2 {
		t.Fatalf("%d drawings before, %d after (%v), want 2 and 2", len(before), len(after), err)
	}
	for i := range after {
		if *after[i] != *before[i] {
			t.Errorf("drawing %d changed through the restart", after[i].N)
		}
	}
	// b's drawing (Seq 1) sent again after the restart.
	a.Base, b.Base = tc2.srv.URL, tc2.srv.URL
	d := &class.Drawing{Phone: b.Phone, Seq: 1, Label: 5, Pixels: digit(r)}
	ack, err := b.Send(ctx, class.PathDrawing, "application/json", d.Encode())
	if err != nil || !ack.Duplicate || ack.Drawing != 2 {
		t.Errorf("a drawing sent again after the restart: %+v %v; want the duplicate of drawing 2", ack, err)
	}
	ack, err = a.Draw(ctx, 9, digit(r))
	if err != nil || ack.Drawing != 4 {
		t.Errorf("a new drawing after the restart: %+v %v; want number 4", ack, err)
	}
	h := follow(t, tc2.presenter()).hello(t)
	if h.Drawings != 3 || h.Last != 4 {
		t.Errorf("the presenter's hello: %d drawings, the last %d; want 3 and 4", h.Drawings, h.Last)
	}
	tc2.locked(func(h *Hub) {
		if h.digits.sent[a.Phone] != 3 || h.digits.sent[b.Phone] != 1 {
			t.Errorf("drawings sent: a %d, b %d; want 3 and 1", h.digits.sent[a.Phone], h.digits.sent[b.Phone])
		}
	})
}

// writeFile writes a file of drawings holding recs.
func writeFile(t *testing.T, dir string, recs ...[]byte) string {
	t.Helper()
	path := filepath.Join(dir, DrawingsFile)
	if err := os.WriteFile(path, append([]byte(fileMagic), bytes.Join(recs, nil)...), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLoadAfterACrash: a half-written last record is skipped with a
// warning and cut from the file, the rest loaded; damage in the middle
// is skipped with a warning and loading goes on; a file that is not one
// of drawings stops the class from starting.
func TestLoadAfterACrash(t *testing.T) {
	r := newRand()
	var phone class.PhoneID
	phone[3] = 7
	rec := func(n uint32) []byte {
		return addRecord(&drawing{n: n, phone: phone, seq: n, label: uint8(n % 10), pixels: digit(r)})
	}
	t.Run("a half-written last record", func(t *testing.T) {
		dir := t.TempDir()
		last := rec(3)
		path := writeFile(t, dir, rec(1), rec(2), last[:500])
		tc := newClass(t, dir, nil)
		tc.locked(func(h *Hub) {
			if h.digits.kept != 2 || h.digits.last != 2 {
				t.Errorf("%d drawings loaded, the last %d; want 2 and 2", h.digits.kept, h.digits.last)
			}
		})
		if s := tc.log.String(); !strings.Contains(s, "last record is half-written (500 bytes at offset 1636") || !strings.Contains(s, "skipped") {
			t.Errorf("the warning: %q", s)
		}
		if fi, _ := os.Stat(path); fi.Size() != 8+2*addSize {
			t.Errorf("the file is %d bytes, want the half-written record cut", fi.Size())
		}
		if ack, err := tc.phone().Draw(tc.ctx(), 1, digit(r)); err != nil || ack.Drawing != 3 {
			t.Fatalf("a drawing after the crash: %+v %v", ack, err)
		}
		b, _ := os.ReadFile(path)
		if recs, _, warnings, err := parseFile(b); err != nil || len(recs) != 3 || len(warnings) != 0 {
			t.Errorf("the file now: %d records, warnings %q, %v", len(recs), warnings, err)
		}
	})
	t.Run("damage in the middle", func(t *testing.T) {
		dir := t.TempDir()
		bad := rec(2)
		bad[300] ^= 0xff
		writeFile(t, dir, rec(1), bad, rec(3), removeRecord(3), []byte("junk"), rec(4))
		tc := newClass(t, dir, nil)
		tc.locked(func(h *Hub) {
			if h.digits.kept != 2 || h.digits.last != 4 || h.digits.byN[2] != nil || !h.digits.byN[3].removed {
				t.Errorf("%d drawings kept, the last %d", h.digits.kept, h.digits.last)
			}
		})
		s := tc.log.String()
		if strings.Count(s, "damaged bytes") != 2 || !strings.Contains(s, "814 damaged bytes at offset 822") {
			t.Errorf("the warnings: %q", s)
		}
	})
	t.Run("another file", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, DrawingsFile), []byte("MNPK\x03\x00 a dataset pack"), 0o600)
		h := New(class.Key{})
		defer h.Close()
		if err := h.Open(dir); err == nil || !strings.Contains(err.Error(), "not a file of drawings") || !strings.Contains(err.Error(), "-class-dir") {
			t.Errorf("Open: %v", err)
		}
	})
	t.Run("a half-written header", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, DrawingsFile), []byte("CLDR"), 0o600)
		tc := newClass(t, dir, nil)
		if _, err := tc.phone().Draw(tc.ctx(), 1, digit(r)); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(dir, DrawingsFile))
		if recs, _, warnings, err := parseFile(b); err != nil || len(recs) != 1 || len(warnings) != 0 {
			t.Errorf("the file now: %d records, warnings %q, %v", len(recs), warnings, err)
		}
	})
}

// TestWriteFailure: a folder that cannot be written is said to the
// presenter (a fault event) and in the terminal; the drawings stay in
// memory, are served, and are written, in order, once the folder can be
// written again, which the presenter is told too.
func TestWriteFailure(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("SKIPPED: root writes into a read-only folder")
	}
	dir := filepath.Join(t.TempDir(), "class")
	os.Mkdir(dir, 0o500) // not writable
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
	tc := newClass(t, dir, func(h *Hub) { h.retryEvery = 20 * time.Millisecond })
	ctx := tc.ctx()
	pr := follow(t, tc.presenter())
	h := pr.hello(t)
	if !strings.Contains(h.Fault, "permission denied") || !strings.Contains(h.Fault, "kept in memory") {
		t.Errorf("the presenter's hello says %q", h.Fault)
	}
	if !strings.Contains(tc.log.String(), "permission denied") {
		t.Errorf("the terminal was not told: %q", tc.log.String())
	}
	r := newRand()
	p := tc.phone()
	for i := range 3 {
		if ack, err := p.Draw(ctx, uint8(i), digit(r)); err != nil || ack.Drawing != uint32(i+1) {
			t.Fatalf("a drawing while the folder cannot be written: %+v %v", ack, err)
		}
	}
	if ds, err := tc.presenter().Drawings(ctx, 0); err != nil || len(ds) != 3 {
		t.Errorf("%d drawings in memory (%v)", len(ds), err)
	}
	os.Chmod(dir, 0o700)
	pr.next(t, "the fault cleared", is(class.Fault{}))
	b, err := os.ReadFile(filepath.Join(dir, DrawingsFile))
	if err != nil {
		t.Fatal(err)
	}
	recs, _, warnings, err := parseFile(b)
	if err != nil || len(recs) != 3 || len(warnings) != 0 {
		t.Fatalf("the file: %d records, %q, %v", len(recs), warnings, err)
	}
	for i, rec := range recs {
		if rec.d.n != uint32(i+1) {
			t.Errorf("record %d is drawing %d", i, rec.d.n)
		}
	}
	if !strings.Contains(tc.log.String(), "written again") {
		t.Errorf("the terminal was not told the file is written again: %q", tc.log.String())
	}
}

// TestLoadKey: a key kept is taken back; one that is not a key, or
// fresh asked for, is replaced; a folder that cannot be written still
// gives a key, with the error; the file's mode is 0600.
func TestLoadKey(t *testing.T) {
	dir := t.TempDir()
	k1, made, err := LoadKey(dir, false)
	if err != nil || !made {
		t.Fatal(made, err)
	}
	if k2, made, _ := LoadKey(dir, false); k2 != k1 || made {
		t.Error("the kept key was not taken back")
	}
	os.Chmod(filepath.Join(dir, KeyFile), 0o644)
	LoadKey(dir, false)
	if fi, _ := os.Stat(filepath.Join(dir, KeyFile)); fi.Mode().Perm() != 0o600 {
		t.Errorf("a key readable by others is left %v", fi.Mode())
	}
	if k3, made, _ := LoadKey(dir, true); k3 == k1 || !made {
		t.Error("fresh gave the old key")
	}
	os.WriteFile(filepath.Join(dir, KeyFile), []byte("not a key\n"), 0o600)
	if _, made, err := LoadKey(dir, false); !made || err != nil {
		t.Errorf("a file that is not a key: made %v, %v", made, err)
	}
	if os.Getuid() != 0 {
		ro := filepath.Join(t.TempDir(), "ro")
		os.Mkdir(ro, 0o500)
		defer os.Chmod(ro, 0o700)
		if k, made, err := LoadKey(ro, false); err == nil || !made || k == (class.Key{}) {
			t.Errorf("a folder that cannot be written: %v, %v, %v", k, made, err)
		}
	}
}

// TestRemoveDrawing: the presenter removes a drawing (404 for one the
// class does not have; again, no change), phones cannot.
func TestRemoveDrawing(t *testing.T) {
	tc := newClass(t, "", nil)
	ctx := tc.ctx()
	p := tc.phone()
	p.Draw(ctx, 1, digit(newRand()))
	pr := follow(t, tc.presenter())
	if err := tc.presenter().Remove(ctx, 1); err != nil {
		t.Fatal(err)
	}
	pr.next(t, "the removal", is(class.Removed{N: 1}))
	if err := tc.presenter().Remove(ctx, 1); err != nil {
		t.Errorf("removed again: %v", err)
	}
	for _, n := range []uint32{0, 2} {
		if err := tc.presenter().Remove(ctx, n); refusal(t, err, http.StatusNotFound).Code != class.CodeNotFound {
			t.Errorf("drawing %d", n)
		}
	}
	status, _, _ := tc.raw(http.MethodDelete, class.PathDrawings+"/1", "", nil)
	if status != http.StatusForbidden {
		t.Errorf("a phone removes a drawing: %d", status)
	}
	var ref *class.Refusal
	if err := p.Remove(ctx, 1); !errors.As(err, &ref) || ref.Code != class.CodeKey {
		t.Errorf("a phone removes a drawing: %v", err)
	}
}

// TestDrawingSentAgainIsKeptOnce: a drawing whose acknowledgement is
// lost on the way back is sent again by the phone and kept once, with
// the number it was given the first time.
func TestDrawingSentAgainIsKeptOnce(t *testing.T) {
	tc := newClass(t, t.TempDir(), nil)
	ctx := tc.ctx()
	pr := follow(t, tc.presenter())
	p := tc.phone()
	cut := &cutter{base: http.DefaultTransport}
	p.HTTP = &http.Client{Transport: cut}
	cut.arm(2) // the first answer and the second are lost
	ack, err := p.Draw(ctx, 7, digit(newRand()))
	if err != nil || !ack.Duplicate || ack.Drawing != 1 || cut.cut != 2 {
		t.Fatalf("a drawing sent three times: %+v %v (%d cut)", ack, err, cut.cut)
	}
	pr.next(t, "the drawing", func(e class.Event) bool { d, ok := e.(*class.Digit); return ok && d.N == 1 })
	tc.locked(func(h *Hub) {
		if h.digits.kept != 1 || h.digits.sent[p.Phone] != 1 {
			t.Errorf("%d drawings kept, %d sent by the phone; want 1 and 1", h.digits.kept, h.digits.sent[p.Phone])
		}
	})
	b, _ := os.ReadFile(filepath.Join(tc.dir, DrawingsFile))
	if len(b) != 8+addSize {
		t.Errorf("the file holds %d bytes, want one drawing's", len(b))
	}
}

// TestServerRestart: the server stops mid-lesson and starts again on the
// same port and folder; the phones and the presenter reconnect by
// themselves, get a Hello of the new run (the drawings there, the
// presenter presenting with its key), and follow on.
func TestServerRestart(t *testing.T) {
	dir := t.TempDir()
	key, _, err := LoadKey(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	serve := func(ln net.Listener) (*Hub, *http.Server) {
		h := New(key)
		h.Retry = 50 * time.Millisecond
		h.Log = log.New(io.Discard, "", 0)
		if err := h.Open(dir); err != nil {
			t.Fatal(err)
		}
		srv := &http.Server{Handler: h}
		srv.RegisterOnShutdown(h.EndStreams)
		go srv.Serve(ln)
		return h, srv
	}
	h1, srv1 := serve(ln)
	base := "http://" + addr
	pres := classclient.NewPresenter(base, key.String())
	pr := follow(t, pres)
	pr.hello(t)
	var phones []*follower
	for range 3 {
		c := classclient.NewPhone(base)
		c.MaxWait = 50 * time.Millisecond
		f := follow(t, c)
		f.hello(t)
		phones = append(phones, f)
	}
	if _, err := phones[0].c.Draw(t.Context(), 2, digit(newRand())); err != nil {
		t.Fatal(err)
	}
	srv1.Shutdown(t.Context())
	h1.Close()

	ln2, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	h2, srv2 := serve(ln2)
	t.Cleanup(func() { srv2.Close(); h2.Close() })
	if h := pr.hello(t); h.Role != class.RolePresenter || h.Drawings != 1 {
		t.Errorf("the presenter's hello after the restart: role %s, %d drawings", h.Role, h.Drawings)
	}
	for i, f := range phones {
		sent := 0
		if i == 0 {
			sent = 1 // its drawing
		}
		if h := f.hello(t); h.Role != class.RoleStudent || h.Sent != sent {
			t.Errorf("phone %d's hello after the restart: %+v", i, h)
		}
	}
	if err := pres.SetState(t.Context(), class.State{Chapter: 6, Lang: "en", Scrub: -1}); err != nil {
		t.Fatal(err)
	}
	for i, f := range phones {
		f.next(t, "phone "+itoa(i)+" follows the restarted class", is(class.State{Chapter: 6, Lang: "en", Scrub: -1}))
	}
}
