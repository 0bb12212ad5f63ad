// Package i18n holds the page's text in its two languages, Simplified
// Chinese and English: one catalog per language with the same keys
// (catalog-zh.go, catalog-en.go), text kept as a key and its arguments
// until it is rendered (Msg), the choice of language, and the number
// formats both languages share.
package i18n

import (
	"fmt"
	"strings"
)

// Lang is a language the page speaks: "zh" (Simplified Chinese, the
// language of the lecture notes) or "en".
type Lang string

const (
	ZH Lang = "zh"
	EN Lang = "en"
)

// Default is the language the static index.html is written in: the
// course's. web/boot.js hides that prerendered text from a visitor who will
// read the other language until the page has rendered in theirs, so
// nobody sees a flash of the wrong one.
const Default = ZH

// Langs lists the languages in the order the switch offers them.
var Langs = []Lang{ZH, EN}

// Catalogs holds one catalog per language with the same keys (a test
// checks): a key names a piece of text, the value is that text in the
// language, with fmt verbs for its arguments, the same verbs in the same
// order in every language.
var Catalogs = map[Lang]map[string]string{ZH: CatalogZH, EN: CatalogEN}

// Tag is the language's BCP 47 tag, for lang attributes.
func (l Lang) Tag() string {
	if l == ZH {
		return "zh-CN"
	}
	return "en"
}

// Parse returns the language s names ("zh", "en", or a BCP 47 tag
// such as "zh-CN" or "en-GB") and whether it names one.
func Parse(s string) (Lang, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	base, _, _ := strings.Cut(s, "-")
	switch base {
	case "zh":
		return ZH, true
	case "en":
		return EN, true
	}
	return "", false
}

// Pick chooses the page's language: the one a link names, else the one
// the person chose before (kept in the browser's storage), else Chinese if
// the browser prefers any Chinese at all, else English.
func Pick(link, stored string, preferred []string) Lang {
	if l, ok := Parse(link); ok && link != "" {
		return l
	}
	if l, ok := Parse(stored); ok && stored != "" {
		return l
	}
	for _, p := range preferred {
		if l, ok := Parse(p); ok && l == ZH {
			return ZH
		}
	}
	return EN
}

// Msg is text for a person, kept as a catalog key and its arguments until
// it is rendered, so that a change of language renders it again in the
// other. An argument that is itself a Msg is rendered in the same
// language.
type Msg struct {
	Key  string
	Args []any
}

// Text returns the Msg for key with args.
func Text(key string, args ...any) Msg { return Msg{Key: key, Args: args} }

// IsZero reports whether m holds no text.
func (m Msg) IsZero() bool { return m.Key == "" }

// T renders the text of key in l with args. A key missing from l's catalog
// renders as the key itself, which tests catch (TestCatalogs) and a person
// would notice.
func (l Lang) T(key string, args ...any) string {
	cat := Catalogs[l]
	if cat == nil {
		cat = Catalogs[Default]
	}
	f, ok := cat[key]
	if !ok {
		return key
	}
	if len(args) == 0 {
		return f
	}
	for i, a := range args {
		if m, ok := a.(Msg); ok {
			args[i] = l.M(m)
		}
	}
	return fmt.Sprintf(f, args...)
}

// M renders m in l; the zero Msg renders as "".
func (l Lang) M(m Msg) string {
	if m.IsZero() {
		return ""
	}
	return l.T(m.Key, append([]any(nil), m.Args...)...)
}

// Numbers are formatted by one function per kind, the same in both
// languages, so a teacher switching languages sees the same digits.

// Percent formats a fraction as a percentage with one decimal: 91.6%.
func Percent(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }

// Loss formats a loss with four significant digits: 0.2731.
func Loss(v float64) string { return fmt.Sprintf("%.4g", v) }

// Likelihood formats a likelihood value (0..1) with three decimals:
// 0.742.
func Likelihood(v float64) string { return fmt.Sprintf("%.3f", v) }

// Weight formats a weight θ or a contribution x·θ with three
// significant digits and its sign: +0.125, −1.50 (a true minus sign).
func Weight(v float64) string {
	s := fmt.Sprintf("%+.3g", v)
	if strings.HasPrefix(s, "-") {
		s = "−" + s[1:]
	}
	return s
}

// Sig3 formats a positive quantity, a step size or an eigenvalue, with
// three significant digits: 0.533, 3.75, 1.2e+03.
func Sig3(v float64) string { return fmt.Sprintf("%.3g", v) }

// Megabytes formats a size in bytes in megabytes (10⁶ bytes) with one
// decimal: 12.3 MB.
func Megabytes(n uint64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

// Count formats a whole number with thousands separators: 10,000.
func Count(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + Count(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Catalog returns a copy of the catalog of the language named l ("zh" or
// "en"), or nil, for tools/browsertest to compare what the page shows
// with what the catalogs say.
func Catalog(l string) map[string]string {
	c, ok := Catalogs[Lang(l)]
	if !ok {
		return nil
	}
	out := make(map[string]string, len(c))
	for k, v := range c {
		out[k] = v
	}
	return out
}
