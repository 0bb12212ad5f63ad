package protocol

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/wire.golden")

// TestWireGolden: every message of allMessages keeps the wire form of
// testdata/wire.golden, one line per message: the envelope as it is sent,
// then the bulk bytes' length and SHA-256. A page and a worker of
// different builds (a cached page, a new worker) read each other only if
// it stays the same; a change of it is a change of Version.
func TestWireGolden(t *testing.T) {
	var b strings.Builder
	for _, m := range allMessages() {
		env, bulk, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d %x\n", env, len(bulk), sha256.Sum256(bulk))
	}
	const golden = "testdata/wire.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(b.String(), "\n")
	for i, w := range strings.Split(string(want), "\n") {
		if i >= len(got) || got[i] != w {
			t.Errorf("message %d:\n got %s\nwant %s", i, got[min(i, len(got)-1)], w)
		}
	}
	if len(got) != len(strings.Split(string(want), "\n")) {
		t.Errorf("%d lines, the golden file %d", len(got), len(strings.Split(string(want), "\n")))
	}
}

// TestTableListsEveryMessage: the table and the package's types with an
// isMsg method are the same set, each listed once; and a message has bulk
// bytes in the table exactly when it has fields that JSON skips
// (`json:"-"`), which would otherwise be lost on the way.
func TestTableListsEveryMessage(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "isMsg" || fn.Recv == nil {
				continue
			}
			typ := fn.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			declared = append(declared, typ.(*ast.Ident).Name)
		}
	}
	var listed []string
	for _, e := range messages {
		listed = append(listed, e.typ.Name())
		skipped := false
		for f := range e.typ.Fields() {
			skipped = skipped || f.Tag.Get("json") == "-"
		}
		if skipped != (e.pack != nil) {
			t.Errorf("%s: fields skipped by JSON %v, bulk bytes in the table %v", e.name, skipped, e.pack != nil)
		}
		if first := strings.ToLower(e.typ.Name()[:1]) + e.typ.Name()[1:]; e.name != first {
			t.Errorf("%s is listed as %q, want %q", e.typ.Name(), e.name, first)
		}
	}
	slices.Sort(declared)
	slices.Sort(listed)
	if len(declared) < 20 || !slices.Equal(declared, listed) {
		t.Errorf("types with isMsg:\n%v\nthe table:\n%v", declared, listed)
	}
}

// TestEveryTypeDecodesEmpty: an envelope of each listed type with an
// empty body decodes to that type, or, for a message whose bulk bytes
// are missing, to an error that names it; it never panics.
func TestEveryTypeDecodesEmpty(t *testing.T) {
	for _, e := range messages {
		m, err := Decode([]byte(`{"v":1,"type":"`+e.name+`","body":{}}`), nil)
		switch {
		case err == nil && reflect.TypeOf(m) != e.typ:
			t.Errorf("%s decodes to %T", e.name, m)
		case err != nil && (e.pack == nil || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(e.name[:4]))):
			t.Errorf("%s: %v", e.name, err)
		}
	}
}

var sinkName string

// TestNameAllocatesNothing: Name runs for every message the worker sends
// and receives, Progress several times a second.
func TestNameAllocatesNothing(t *testing.T) {
	var m, p Msg = Progress{Run: 1, Losses: []Point{{Step: 1}}}, &Weights{}
	if n := testing.AllocsPerRun(100, func() { sinkName = Name(m); sinkName = Name(p) }); n != 0 {
		t.Errorf("Name allocates %v times", n)
	}
	if Name(m) != "progress" || Name(p) != "weights" || Name(nil) != "" {
		t.Errorf("names %q, %q, %q", Name(m), Name(p), Name(nil))
	}
}

// TestHeapLive: the live heap is measured (a program holding an 8 MB
// slice has at least that much live after a collection).
func TestHeapLive(t *testing.T) {
	held := make([]byte, 8<<20)
	runtime.GC()
	if h := HeapLive(); h < uint64(len(held)) {
		t.Errorf("HeapLive is %d bytes with %d held", h, len(held))
	}
	runtime.KeepAlive(held)
}

// TestHeapLiveBeforeAnyCollection: a program that has not collected yet
// (the page may never reach the first collection) still has a heap. The
// test runs itself again with the collector off, where no collection
// ever happens.
func TestHeapLiveBeforeAnyCollection(t *testing.T) {
	if os.Getenv("HEAP_LIVE_CHILD") == "1" {
		s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
		metrics.Read(s)
		fmt.Printf("cycles=%d heap=%d\n", s[0].Value.Uint64(), HeapLive())
		return
	}
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no subprocesses here; the native run checks it")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHeapLiveBeforeAnyCollection$", "-test.count=1")
	cmd.Env = append(os.Environ(), "HEAP_LIVE_CHILD=1", "GOGC=off")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the child: %v\n%s", err, out)
	}
	var cycles, heap uint64
	if _, err := fmt.Sscanf(string(out), "cycles=%d heap=%d", &cycles, &heap); err != nil {
		t.Fatalf("the child said %q: %v", out, err)
	}
	if cycles != 0 || heap == 0 {
		t.Errorf("with the collector off: %d collections, HeapLive %d bytes; want 0 collections and a heap above 0", cycles, heap)
	}
}
