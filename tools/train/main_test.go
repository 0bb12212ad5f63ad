package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/core/modelfile"
)

// packPath returns the path of the committed default pack, for -data,
// failing t if the pack is missing.
func packPath(t *testing.T) string {
	t.Helper()
	datasettest.DefaultBytes(t)
	root, err := datasettest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, datasettest.DefaultPath)
}

func TestTrainsAndSaves(t *testing.T) {
	pack := packPath(t)
	save := filepath.Join(t.TempDir(), "model.json")
	out := output(t, []string{"-data", pack, "-epochs", "2", "-save", save})
	lines := strings.Split(strings.TrimSpace(out), "\n")
	epochs := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "epoch") {
			epochs++
		}
	}
	if epochs != 2 {
		t.Errorf("%d epoch lines, want 2:\n%s", epochs, out)
	}
	if acc := number(t, `test accuracy ([0-9.]+)%`, out); acc < 85 {
		t.Errorf("test accuracy %v%% after 2 epochs, want at least 85%%", acc)
	}
	b, err := os.ReadFile(save)
	if err != nil {
		t.Fatal(err)
	}
	f, err := modelfile.Decode(b, 784)
	if err != nil {
		t.Fatalf("the saved model does not load back: %v", err)
	}
	if f.Version != 2 || f.Info.Epochs != 2 || f.Info.Method != "sgd" || f.Info.Dataset != "default.mnpk" || f.Info.TestAccuracy < 0.85 || f.Info.Saved == "" {
		t.Errorf("saved training info %+v", f.Info)
	}
}

func TestSavesAndLoadsNPZ(t *testing.T) {
	pack := packPath(t)
	dir := t.TempDir()
	npz, json := filepath.Join(dir, "model.npz"), filepath.Join(dir, "model.json")
	if err := run([]string{"-data", pack, "-epochs", "1", "-save", npz}, new(bytes.Buffer)); err != nil {
		t.Fatal(err)
	}
	out := output(t, []string{"-data", pack, "-epochs", "1", "-load", npz, "-save", json})
	if acc := number(t, `starting from .*model.npz: test accuracy ([0-9.]+)%`, out); acc < 85 {
		t.Errorf("the loaded model's test accuracy is %v%%, want what one epoch reached", acc)
	}
	b, err := os.ReadFile(npz)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := modelfile.DecodeNPZ(b, 784); err != nil {
		t.Errorf("the saved .npz does not load back: %v", err)
	}
}

func TestMine(t *testing.T) {
	pack, p := packPath(t), datasettest.Default(t)
	// Ten test images of 1, labelled 7: digits the data contradict.
	var pos []int
	for i, y := range p.Test.Labels {
		if y == 1 && len(pos) < 10 {
			pos = append(pos, i)
		}
	}
	mine := p.Test.Subset(pos)
	for i := range mine.Labels {
		mine.Labels[i] = 7
	}
	name := filepath.Join(t.TempDir(), "my"+modelfile.DigitsExt)
	var buf bytes.Buffer
	if err := modelfile.EncodeDigits(&buf, mine); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	read := func(args ...string) int {
		out := output(t, append([]string{"-data", pack, "-epochs", "1", "-my-digits", name}, args...))
		return int(number(t, `my digits: (\d+) of 10 read as labelled`, out))
	}
	if a, b := read("-my-digits-rate", "0"), read("-my-digits-rate", "0.1"); a > 1 || b < 9 {
		t.Errorf("my ten 1s labelled 7: %d read as 7 at rate 0, %d at rate 0.1", a, b)
	}
}

func TestDeskew(t *testing.T) {
	pack := packPath(t)
	accuracy := func(args ...string) (float64, string) {
		t.Helper()
		out := output(t, append([]string{"-data", pack, "-epochs", "5"}, args...))
		return number(t, `test accuracy ([0-9.]+)%`, out), out
	}
	raw, _ := accuracy()
	straight, out := accuracy("-deskew")
	t.Logf("5 epochs: %.2f%% raw, %.2f%% deskewed", raw, straight)
	if !strings.Contains(out, "deskewed 12000 images") {
		t.Errorf("-deskew does not say that it deskewed:\n%s", out)
	}
	if straight < 93.5 || straight <= raw {
		t.Errorf("test accuracy %.2f%% with -deskew, %.2f%% without: want at least 93.5%% and above raw", straight, raw)
	}
}

func TestLecturePresetIsFullBatch(t *testing.T) {
	pack := packPath(t)
	// A few iterations only: the whole experiment is in docs/BENCHMARKS.md.
	out := output(t, []string{"-data", pack, "-preset", "lecture", "-iters", "3"})
	if !strings.Contains(out, "B 10000, λ 0.001, init normal") || !strings.Contains(out, "after 3 steps") {
		t.Errorf("unexpected output:\n%s", out)
	}
}

func TestBadFlagsAreRefused(t *testing.T) {
	pack := packPath(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a negative learning rate", []string{"-data", pack, "-lr", "-1"}, "learning rate -1"},
		{"a NaN learning rate", []string{"-data", pack, "-lr", "NaN"}, "learning rate NaN"},
		{"an unknown preset", []string{"-preset", "magic"}, `unknown preset "magic"`},
		{"an unknown init", []string{"-init", "ones"}, `unknown -init "ones"`},
		{"a missing pack", []string{"-data", "nope.mnpk"}, "nope.mnpk"},
		{"a corrupt pack", []string{"-data", "main.go"}, "invalid format"},
		{"a save name of no known format", []string{"-save", "model.txt"}, "want a name ending in .json or .npz"},
		{"a model that is not one", []string{"-data", pack, "-load", "main.go"}, "-load main.go: modelfile: not a model file"},
		{"my digits that are a dataset", []string{"-data", pack, "-my-digits", pack}, "is it a dataset pack?"},
		{"an unknown method", []string{"-method", "magic"}, `unknown -method "magic"`},
		{"an unknown figure", []string{"-data", pack, "-figure", "magic"}, `unknown -figure "magic" (want "mydigits")`},
		{"a size that does not divide 28", []string{"-resize", "5"}, "-resize 5"},
		{"a negative gradient tolerance", []string{"-method", "newton", "-grad-tol", "-1"}, "gradient tolerance -1"},
		{"a CG cap of 0", []string{"-method", "newton", "-cg", "0"}, "must be above 0"},
		{"exact Newton on 784 pixels", []string{"-data", pack, "-method", "newton-exact"}, "downsample"},
		{"exact Newton with λ = 0", []string{"-data", pack, "-method", "newton-exact", "-resize", "7", "-l2", "0"}, "not positive definite"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(tt.args, new(bytes.Buffer))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestNewton(t *testing.T) {
	pack := packPath(t)
	tests := []struct {
		name  string
		args  []string
		iters int     // at most
		acc   float64 // test accuracy at least, in percent
	}{
		{"truncated Newton on 28×28", []string{"-method", "newton", "-grad-tol", "1e-2"}, 10, 90},
		{"exact Newton on 7×7", []string{"-method", "newton-exact", "-resize", "7"}, 10, 89},
		{"truncated Newton on 7×7, class 0 pinned", []string{"-method", "newton", "-resize", "7", "-pin"}, 15, 89},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := output(t, append([]string{"-data", pack}, tt.args...))
			lines := regexp.MustCompile(`(?m)^iteration +(\d+)  J [0-9.]+  ‖∇J‖ [0-9.e+-]+  CG +\d+  step .*test +([0-9.]+)%`).FindAllStringSubmatch(out, -1)
			if len(lines) < 2 || len(lines) > tt.iters+1 {
				t.Fatalf("%d iteration lines:\n%s", len(lines), out)
			}
			for i, l := range lines {
				if l[1] != strconv.Itoa(i) {
					t.Errorf("line %d is iteration %s", i, l[1])
				}
			}
			if acc, _ := strconv.ParseFloat(lines[len(lines)-1][2], 64); acc < tt.acc {
				t.Errorf("test accuracy %v%%, want at least %v%%", acc, tt.acc)
			}
			if !strings.Contains(out, "stopped (‖∇J‖ ≤ ") {
				t.Errorf("no convergence in the summary:\n%s", out)
			}
		})
	}
}

// output runs the command with args and returns what it printed; an
// error fails the test, with the output.
func output(t *testing.T, args []string) string {
	t.Helper()
	var out bytes.Buffer
	if err := run(args, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	return out.String()
}

// number returns what the first group of the pattern re matches first in
// out, as a number; no match, or no number, fails the test.
func number(t *testing.T, re, out string) float64 {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no %q in the output:\n%s", re, out)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatalf("%q in the output: %v", re, err)
	}
	return v
}

func TestResizeWithSGD(t *testing.T) {
	pack := packPath(t)
	out := output(t, []string{"-data", pack, "-resize", "7", "-epochs", "1"})
	if !strings.Contains(out, "after 100 steps, 1 epochs") {
		t.Errorf("unexpected output:\n%s", out)
	}
}

// TestFigureMyDigits prints the my-digits table after one epoch per rate:
// a header, one row per rate in order, and more of my digits read right
// when they fill half of each batch than when they are left out.
func TestFigureMyDigits(t *testing.T) {
	pack := packPath(t)
	out := output(t, []string{"-data", pack, "-figure", "mydigits", "-epochs", "1"})
	if !strings.HasPrefix(out, "1 epochs, B = 100, α 0.5, λ 0.0001, seed 1, on 10000 training images\n") ||
		!strings.Contains(out, "| MNIST test (2000) | my 50 digits read right | held-out off-centre digits (1000) |") {
		t.Errorf("no settings line or header:\n%s", out)
	}
	rows := regexp.MustCompile(`(?m)^\| (\d+) \| ([0-9.]+) \| ([0-9.]+)% \| (\d+) of 50 \| ([0-9.]+)% \|$`).FindAllStringSubmatch(out, -1)
	if len(rows) != len(figureRates) {
		t.Fatalf("%d rows, want %d:\n%s", len(rows), len(figureRates), out)
	}
	for i, r := range rows {
		if r[2] != strconv.FormatFloat(figureRates[i], 'g', -1, 64) {
			t.Errorf("row %d is for rate %s, want %g", i, r[2], figureRates[i])
		}
		if acc, _ := strconv.ParseFloat(r[3], 64); acc < 85 {
			t.Errorf("rate %s: MNIST test accuracy %v%%, want at least 85%%", r[2], acc)
		}
	}
	if rows[0][1] != "0" {
		t.Errorf("rate 0 put %s of my digits in the last batch, want 0", rows[0][1])
	}
	if none, half := rows[0][4], rows[len(rows)-1][4]; atoi(t, half) <= atoi(t, none) {
		t.Errorf("my digits read right: %s without them, %s at rate 0.5; want more at 0.5", none, half)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
