package params

import (
	"softmaxdemo/wasm/protocol"
	"softmaxdemo/wasm/ui/i18n"

	"strings"
	"testing"
)

func TestCheckAcceptsTheDefaults(t *testing.T) {
	c, e := check(Defaults(), 10000)
	if !e.OK() {
		t.Fatalf("defaults refused: %+v", e)
	}
	if c.LearningRate != 0.5 || c.BatchSize != 100 || c.L2 != 1e-4 || c.Epochs != 5 || c.Seed != 1 {
		t.Errorf("config %+v", c)
	}
}

func TestCheckRefusesWithAReason(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*Fields)
		field func(Errors) i18n.Msg
		want  string
	}{
		{"a word as learning rate", func(f *Fields) { f.LR = "abc" }, func(e Errors) i18n.Msg { return e.LR }, `"abc" is not a number`},
		{"a negative learning rate", func(f *Fields) { f.LR = "-1" }, func(e Errors) i18n.Msg { return e.LR }, "must be above 0 (got -1)"},
		{"a zero learning rate", func(f *Fields) { f.LR = "0" }, func(e Errors) i18n.Msg { return e.LR }, "must be above 0"},
		{"NaN as learning rate", func(f *Fields) { f.LR = "NaN" }, func(e Errors) i18n.Msg { return e.LR }, "finite number"},
		{"infinity as learning rate", func(f *Fields) { f.LR = "Inf" }, func(e Errors) i18n.Msg { return e.LR }, "finite number"},
		{"an overflowing learning rate", func(f *Fields) { f.LR = "1e400" }, func(e Errors) i18n.Msg { return e.LR }, "finite number"},
		{"an empty learning rate", func(f *Fields) { f.LR = " " }, func(e Errors) i18n.Msg { return e.LR }, "enter the learning rate"},
		{"a batch of zero", func(f *Fields) { f.Batch = "0" }, func(e Errors) i18n.Msg { return e.Batch }, "from 1 to 10000 (got 0)"},
		{"a batch larger than the set", func(f *Fields) { f.Batch = "10001" }, func(e Errors) i18n.Msg { return e.Batch }, "full-batch gradient descent"},
		{"a fractional batch", func(f *Fields) { f.Batch = "2.5" }, func(e Errors) i18n.Msg { return e.Batch }, "whole number (got 2.5)"},
		{"a negative L2", func(f *Fields) { f.L2 = "-0.1" }, func(e Errors) i18n.Msg { return e.L2 }, "at least 0 (got -0.1)"},
		{"zero epochs", func(f *Fields) { f.Epochs = "0" }, func(e Errors) i18n.Msg { return e.Epochs }, "from 1 to 1000"},
		{"a negative seed", func(f *Fields) { f.Seed = "-4" }, func(e Errors) i18n.Msg { return e.Seed }, "from 0 to"},
		{"a decay above 1", func(f *Fields) { f.Decay = "1.5" }, func(e Errors) i18n.Msg { return e.Decay }, "at most 1 (got 1.5)"},
		{"a decay of 0", func(f *Fields) { f.Decay = "0" }, func(e Errors) i18n.Msg { return e.Decay }, "must be above 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is refused", func(t *testing.T) {
			f := Defaults()
			tt.edit(&f)
			_, e := check(f, 10000)
			if e.OK() {
				t.Fatal("accepted")
			}
			if got := i18n.EN.M(tt.field(e)); !strings.Contains(got, tt.want) {
				t.Errorf("reason %q, want one containing %q", got, tt.want)
			}
		})
	}
}

func TestCheckAcceptsEdges(t *testing.T) {
	f := Fields{LR: "1e-6", Batch: "10000", L2: "0", Epochs: "1000", Seed: "0", Decay: "1e-9"}
	if c, e := check(f, 10000); !e.OK() || c.BatchSize != 10000 {
		t.Errorf("edges refused: %+v", e)
	}
	f.Batch = "1"
	if _, e := check(f, 10000); !e.OK() {
		t.Errorf("batch 1 (SGD) refused: %+v", e)
	}
}

func TestPresetsAreValid(t *testing.T) {
	for _, p := range Presets {
		t.Run(p.Name, func(t *testing.T) {
			c, e := check(p.Fields(10000), 10000)
			if !e.OK() {
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

func TestCheckInitAndPin(t *testing.T) {
	f := Defaults()
	if c, _ := check(f, 10000); c.InitNormal || c.PinFirst {
		t.Errorf("the defaults start from N(0, 1) (%v) or pin digit 0 (%v)", c.InitNormal, c.PinFirst)
	}
	f.Init, f.Pin = "normal", true
	if c, e := check(f, 10000); !e.OK() || !c.InitNormal || !c.PinFirst {
		t.Errorf("random start and pinning lost: %+v, %+v", c, e)
	}
}

// TestLecturePreset: the lecture notes' experiment, as the notes run it.
func TestLecturePreset(t *testing.T) {
	for _, p := range Presets {
		if p.Name != "lecture" {
			continue
		}
		c, e := check(p.Fields(60000), 60000)
		if !e.OK() || c.LearningRate != 0.1 || c.L2 != 0.001 || c.BatchSize != 60000 || c.Epochs != 1000 || !c.InitNormal {
			t.Errorf("lecture preset %+v (%+v), want α 0.1, λ 0.001, B = all, 1000 steps, N(0, 1)", c, e)
		}
		return
	}
	t.Error("no lecture preset")
}

func TestCheckDecay(t *testing.T) {
	f := Defaults()
	if c, e := check(f, 10000); !e.OK() || c.Decay != 0 || c.DecayEvery != 0 {
		t.Errorf("a factor of 1 should mean no decay: %+v %+v", c, e)
	}
	f.Decay = "0.5"
	if c, e := check(f, 10000); !e.OK() || c.Decay != 0.5 || c.DecayEvery != 1 {
		t.Errorf("0.5 after every epoch: got %+v %+v", c, e)
	}
}

func TestSameRun(t *testing.T) {
	newton := Defaults()
	newton.Method = "newton"
	tests := []struct {
		name string
		old  Fields
		edit func(f *Fields)
		want bool
	}{
		{"the same fields", Defaults(), func(*Fields) {}, true},
		{"another α", Defaults(), func(f *Fields) { f.LR = "0.1" }, true},
		{"another λ", Defaults(), func(f *Fields) { f.L2 = "0.01" }, true},
		{"another pace", Defaults(), func(f *Fields) { f.Pace = "1" }, true},
		{"α written differently", Defaults(), func(f *Fields) { f.LR = "0.50" }, true},
		{"another seed", Defaults(), func(f *Fields) { f.Seed = "2" }, false},
		{"another B", Defaults(), func(f *Fields) { f.Batch = "10" }, false},
		{"another method", Defaults(), func(f *Fields) { f.Method = "gd" }, false},
		{"straightening switched off", Defaults(), func(f *Fields) { f.Deskew = false }, false},
		{"Newton with another λ", newton, func(f *Fields) { f.L2 = "0.01" }, false},
		{"Newton with another pace", newton, func(f *Fields) { f.Pace = "full" }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.old
			tt.edit(&f)
			run, _ := check(tt.old, 10000)
			run.MyDigitsRate = 0.1
			if got := Check(f, 10000).SameRun(run); got != tt.want {
				t.Errorf("SameRun = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestFieldsOfReadsBack: the fields of a run's settings parse back to
// them, for every preset and a run with every option set.
func TestFieldsOfReadsBack(t *testing.T) {
	var all []Fields
	for _, p := range Presets {
		all = append(all, p.Fields(10000))
	}
	all = append(all, Fields{LR: "0.3", Batch: "7", L2: "0", Epochs: "3", Seed: "9007199254740992", Decay: "0.5", Init: "normal",
		Pin: true, Deskew: true, Method: "sgd", NewtonIters: "20", GradTol: "1e-5", CGSteps: "250"})
	all = append(all, Fields{LR: "0.5", Batch: "100", L2: "0.001", Epochs: "5", Seed: "1", Decay: "1", Init: "zeros",
		Method: "newton", NewtonIters: "7", GradTol: "3e-07", CGSteps: "40"})
	for _, f := range all {
		c, errs := check(f, 10000)
		if !errs.OK() {
			t.Fatalf("%+v: %+v", f, errs)
		}
		back, errs := check(FieldsOf(c), 10000)
		if !errs.OK() || back != c {
			t.Errorf("%+v\nread back as %+v, want %+v", FieldsOf(c), back, c)
		}
	}
}

// check is Check's configuration and reasons, as the tests read them.
func check(f Fields, m int) (protocol.Config, Errors) {
	s := Check(f, m)
	return s.Config, s.Errors
}

// TestCheckKeepsWhatItChecked: Settings carry the fields as typed, the
// size they were checked for (MaxTrain before the data are in), and are
// checked again only for another size.
func TestCheckKeepsWhatItChecked(t *testing.T) {
	f := Defaults()
	f.Batch = "20000"
	s := Check(f, 0)
	if s.M != MaxTrain || !s.OK() || s.Fields != f || s.Config.BatchSize != 20000 {
		t.Fatalf("before the data: M %d, OK %v, B %d", s.M, s.OK(), s.Config.BatchSize)
	}
	if again := s.For(MaxTrain); again.M != s.M || again.Config != s.Config {
		t.Error("checked again for the same size, it changed")
	}
	small := s.For(10000)
	if small.M != 10000 || small.OK() || !strings.Contains(i18n.EN.M(small.Errors.Batch), "10000") {
		t.Errorf("B = 20000 on 10,000 images: M %d, OK %v, reason %q", small.M, small.OK(), i18n.EN.M(small.Errors.Batch))
	}
	g := f
	g.Batch = "50"
	if w := small.With(g); w.M != 10000 || !w.OK() || w.Config.BatchSize != 50 {
		t.Errorf("With: M %d, OK %v, B %d", w.M, w.OK(), w.Config.BatchSize)
	}
}

// TestRefusalsCheckEveryMethodsFields: Newton's fields are refused under
// Newton's rules while the fields name SGD, and α under SGD's while they
// name Newton's method, which has no α.
func TestRefusedChecksEveryMethodsFields(t *testing.T) {
	f := Defaults()
	f.GradTol = "0"
	if s := Check(f, 10000); !s.OK() || s.Refused.GradTol.IsZero() || s.Refused.OK() {
		t.Errorf("SGD with a zero tolerance: OK %v, refusals %+v", s.OK(), s.Refused)
	}
	f = Defaults()
	f.Method, f.LR = "newton", "abc"
	if s := Check(f, 10000); !s.OK() || s.Refused.LR.IsZero() {
		t.Errorf("Newton with α abc: OK %v, refusals %+v", s.OK(), s.Refused)
	}
	if r := Check(Defaults(), 10000).Refused; !r.OK() {
		t.Errorf("the defaults are refused: %+v", r)
	}
}

func TestEditedChangesOneField(t *testing.T) {
	tests := []struct {
		edit Edit
		ok   bool
		want func(f Fields) bool
	}{
		{Edit{Field: "lr", Text: "0.3"}, true, func(f Fields) bool { return f.LR == "0.3" }},
		{Edit{Field: "lr", Text: "abc"}, true, func(f Fields) bool { return f.LR == "abc" }}, // typed as typed: Check refuses it
		{Edit{Field: "newton-iters", Text: "7"}, true, func(f Fields) bool { return f.NewtonIters == "7" }},
		{Edit{Field: "grad-tol", Text: "1e-6"}, true, func(f Fields) bool { return f.GradTol == "1e-6" }},
		{Edit{Field: "cg-steps", Text: "40"}, true, func(f Fields) bool { return f.CGSteps == "40" }},
		{Edit{Field: "init", Text: "normal"}, true, func(f Fields) bool { return f.Init == "normal" }},
		{Edit{Field: "pin", On: true}, true, func(f Fields) bool { return f.Pin }},
		{Edit{Field: "deskew", On: false}, true, func(f Fields) bool { return !f.Deskew }},
		{Edit{Field: "method", Text: "newton"}, true, func(f Fields) bool { return f.Method == "newton" }},
		{Edit{Field: "method", Text: "adam"}, false, func(f Fields) bool { return f == Defaults() }},
		{Edit{Field: "pace", Text: "full"}, true, func(f Fields) bool { return f.Pace == "full" }},
		{Edit{Field: "pace", Text: "warp"}, false, func(f Fields) bool { return f == Defaults() }},
		{Edit{Field: "colour", Text: "red"}, false, func(f Fields) bool { return f == Defaults() }},
	}
	for _, tt := range tests {
		t.Run(tt.edit.Field+"="+tt.edit.Text, func(t *testing.T) {
			f, ok := Defaults().Edited(tt.edit)
			if ok != tt.ok || !tt.want(f) {
				t.Errorf("Edited(%+v) = %+v, %v", tt.edit, f, ok)
			}
		})
	}
}
