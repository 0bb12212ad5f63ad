package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"softmaxdemo/core/softmax"
)

const pack = "../../web/data/default.mnpk"

func TestTrainsAndSaves(t *testing.T) {
	save := filepath.Join(t.TempDir(), "model.json")
	var out bytes.Buffer
	if err := run([]string{"-data", pack, "-epochs", "2", "-save", save}, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	epochs := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "epoch") {
			epochs++
		}
	}
	if epochs != 2 {
		t.Errorf("%d epoch lines, want 2:\n%s", epochs, out.String())
	}
	m := regexp.MustCompile(`test accuracy ([0-9.]+)%`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no summary:\n%s", out.String())
	}
	if acc, _ := strconv.ParseFloat(m[1], 64); acc < 85 {
		t.Errorf("test accuracy %v%% after 2 epochs, want at least 85%%", acc)
	}
	b, err := os.ReadFile(save)
	if err != nil {
		t.Fatal(err)
	}
	var model softmax.Model[float32]
	if err := json.Unmarshal(b, &model); err != nil {
		t.Fatalf("the saved model does not load back: %v", err)
	}
	if model.D != 784 {
		t.Errorf("saved model has %d features", model.D)
	}
}

func TestLecturePresetIsFullBatch(t *testing.T) {
	var out bytes.Buffer
	// A few iterations only: the whole experiment is in docs/BENCHMARKS.md.
	if err := run([]string{"-data", pack, "-preset", "lecture", "-iters", "3"}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "B 10000, λ 0.001, init normal") || !strings.Contains(out.String(), "after 3 steps") {
		t.Errorf("unexpected output:\n%s", out.String())
	}
}

func TestBadFlagsAreRefused(t *testing.T) {
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
		{"an unknown method", []string{"-method", "magic"}, `unknown -method "magic"`},
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
			var out bytes.Buffer
			if err := run(append([]string{"-data", pack}, tt.args...), &out); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			lines := regexp.MustCompile(`(?m)^iteration +(\d+)  J [0-9.]+  ‖∇J‖ [0-9.e+-]+  CG +\d+  step .*test +([0-9.]+)%`).FindAllStringSubmatch(out.String(), -1)
			if len(lines) < 2 || len(lines) > tt.iters+1 {
				t.Fatalf("%d iteration lines:\n%s", len(lines), out.String())
			}
			for i, l := range lines {
				if l[1] != strconv.Itoa(i) {
					t.Errorf("line %d is iteration %s", i, l[1])
				}
			}
			if acc, _ := strconv.ParseFloat(lines[len(lines)-1][2], 64); acc < tt.acc {
				t.Errorf("test accuracy %v%%, want at least %v%%", acc, tt.acc)
			}
			if !strings.Contains(out.String(), "stopped (‖∇J‖ ≤ ") {
				t.Errorf("no convergence in the summary:\n%s", out.String())
			}
		})
	}
}

func TestResizeWithSGD(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-data", pack, "-resize", "7", "-epochs", "1"}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "after 100 steps, 1 epochs") {
		t.Errorf("unexpected output:\n%s", out.String())
	}
}
