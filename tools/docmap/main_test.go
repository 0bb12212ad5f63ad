package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree writes files (slash-separated path → contents) under a new
// temporary directory and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// architecture is an ARCHITECTURE.md whose map holds rows.
func architecture(rows ...string) string {
	return "# Architecture\n\nText that names core/outside.\n\n" + mapBegin + "\n| package | what |\n| --- | --- |\n" +
		strings.Join(rows, "\n") + "\n" + mapEnd + "\n\nMore text.\n"
}

const index = `# Decisions

| record | decision | date |
| --- | --- | --- |
| [0001](0001-first.md) | The first | 2026-11-22 |
| [0002](0002-second.md) | The second | 2026-11-23 |
`

// repo is a small repository whose documentation is whole.
func repo() map[string]string {
	return map[string]string{
		"core/plane/plane.go":                "package plane\n",
		"core/plane/plane_test.go":           "package plane\n",
		"wasm/ui/ui.go":                      "package ui\n",
		"wasm/ui/kit/kit.go":                 "package kit\n",
		"tools/docmap/main.go":               "package main\n",
		"docs/ARCHITECTURE.md":               architecture("| `core/plane` | the plane |", "| `wasm/ui` | the root |", "| `wasm/ui/kit` | what rooms share |", "| `tools/docmap` | this check |"),
		"docs/decisions/README.md":           index,
		"docs/decisions/0001-first.md":       "# 0001. The first\n\n## Date\n\n2026-11-22\n",
		"docs/decisions/0002-second.md":      "# 0002: The second\n\nDate: 2026-11-23\n",
		"docs/decisions/notes.txt":           "not a record\n",
		"docs/decisions/0003-draft.markdown": "not a record either\n",
	}
}

// checked runs check on a repository of files and fails the test on an
// error.
func checked(t *testing.T, files map[string]string) []string {
	t.Helper()
	problems, err := check(tree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	return problems
}

func TestAWholeRepositoryPasses(t *testing.T) {
	if problems := checked(t, repo()); len(problems) > 0 {
		t.Errorf("problems in a whole repository:\n%s", strings.Join(problems, "\n"))
	}
}

// TestThisRepositoryPasses runs the check that make lint runs, on the
// repository itself.
func TestThisRepositoryPasses(t *testing.T) {
	problems, err := check(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) > 0 {
		t.Errorf("the repository's documentation:\n%s", strings.Join(problems, "\n"))
	}
}

func TestAPackageAddedWithoutALineFails(t *testing.T) {
	files := repo()
	files["wasm/ui/classroom/classroom.go"] = "package classroom\n"
	problems := checked(t, files)
	if len(problems) != 1 {
		t.Fatalf("got %d problems, want 1:\n%s", len(problems), strings.Join(problems, "\n"))
	}
	// The map's rows are on lines 8 to 11: wasm/ui/classroom goes after
	// wasm/ui's line (9), before wasm/ui/kit's.
	for _, want := range []string{
		"docs/ARCHITECTURE.md: package wasm/ui/classroom has no line in the map",
		"after line 9 (the line of wasm/ui)",
		"| `wasm/ui/classroom` |",
	} {
		if !strings.Contains(problems[0], want) {
			t.Errorf("the problem %q does not say %q", problems[0], want)
		}
	}
}

func TestWhereAMissingLineGoes(t *testing.T) {
	for _, c := range []struct {
		name, pkg, want string
	}{
		{"the first of its tree goes before the tree's first line", "core/class", "before line 8 (the line of core/plane)"},
		{"a package sorted after others goes after the one before it", "core/shard", "after line 8 (the line of core/plane)"},
		{"a sub-package goes after its parent", "tools/docmap/internal", "after line 11 (the line of tools/docmap)"},
		{"a tree without lines goes before the end marker", "", "before line 12 (<!-- docmap:end -->)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := repo()
			pkg := c.pkg
			if pkg == "" {
				// No line of tools/ in the map at all.
				files["docs/ARCHITECTURE.md"] = architecture("| `core/plane` | the plane |", "| `wasm/ui` | the root |", "| `wasm/ui/kit` | what rooms share |", "| (none) | |")
				pkg = "tools/docmap"
			} else {
				files[pkg+"/x.go"] = "package x\n"
			}
			problems := checked(t, files)
			if len(problems) != 1 || !strings.Contains(problems[0], "package "+pkg+" has no line") || !strings.Contains(problems[0], c.want) {
				t.Errorf("got %q, want one problem for %s %s", problems, pkg, c.want)
			}
		})
	}
}

func TestWhatIsAPackageDirectory(t *testing.T) {
	files := map[string]string{
		"core/a/a.go":                      "package a\n",
		"core/a/b/only_test.go":            "package b\n", // tests only
		"core/a/testdata/x.go":             "package x\n",
		"core/a/testdata/deeper/y.go":      "package y\n",
		"core/c/README.md":                 "no Go\n",
		"core/c/d/d.go":                    "package d\n", // a package below a directory that is none
		"wasm/.hidden/h.go":                "package h\n",
		"wasm/_draft/h.go":                 "package h\n",
		"wasm/w.go":                        "package wasm\n", // the tree's root itself
		"tools/third_party/lib/l.go":       "package lib\n",
		"tools/peers/node_modules/m/m.go":  "package m\n",
		"tools/t/main.go":                  "package main\n",
		"tools/t/gen.go.txt":               "not Go\n",
		"web/notgo/x.go":                   "package x\n", // outside the trees
		"third_party/go-app/module/app.go": "package app\n",
	}
	got, err := packageDirs(tree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"core/a", "core/c/d", "tools/t", "wasm"}
	if !slices.Equal(got, want) {
		t.Errorf("package directories %q, want %q", got, want)
	}
}

func TestALineNamesAPathAsAWholeWord(t *testing.T) {
	for _, c := range []struct {
		text, path string
		want       bool
	}{
		{"| `core/plane` | the plane |", "core/plane", true},
		{"core/plane", "core/plane", true},
		{"the plane (core/plane).", "core/plane", true},
		{"in core/plane.", "core/plane", true},
		{"core/plane, core/shard", "core/shard", true},
		{"| `core/planework` | |", "core/plane", false},
		{"| `core/plane-x` | |", "core/plane", false},
		{"| `core/plane_x` | |", "core/plane", false},
		{"| `wasm/ui/kit` | |", "wasm/ui", false},
		{"./core/plane", "core/plane", false},
		{"x.core/plane", "core/plane", false},
		{"softmaxdemo/core/plane", "core/plane", false},
		{"mycore/plane", "core/plane", false},
		{"core/planework and then core/plane", "core/plane", true},
		{"", "core/plane", false},
	} {
		if got := names(c.text, c.path); got != c.want {
			t.Errorf("names(%q, %q) = %v, want %v", c.text, c.path, got, c.want)
		}
	}
}

func TestOnlyTheMapsLinesCount(t *testing.T) {
	files := repo()
	// core/outside is named above the map, core/after below it.
	files["core/outside/o.go"] = "package outside\n"
	files["docs/ARCHITECTURE.md"] += "core/after\n"
	files["core/after/a.go"] = "package after\n"
	problems := checked(t, files)
	if len(problems) != 2 || !strings.Contains(problems[0], "package core/after has no line") || !strings.Contains(problems[1], "package core/outside has no line") {
		t.Errorf("got %q, want core/after and core/outside without a line", problems)
	}
}

func TestARowOfAPackageThatIsGoneFails(t *testing.T) {
	files := repo()
	files["docs/ARCHITECTURE.md"] = architecture("| `core/plane` | the plane |", "| `core/gone` | left behind |", "| `wasm/ui` | the root |", "| `wasm/ui/kit` | what rooms share |", "| `tools/docmap` | this check |", "| `web/kernels.wat` | not a tree's |")
	problems := checked(t, files)
	if len(problems) != 1 || !strings.Contains(problems[0], "docs/ARCHITECTURE.md:9: the map's row of core/gone names no package directory") {
		t.Errorf("got %q, want one problem for core/gone's row on line 9", problems)
	}
}

func TestAMapWithoutItsMarkersIsAnError(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"no markers", "# Architecture\n\n| `core/plane` | |\n", "no map"},
		{"no end", "# Architecture\n" + mapBegin + "\n| `core/plane` | |\n", "has no line " + mapEnd},
		{"end first", "# Architecture\n" + mapEnd + "\n" + mapBegin + "\n", "before " + mapBegin},
		{"two begins", mapBegin + "\n" + mapBegin + "\n" + mapEnd + "\n", "a second " + mapBegin},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := repo()
			files["docs/ARCHITECTURE.md"] = c.text
			_, err := check(tree(t, files))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one that says %q", err, c.want)
			}
		})
	}
}

func TestARecordNotLinkedFails(t *testing.T) {
	files := repo()
	files["docs/decisions/0003-third.md"] = "# 0003. The third, added\n\n## Context\n\nOn 2026-11-20 …\n\n## Date\n\n2026-11-28\n"
	problems := checked(t, files)
	if len(problems) != 1 {
		t.Fatalf("got %d problems, want 1:\n%s", len(problems), strings.Join(problems, "\n"))
	}
	for _, want := range []string{
		"docs/decisions/README.md: decision record docs/decisions/0003-third.md is not linked from the index",
		"after line 6 (the line of 0002-second.md)",
		"| [0003](0003-third.md) | The third, added | 2026-11-28 |",
	} {
		if !strings.Contains(problems[0], want) {
			t.Errorf("the problem %q does not say %q", problems[0], want)
		}
	}
}

func TestTheFirstRecordNotLinkedGoesFirst(t *testing.T) {
	files := repo()
	files["docs/decisions/0000-zeroth.md"] = "# 0000. The zeroth\n"
	problems := checked(t, files)
	if len(problems) != 1 || !strings.Contains(problems[0], "before line 5 (the line of 0001-first.md)") ||
		!strings.Contains(problems[0], "| [0000](0000-zeroth.md) | The zeroth | its date |") {
		t.Errorf("got %q, want 0000 to go before line 5, with a placeholder for its date", problems)
	}
}

func TestALinkToNoRecordFails(t *testing.T) {
	files := repo()
	files["docs/decisions/README.md"] = index + "| [0009](0009-missing.md#evidence) | Gone | 2026-11-24 |\n"
	problems := checked(t, files)
	if len(problems) != 1 || !strings.Contains(problems[0], "docs/decisions/README.md:7: links to docs/decisions/0009-missing.md, which does not exist") {
		t.Errorf("got %q, want one problem for the link on line 7", problems)
	}
}

func TestALinkInProseCounts(t *testing.T) {
	files := repo()
	files["docs/decisions/README.md"] = "# Decisions\n\nFirst [the first](0001-first.md), then [0002](./0002-second.md#date).\n"
	if problems := checked(t, files); len(problems) > 0 {
		t.Errorf("problems with both records linked in prose: %q", problems)
	}
}
