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

func TestDeskew(t *testing.T) {
	accuracy := func(args ...string) (float64, string) {
		t.Helper()
		var out bytes.Buffer
		if err := run(append([]string{"-data", pack, "-epochs", "5"}, args...), &out); err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`test accuracy ([0-9.]+)%`).FindStringSubmatch(out.String())
		if m == nil {
			t.Fatalf("no summary:\n%s", out.String())
		}
		acc, _ := strconv.ParseFloat(m[1], 64)
		return acc, out.String()
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
