package ui

import (
	"io/fs"
	"softmaxdemo/wasm/ui/chart"
	"softmaxdemo/wasm/ui/lesson"
	"softmaxdemo/wasm/ui/mathml"
	"softmaxdemo/wasm/ui/params"

	"softmaxdemo/wasm/ui/i18n"

	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// verbs lists the fmt verbs of a catalog entry as "argument:verb", with
// implicit argument indexes made explicit, sorted: two languages may put
// the arguments in another order (%[2]d), but must use the same ones.
func verbs(f string) []string {
	re := regexp.MustCompile(`%(\[(\d+)\])?[-+# 0-9.]*([a-zA-Z%])`)
	var out []string
	next := 1
	for _, m := range re.FindAllStringSubmatch(f, -1) {
		if m[3] == "%" {
			continue
		}
		i := next
		if m[2] != "" {
			i, _ = strconv.Atoi(m[2])
		}
		next = i + 1
		out = append(out, strconv.Itoa(i)+":"+m[3])
	}
	slices.Sort(out)
	return out
}

func TestCatalogs(t *testing.T) {
	t.Run("both catalogs have the same keys", func(t *testing.T) {
		for _, l := range i18n.Langs {
			for _, o := range i18n.Langs {
				for k := range i18n.Catalogs[l] {
					if _, ok := i18n.Catalogs[o][k]; !ok {
						t.Errorf("%q is in the %s catalog but not in the %s one", k, l, o)
					}
				}
			}
		}
	})
	t.Run("every entry takes the same arguments in both languages", func(t *testing.T) {
		for k, en := range i18n.CatalogEN {
			if zh, ok := i18n.CatalogZH[k]; ok && !slices.Equal(verbs(en), verbs(zh)) {
				t.Errorf("%q: en has %v, zh has %v", k, verbs(en), verbs(zh))
			}
		}
	})
	t.Run("no entry is empty or left in English in the Chinese catalog", func(t *testing.T) {
		for k, zh := range i18n.CatalogZH {
			if strings.TrimSpace(zh) == "" {
				t.Errorf("%q is empty", k)
			}
			// Chinese text has Chinese characters, unless it is only
			// notation, a name or an argument.
			if zh == i18n.CatalogEN[k] && hasWords(zh) && k != "lang.en" {
				t.Errorf("%q is the same in both languages: %q", k, zh)
			}
		}
	})
	t.Run("every key is used", func(t *testing.T) {
		used := literals(t, append(uiSources(t), "../session/*.go", "../worker/*.go", "../app/*.go")...)
		for k := range i18n.CatalogEN {
			switch {
			case used[k]:
			case strings.HasPrefix(k, "preset.") && slices.ContainsFunc(params.Presets, func(p params.Preset) bool { return "preset."+p.Name == k }):
			case strings.HasPrefix(k, "lang.") && slices.Contains(i18n.Langs, i18n.Lang(strings.TrimPrefix(k, "lang."))):
			case strings.HasPrefix(k, "pace.") && slices.Contains(params.Paces, strings.TrimPrefix(k, "pace.")):
			case strings.HasPrefix(k, "method.") && slices.Contains(params.Methods, strings.TrimPrefix(k, "method.")):
			case strings.HasPrefix(k, "lesson.") && slices.Contains(lesson.IDs(), strings.Split(k, ".")[1]):
				// lessonview names a chapter's text by its id
			case strings.HasPrefix(k, "chart.x.") && slices.Contains([]string{chart.AxisSteps, chart.AxisPasses, chart.AxisSeconds}, strings.TrimPrefix(k, "chart.x.")):
			default:
				t.Errorf("%q is in the catalogs but no code uses it", k)
			}
		}
	})
	t.Run("every key the code names has text", func(t *testing.T) {
		spaces := map[string]bool{}
		for k := range i18n.CatalogEN {
			if ns, _, ok := strings.Cut(k, "."); ok {
				spaces[ns] = true
			}
		}
		key := regexp.MustCompile(`^[a-z]+\.[A-Za-z0-9.]+$`)
		for lit := range literals(t, uiSources(t)...) {
			ns, _, _ := strings.Cut(lit, ".")
			if key.MatchString(lit) && spaces[ns] && !strings.HasSuffix(lit, ".") && i18n.CatalogEN[lit] == "" {
				t.Errorf("the code names %q, which the catalogs lack", lit)
			}
		}
	})
	t.Run("every formula is typeset, and no TeX shows outside one", func(t *testing.T) {
		// Arguments as the page fills them: digits, numbers, words.
		fill := regexp.MustCompile(`%(\[\d+\])?[-+# 0-9.]*[a-zA-Z]`)
		tex := regexp.MustCompile(`_|\^|\\[a-zA-Z]+`)
		for _, l := range i18n.Langs {
			for k, v := range i18n.Catalogs[l] {
				v = fill.ReplaceAllString(v, "3")
				for _, p := range mathml.Split(v) {
					if !p.Math {
						if m := tex.FindString(p.Text); m != "" {
							t.Errorf("%s %q shows %q outside a formula: %q", l, k, m, p.Text)
						}
						continue
					}
					if _, err := mathml.Parse(p.Text); err != nil {
						t.Errorf("%s %q: %v", l, k, err)
					}
				}
			}
		}
	})
	t.Run("every key the worker sends has text", func(t *testing.T) {
		for lit := range literals(t, "../session/*.go", "../worker/*.go") {
			if (strings.HasPrefix(lit, "err.") || strings.HasPrefix(lit, "hint.")) && i18n.CatalogEN[lit] == "" {
				t.Errorf("the worker uses %q, which the catalogs lack", lit)
			}
		}
	})
}

// hasWords reports whether s has a run of two or more Latin letters
// outside fmt verbs and formulas.
func hasWords(s string) bool {
	var text strings.Builder
	for _, p := range mathml.Split(s) {
		if !p.Math {
			text.WriteString(p.Text)
		}
	}
	s = regexp.MustCompile(`%(\[\d+\])?[-+# 0-9.]*[a-zA-Z]`).ReplaceAllString(text.String(), "")
	return regexp.MustCompile(`[A-Za-z]{2,}`).MatchString(s)
}

// uiSources returns the page's Go files: this package's and every one
// below it, the rooms' included.
func uiSources(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			out = append(out, path)
		}
		return err
	})
	if err != nil || len(out) < 40 {
		t.Fatalf("the page's sources: %d files, %v", len(out), err)
	}
	return out
}

// literals returns every string literal in the non-test Go files matching
// the patterns.
func literals(t *testing.T, patterns ...string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, pat := range patterns {
		files, _ := filepath.Glob(pat)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") || strings.HasPrefix(filepath.Base(f), "catalog-") {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(file, func(n ast.Node) bool {
				if b, ok := n.(*ast.BasicLit); ok && b.Kind == token.STRING {
					if s, err := strconv.Unquote(b.Value); err == nil {
						out[s] = true
					}
				}
				return true
			})
		}
	}
	return out
}

// TestComponentsRenderNoLiteralText walks the components' source: text a
// person reads (an element's text, a title, a label for screen readers)
// must come from the catalogs, never from a literal in the code. Symbols
// and digits ("?", "–", "0") are not words and may be literals.
func TestComponentsRenderNoLiteralText(t *testing.T) {
	for _, f := range uiSources(t) {
		if strings.HasSuffix(f, "_test.go") || strings.HasPrefix(filepath.Base(f), "catalog-") {
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "i18n" {
				return true // i18n.Text takes a catalog key
			}
			var arg ast.Expr
			switch sel.Sel.Name {
			case "Text", "Title", "Placeholder", "Alt":
				if len(call.Args) == 1 {
					arg = call.Args[0]
				}
			case "Aria", "Attr":
				if len(call.Args) == 2 {
					if k, ok := call.Args[0].(*ast.BasicLit); ok && (k.Value == `"label"` || k.Value == `"aria-label"` || k.Value == `"title"` || k.Value == `"placeholder"`) {
						arg = call.Args[1]
					}
				}
			}
			if lit, ok := arg.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				if hasWords(s) || strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0 {
					t.Errorf("%s: %s(%s) renders a literal: put the text in the catalogs", fset.Position(lit.Pos()), sel.Sel.Name, lit.Value)
				}
			}
			return true
		})
	}
}

func TestPickLang(t *testing.T) {
	tests := []struct {
		name, link, stored string
		preferred          []string
		want               i18n.Lang
	}{
		{"a Chinese browser gets Chinese", "", "", []string{"zh-CN", "en"}, i18n.ZH},
		{"any Chinese preference counts", "", "", []string{"en-US", "zh-TW"}, i18n.ZH},
		{"an English browser gets English", "", "", []string{"en-GB"}, i18n.EN},
		{"another language gets English", "", "", []string{"fr", "de"}, i18n.EN},
		{"no preference gets English", "", "", nil, i18n.EN},
		{"a stored choice wins over the browser", "", "en", []string{"zh-CN"}, i18n.EN},
		{"a link wins over a stored choice", "zh", "en", []string{"en"}, i18n.ZH},
		{"a bad stored value is ignored", "", "klingon", []string{"zh"}, i18n.ZH},
		{"a bad link value is ignored", "xx", "", []string{"en"}, i18n.EN},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := i18n.Pick(tt.link, tt.stored, tt.preferred); got != tt.want {
				t.Errorf("Pick(%q, %q, %v) = %s, want %s", tt.link, tt.stored, tt.preferred, got, tt.want)
			}
		})
	}
}

func TestNumbersAreTheSameInBothLanguages(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{i18n.Percent(0.9166), "91.7%"}, {i18n.Loss(0.273149), "0.2731"}, {i18n.Count(10000), "10,000"},
		{i18n.Count(999), "999"}, {i18n.Count(1234567), "1,234,567"}, {i18n.Count(-1500), "-1,500"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	if en, zh := i18n.EN.T("status.ready", i18n.Count(10000), i18n.Count(2000)), i18n.ZH.T("status.ready", i18n.Count(10000), i18n.Count(2000)); !strings.Contains(en, "10,000") || !strings.Contains(zh, "10,000") {
		t.Errorf("the languages disagree on digits: %q, %q", en, zh)
	}
}

func TestMsgRendersNestedTextInItsLanguage(t *testing.T) {
	m := i18n.Text("field.batchHint", i18n.Text("field.range", i18n.Text("name.batch"), int64(1), int64(10000), int64(0)), 10000)
	if got := i18n.EN.M(m); got != "the batch size must be from 1 to 10000 (got 0) (1 is SGD, 10000 is the whole set: full-batch gradient descent)" {
		t.Errorf("en: %q", got)
	}
	if got := i18n.ZH.M(m); !strings.HasPrefix(got, "批量大小 B应在 1 到 10000 之间") || hasWords(strings.ReplaceAll(got, "B", "")) {
		t.Errorf("zh: %q", got)
	}
	if got := i18n.EN.M(m); got != i18n.EN.M(m) {
		t.Error("rendering a msg changed it")
	}
	if i18n.EN.T("no.such.key") != "no.such.key" {
		t.Error("a missing key does not show itself")
	}
}
