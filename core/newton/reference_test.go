package newton

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/core/internal/golden"
	"softmaxdemo/core/metrics"
	"softmaxdemo/core/softmax"
)

var update = flag.Bool("update", false, "rewrite the golden files of the tests that run: reference.golden with testdata/reference.py (needs /usr/bin/python3 with NumPy and scikit-learn), eigenvalues.golden with testdata/eigh.py (NumPy)")

// exportPack writes the default pack into dir as reference.py reads it,
// with tools/newtonref (go is on the PATH that go test gives a test).
func exportPack(t *testing.T, dir string) {
	t.Helper()
	root, err := datasettest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "./tools/newtonref", "-data", datasettest.DefaultPath, "-out", dir)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tools/newtonref: %v\n%s", err, out)
	}
}

type reference struct {
	side     int
	lambda   float64
	j        float64
	accuracy float64
}

func readReference(t *testing.T) []reference {
	t.Helper()
	records, err := golden.Records("testdata/reference.golden", 4)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]reference, len(records))
	for i, f := range records {
		r := &out[i]
		var e [4]error
		r.side, e[0] = strconv.Atoi(f[0])
		r.lambda, e[1] = strconv.ParseFloat(f[1], 64)
		r.j, e[2] = strconv.ParseFloat(f[2], 64)
		r.accuracy, e[3] = strconv.ParseFloat(f[3], 64)
		for _, err := range e {
			if err != nil {
				t.Fatalf("bad line %q: %v", strings.Join(f, " "), err)
			}
		}
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
			s, err := New(x, d, softmax.Objective{Lambda: ref.lambda}, Settings{GradTol: 1e-6, RelTol: 1e-300, Exact: ref.side == 7})
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
