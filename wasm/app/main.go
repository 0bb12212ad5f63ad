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
	_ "embed"
	"flag"
	"fmt"
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
	h.ServiceWorkerTemplate = serviceWorkerJS
	root := ""
	if *prefix != "" {
		root = "/" + strings.Trim(*prefix, "/")
		h.Resources = app.PrefixedLocation(root)
	}
	// The page's program is asked for from the <head>, as soon as the
	// browser reads it (its preload scanner reads past the scripts), not
	// when go-app's deferred app.js runs after the page and its scripts:
	// on a school's network that is a round trip or more of idle link.
	// web/boot.js's fetch takes the preloaded response: the same URL, mode
	// cors and credentials same-origin (crossorigin="anonymous"). go-app's
	// own preloads cannot say crossorigin, so this is a raw header, and
	// boot.js follows it as one: a fetch takes a preload only once the
	// parser has read its <link>, and one that came first would make the
	// <link> ask for the file a second time.
	h.Scripts = slices.DeleteFunc(h.Scripts, func(s string) bool { return s == bootJS })
	h.CacheableResources = append(h.CacheableResources, bootJS)
	h.RawHeaders = append(h.RawHeaders,
		fmt.Sprintf(`<link rel="preload" href="%s/web/app.wasm" as="fetch" crossorigin="anonymous" fetchpriority="high">`, root),
		fmt.Sprintf(`<script src="%s%s"></script>`, root, bootJS))
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
