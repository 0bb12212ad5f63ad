// Package golden reads the golden files of the core tests: text files of
// records, one a line, its fields separated by white space (blank lines
// and lines that start with # are comments), and encodings kept byte for
// byte, which a test compares with its encoder's output.
package golden

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Encoding checks got, an encoder's output, against the golden file at
// path, which update (the test's -update flag) first rewrites with got,
// and returns the file. A difference means that the format changed, so
// its version must be bumped; a missing file fails tb.
func Encoding(tb testing.TB, path string, got []byte, update bool) []byte {
	tb.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		tb.Errorf("the encoding differs from %s: if the format changed, bump Version", path)
	}
	return want
}

// Records returns the fields of each record of the file at path. A record
// with other than want fields is an error that names the file and the line.
func Records(path string, want int) ([][]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out [][]string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != want {
			return nil, fmt.Errorf("%s: bad line %q", path, line)
		}
		out = append(out, f)
	}
	return out, sc.Err()
}
