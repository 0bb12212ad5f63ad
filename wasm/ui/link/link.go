// Package link reads and writes the settings a link to the page carries,
// in its fragment: #method=sgd&lr=0.5&batch=100&…&data=default&lang=zh.
//
// One table, keys, lists every setting with its name and its rule; Encode,
// Parse and the tests derive from it. A link reproduces a run: the seed is
// in it, and the same settings train to the same weights, bit for bit.
package link

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/params"
)

// Settings are what a link carries: the Train panel's settings, the
// data, the language and the lesson's chapter.
type Settings struct {
	// Train are the Train panel's fields, checked for the link's data
	// (params.Check); Parse replaces each refused value.
	Train   params.Settings
	Dataset string
	Lang    i18n.Lang // "" when the link does not name one
	// Workers is how many workers compute full passes over the data, 1
	// to protocol.MaxWorkers; 0, when the link does not say, leaves it to
	// the browser (navigator.hardwareConcurrency, less one for the page).
	// It changes no result, only how fast full passes run.
	Workers int
	// Lesson is the chapter (from 1) the lesson shows, 0 for the full
	// page. A link followed in an open page that does not name one opens
	// the full page.
	Lesson int
	// From makes the link's run a branch: the runs it descends from, the
	// first trained from its start, each to its Step, where the next (and
	// last the link's own Fields) goes on from its θ. Empty for a run
	// trained from its start.
	From Chain
}

// Chain is the runs a run descends from, the first first: a value, so
// that Settings compare with ==.
type Chain struct {
	n    int
	runs [MaxBranches]Branch
}

// NewChain returns the chain of runs, of which it keeps the last
// MaxBranches.
func NewChain(runs ...Branch) Chain {
	var c Chain
	runs = runs[max(0, len(runs)-MaxBranches):]
	c.n = copy(c.runs[:], runs)
	return c
}

// Runs returns the chain's runs, the first first.
func (c Chain) Runs() []Branch { return c.runs[:c.n] }

// Branch is one run a link's run descends from: trained with Fields to
// Step, one of its keyframes (protocol.Keyframes). A link writes it as
// from=<the run's settings, as a link writes them>&at=<step>, before the
// link's own settings, once per run, the first first.
type Branch struct {
	Fields params.Fields
	Step   int
}

// MaxBranches is the most runs a link's run may descend from.
const MaxBranches = 8

// runKeys are the keys of a run's own settings, which a Branch carries:
// not the pace, the data, the workers, the chapter or the language.
var runKeys = []string{"method", "lr", "batch", "l2", "epochs", "seed", "decay", "init", "pin", "deskew", "iters", "gtol", "cg"}

// Default returns the settings of a link that says nothing, the Train
// panel's fields checked for params.MaxTrain images.
func Default() Settings {
	return Settings{Train: check(params.Defaults(), "default", nil), Dataset: "default"}
}

// MaxLen is the longest fragment Parse reads; anything longer is not a
// link this page wrote, and is ignored whole.
const MaxLen = 2048

// A key is one setting in a link. Keys of the Train panel's text fields
// (field != nil) are checked together by params.Check, each with the rules
// of the method it belongs to (params.Settings.Refused; why picks the
// field's reason); the others check their value in set.
type key struct {
	name string
	// get returns the setting's value in s ("" leaves it out of a link).
	get func(s *draft) string
	// set stores v in s, or returns why v is refused and leaves s alone;
	// a key whose values are ordered (the lesson's chapter) stores the
	// nearest valid one instead, and returns why.
	set func(s *draft, v string, packs map[string]int) i18n.Msg
	// field points at the text field the key fills.
	field func(f *params.Fields) *string
	// why is the field's reason among the refusals.
	why func(e params.Errors) i18n.Msg
}

// draft is a link's settings as its keys are read, before the Train
// panel's fields are checked: Settings with the fields as text.
type draft struct {
	Fields  params.Fields
	Dataset string
	Lang    i18n.Lang
	Workers int
	Lesson  int
}

// keys lists the settings in the order Encode writes them.
var keys = []key{
	choice("method", func(f *params.Fields) *string { return &f.Method }, params.Methods,
		i18n.Text("link.methodValues", strings.Join(params.Methods, ", "))),
	text("lr", func(f *params.Fields) *string { return &f.LR }, func(e params.Errors) i18n.Msg { return e.LR }),
	text("batch", func(f *params.Fields) *string { return &f.Batch }, func(e params.Errors) i18n.Msg { return e.Batch }),
	text("l2", func(f *params.Fields) *string { return &f.L2 }, func(e params.Errors) i18n.Msg { return e.L2 }),
	text("epochs", func(f *params.Fields) *string { return &f.Epochs }, func(e params.Errors) i18n.Msg { return e.Epochs }),
	text("seed", func(f *params.Fields) *string { return &f.Seed }, func(e params.Errors) i18n.Msg { return e.Seed }),
	text("decay", func(f *params.Fields) *string { return &f.Decay }, func(e params.Errors) i18n.Msg { return e.Decay }),
	choice("init", func(f *params.Fields) *string { return &f.Init }, []string{"zeros", "normal"}, i18n.Text("link.initValues")),
	bit("pin", func(f *params.Fields) *bool { return &f.Pin }),
	bit("deskew", func(f *params.Fields) *bool { return &f.Deskew }),
	text("iters", func(f *params.Fields) *string { return &f.NewtonIters }, func(e params.Errors) i18n.Msg { return e.NewtonIters }),
	text("gtol", func(f *params.Fields) *string { return &f.GradTol }, func(e params.Errors) i18n.Msg { return e.GradTol }),
	text("cg", func(f *params.Fields) *string { return &f.CGSteps }, func(e params.Errors) i18n.Msg { return e.CGSteps }),
	choice("pace", func(f *params.Fields) *string { return &f.Pace }, params.Paces,
		i18n.Text("link.paceValues", strings.Join(params.Paces, ", "))),
	{
		name: "data",
		get:  func(s *draft) string { return s.Dataset },
		set: func(s *draft, v string, packs map[string]int) i18n.Msg {
			if _, ok := packs[v]; !ok {
				return i18n.Text("link.noSuchData")
			}
			s.Dataset = v
			return i18n.Msg{}
		},
	},
	{
		name: "workers",
		get: func(s *draft) string {
			if s.Workers == 0 {
				return ""
			}
			return strconv.Itoa(s.Workers)
		},
		set: func(s *draft, v string, _ map[string]int) i18n.Msg {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > protocol.MaxWorkers {
				return i18n.Text("link.workersValues", strconv.Itoa(protocol.MaxWorkers))
			}
			s.Workers = n
			return i18n.Msg{}
		},
	},
	{
		name: "lesson",
		get: func(s *draft) string {
			if s.Lesson < 1 {
				return ""
			}
			return strconv.Itoa(s.Lesson)
		},
		set: func(s *draft, v string, _ map[string]int) i18n.Msg {
			n, exact := lesson.Parse(v)
			s.Lesson = n
			if !exact {
				return i18n.Text("link.noSuchChapter", len(lesson.Chapters), strings.Join(lesson.IDs(), ", "), n)
			}
			return i18n.Msg{}
		},
	},
	{
		name: "lang",
		get:  func(s *draft) string { return string(s.Lang) },
		set: func(s *draft, v string, _ map[string]int) i18n.Msg {
			l, ok := i18n.Parse(v)
			if !ok {
				return i18n.Text("link.noSuchLang")
			}
			s.Lang = l
			return i18n.Msg{}
		},
	},
}

// text is the key of a text field that params.Check checks.
func text(name string, field func(*params.Fields) *string, why func(params.Errors) i18n.Msg) key {
	return key{
		name:  name,
		get:   func(s *draft) string { return *field(&s.Fields) },
		set:   func(s *draft, v string, _ map[string]int) i18n.Msg { *field(&s.Fields) = v; return i18n.Msg{} },
		field: field,
		why:   why,
	}
}

// choice is the key of a field that takes one of a few words.
func choice(name string, field func(*params.Fields) *string, values []string, why i18n.Msg) key {
	return key{
		name: name,
		get:  func(s *draft) string { return *field(&s.Fields) },
		set: func(s *draft, v string, _ map[string]int) i18n.Msg {
			if !slices.Contains(values, v) {
				return why
			}
			*field(&s.Fields) = v
			return i18n.Msg{}
		},
	}
}

// bit is the key of a checkbox, written 0 or 1.
func bit(name string, field func(*params.Fields) *bool) key {
	return key{
		name: name,
		get: func(s *draft) string {
			if *field(&s.Fields) {
				return "1"
			}
			return "0"
		},
		set: func(s *draft, v string, _ map[string]int) i18n.Msg {
			if v != "0" && v != "1" {
				return i18n.Text("link.bitValues", name)
			}
			*field(&s.Fields) = v == "1"
			return i18n.Msg{}
		},
	}
}

// Keys returns the names of the settings a link may carry, in the order
// Encode writes them.
func Keys() []string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.name
	}
	return names
}

// Encode returns s as the fragment of a link, without the "#".
func Encode(s Settings) string {
	var parts []string
	for _, br := range s.From.Runs() {
		parts = append(parts, "from="+url.QueryEscape(encodeKeys(draft{Fields: br.Fields}, runKeys)), "at="+strconv.Itoa(br.Step))
	}
	if own := encodeKeys(s.draft(), nil); own != "" {
		parts = append(parts, own)
	}
	return strings.Join(parts, "&")
}

// draft returns s's keys, the Train panel's fields as text.
func (s Settings) draft() draft {
	return draft{Fields: s.Train.Fields, Dataset: s.Dataset, Lang: s.Lang, Workers: s.Workers, Lesson: s.Lesson}
}

// encodeKeys writes the keys of s named in only (all for nil), in the
// table's order.
func encodeKeys(s draft, only []string) string {
	var b strings.Builder
	for _, k := range keys {
		if only != nil && !slices.Contains(only, k.name) {
			continue
		}
		v := strings.TrimSpace(k.get(&s))
		if v == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(k.name)
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(v))
	}
	return b.String()
}

// Parse reads the settings in a link's fragment (with or without the
// leading "#"). packs maps each dataset the page knows to its number of
// training images, which bounds B. It is the one place where a link is
// validated, and it uses the Train panel's own rules (params.Check): a
// value that is missing takes its default silently; a value that is
// invalid or out of range takes its default and adds a notice that names
// it; so does an unknown dataset, language or setting. Nothing in a link
// is ever run or rendered as markup: values only fill fields.
func Parse(fragment string, packs map[string]int) (Settings, []i18n.Msg) {
	return parse(fragment, Default(), packs, "link.tooLong", "link.unreadable")
}

// ParseOver reads a link's fragment as Parse does, over the settings base
// instead of the defaults: a value the link leaves out keeps base's, and
// an invalid one falls back to base's (or, should base's be invalid under
// the link's method or data, to the default) with a notice. It is how a
// link followed in an open page applies: a fresh load has only the
// defaults to start from, an open page has the settings it shows, and a
// link with a typing error must not undo them. The chapter is the one
// exception: a link that names none opens the full page, as going Back
// from the lesson's first chapter to the page that opened it does.
func ParseOver(fragment string, base Settings, packs map[string]int) (Settings, []i18n.Msg) {
	if q, err := url.ParseQuery(strings.TrimPrefix(fragment, "#")); err == nil && len(fragment) <= MaxLen+1 && strings.Trim(fragment, "#") != "" && q["lesson"] == nil {
		base.Lesson = 0
	}
	return parse(fragment, base, packs, "link.tooLongKept", "link.unreadableKept")
}

// check checks the Train panel's fields f against the training images of
// the pack named data, which bound B (params.MaxTrain for a pack packs
// does not name).
func check(f params.Fields, data string, packs map[string]int) params.Settings {
	return params.Check(f, packs[data])
}

// parse is Parse over base; tooLong and unreadable are the keys of the
// notices for a link refused whole, which say what is used instead.
func parse(fragment string, base Settings, packs map[string]int, tooLong, unreadable string) (Settings, []i18n.Msg) {
	fragment = strings.TrimPrefix(fragment, "#")
	kept := base
	kept.Train = check(base.Train.Fields, base.Dataset, packs)
	if fragment == "" {
		return kept, nil
	}
	if len(fragment) > MaxLen {
		return kept, []i18n.Msg{i18n.Text(tooLong, i18n.Count(len(fragment)))}
	}
	q, err := url.ParseQuery(fragment)
	if err != nil {
		return kept, []i18n.Msg{i18n.Text(unreadable)}
	}
	var notes []i18n.Msg
	bad := func(key, value string, why i18n.Msg) {
		notes = append(notes, i18n.Text("link.bad", key, params.Quote(value), why))
	}
	for _, name := range slices.Sorted(maps.Keys(q)) {
		if name != "from" && name != "at" && !slices.ContainsFunc(keys, func(k key) bool { return k.name == name }) {
			notes = append(notes, i18n.Text("link.unknown", params.Quote(name)))
		}
	}
	d := base.draft()
	for _, k := range keys {
		v := q[k.name]
		if len(v) == 0 {
			continue
		}
		value := strings.TrimSpace(v[len(v)-1])
		if why := k.set(&d, value, packs); !why.IsZero() {
			bad(k.name, value, why)
		}
	}
	// Every field is checked, whichever method the link names: each
	// method's fields with that method's rules, B against the link's data.
	// A refused value takes base's, and, should base's be refused too under
	// the link's method or data, the default.
	train := check(d.Fields, d.Dataset, packs)
	for round, fallback := range []params.Fields{base.Train.Fields, params.Defaults()} {
		refused, f := train.Refused, train.Fields
		for _, k := range keys {
			if k.field == nil || k.why(refused).IsZero() {
				continue
			}
			if round == 0 {
				bad(k.name, *k.field(&f), k.why(refused))
			}
			*k.field(&f) = *k.field(&fallback)
		}
		if f != train.Fields {
			train = check(f, d.Dataset, packs)
		}
	}
	s := Settings{Train: train, Dataset: d.Dataset, Lang: d.Lang, Workers: d.Workers, Lesson: d.Lesson}
	var why i18n.Msg
	if s.From, why = parseFrom(q, func(f params.Fields) bool { return check(f, d.Dataset, packs).OK() }, packs); !why.IsZero() {
		notes = append(notes, i18n.Text("scrub.linkBad", why))
	}
	return s, notes
}

// parseFrom reads the runs a link's run branches from (Settings.From): as
// many from as at, at most MaxBranches, each from holding a run's settings
// that the Train panel accepts (accepted), each at a whole number of steps. Anything else drops them all, and says why: the link's
// run then trains from its start. Whether each step is one of its run's
// keyframes is known once the data are (the page checks it as it trains).
func parseFrom(q url.Values, accepted func(params.Fields) bool, packs map[string]int) (Chain, i18n.Msg) {
	from, at := q["from"], q["at"]
	if len(from) == 0 && len(at) == 0 {
		return Chain{}, i18n.Msg{}
	}
	if len(from) != len(at) || len(from) > MaxBranches {
		return Chain{}, i18n.Text("scrub.linkCount", MaxBranches)
	}
	out := make([]Branch, len(from))
	for i := range from {
		b := draft{Fields: params.Defaults()}
		rq, err := url.ParseQuery(from[i])
		if err != nil {
			return Chain{}, i18n.Text("scrub.linkRun", i+1)
		}
		for _, name := range slices.Sorted(maps.Keys(rq)) {
			k := slices.IndexFunc(keys, func(k key) bool { return k.name == name })
			if k < 0 || !slices.Contains(runKeys, name) {
				return Chain{}, i18n.Text("scrub.linkRun", i+1)
			}
			if why := keys[k].set(&b, strings.TrimSpace(rq[name][len(rq[name])-1]), packs); !why.IsZero() {
				return Chain{}, i18n.Text("scrub.linkRun", i+1)
			}
		}
		if !accepted(b.Fields) {
			return Chain{}, i18n.Text("scrub.linkRun", i+1)
		}
		step, err := strconv.Atoi(strings.TrimSpace(at[i]))
		if err != nil || step < 0 {
			return Chain{}, i18n.Text("scrub.linkStep", params.Quote(at[i]))
		}
		b.Fields.Pace = ""
		out[i] = Branch{Fields: b.Fields, Step: step}
	}
	return NewChain(out...), i18n.Msg{}
}
