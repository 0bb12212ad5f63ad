package ui

import (
	"strings"
	"testing"
)

func TestParseConfigAcceptsTheDefaults(t *testing.T) {
	c, e := parseConfig(defaultFields(), 10000)
	if !e.ok() {
		t.Fatalf("defaults refused: %+v", e)
	}
	if c.LearningRate != 0.5 || c.BatchSize != 100 || c.L2 != 1e-4 || c.Epochs != 5 || c.Seed != 1 {
		t.Errorf("config %+v", c)
	}
}

func TestParseConfigRefusesWithAReason(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*fields)
		field func(fieldErrors) msg
		want  string
	}{
		{"a word as learning rate", func(f *fields) { f.LR = "abc" }, func(e fieldErrors) msg { return e.LR }, `"abc" is not a number`},
		{"a negative learning rate", func(f *fields) { f.LR = "-1" }, func(e fieldErrors) msg { return e.LR }, "must be above 0 (got -1)"},
		{"a zero learning rate", func(f *fields) { f.LR = "0" }, func(e fieldErrors) msg { return e.LR }, "must be above 0"},
		{"NaN as learning rate", func(f *fields) { f.LR = "NaN" }, func(e fieldErrors) msg { return e.LR }, "finite number"},
		{"infinity as learning rate", func(f *fields) { f.LR = "Inf" }, func(e fieldErrors) msg { return e.LR }, "finite number"},
		{"an overflowing learning rate", func(f *fields) { f.LR = "1e400" }, func(e fieldErrors) msg { return e.LR }, "finite number"},
		{"an empty learning rate", func(f *fields) { f.LR = " " }, func(e fieldErrors) msg { return e.LR }, "enter the learning rate"},
		{"a batch of zero", func(f *fields) { f.Batch = "0" }, func(e fieldErrors) msg { return e.Batch }, "from 1 to 10000 (got 0)"},
		{"a batch larger than the set", func(f *fields) { f.Batch = "10001" }, func(e fieldErrors) msg { return e.Batch }, "full-batch gradient descent"},
		{"a fractional batch", func(f *fields) { f.Batch = "2.5" }, func(e fieldErrors) msg { return e.Batch }, "whole number (got 2.5)"},
		{"a negative L2", func(f *fields) { f.L2 = "-0.1" }, func(e fieldErrors) msg { return e.L2 }, "at least 0 (got -0.1)"},
		{"zero epochs", func(f *fields) { f.Epochs = "0" }, func(e fieldErrors) msg { return e.Epochs }, "from 1 to 1000"},
		{"a negative seed", func(f *fields) { f.Seed = "-4" }, func(e fieldErrors) msg { return e.Seed }, "from 0 to"},
		{"a decay above 1", func(f *fields) { f.Decay = "1.5" }, func(e fieldErrors) msg { return e.Decay }, "at most 1 (got 1.5)"},
		{"a decay of 0", func(f *fields) { f.Decay = "0" }, func(e fieldErrors) msg { return e.Decay }, "must be above 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is refused", func(t *testing.T) {
			f := defaultFields()
			tt.edit(&f)
			_, e := parseConfig(f, 10000)
			if e.ok() {
				t.Fatal("accepted")
			}
			if got := langEN.M(tt.field(e)); !strings.Contains(got, tt.want) {
				t.Errorf("reason %q, want one containing %q", got, tt.want)
			}
		})
	}
}

func TestParseConfigAcceptsEdges(t *testing.T) {
	f := fields{LR: "1e-6", Batch: "10000", L2: "0", Epochs: "1000", Seed: "0", Decay: "1e-9"}
	if c, e := parseConfig(f, 10000); !e.ok() || c.BatchSize != 10000 {
		t.Errorf("edges refused: %+v", e)
	}
	f.Batch = "1"
	if _, e := parseConfig(f, 10000); !e.ok() {
		t.Errorf("batch 1 (SGD) refused: %+v", e)
	}
}

func TestPresetsAreValid(t *testing.T) {
	for _, p := range presets {
		t.Run(p.Name, func(t *testing.T) {
			c, e := parseConfig(p.Fields(10000), 10000)
			if !e.ok() {
				t.Fatalf("the preset is refused: %+v", e)
			}
			switch p.Name {
			case "sgd":
				if c.BatchSize != 1 {
					t.Errorf("SGD with B = %d", c.BatchSize)
				}
			case "full":
				if c.BatchSize != 10000 {
					t.Errorf("full batch with B = %d of 10000", c.BatchSize)
				}
			}
		})
	}
}

func TestParseConfigInitAndPin(t *testing.T) {
	f := defaultFields()
	if c, _ := parseConfig(f, 10000); c.InitNormal || c.PinFirst {
		t.Errorf("the defaults start from N(0, 1) (%v) or pin digit 0 (%v)", c.InitNormal, c.PinFirst)
	}
	f.Init, f.Pin = "normal", true
	if c, e := parseConfig(f, 10000); !e.ok() || !c.InitNormal || !c.PinFirst {
		t.Errorf("random start and pinning lost: %+v, %+v", c, e)
	}
}

// TestLecturePreset: the lecture notes' experiment, as the notes run it.
func TestLecturePreset(t *testing.T) {
	for _, p := range presets {
		if p.Name != "lecture" {
			continue
		}
		c, e := parseConfig(p.Fields(60000), 60000)
		if !e.ok() || c.LearningRate != 0.1 || c.L2 != 0.001 || c.BatchSize != 60000 || c.Epochs != 1000 || !c.InitNormal {
			t.Errorf("lecture preset %+v (%+v), want α 0.1, λ 0.001, B = all, 1000 steps, N(0, 1)", c, e)
		}
		return
	}
	t.Error("no lecture preset")
}

func TestParseConfigDecay(t *testing.T) {
	f := defaultFields()
	if c, e := parseConfig(f, 10000); !e.ok() || c.Decay != 0 || c.DecayEvery != 0 {
		t.Errorf("a factor of 1 should mean no decay: %+v %+v", c, e)
	}
	f.Decay = "0.5"
	if c, e := parseConfig(f, 10000); !e.ok() || c.Decay != 0.5 || c.DecayEvery != 1 {
		t.Errorf("0.5 after every epoch: got %+v %+v", c, e)
	}
}
