package newton

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"softmaxdemo/core/internal/numpytest"
	"softmaxdemo/core/softmax"
)

// hessianCase is one explicit Hessian and its name: h is n×n row-major.
type hessianCase struct {
	name string
	h    []float64
	n    int
}

// eigenvalues returns Eigenvalues of the case's matrix, failing tb on an
// error.
func (c hessianCase) eigenvalues(tb testing.TB) []float64 {
	tb.Helper()
	ev, err := Eigenvalues(c.h, c.n)
	if err != nil {
		tb.Fatal(err)
	}
	return ev
}

// viewHessians returns the explicit Hessians of the null-space view on the
// default pack's first 2000 training images averaged down to 7×7 (50
// features with the bias, n = 500): at the zero model with λ = 0, as the
// page shows it (H = G ⊗ A(μ) with μ uniform, so every non-zero
// eigenvalue is nine-fold), and at TestNullSpace's model of small random
// weights with λ = 0 and with λ = 1e-3.
func viewHessians(tb testing.TB) []hessianCase {
	tb.Helper()
	full, _ := defaultPack(tb)
	x := Downsample(head(full, 2000), 28, 4)
	const d = 49
	zero := softmax.New[float64](d)
	random := smallWeights(d)
	cases := []struct {
		name string
		md   *softmax.Model[float64]
		o    softmax.Objective
	}{
		{"zero-model-lambda-0", zero, softmax.Objective{}},
		{"random-model-lambda-0", random, softmax.Objective{}},
		{"random-model-lambda-1e-3", random, softmax.Objective{Lambda: 1e-3}},
	}
	out := make([]hessianCase, len(cases))
	for i, c := range cases {
		h, err := Hessian(x, c.md, c.o)
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = hessianCase{c.name, h, (d + 1) * K}
	}
	return out
}

// eigenGolden holds NumPy's eigenvalues of viewHessians' matrices, as
// eigenScript prints them.
const (
	eigenGolden = "testdata/eigenvalues.golden"
	eigenScript = "testdata/eigh.py"
)

// runNumPy writes each case's matrix as NAME.f64 (n² little-endian
// float64s, row-major) into a temporary folder and runs script on the
// files with one BLAS thread, returning what it prints.
func runNumPy(t *testing.T, script string, cases []hessianCase) []byte {
	t.Helper()
	dir := t.TempDir()
	args := []string{script}
	for _, c := range cases {
		b := make([]byte, 0, 8*len(c.h))
		for _, v := range c.h {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		path := filepath.Join(dir, c.name+".f64")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, path)
	}
	cmd := exec.Command(numpytest.Python, args...)
	cmd.Env = append(os.Environ(), "OMP_NUM_THREADS=1", "OPENBLAS_NUM_THREADS=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", filepath.Base(script), err, stderr.String())
	}
	return out
}

// numpyReference returns what script prints for cases' matrices, read by
// parse: from the committed file golden, which -update first rewrites by
// running script, or, with golden "", from running script now. Output
// that does not read fails t, naming its source.
func numpyReference[R any](t *testing.T, script, golden string, cases []hessianCase, parse func([]byte) (R, error)) R {
	t.Helper()
	run := func() []byte { return runNumPy(t, script, cases) }
	source, b := filepath.Base(script), []byte(nil)
	if golden != "" {
		source, b = golden, readGolden(t, golden, run)
	} else {
		b = run()
	}
	ref, err := parse(b)
	if err != nil {
		t.Fatalf("%s: %v", source, err)
	}
	return ref
}

// readGolden returns the committed file at path; with -update it first
// rewrites it with regenerate's output, which needs NumPy.
func readGolden(t *testing.T, path string, regenerate func() []byte) []byte {
	t.Helper()
	if *update {
		numpytest.Need(t)
		if err := os.WriteFile(path, regenerate(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// parseEigenvalues reads eigh.py's output: after comment lines, for each
// matrix a line "case NAME n" and then n eigenvalues, one per line.
func parseEigenvalues(b []byte) (map[string][]float64, error) {
	out := map[string][]float64{}
	var name string
	want := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		switch {
		case text == "" || strings.HasPrefix(text, "#"):
		case strings.HasPrefix(text, "case "):
			if len(out[name]) != want {
				return nil, fmt.Errorf("case %s: %d eigenvalues, want %d", name, len(out[name]), want)
			}
			f := strings.Fields(text)
			n, err := 0, error(nil)
			if len(f) == 3 {
				n, err = strconv.Atoi(f[2])
			}
			if len(f) != 3 || err != nil || n < 0 {
				return nil, fmt.Errorf("line %d: %q is not \"case NAME n\"", line, text)
			}
			if _, ok := out[f[1]]; ok {
				return nil, fmt.Errorf("line %d: case %s twice", line, f[1])
			}
			name, want = f[1], n
			out[name] = make([]float64, 0, n)
		default:
			v, err := strconv.ParseFloat(text, 64)
			if err != nil || name == "" || len(out[name]) == want {
				return nil, fmt.Errorf("line %d: %q is not an eigenvalue of a case", line, text)
			}
			out[name] = append(out[name], v)
		}
	}
	if len(out[name]) != want {
		return nil, fmt.Errorf("case %s: %d eigenvalues, want %d", name, len(out[name]), want)
	}
	return out, sc.Err()
}

// compareWithNumPy checks Eigenvalues on each case against NumPy's
// eigenvalues of the same matrix (ref, from parseEigenvalues).
//
// The tolerance is 1e-12·λ_max, the same for every eigenvalue. Both
// solvers are backward stable: each returns the exact eigenvalues of some
// A + E with ‖E‖₂ ≤ p(n)·ε·‖A‖₂ (Golub & Van Loan §8.3; LAPACK's dsyevd
// likewise), and by Weyl's inequality no eigenvalue moves more than
// ‖E‖₂. These H are positive semidefinite, so ‖A‖₂ = λ_max. With the
// generous p(n) = n (rounding errors grow like √n in practice), each side
// is within 500·2⁻⁵² ≈ 1.1e-13·λ_max of the truth, and the two within
// 2.2e-13·λ_max: 1e-12 leaves a factor 4.5. An eigenvalue far below
// λ_max (the null space, ~1e-17·λ_max) is known only to that absolute
// accuracy, which is why the bound is not relative to each eigenvalue.
func compareWithNumPy(t *testing.T, cases []hessianCase, ref map[string][]float64, source string) {
	t.Helper()
	eachCase(t, cases, ref, source, func(t *testing.T, at int, want []float64) {
		c := cases[at]
		if len(want) != c.n {
			t.Fatalf("%s has %d eigenvalues for %s, want %d", source, len(want), c.name, c.n)
		}
		got := c.eigenvalues(t)
		big := want[c.n-1]
		tol := 1e-12 * big
		worst, bad := 0.0, 0
		for i := range c.n {
			diff := math.Abs(got[i] - want[i])
			worst = max(worst, diff)
			if diff > tol {
				bad++
				if bad <= 5 {
					t.Errorf("eigenvalue %d: %.17g, NumPy %.17g (difference %.2g·λ_max)", i, got[i], want[i], diff/big)
				}
			}
		}
		if bad > 0 {
			t.Errorf("%d of %d eigenvalues differ from NumPy's by more than 1e-12·λ_max", bad, c.n)
		}
		t.Logf("largest difference from NumPy %.2g·λ_max (λ_max = %.6g)", worst/big, big)
	})
}

// eachCase runs check on each case as a subtest named for it, with i its
// position in cases and want its entry in ref, NumPy's numbers read from
// source. A case with no entry, or a ref of another size, fails t.
func eachCase[R any](t *testing.T, cases []hessianCase, ref map[string]R, source string, check func(t *testing.T, i int, want R)) {
	t.Helper()
	if len(ref) != len(cases) {
		t.Errorf("%s has %d cases, want %d", source, len(ref), len(cases))
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, ok := ref[c.name]
			if !ok {
				t.Fatalf("%s has no %s", source, c.name)
			}
			check(t, i, want)
		})
	}
}

// TestEigenvaluesMatchNumPy compares Eigenvalues with NumPy's eigh on the
// null-space view's Hessians, using the eigenvalues committed in
// testdata/eigenvalues.golden, so it runs without Python and under
// WebAssembly. -update rewrites the file with testdata/eigh.py. If the
// Hessians change on purpose, the file must be rewritten.
func TestEigenvaluesMatchNumPy(t *testing.T) {
	cases := viewHessians(t)
	ref := numpyReference(t, eigenScript, eigenGolden, cases, parseEigenvalues)
	compareWithNumPy(t, cases, ref, eigenGolden)
}

// TestEigenvaluesNumPyLive runs NumPy's eigh on the same Hessians now, so
// that the comparison does not rest on the committed file alone. It is
// skipped under WebAssembly and, outside CI, without NumPy.
func TestEigenvaluesNumPyLive(t *testing.T) {
	numpytest.Need(t)
	cases := viewHessians(t)
	ref := numpyReference(t, eigenScript, "", cases, parseEigenvalues)
	compareWithNumPy(t, cases, ref, "eigh.py")
}
