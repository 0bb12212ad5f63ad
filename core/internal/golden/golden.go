// Package golden reads the text golden files of the core tests: one record
// a line, its fields separated by white space; blank lines and lines that
// start with # (comments) are skipped.
package golden

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
)

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
