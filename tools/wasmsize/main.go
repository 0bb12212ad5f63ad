// Wasmsize says what the page's WebAssembly and its data pack are made
// of: app.wasm's sections, its code by Go package, and the pack's
// sections, each raw and compressed as a static host sends them.
//
// Usage:
//
//	go run ./tools/wasmsize -names .cache/names/app.wasm [-shipped web/app.wasm] [-pack web/data/default.mnpk] [-pkg ./wasm/app]
//
// -names is a build of the program with its name section (built like
// web/app.wasm but without -ldflags=-s, as `make names` does): the name
// section names every function, and a function's Go package is the
// longest package of `go list -deps` (GOOS=js GOARCH=wasm, of -pkg) whose
// name, as the linker writes it ([^\w.] turned into _), prefixes the
// function's. The code of a package is the size of its function bodies;
// its compressed size is that of its bodies alone, so that column adds up
// to more than the whole, whose context the parts lose.
//
// Compressed sizes are brotli's (-q 11, the window of the Makefile) where
// the brotli command exists, gzip -9's otherwise; the output says which.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("wasmsize", flag.ContinueOnError)
	names := fs.String("names", "", "the program built with its name section (required)")
	shipped := fs.String("shipped", "web/app.wasm", "the program as the site ships it, without names (\"\" to skip)")
	pack := fs.String("pack", "web/data/default.mnpk", "a data pack whose sections to measure (\"\" to skip)")
	pkg := fs.String("pkg", "./wasm/app", "the main package the program is built from")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *names == "" || fs.NArg() > 0 {
		fs.Usage()
		return errors.New("-names is required, and there are no arguments")
	}
	z := newCompressor()
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	fmt.Fprintf(w, "compressed: %s\n", z.name)
	if *shipped != "" {
		b, err := os.ReadFile(*shipped)
		if err != nil {
			return err
		}
		c, err := z.size(b, 22)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\n%s as shipped: %s B raw, %s B compressed\n", *shipped, thousands(len(b)), thousands(c))
	}
	b, err := os.ReadFile(*names)
	if err != nil {
		return err
	}
	m, err := parseModule(b)
	if err != nil {
		return fmt.Errorf("%s: %w", *names, err)
	}
	if len(m.names) == 0 {
		return fmt.Errorf("%s has no name section: build it without -ldflags=-s", *names)
	}
	pkgs, err := goList(*pkg)
	if err != nil {
		return err
	}
	if err := sections(w, z, m); err != nil {
		return err
	}
	if err := byPackage(w, z, m, pkgs); err != nil {
		return err
	}
	if *pack != "" {
		p, err := os.ReadFile(*pack)
		if err != nil {
			return err
		}
		if err := packSections(w, z, *pack, p); err != nil {
			return fmt.Errorf("%s: %w", *pack, err)
		}
	}
	return nil
}

// goList lists the packages pkg's WebAssembly build links.
func goList(pkg string) ([]string, error) {
	cmd := exec.Command("go", "list", "-deps", pkg)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps %s: %w", pkg, err)
	}
	return strings.Fields(string(out)), nil
}

// mangle is a package path as the linker writes it in the name section.
var mangle = regexp.MustCompile(`[^\w.]`)

// packageOf returns the package of the function named name, from pkgs
// sorted by the length of their mangled names, longest first.
func packageOf(name string, pkgs [][2]string) string {
	for _, p := range pkgs {
		if strings.HasPrefix(name, p[0]+".") {
			return p[1]
		}
	}
	return "(the linker's: " + name + ")"
}

func sections(w io.Writer, z *compressor, m *module) error {
	fmt.Fprintf(w, "\nsections of the build with names:\n")
	fmt.Fprintf(w, "  %12s %12s  %s\n", "raw", "compressed", "section")
	for _, s := range m.sections {
		c, err := z.size(s.body, 22)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %12s %12s  %s\n", thousands(len(s.body)), thousands(c), s)
	}
	fmt.Fprintf(w, "  the name section is not shipped: web/app.wasm is built with -ldflags=-s\n")
	fmt.Fprintf(w, "  the data section holds Go's tables (functions, their names and lines, types) and the packages' data;\n")
	fmt.Fprintf(w, "  the Go linker names no data symbol in WebAssembly, so it is not split by package\n")
	return nil
}

// groups are the figures make size totals: what go-app's imports cost,
// and the page's own code.
var groups = []struct {
	name  string
	match func(pkg string) bool
}{
	{"crypto (crypto/..., vendor/golang.org/x/crypto/...)", func(p string) bool {
		return p == "crypto" || strings.HasPrefix(p, "crypto/") || strings.HasPrefix(p, "vendor/golang.org/x/crypto/")
	}},
	{"regexp (regexp, regexp/syntax)", func(p string) bool { return p == "regexp" || p == "regexp/syntax" }},
	{"math/big", func(p string) bool { return p == "math/big" }},
	{"net, mime (net/..., mime/..., vendor/golang.org/x/net/...)", func(p string) bool {
		return p == "net" || strings.HasPrefix(p, "net/") || p == "mime" || strings.HasPrefix(p, "mime/") || strings.HasPrefix(p, "vendor/golang.org/x/net/")
	}},
	{"go-app (github.com/maxence-charriere/go-app/...)", func(p string) bool { return strings.HasPrefix(p, "github.com/maxence-charriere/go-app/") }},
	{"the page's own code (softmaxdemo/...)", func(p string) bool { return strings.HasPrefix(p, "softmaxdemo/") }},
	{"the page's rooms and views (softmaxdemo/wasm/ui/...)", func(p string) bool { return strings.HasPrefix(p, "softmaxdemo/wasm/ui") }},
	{"runtime (runtime, internal/runtime/...)", func(p string) bool { return p == "runtime" || strings.HasPrefix(p, "internal/runtime/") }},
}

func byPackage(w io.Writer, z *compressor, m *module, list []string) error {
	pkgs := make([][2]string, len(list))
	for i, p := range list {
		pkgs[i] = [2]string{mangle.ReplaceAllString(p, "_"), p}
	}
	slices.SortFunc(pkgs, func(a, b [2]string) int { return len(b[0]) - len(a[0]) })
	code := map[string][]byte{}
	funcs := map[string]int{}
	total := 0
	for i, body := range m.bodies {
		p := packageOf(m.names[uint32(m.imports+i)], pkgs)
		if strings.HasPrefix(p, "(the linker's") {
			p = "(the linker's: type equality, wrappers)"
		}
		code[p] = append(code[p], body...)
		funcs[p]++
		total += len(body)
	}
	names := make([]string, 0, len(code))
	for p := range code {
		names = append(names, p)
	}
	slices.SortFunc(names, func(a, b string) int { return len(code[b]) - len(code[a]) })
	sizes := make(map[string]int, len(names))
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
		next  = make(chan string)
	)
	for range runtime.NumCPU() {
		wg.Go(func() {
			for p := range next {
				c, err := z.size(code[p], 22)
				mu.Lock()
				sizes[p] = c
				if err != nil && first == nil {
					first = err
				}
				mu.Unlock()
			}
		})
	}
	for _, p := range names {
		next <- p
	}
	close(next)
	wg.Wait()
	if first != nil {
		return first
	}
	fmt.Fprintf(w, "\ncode by group (function bodies; %s B in %d functions):\n", thousands(total), len(m.bodies))
	fmt.Fprintf(w, "  %12s %12s %7s  %s\n", "raw", "compressed", "of code", "group")
	for _, g := range groups {
		raw, c, n := 0, 0, 0
		for _, p := range names {
			if g.match(p) {
				raw += len(code[p])
				c += sizes[p]
				n++
			}
		}
		fmt.Fprintf(w, "  %12s %12s %6.1f%%  %s, %d packages\n", thousands(raw), thousands(c), 100*float64(raw)/float64(total), g.name, n)
	}
	fmt.Fprintf(w, "\ncode by package:\n")
	fmt.Fprintf(w, "  %12s %12s %7s %6s  %s\n", "raw", "compressed", "of code", "funcs", "package")
	for _, p := range names {
		fmt.Fprintf(w, "  %12s %12s %6.1f%% %6d  %s\n", thousands(len(code[p])), thousands(sizes[p]), 100*float64(len(code[p]))/float64(total), funcs[p], p)
	}
	return nil
}

// packSections measures the sections of a data pack (core/dataset/doc.go):
// its header and, for each set, its labels, run headers and grey levels.
func packSections(w io.Writer, z *compressor, path string, b []byte) error {
	if len(b) < 32 || string(b[:4]) != "MNPK" {
		return errors.New("not a data pack")
	}
	le := binary.LittleEndian
	version := le.Uint16(b[4:])
	n := [2]int{int(le.Uint32(b[8:])), int(le.Uint32(b[12:]))}
	nnz := [2]int{int(le.Uint32(b[16:])), int(le.Uint32(b[20:]))}
	payload := b[32:]
	if int(le.Uint32(b[24:])) != len(payload) {
		return errors.New("the payload's length is not the header's")
	}
	type part struct {
		name string
		b    []byte
	}
	var parts []part
	split := func(set string, p []byte, i int) error {
		runs := len(p) - n[i] - nnz[i]
		if runs < 0 {
			return fmt.Errorf("the %s set's part is too short", set)
		}
		parts = append(parts,
			part{set + " labels", p[:n[i]]},
			part{set + " run headers", p[n[i] : n[i]+runs]},
			part{set + " grey levels", p[n[i]+runs:]})
		return nil
	}
	switch version {
	case 3:
		if len(payload) < 8 {
			return errors.New("no training part")
		}
		t := int(le.Uint32(payload))
		if t > len(payload)-8 {
			return errors.New("the training part runs past the end")
		}
		parts = append(parts, part{"header and the training part's length and checksum", b[:40]})
		if err := split("training", payload[8:8+t], 0); err != nil {
			return err
		}
		if err := split("test", payload[8+t:], 1); err != nil {
			return err
		}
	case 1:
		parts = append(parts, part{"header", b[:32]},
			part{"labels, training then test", payload[:n[0]+n[1]]})
		runs := len(payload) - n[0] - n[1] - nnz[0] - nnz[1]
		if runs < 0 {
			return errors.New("the payload is too short")
		}
		parts = append(parts, part{"run headers", payload[n[0]+n[1] : n[0]+n[1]+runs]},
			part{"grey levels", payload[n[0]+n[1]+runs:]})
	default:
		return fmt.Errorf("version %d, want 1 or 3", version)
	}
	whole, err := z.size(b, 24)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s, version %d, %d training and %d test images: %s B raw, %s B compressed\n",
		path, version, n[0], n[1], thousands(len(b)), thousands(whole))
	fmt.Fprintf(w, "  %12s %12s  %s (each compressed alone)\n", "raw", "compressed", "section")
	for _, p := range parts {
		c, err := z.size(p.b, 24)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %12s %12s  %s\n", thousands(len(p.b)), thousands(c), p.name)
	}
	if version == 3 {
		if prefix := 40 + int(le.Uint32(payload)); prefix <= len(b) {
			c, err := z.size(b[:prefix], 24)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "  the prefix the page is ready with (header and training part): %s B raw, %s B compressed\n", thousands(prefix), thousands(c))
		}
	}
	return nil
}

// compressor measures compressed sizes with the brotli command, or with
// gzip -9 where there is none.
type compressor struct {
	brotli string
	name   string
}

func newCompressor() *compressor {
	if p, err := exec.LookPath("brotli"); err == nil {
		return &compressor{brotli: p, name: "brotli -q 11 (window 22 bits for WebAssembly, 24 for the pack, as make site)"}
	}
	return &compressor{name: "gzip -9 (the brotli command is not installed: apt-get install -y brotli)"}
}

// size returns the compressed size of b; window is brotli's (bits).
func (z *compressor) size(b []byte, window int) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	if z.brotli == "" {
		var buf bytes.Buffer
		gw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		gw.Write(b)
		gw.Close()
		return buf.Len(), nil
	}
	cmd := exec.Command(z.brotli, "-c", "-q", "11", "-w", fmt.Sprint(window))
	cmd.Stdin = bytes.NewReader(b)
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("brotli: %w", err)
	}
	return len(out), nil
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
