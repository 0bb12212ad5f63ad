package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.golden")
	text := "# step loss\n\n0 2.30\n  1\t2.10  \n# the end\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("comments and blank lines are skipped", func(t *testing.T) {
		got, err := Records(path, 2)
		want := [][]string{{"0", "2.30"}, {"1", "2.10"}}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("Records = %q, %v; want %q", got, err, want)
		}
	})
	t.Run("a record with other than want fields is an error", func(t *testing.T) {
		if _, err := Records(path, 3); err == nil || !strings.Contains(err.Error(), `bad line "0 2.30"`) {
			t.Fatalf("Records with 3 fields: %v", err)
		}
	})
	t.Run("a missing file is an error", func(t *testing.T) {
		if _, err := Records(filepath.Join(t.TempDir(), "none"), 2); !os.IsNotExist(err) {
			t.Fatalf("Records of a missing file: %v", err)
		}
	})
}

// recorder is a testing.TB that records failures instead of failing; a
// fatal one ends the goroutine, as testing's does.
type recorder struct {
	testing.TB
	failures []string
	fatal    bool
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatal(args ...any) {
	r.failures = append(r.failures, fmt.Sprint(args...))
	r.fatal = true
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Fatal(fmt.Sprintf(format, args...))
}

func TestEncoding(t *testing.T) {
	tests := []struct {
		name      string
		file      string // the golden file's bytes, "" for none
		got       string
		update    bool
		want      string // the file afterwards, which Encoding returns
		fatal     bool
		failsWith string // "" for no failure
	}{
		{"a matching file passes", "MNPK", "MNPK", false, "MNPK", false, ""},
		{"a different encoding fails, asking for a new version", "MNPK", "MNPQ", false, "MNPK", false, "if the format changed, bump Version"},
		{"a missing file is fatal and says how to create it", "", "MNPK", false, "", true, "run go test -update to create it"},
		{"update rewrites the file", "MNPK", "MNPQ", true, "MNPQ", false, ""},
		{"update creates a missing file", "", "MNPK", true, "MNPK", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.mnpk")
			if tt.file != "" {
				if err := os.WriteFile(path, []byte(tt.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r := &recorder{TB: t}
			var got []byte
			done := make(chan struct{})
			go func() {
				defer close(done)
				got = Encoding(r, path, []byte(tt.got), tt.update)
			}()
			<-done
			if r.fatal != tt.fatal {
				t.Errorf("fatal %v, want %v", r.fatal, tt.fatal)
			}
			switch {
			case tt.failsWith == "" && len(r.failures) > 0:
				t.Errorf("failed: %q", r.failures)
			case tt.failsWith != "" && (len(r.failures) != 1 || !strings.Contains(r.failures[0], tt.failsWith)):
				t.Errorf("failures %q, want one that says %q", r.failures, tt.failsWith)
			}
			if !tt.fatal && string(got) != tt.want {
				t.Errorf("Encoding returned %q, want %q", got, tt.want)
			}
			if b, _ := os.ReadFile(path); string(b) != tt.want {
				t.Errorf("the file holds %q, want %q", b, tt.want)
			}
		})
	}
}
