package ui

import (
	"net/url"
	"slices"
	"strings"
)

// settings are what a link to the page carries: every field of the Train
// panel, the data and the language. A link reproduces a run: the seed is
// in it, and the same settings train to the same weights, bit for bit.
type settings struct {
	Fields  fields
	Dataset string
	Lang    lang // "" when the link does not name one
}

// maxLink is the longest fragment parseLink reads; anything longer is not
// a link this page wrote, and is ignored whole.
const maxLink = 2048

// linkOrder is the order encodeLink writes the settings in.
var linkOrder = []string{"method", "lr", "batch", "l2", "epochs", "seed", "decay", "init", "pin", "deskew", "iters", "gtol", "cg", "pace", "data", "lang"}

// encodeLink returns s as the fragment of a link, without the "#":
// lr=0.5&batch=100&…&data=default&lang=zh.
func encodeLink(s settings) string {
	f := s.Fields
	bit := func(b bool) string {
		if b {
			return "1"
		}
		return "0"
	}
	vals := map[string]string{
		"lr": f.LR, "batch": f.Batch, "l2": f.L2, "epochs": f.Epochs, "seed": f.Seed,
		"decay": f.Decay, "init": f.Init, "pin": bit(f.Pin), "deskew": bit(f.Deskew), "pace": f.Pace, "data": s.Dataset,
		"method": f.Method, "iters": f.NewtonIters, "gtol": f.GradTol, "cg": f.CGSteps, "lang": string(s.Lang),
	}
	var b strings.Builder
	for _, k := range linkOrder {
		v := strings.TrimSpace(vals[k])
		if v == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(v))
	}
	return b.String()
}

// parseLink reads the settings in a link's fragment (with or without the
// leading "#"). packs maps each dataset the page knows to its number of
// training images, which bounds B. It is the one place where a link is
// validated, and it uses the Train panel's own rules (parseConfig): a value
// that is missing takes its default silently; a value that is invalid or
// out of range takes its default and adds a notice that names it; so does
// an unknown dataset, language or setting. Nothing in a link is ever run
// or rendered as markup: values only fill fields.
func parseLink(fragment string, packs map[string]int) (settings, []msg) {
	s := settings{Fields: defaultFields(), Dataset: "default"}
	fragment = strings.TrimPrefix(fragment, "#")
	if fragment == "" {
		return s, nil
	}
	if len(fragment) > maxLink {
		return s, []msg{text("link.tooLong", fmtCount(len(fragment)))}
	}
	q, err := url.ParseQuery(fragment)
	if err != nil {
		return s, []msg{text("link.unreadable")}
	}
	var notes []msg
	bad := func(key, value string, why msg) {
		notes = append(notes, text("link.bad", key, quoteShort(value), why))
	}
	get := func(key string) (string, bool) {
		v, ok := q[key]
		if !ok || len(v) == 0 {
			return "", false
		}
		return v[len(v)-1], true
	}
	known := map[string]bool{}
	for _, k := range linkOrder {
		known[k] = true
	}
	for k := range q {
		if !known[k] {
			notes = append(notes, text("link.unknown", quoteShort(k)))
		}
	}
	// The dataset first: it bounds B.
	if v, ok := get("data"); ok {
		if _, known := packs[v]; known {
			s.Dataset = v
		} else {
			bad("data", v, text("link.noSuchData"))
		}
	}
	m := packs[s.Dataset]
	if m < 1 {
		m = 60000
	}
	if v, ok := get("lang"); ok {
		if l, known := parseLang(v); known {
			s.Lang = l
		} else {
			bad("lang", v, text("link.noSuchLang"))
		}
	}
	f := &s.Fields
	def := defaultFields()
	for _, fld := range []struct {
		key string
		dst *string
		def string
	}{
		{"lr", &f.LR, def.LR}, {"batch", &f.Batch, def.Batch}, {"l2", &f.L2, def.L2},
		{"epochs", &f.Epochs, def.Epochs}, {"seed", &f.Seed, def.Seed}, {"decay", &f.Decay, def.Decay},
		{"iters", &f.NewtonIters, def.NewtonIters}, {"gtol", &f.GradTol, def.GradTol}, {"cg", &f.CGSteps, def.CGSteps},
	} {
		if v, ok := get(fld.key); ok {
			*fld.dst = v
		}
	}
	// Every field is checked, whichever method the link names: each
	// method's fields with that method's rules.
	descent, newton := *f, *f
	descent.Method, newton.Method = "sgd", "newton"
	_, errs := parseConfig(descent, m)
	_, nerrs := parseConfig(newton, m)
	for _, e := range []struct {
		key string
		dst *string
		def string
		why msg
	}{
		{"lr", &f.LR, def.LR, errs.LR}, {"batch", &f.Batch, def.Batch, errs.Batch}, {"l2", &f.L2, def.L2, errs.L2},
		{"epochs", &f.Epochs, def.Epochs, errs.Epochs}, {"seed", &f.Seed, def.Seed, errs.Seed}, {"decay", &f.Decay, def.Decay, errs.Decay},
		{"iters", &f.NewtonIters, def.NewtonIters, nerrs.NewtonIters}, {"gtol", &f.GradTol, def.GradTol, nerrs.GradTol}, {"cg", &f.CGSteps, def.CGSteps, nerrs.CGSteps},
	} {
		if !e.why.isZero() {
			bad(e.key, *e.dst, e.why)
			*e.dst = e.def
		}
	}
	if v, ok := get("init"); ok {
		switch v {
		case "zeros", "normal":
			f.Init = v
		default:
			bad("init", v, text("link.initValues"))
		}
	}
	if v, ok := get("method"); ok {
		if slices.Contains(methods, v) {
			f.Method = v
		} else {
			bad("method", v, text("link.methodValues", strings.Join(methods, ", ")))
		}
	}
	if v, ok := get("pace"); ok {
		if _, known := paceRate(v); known {
			f.Pace = v
		} else {
			bad("pace", v, text("link.paceValues", strings.Join(paceStops, ", ")))
		}
	}
	for _, b := range []struct {
		key string
		dst *bool
	}{{"pin", &f.Pin}, {"deskew", &f.Deskew}} {
		if v, ok := get(b.key); ok {
			switch v {
			case "0", "1":
				*b.dst = v == "1"
			default:
				bad(b.key, v, text("link.bitValues", b.key))
			}
		}
	}
	return s, notes
}
