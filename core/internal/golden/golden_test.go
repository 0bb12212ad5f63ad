package golden

import (
	"os"
	"path/filepath"
	"reflect"
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
