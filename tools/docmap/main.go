// Command docmap checks that the documentation keeps up with the code:
// every package directory has its line in the map of docs/ARCHITECTURE.md,
// and every decision record is linked from the records' index. `make lint`
// runs it from the repository's root; it prints each problem, with the
// line to add and where, and exits 1 if there is any.
//
//	go run ./tools/docmap [-root DIR]
//
// A package directory is a directory under core/, wasm/ or tools/ that
// holds at least one file whose name ends in ".go" but not in "_test.go".
// Directories named testdata, third_party or node_modules, and those whose
// name begins with "." or "_" (which the go command ignores too), are not
// looked into, nor is anything below them.
//
// The map is the part of docs/ARCHITECTURE.md between a line
// "<!-- docmap:begin -->" and a line "<!-- docmap:end -->". A package's
// line in the map is a line between them that names the package's path
// from the repository's root, such as core/plane or wasm/ui/kit, as a
// whole word: the path is neither preceded by a letter, a digit, '_', '-',
// '/' or '.', nor followed by a letter, a digit, '_', '-' or '/'. So the
// line of wasm/ui/kit is not wasm/ui's, core/planework's is not
// core/plane's, and "core/plane." at the end of a sentence names
// core/plane. A row of the map whose first cell is a path in backquotes
// under core/, wasm/ or tools/ must name a package directory: a row left
// behind by a package that has gone is a problem too.
//
// A decision record is a file of docs/decisions whose name is four digits,
// a hyphen, a name and ".md" (0011-one-program-for-page-and-worker.md).
// It is linked from the index when docs/decisions/README.md holds a
// Markdown link to its file name, "](0011-one-program-for-page-and-worker.md)".
// A link of the index to a record file that does not exist is a problem
// too.
//
// A missing line is reported with the line to add and where: after the
// line of the package of its tree (core/, wasm/ or tools/) that comes
// before it in path order, or of the record that comes before it in
// number order, so that the map's rows of each tree, and the index, stay
// sorted.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// The files and markers that docmap reads, relative to the root.
const (
	mapFile    = "docs/ARCHITECTURE.md"
	mapBegin   = "<!-- docmap:begin -->"
	mapEnd     = "<!-- docmap:end -->"
	recordsDir = "docs/decisions"
	indexFile  = "docs/decisions/README.md"
)

// trees are the directories whose package directories the map must name.
var trees = []string{"core", "wasm", "tools"}

func main() {
	root := flag.String("root", ".", "the repository's root")
	flag.Parse()
	problems, err := check(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "docmap:", err)
		os.Exit(1)
	}
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
}

// check returns the problems of the documentation under root, each a
// message that says what is missing and where to add it. The error is for
// a root that cannot be read, or a map without its markers.
func check(root string) ([]string, error) {
	pkgs, err := packageDirs(root)
	if err != nil {
		return nil, err
	}
	m, err := readMap(filepath.Join(root, filepath.FromSlash(mapFile)))
	if err != nil {
		return nil, err
	}
	problems := checkMap(pkgs, m)
	recs, err := records(filepath.Join(root, filepath.FromSlash(recordsDir)))
	if err != nil {
		return nil, err
	}
	index, err := readLines(filepath.Join(root, filepath.FromSlash(indexFile)))
	if err != nil {
		return nil, err
	}
	return append(problems, checkIndex(recs, index)...), nil
}

// packageDirs returns the package directories under root's trees, as
// slash-separated paths from root, sorted.
func packageDirs(root string) ([]string, error) {
	var dirs []string
	for _, tree := range trees {
		top := filepath.Join(root, tree)
		if _, err := os.Stat(top); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		err := filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != top && skipped(d.Name()) {
					return filepath.SkipDir
				}
				return nil
			}
			name := d.Name()
			if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
				rel, err := filepath.Rel(root, filepath.Dir(p))
				if err != nil {
					return err
				}
				dirs = append(dirs, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(dirs)
	return slices.Compact(dirs), nil
}

// skipped reports whether a directory of this name is left out of the
// walk, with everything below it.
func skipped(name string) bool {
	switch name {
	case "testdata", "third_party", "node_modules":
		return true
	}
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// line is one line of a file and its number, counted from 1.
type line struct {
	n    int
	text string
}

// docMap is the map's lines, between its markers, and the markers' line
// numbers.
type docMap struct {
	lines      []line
	begin, end int
}

func readLines(name string) ([]line, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []line
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	for n := 1; s.Scan(); n++ {
		lines = append(lines, line{n, s.Text()})
	}
	return lines, s.Err()
}

// readMap reads the map's section of the file name: the lines between the
// begin and the end marker, each alone on its line.
func readMap(name string) (docMap, error) {
	lines, err := readLines(name)
	if err != nil {
		return docMap{}, err
	}
	m := docMap{begin: -1, end: -1}
	for i, l := range lines {
		switch strings.TrimSpace(l.text) {
		case mapBegin:
			if m.begin >= 0 {
				return docMap{}, fmt.Errorf("%s: line %d: a second %s (the first is on line %d)", mapFile, l.n, mapBegin, m.begin)
			}
			m.begin = l.n
		case mapEnd:
			if m.begin < 0 {
				return docMap{}, fmt.Errorf("%s: line %d: %s before %s", mapFile, l.n, mapEnd, mapBegin)
			}
			m.end = l.n
			m.lines = lines[m.begin:i] // from the line after the begin marker to the one before this
			return m, nil
		}
	}
	if m.begin < 0 {
		return docMap{}, fmt.Errorf("%s: no map: the packages' map must stand between a line %s and a line %s", mapFile, mapBegin, mapEnd)
	}
	return docMap{}, fmt.Errorf("%s: the map that begins on line %d has no line %s", mapFile, m.begin, mapEnd)
}

// names reports whether text names the path p as a whole word.
func names(text, p string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], p)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !pathByte(text[j-1]) && text[j-1] != '.'
		after := j+len(p) == len(text) || !pathByte(text[j+len(p)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

// pathByte reports whether b can continue a package's path.
func pathByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_' || b == '-' || b == '/'
}

// rowPath matches a table row whose first cell is a path in backquotes.
var rowPath = regexp.MustCompile("^\\|\\s*`([^`]+)`\\s*\\|")

// checkMap returns a problem for every package without a line in the map,
// and for every row of the map that names a path under the trees that is
// not a package directory.
func checkMap(pkgs []string, m docMap) []string {
	var problems []string
	lineOf := map[string]int{} // a package's first line in the map
	for _, p := range pkgs {
		for _, l := range m.lines {
			if names(l.text, p) {
				lineOf[p] = l.n
				break
			}
		}
	}
	for _, p := range pkgs {
		if _, ok := lineOf[p]; ok {
			continue
		}
		problems = append(problems, fmt.Sprintf(
			"%s: package %s has no line in the map; add one %s, such as:\n\t| `%s` | what it holds |",
			mapFile, p, whereInMap(p, pkgs, lineOf, m), p))
	}
	for _, l := range m.lines {
		sub := rowPath.FindStringSubmatch(l.text)
		if sub == nil {
			continue
		}
		p := strings.TrimSuffix(sub[1], "/")
		top, _, _ := strings.Cut(p, "/")
		if !slices.Contains(trees, top) || slices.Contains(pkgs, p) {
			continue
		}
		problems = append(problems, fmt.Sprintf(
			"%s:%d: the map's row of %s names no package directory (no .go file but tests there); remove the row or correct its path",
			mapFile, l.n, p))
	}
	return problems
}

// whereInMap says where the line of the unmapped package p goes: after the
// line of the mapped package of its tree that comes before it, before the
// first of its tree if none does, and at the map's end if its tree has no
// line yet.
func whereInMap(p string, pkgs []string, lineOf map[string]int, m docMap) string {
	top, _, _ := strings.Cut(p, "/")
	var prev, next string
	for _, q := range pkgs {
		if _, ok := lineOf[q]; !ok || !strings.HasPrefix(q, top+"/") {
			continue
		}
		if q < p {
			prev = q
		} else if next == "" {
			next = q
		}
	}
	switch {
	case prev != "":
		return fmt.Sprintf("after line %d (the line of %s)", lineOf[prev], prev)
	case next != "":
		return fmt.Sprintf("before line %d (the line of %s)", lineOf[next], next)
	}
	return fmt.Sprintf("before line %d (%s)", m.end, mapEnd)
}

// recordName matches a decision record's file name.
var recordName = regexp.MustCompile(`^([0-9]{4})-[^/]+\.md$`)

// record is a decision record: its file name, its number, its title and
// its date as the record gives them.
type record struct {
	file, number, title, date string
}

// records returns the decision records of dir, in their number's order.
func records(dir string) ([]record, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var recs []record
	for _, e := range entries {
		sub := recordName.FindStringSubmatch(e.Name())
		if e.IsDir() || sub == nil {
			continue
		}
		r := record{file: e.Name(), number: sub[1], title: "the decision, in one line", date: "its date"}
		lines, err := readLines(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		r.title, r.date = describe(lines, r)
		recs = append(recs, r)
	}
	slices.SortFunc(recs, func(a, b record) int { return strings.Compare(a.file, b.file) })
	return recs, nil
}

// title matches a record's heading: "# 0011. One program …" or "# 0032: …".
var title = regexp.MustCompile(`^#\s+[0-9]{4}[.:]?\s+(.+)$`)

// date matches an ISO date.
var date = regexp.MustCompile(`[0-9]{4}-[0-9]{2}-[0-9]{2}`)

// describe returns the record's title and date for the index's line: the
// heading's words after the number, and the first date after a "Date"
// heading or on a "Date:" line; r's placeholders where there are none.
func describe(lines []line, r record) (string, string) {
	t, d := r.title, r.date
	inDate := false
	for _, l := range lines {
		if sub := title.FindStringSubmatch(l.text); sub != nil && t == r.title {
			t = strings.TrimSpace(sub[1])
		}
		s := strings.TrimSpace(l.text)
		if strings.HasPrefix(s, "#") {
			inDate = strings.EqualFold(strings.TrimSpace(strings.TrimLeft(s, "#")), "date")
		}
		if inDate || strings.HasPrefix(s, "Date:") {
			if found := date.FindString(s); found != "" {
				d = found
				break
			}
		}
	}
	return t, d
}

// link matches the target of a Markdown link to a record's file.
var link = regexp.MustCompile(`\]\((?:\./)?([0-9]{4}-[^)#\s]+\.md)(#[^)]*)?\)`)

// checkIndex returns a problem for every record that the index does not
// link to, and for every link of the index to a record that is not there.
func checkIndex(recs []record, index []line) []string {
	var problems []string
	linked := map[string]int{} // a record's file and the first line linking it
	for _, l := range index {
		for _, sub := range link.FindAllStringSubmatch(l.text, -1) {
			if f := path.Clean(sub[1]); linked[f] == 0 {
				linked[f] = l.n
			}
		}
	}
	first := "" // the first record the index links to
	for _, r := range recs {
		if linked[r.file] > 0 {
			first = r.file
			break
		}
	}
	prev := ""
	for _, r := range recs {
		if linked[r.file] > 0 {
			prev = r.file
			continue
		}
		where := "to its table"
		switch {
		case prev != "":
			where = fmt.Sprintf("after line %d (the line of %s)", linked[prev], prev)
		case first != "":
			where = fmt.Sprintf("before line %d (the line of %s)", linked[first], first)
		}
		problems = append(problems, fmt.Sprintf(
			"%s: decision record %s/%s is not linked from the index; add a line %s, such as:\n\t| [%s](%s) | %s | %s |",
			indexFile, recordsDir, r.file, where, r.number, r.file, r.title, r.date))
	}
	var dangling []string
	for f, n := range linked {
		if !slices.ContainsFunc(recs, func(r record) bool { return r.file == f }) {
			dangling = append(dangling, fmt.Sprintf(
				"%s:%d: links to %s/%s, which does not exist; correct the link or remove the line",
				indexFile, n, recordsDir, f))
		}
	}
	slices.Sort(dangling)
	return append(problems, dangling...)
}
