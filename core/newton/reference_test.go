package newton

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/metrics"
	"softmaxdemo/core/softmax"
)

var export = flag.String("export", "", "TestExport writes the default pack for reference.py into this folder")

var update = flag.Bool("update", false, "rewrite testdata/reference.golden with testdata/reference.py (needs /usr/bin/python3 with NumPy and scikit-learn)")

// exportPack writes the default pack as dense grey levels for
// reference.py: NAME-x.u8 (m×784) and NAME-y.u8 for train and test.
func exportPack(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile("../../web/data/default.mnpk")
	if err != nil {
		t.Fatal(err)
	}
	p, err := dataset.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*dataset.Set{"train": p.Train, "test": p.Test} {
		px := make([]byte, s.Len()*dataset.Pixels)
		for i := range s.Len() {
			for k := s.Start[i]; k < s.Start[i+1]; k++ {
				px[i*dataset.Pixels+int(s.Index[k])] = s.Value[k]
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name+"-x.u8"), px, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+"-y.u8"), s.Labels, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestExport writes the default pack as reference.py reads it, when
// -export names a folder (testdata/compare.sh uses it).
func TestExport(t *testing.T) {
	if *export == "" {
		t.Skip("no -export folder")
	}
	exportPack(t, *export)
}

type reference struct {
	side     int
	lambda   float64
	j        float64
	accuracy float64
}

func readReference(t *testing.T) []reference {
	t.Helper()
	b, err := os.ReadFile("testdata/reference.golden")
	if err != nil {
		t.Fatal(err)
	}
	var out []reference
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			t.Fatalf("bad line %q", line)
		}
		var r reference
		var e [4]error
		r.side, e[0] = strconv.Atoi(f[0])
		r.lambda, e[1] = strconv.ParseFloat(f[1], 64)
		r.j, e[2] = strconv.ParseFloat(f[2], 64)
		r.accuracy, e[3] = strconv.ParseFloat(f[3], 64)
		for _, err := range e {
			if err != nil {
				t.Fatalf("bad line %q: %v", line, err)
			}
		}
		out = append(out, r)
	}
	return out
}

// TestMatchesReference: Newton reaches scikit-learn's optimum of J on the
// default pack (testdata/reference.py, its numbers committed in
// testdata/reference.golden), within 1e-7 relative, with the same test
// accuracy: truncated Newton on the 28×28 images, Exact Newton on 7×7.
func TestMatchesReference(t *testing.T) {
	if *update {
		dir := t.TempDir()
		exportPack(t, dir)
		var all []byte
		for _, side := range []string{"28", "7"} {
			cmd := exec.Command("/usr/bin/python3", "testdata/reference.py", dir, "--side", side)
			cmd.Env = append(os.Environ(), "OMP_NUM_THREADS=1", "OPENBLAS_NUM_THREADS=1")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("running reference.py: %v", err)
			}
			all = append(all, out...)
		}
		if err := os.WriteFile("testdata/reference.golden", all, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	refs := readReference(t)
	if len(refs) != 4 {
		t.Fatalf("%d reference lines, want 4", len(refs))
	}
	train, test := defaultPack(t)
	for _, ref := range refs {
		t.Run(fmt.Sprintf("%d×%d λ=%g", ref.side, ref.side, ref.lambda), func(t *testing.T) {
			x, xt, d := train, test, dataset.Pixels
			if ref.side == 7 {
				x, xt, d = Downsample(train, 28, 4), Downsample(test, 28, 4), 49
			}
			s, err := New(x, d, softmax.Objective{Lambda: ref.lambda}, Settings{GradTol: 1e-6, Exact: ref.side == 7})
			if err != nil {
				t.Fatal(err)
			}
			var st Stats
			prev := 0.0
			for st.Stop == Running {
				st = s.Iterate()
				if st.Iteration > 0 && st.J > prev {
					t.Errorf("iteration %d raised J from %v to %v", st.Iteration, prev, st.J)
				}
				prev = st.J
			}
			if st.Stop != Converged {
				t.Fatalf("stopped: %s", s.Reason())
			}
			if e := relErr(st.J, ref.j) * 2; e > 1e-7 {
				t.Errorf("J %.15f, scikit-learn %.15f (relative error %.1e)", st.J, ref.j, e)
			}
			r := metrics.Evaluate(s.Model(), xt)
			if r.Correct != int(ref.accuracy*float64(xt.Len())+0.5) {
				t.Errorf("test accuracy %.6f, scikit-learn %.6f", r.Accuracy(), ref.accuracy)
			}
			t.Logf("%s: J %.15f (scikit-learn %.15f), test accuracy %.4f", s.Reason(), st.J, ref.j, r.Accuracy())
		})
	}
}
