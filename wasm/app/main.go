//go:build !(js && wasm)

// Command app is the page. It has two lives:
//
//   - compiled to WebAssembly (web/app.wasm), it runs the page in the
//     browser;
//   - run natively (go run ./wasm/app), it writes the static site:
//     index.html and go-app's support files at the repository root, with
//     web/ holding our assets.
//
// Both call ui.Routes, because the static generator needs the same routes.
// This file is the native life; browser.go is the other.
package main

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"softmaxdemo/wasm/ui"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// serviceWorkerJS is the template of app-worker.js, go-app's with one
// change: see the file.
//
//go:embed service-worker.js
var serviceWorkerJS string

// bootJS starts the page's program and its worker (web/boot.js).
const bootJS = "/web/boot.js"

// programFetchJS, inline in the <head>, starts the program's download
// ({{.Program}}: its path) and leaves it, with its AbortController, for
// web/boot.js; a browser that cannot compile a stream leaves nothing, and
// go-app's app.js fetches the program itself.
const programFetchJS = `try{if(WebAssembly.compileStreaming&&WebAssembly.instantiateStreaming){` +
	`const a=new AbortController(),u=new URL("{{.Program}}",location.href).href;` +
	`globalThis.softmaxProgramFetch={url:u,abort:a,response:fetch(u,{signal:a.signal})};` +
	`globalThis.softmaxProgramFetch.response.catch(()=>{})}}catch(e){}`

// subresourceIntegrity returns the Subresource Integrity metadata of the
// file at path ("sha256-" and its SHA-256 in base64), or "" if it is not
// there (the program not built yet), with which the service worker checks
// that the program it caches is this version's.
func subresourceIntegrity(path string) (string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:]), nil
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "app:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("app", flag.ContinueOnError)
	out := fs.String("out", ".", "directory to write the static site into (the repository root)")
	web := fs.String("web", "web", "the web directory whose files name the version")
	prefix := fs.String("prefix", "", `path the site is served under, such as "/softmax" for a GitHub Pages project site (default: the domain's root)`)
	if err := fs.Parse(args); err != nil {
		return err
	}
	ui.Routes() // already done in main; the tests call run directly
	version, err := siteVersion(*web)
	if err != nil {
		return err
	}
	h := ui.Handler(version)
	root := ""
	if *prefix != "" {
		root = "/" + strings.Trim(*prefix, "/")
		h.Resources = app.PrefixedLocation(root)
	}
	// The page's program is asked for from the <head>, as soon as the
	// browser reads it, not when go-app's deferred app.js runs after the
	// page and its scripts: on a school's network that is a round trip or
	// more of idle link. A small inline script starts the fetch, which
	// web/boot.js then takes (softmaxProgramFetch). Not a <link
	// rel="preload">, which would start it as early: Chromium keeps V8's
	// compiled code only for a module compiled from a fetch's own
	// response, and a fetch that takes a preload's response is not one,
	// so that every visit would compile the program again
	// (docs/decisions/0030-program-fetched-for-the-code-cache.md).
	program := root + "/web/app.wasm"
	h.Scripts = slices.DeleteFunc(h.Scripts, func(s string) bool { return s == bootJS })
	h.CacheableResources = append(h.CacheableResources, bootJS)
	h.RawHeaders = append(h.RawHeaders,
		"<script>"+strings.ReplaceAll(programFetchJS, "{{.Program}}", program)+"</script>",
		fmt.Sprintf(`<script src="%s%s"></script>`, root, bootJS))
	integrity, err := subresourceIntegrity(filepath.Join(*web, "app.wasm"))
	if err != nil {
		return err
	}
	h.ServiceWorkerTemplate = strings.NewReplacer("{{.Program}}", program, "{{.ProgramIntegrity}}", integrity).Replace(serviceWorkerJS)
	if err := app.GenerateStaticWebsite(*out, h); err != nil {
		return fmt.Errorf("writing the static site: %w", err)
	}
	index := filepath.Join(*out, "index.html")
	b, err := os.ReadFile(index)
	if err != nil {
		return err
	}
	if !bytes.Contains(b, []byte(`data-chapter-id="task"`)) {
		return fmt.Errorf("the generated %s is not the page (%.40q...): is the route registered?", index, b)
	}
	if err := os.WriteFile(index, canonicalHTML(b), 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote the static site to %s (version %s)\n", *out, version)
	return nil
}
