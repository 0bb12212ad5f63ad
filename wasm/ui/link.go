package ui

import (
	"softmaxdemo/wasm/ui/params"

	"softmaxdemo/wasm/ui/i18n"

	"net/url"
	"slices"
	"strings"
)

// settings are what a link to the page carries: every field of the Train
// panel, the data and the language. A link reproduces a run: the seed is
// in it, and the same settings train to the same weights, bit for bit.
type settings struct {
	Fields  params.Fields
	Dataset string
	Lang    i18n.Lang // "" when the link does not name one
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
func parseLink(fragment string, packs map[string]int) (settings, []i18n.Msg) {
	s := settings{Fields: params.Defaults(), Dataset: "default"}
	fragment = strings.TrimPrefix(fragment, "#")
	if fragment == "" {
		return s, nil
	}
	if len(fragment) > maxLink {
		return s, []i18n.Msg{i18n.Text("link.tooLong", i18n.Count(len(fragment)))}
	}
	q, err := url.ParseQuery(fragment)
	if err != nil {
		return s, []i18n.Msg{i18n.Text("link.unreadable")}
	}
	var notes []i18n.Msg
	bad := func(key, value string, why i18n.Msg) {
		notes = append(notes, i18n.Text("link.bad", key, params.Quote(value), why))
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
			notes = append(notes, i18n.Text("link.unknown", params.Quote(k)))
		}
	}
	// The dataset first: it bounds B.
	if v, ok := get("data"); ok {
		if _, known := packs[v]; known {
			s.Dataset = v
		} else {
			bad("data", v, i18n.Text("link.noSuchData"))
		}
	}
	m := packs[s.Dataset]
	if m < 1 {
		m = 60000
	}
	if v, ok := get("lang"); ok {
		if l, known := i18n.Parse(v); known {
			s.Lang = l
		} else {
			bad("lang", v, i18n.Text("link.noSuchLang"))
		}
	}
	f := &s.Fields
	def := params.Defaults()
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
	_, errs := params.Parse(descent, m)
	_, nerrs := params.Parse(newton, m)
	for _, e := range []struct {
		key string
		dst *string
		def string
		why i18n.Msg
	}{
		{"lr", &f.LR, def.LR, errs.LR}, {"batch", &f.Batch, def.Batch, errs.Batch}, {"l2", &f.L2, def.L2, errs.L2},
		{"epochs", &f.Epochs, def.Epochs, errs.Epochs}, {"seed", &f.Seed, def.Seed, errs.Seed}, {"decay", &f.Decay, def.Decay, errs.Decay},
		{"iters", &f.NewtonIters, def.NewtonIters, nerrs.NewtonIters}, {"gtol", &f.GradTol, def.GradTol, nerrs.GradTol}, {"cg", &f.CGSteps, def.CGSteps, nerrs.CGSteps},
	} {
		if !e.why.IsZero() {
			bad(e.key, *e.dst, e.why)
			*e.dst = e.def
		}
	}
	if v, ok := get("init"); ok {
		switch v {
		case "zeros", "normal":
			f.Init = v
		default:
			bad("init", v, i18n.Text("link.initValues"))
		}
	}
	if v, ok := get("method"); ok {
		if slices.Contains(params.Methods, v) {
			f.Method = v
		} else {
			bad("method", v, i18n.Text("link.methodValues", strings.Join(params.Methods, ", ")))
		}
	}
	if v, ok := get("pace"); ok {
		if _, known := params.PaceRate(v); known {
			f.Pace = v
		} else {
			bad("pace", v, i18n.Text("link.paceValues", strings.Join(params.Paces, ", ")))
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
				bad(b.key, v, i18n.Text("link.bitValues", b.key))
			}
		}
	}
	return s, notes
}
