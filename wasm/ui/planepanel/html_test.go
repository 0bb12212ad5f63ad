package planepanel

import (
	"regexp"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// htmlOf is u's HTML.
func htmlOf(u app.UI) string { return app.HTMLString(u) }

// attrOf returns the attribute name of the element whose id is id in h,
// and whether the element has it ("" for one without a value, which go-app
// writes for true). go-app writes attributes in no set order.
func attrOf(h, id, name string) (string, bool) {
	i := strings.Index(h, ` id="`+id+`"`)
	if i < 0 {
		return "", false
	}
	tag := h[strings.LastIndex(h[:i], "<"):]
	tag = tag[:strings.Index(tag, ">")]
	m := regexp.MustCompile(` ` + regexp.QuoteMeta(name) + `(="([^"]*)")?( |$)`).FindStringSubmatch(tag)
	if m == nil {
		return "", false
	}
	return m[2], true
}

// isTrue reports whether the element whose id is id in h has the
// attribute name set true (go-app writes it without a value).
func isTrue(h, id, name string) bool {
	v, ok := attrOf(h, id, name)
	return ok && v == ""
}
