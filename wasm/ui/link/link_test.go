package link

import (
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/params"

	"softmaxdemo/wasm/ui/i18n"

	"strconv"
	"strings"
	"testing"
)

func TestLinkRoundTrips(t *testing.T) {
	f := params.Defaults()
	f.LR, f.Batch, f.Pin, f.Deskew, f.Pace = "0.25", "64", true, false, "3"
	f.Method, f.GradTol = "newton", "1e-6"
	s := Settings{Train: params.Check(f, 10000), Dataset: "default", Lang: i18n.ZH}
	frag := Encode(s)
	got, notes := Parse("#"+frag, map[string]int{"default": 10000})
	if len(notes) != 0 || !same(got, s) || got.Train.M != 10000 || !got.Train.OK() {
		t.Errorf("%s read back as %+v with notices %v, want %+v", frag, got, notes, s)
	}
	if !strings.HasPrefix(frag, "method=newton&lr=0.25&batch=64&") || !strings.Contains(frag, "&lang=zh") {
		t.Errorf("link %q", frag)
	}
}

func TestBadLinksFallBackWithANotice(t *testing.T) {
	packs := map[string]int{"default": 10000}
	def := params.Defaults()
	tests := []struct {
		name, frag string
		check      func(Settings) bool
		names      string
	}{
		{"a word as α", "lr=abc", func(s Settings) bool { return s.Train.Fields.LR == def.LR }, "lr"},
		{"a negative α", "lr=-1", func(s Settings) bool { return s.Train.Fields.LR == def.LR }, "lr"},
		{"NaN as λ", "l2=NaN", func(s Settings) bool { return s.Train.Fields.L2 == def.L2 }, "l2"},
		{"B above the set", "batch=10001", func(s Settings) bool { return s.Train.Fields.Batch == def.Batch }, "batch"},
		{"a huge B", "batch=1e99", func(s Settings) bool { return s.Train.Fields.Batch == def.Batch }, "batch"},
		{"a negative seed", "seed=-3", func(s Settings) bool { return s.Train.Fields.Seed == def.Seed }, "seed"},
		{"an unknown dataset", "data=imagenet", func(s Settings) bool { return s.Dataset == "default" }, "data"},
		{"an unknown language", "lang=xx", func(s Settings) bool { return s.Lang == "" }, "lang"},
		{"an unknown method", "method=adam", func(s Settings) bool { return s.Train.Fields.Method == "sgd" }, "method"},
		{"a zero tolerance", "gtol=0", func(s Settings) bool { return s.Train.Fields.GradTol == def.GradTol }, "gtol"},
		{"an unknown pace", "pace=warp", func(s Settings) bool { return s.Train.Fields.Pace == params.DefaultPace }, "pace"},
		{"pin as a word", "pin=yes", func(s Settings) bool { return !s.Train.Fields.Pin }, "pin"},
		{"an unknown setting", "colour=red&lr=0.3", func(s Settings) bool { return s.Train.Fields.LR == "0.3" }, "colour"},
		{"a 100 kB link", "lr=" + strings.Repeat("9", 100<<10), func(s Settings) bool { return s.Train.Fields == def }, "102,403"},
		{"markup", "seed=%3Cimg%20src%3Dx%3E", func(s Settings) bool { return s.Train.Fields.Seed == def.Seed }, "<img src=x>"},
		{"a broken escape", "lr=%zz", func(s Settings) bool { return s.Train.Fields == def }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, notes := Parse(tt.frag, packs)
			if !tt.check(s) {
				t.Errorf("settings %+v", s)
			}
			if len(notes) == 0 {
				t.Fatal("no notice")
			}
			all := ""
			for _, n := range notes {
				all += i18n.EN.M(n) + "\n"
				if zh := i18n.ZH.M(n); zh == "" || strings.Contains(zh, "%!") {
					t.Errorf("the Chinese notice is %q", zh)
				}
			}
			if !strings.Contains(all, tt.names) || len(all) > 400 {
				t.Errorf("notices %q do not name %q", all, tt.names)
			}
		})
	}
}

func TestKeysAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Keys() {
		if seen[k] {
			t.Errorf("%q is listed twice", k)
		}
		seen[k] = true
	}
	if len(seen) < 16 {
		t.Errorf("%d keys: %v", len(seen), Keys())
	}
}

// TestEveryKeyRoundTrips sets each key, alone, to a value other than its
// default that its rule accepts, and reads it back from the link.
func TestEveryKeyRoundTrips(t *testing.T) {
	packs := map[string]int{"default": 10000, "full": 60000}
	def := Default().draft()
	for _, k := range keys {
		found := false
		for _, v := range []string{"newton", "0.125", "7", "normal", "0", "1", "full", "en", "1e-7", "200"} {
			d := Default().draft()
			if why := k.set(&d, v, packs); !why.IsZero() || k.get(&d) == k.get(&def) {
				continue
			}
			s := Settings{Train: params.Check(d.Fields, packs[d.Dataset]), Dataset: d.Dataset, Lang: d.Lang, Workers: d.Workers, Lesson: d.Lesson}
			got, notes := Parse(Encode(s), packs)
			if len(notes) != 0 {
				continue // the value passes the key's own rule but not the Train panel's
			}
			if !same(got, s) {
				t.Errorf("%s: %q read back as %+v", k.name, Encode(s), got)
			}
			found = true
			break
		}
		if !found {
			t.Errorf("%s: no test value differs from the default and is accepted", k.name)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("method=newton&lr=0.25&batch=64&pin=1&lang=zh")
	f.Add("lr=%zz&batch=1e99&data=imagenet&colour=red")
	f.Add("seed=%3Cimg%20src%3Dx%3E&pace=warp")
	packs := map[string]int{"default": 10000}
	f.Fuzz(func(t *testing.T, frag string) {
		s, notes := Parse(frag, packs)
		if !s.Train.OK() || s.Train.M != packs[s.Dataset] {
			t.Fatalf("%q gave settings the Train panel refuses, or checked for %d images: %+v", frag, s.Train.M, s.Train.Errors)
		}
		if r := s.Train.Refused; !r.OK() {
			t.Fatalf("%q gave fields another method refuses: %+v", frag, r)
		}
		again, more := Parse(Encode(s), packs)
		if !same(again, s) || len(more) != 0 {
			t.Fatalf("%q: %+v encodes as %q, which reads back as %+v with %d notices", frag, s, Encode(s), again, len(more))
		}
		_ = notes
	})
}

// TestParseOverKeepsTheOpenPagesSettings: in an open page a link applies
// over what the page shows: what it names and gets right changes, what it
// leaves out or gets wrong keeps the page's value.
func TestParseOverKeepsTheOpenPagesSettings(t *testing.T) {
	packs := map[string]int{"default": 10000, "full": 60000}
	base := Default()
	f := base.Train.Fields
	f.LR, f.Batch, f.Seed, f.Method = "0.1", "20000", "7", "gd"
	base.Train = params.Check(f, 60000)
	base.Dataset, base.Lang = "full", i18n.ZH
	tests := []struct {
		name, frag string
		want       func(s *draft)
		notes      int
	}{
		{"an empty link changes nothing", "", func(*draft) {}, 0},
		{"named values apply, the rest stay", "lr=0.3&lang=en", func(s *draft) { s.Fields.LR, s.Lang = "0.3", i18n.EN }, 0},
		{"bad values keep the page's", "lr=abc&batch=-3", func(*draft) {}, 2},
		{"a bad value beside a good one", "lr=abc&seed=9", func(s *draft) { s.Fields.Seed = "9" }, 1},
		{"B the page had but the link's data cannot take falls to the default", "data=default",
			func(s *draft) { s.Dataset, s.Fields.Batch = "default", params.Defaults().Batch }, 1},
		{"an unknown dataset keeps the page's", "data=imagenet", func(*draft) {}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := base.draft()
			tt.want(&want)
			got, notes := ParseOver(tt.frag, base, packs)
			if got.draft() != want || got.From != base.From || !got.Train.OK() || got.Train.M != packs[want.Dataset] {
				t.Errorf("got  %+v\nwant %+v", got.draft(), want)
			}
			if len(notes) != tt.notes {
				t.Errorf("%d notices, want %d: %v", len(notes), tt.notes, notes)
			}
		})
	}
}

// TestBadChaptersOpenTheNearest: a chapter out of range, not a number or
// not a chapter's name opens the nearest chapter with a notice that
// names it; everything else the link says is kept.
func TestBadChaptersOpenTheNearest(t *testing.T) {
	packs := map[string]int{"default": 10000}
	last := len(lesson.Chapters)
	tests := []struct {
		frag   string
		want   int
		notice bool
	}{
		{"lesson=3&lr=0.25", 3, false},
		{"lesson=loss&lr=0.25", 3, false},
		{"lesson=0&lr=0.25", 1, true},
		{"lesson=99&lr=0.25", last, true},
		{"lesson=abc&lr=0.25", 1, true},
		{"lesson=plane&lr=0.25", 1, true},
		{"lesson=-1&lr=0.25", 1, true},
		{"lr=0.25", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.frag, func(t *testing.T) {
			s, notes := Parse(tt.frag, packs)
			if s.Lesson != tt.want || s.Train.Fields.LR != "0.25" {
				t.Errorf("chapter %d, α %q; want chapter %d, α 0.25", s.Lesson, s.Train.Fields.LR, tt.want)
			}
			if (len(notes) > 0) != tt.notice {
				t.Fatalf("notices %v", notes)
			}
			for _, n := range notes {
				for _, l := range i18n.Langs {
					if m := l.M(n); !strings.Contains(m, "lesson") || !strings.Contains(m, strconv.Itoa(tt.want)) || strings.Contains(m, "%!") {
						t.Errorf("the %s notice %q does not name the key and the chapter opened", l, m)
					}
				}
			}
			if again, more := Parse(Encode(s), packs); !same(again, s) || len(more) != 0 {
				t.Errorf("%q reads back as %+v with %v", Encode(s), again, more)
			}
		})
	}
}

// TestAFollowedLinkWithoutAChapterLeavesTheLesson: in an open page, a
// link that names no chapter opens the full page (Back from the first
// chapter); one that names a chapter opens it.
func TestAFollowedLinkWithoutAChapterLeavesTheLesson(t *testing.T) {
	packs := map[string]int{"default": 10000}
	base := Default()
	base.Lesson = 4
	if s, _ := ParseOver("lr=0.3", base, packs); s.Lesson != 0 {
		t.Errorf("a link without a chapter kept chapter %d", s.Lesson)
	}
	if s, _ := ParseOver("lr=0.3&lesson=2", base, packs); s.Lesson != 2 {
		t.Errorf("a link to chapter 2 opened %d", s.Lesson)
	}
	if s, _ := ParseOver("", base, packs); s.Lesson != 4 {
		t.Errorf("an empty link changed the chapter to %d", s.Lesson)
	}
}

// TestABranchRoundTrips: a branch's link carries the runs it descends
// from, each with its settings and step, before its own settings, and
// reads back as it was.
func TestABranchRoundTrips(t *testing.T) {
	packs := map[string]int{"default": 10000}
	first := params.Defaults()
	first.Pace = ""
	second := first
	second.LR, second.Batch, second.Seed = "0.1", "7", "3"
	own := params.Defaults()
	own.LR = "0.05"
	s := Settings{Train: params.Check(own, 10000), Dataset: "default", From: NewChain(Branch{Fields: first, Step: 8}, Branch{Fields: second, Step: 64})}
	frag := Encode(s)
	if !strings.HasPrefix(frag, "from=method%3Dsgd%26lr%3D0.5%26batch%3D100%26") || !strings.Contains(frag, "&at=8&from=") ||
		!strings.Contains(frag, "&at=64&method=sgd&lr=0.05&") || strings.Contains(frag, "pace%3D") {
		t.Errorf("link %q", frag)
	}
	got, notes := Parse("#"+frag, packs)
	if len(notes) != 0 || !same(got, s) {
		t.Errorf("%s read back as %+v with notices %v, want %+v", frag, got, notes, s)
	}
	if len(frag) > MaxLen/2 {
		t.Errorf("a branch of a branch takes %d characters of the %d a link may have", len(frag), MaxLen)
	}
	t.Run("a link without one is no branch, also over a page showing one", func(t *testing.T) {
		if got, _ := ParseOver("#lr=0.3", s, packs); got.From != (Chain{}) {
			t.Errorf("a followed link without from kept %+v", got.From.Runs())
		}
	})
	for _, tt := range []struct{ name, frag string }{
		{"a from without its at", "from=lr%3D0.5&lr=0.1"},
		{"an at that is not a step", "from=lr%3D0.5&at=x"},
		{"a negative step", "from=lr%3D0.5&at=-1"},
		{"a refused setting in the first run", "from=lr%3Dabc&at=8"},
		{"a key that is not a run's", "from=data%3Dfull&at=8"},
		{"more runs than a chain holds", strings.Repeat("from=lr%3D0.5&at=1&", MaxBranches+1) + "lr=0.1"},
	} {
		t.Run(tt.name+" trains from its start, with a notice", func(t *testing.T) {
			got, notes := Parse("#"+tt.frag, packs)
			if got.From != (Chain{}) || len(notes) != 1 || !strings.Contains(i18n.EN.M(notes[0]), "branch") {
				t.Errorf("%s: from %+v, notices %v", tt.frag, got.From.Runs(), notes)
			}
		})
	}
}

// same reports whether a and b are the same settings: the same keys and
// the same runs they descend from.
func same(a, b Settings) bool { return a.draft() == b.draft() && a.From == b.From }
