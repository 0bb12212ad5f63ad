//go:build !(js && wasm)

package main

import (
	"regexp"
	"slices"
	"strings"
)

var (
	startTag  = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=<>"/]+(?:="[^"]*")?)+)\s*(/?)>`)
	attribute = regexp.MustCompile(`[^\s=<>"/]+(?:="[^"]*")?`)
)

// canonicalHTML sorts the attributes of every start tag by name. go-app
// writes them in map order, which changes from run to run; sorted, the
// committed index.html is a stable file that a test can compare.
func canonicalHTML(b []byte) []byte {
	return startTag.ReplaceAllFunc(b, func(tag []byte) []byte {
		m := startTag.FindSubmatch(tag)
		attrs := attribute.FindAllString(string(m[2]), -1)
		slices.SortStableFunc(attrs, func(a, b string) int {
			return strings.Compare(attrName(a), attrName(b))
		})
		return []byte("<" + string(m[1]) + " " + strings.Join(attrs, " ") + string(m[3]) + ">")
	})
}

func attrName(a string) string {
	name, _, _ := strings.Cut(a, "=")
	return name
}
