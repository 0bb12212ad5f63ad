package ui

import (
	"fmt"
	"strings"
)

// lang is a language the page speaks: "zh" (Simplified Chinese, the
// language of the lecture notes) or "en".
type lang string

const (
	langZH lang = "zh"
	langEN lang = "en"
)

// defaultLang is the language the static index.html is written in: the
// course's. web/boot.js hides that prerendered text from a visitor who will
// read the other language until the page has rendered in theirs, so
// nobody sees a flash of the wrong one.
const defaultLang = langZH

// langs lists the languages in the order the switch offers them.
var langs = []lang{langZH, langEN}

// catalogs holds one catalog per language with the same keys (a test
// checks): a key names a piece of text, the value is that text in the
// language, with fmt verbs for its arguments, the same verbs in the same
// order in every language.
var catalogs = map[lang]map[string]string{langZH: catalogZH, langEN: catalogEN}

// parseLang returns the language s names ("zh", "en", or a BCP 47 tag
// such as "zh-CN" or "en-GB") and whether it names one.
func parseLang(s string) (lang, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	base, _, _ := strings.Cut(s, "-")
	switch base {
	case "zh":
		return langZH, true
	case "en":
		return langEN, true
	}
	return "", false
}

// pickLang chooses the page's language: the one a link names, else the one
// the person chose before (kept in the browser's storage), else Chinese if
// the browser prefers any Chinese at all, else English.
func pickLang(link, stored string, preferred []string) lang {
	if l, ok := parseLang(link); ok && link != "" {
		return l
	}
	if l, ok := parseLang(stored); ok && stored != "" {
		return l
	}
	for _, p := range preferred {
		if l, ok := parseLang(p); ok && l == langZH {
			return langZH
		}
	}
	return langEN
}

// msg is text for a person, kept as a catalog key and its arguments until
// it is rendered, so that a change of language renders it again in the
// other. An argument that is itself a msg is rendered in the same
// language.
type msg struct {
	Key  string
	Args []any
}

// text returns the msg for key with args.
func text(key string, args ...any) msg { return msg{Key: key, Args: args} }

// isZero reports whether m holds no text.
func (m msg) isZero() bool { return m.Key == "" }

// T renders the text of key in l with args. A key missing from l's catalog
// renders as the key itself, which tests catch (TestCatalogs) and a person
// would notice.
func (l lang) T(key string, args ...any) string {
	cat := catalogs[l]
	if cat == nil {
		cat = catalogs[defaultLang]
	}
	f, ok := cat[key]
	if !ok {
		return key
	}
	if len(args) == 0 {
		return f
	}
	for i, a := range args {
		if m, ok := a.(msg); ok {
			args[i] = l.M(m)
		}
	}
	return fmt.Sprintf(f, args...)
}

// M renders m in l; the zero msg renders as "".
func (l lang) M(m msg) string {
	if m.isZero() {
		return ""
	}
	return l.T(m.Key, append([]any(nil), m.Args...)...)
}

// Numbers are formatted by one function per kind, the same in both
// languages, so a teacher switching languages sees the same digits.

// fmtPercent formats a fraction as a percentage with one decimal: 91.6%.
func fmtPercent(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }

// fmtLoss formats a loss with four significant digits: 0.2731.
func fmtLoss(v float64) string { return fmt.Sprintf("%.4g", v) }

// fmtLikelihood formats a likelihood value (0..1) with three decimals:
// 0.742.
func fmtLikelihood(v float64) string { return fmt.Sprintf("%.3f", v) }

// fmtWeight formats a weight θ or a contribution x·θ with three
// significant digits and its sign: +0.125, −1.50 (a true minus sign).
func fmtWeight(v float64) string {
	s := fmt.Sprintf("%+.3g", v)
	if strings.HasPrefix(s, "-") {
		s = "−" + s[1:]
	}
	return s
}

// fmtCount formats a whole number with thousands separators: 10,000.
func fmtCount(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + fmtCount(-n)
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
	c, ok := catalogs[lang(l)]
	if !ok {
		return nil
	}
	out := make(map[string]string, len(c))
	for k, v := range c {
		out[k] = v
	}
	return out
}
