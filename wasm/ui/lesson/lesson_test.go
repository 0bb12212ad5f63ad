package lesson

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/ui/i18n"
	"softmaxdemo/wasm/ui/mathml"
	"softmaxdemo/wasm/ui/params"
)

func TestChaptersAreTheNotesInOrder(t *testing.T) {
	want := []string{"task", "model", "loss", "hand", "update", "descent", "redundancy", "newton", "yours"}
	if got := IDs(); !slices.Equal(got, want) {
		t.Errorf("chapters %v, want %v", got, want)
	}
	questions := 0
	for i, c := range Chapters {
		if len(c.Panels) == 0 {
			t.Errorf("%s shows no live panel", c.ID)
		}
		if n, ok := Find(c.ID); !ok || n != i+1 {
			t.Errorf("Find(%q) = %d, %v", c.ID, n, ok)
		}
		for _, l := range i18n.Langs {
			for _, k := range []string{"title", "text", "try"} {
				if _, ok := i18n.Catalogs[l]["lesson."+c.ID+"."+k]; !ok {
					t.Errorf("%s: the %s catalog has no %q", c.ID, l, "lesson."+c.ID+"."+k)
				}
			}
			if q := c.Question; q != nil {
				keys := []string{".q", ".q.a"}
				for i := range q.Choices {
					keys = append(keys, ".q.c"+string(rune('1'+i)))
				}
				for _, k := range keys {
					if _, ok := i18n.Catalogs[l]["lesson."+c.ID+k]; !ok {
						t.Errorf("%s: the %s catalog has no %q", c.ID, l, "lesson."+c.ID+k)
					}
				}
			}
		}
		if c.Question != nil {
			questions++
		}
	}
	if questions < 3 {
		t.Errorf("%d chapters ask a question, want at least 3", questions)
	}
}

// TestChaptersShowThePlane: the model, descent and redundancy chapters
// show the plane's picture of their point; no chapter shows a panel twice,
// nor two of the plane's pictures, which share the plane's element ids.
func TestChaptersShowThePlane(t *testing.T) {
	plane := []Panel{PlaneRegions, PlaneSurface, PlanePsi}
	tests := []struct {
		chapter string
		want    Panel
	}{
		{"model", PlaneRegions},
		{"descent", PlaneSurface},
		{"redundancy", PlanePsi},
	}
	for _, tt := range tests {
		n, ok := Find(tt.chapter)
		if !ok {
			t.Fatalf("no chapter %q", tt.chapter)
		}
		c := Chapters[n-1]
		if !slices.Contains(append(slices.Clone(c.Panels), c.Under...), tt.want) {
			t.Errorf("%s shows %v and %v, not %s", c.ID, c.Panels, c.Under, tt.want)
		}
	}
	for _, c := range Chapters {
		all := append(slices.Clone(c.Panels), c.Under...)
		seen, pictures := map[Panel]bool{}, 0
		for _, k := range all {
			if seen[k] {
				t.Errorf("%s shows %s twice", c.ID, k)
			}
			seen[k] = true
			if slices.Contains(plane, k) {
				pictures++
			}
		}
		if pictures > 1 {
			t.Errorf("%s shows %d of the plane's pictures: %v", c.ID, pictures, all)
		}
	}
}

func TestParse(t *testing.T) {
	last := len(Chapters)
	tests := []struct {
		v     string
		want  int
		exact bool
	}{
		{"1", 1, true},
		{"3", 3, true},
		{" 9 ", last, true},
		{"loss", 3, true},
		{"yours", last, true},
		{"0", 1, false},
		{"-3", 1, false},
		{"99", last, false},
		{"1e9", last, false},
		{"1e999", last, false},
		{"2.4", 2, false},
		{"2.6", 3, false},
		{"abc", 1, false},
		{"Loss", 1, false},
		{"NaN", 1, false},
		{"-Inf", 1, false},
		{"", 1, false},
	}
	for _, tt := range tests {
		n, exact := Parse(tt.v)
		if n != tt.want || exact != tt.exact {
			t.Errorf("Parse(%q) = %d, %v; want %d, %v", tt.v, n, exact, tt.want, tt.exact)
		}
	}
}

func TestEnteringAChapterAppliesItsSettings(t *testing.T) {
	newton := params.Defaults()
	newton.Method = "newton"
	noL2 := params.Defaults()
	noL2.L2 = "0"
	pinned := noL2
	pinned.Pin = true
	tests := []struct {
		name    string
		chapter string
		from    params.Fields
		check   func(f params.Fields) bool
	}{
		{"the task changes nothing", "task", newton, func(f params.Fields) bool { return f == newton }},
		{"the update needs a descent", "update", newton, func(f params.Fields) bool { return f.Method == "sgd" }},
		{"the update keeps full-batch descent", "update", func() params.Fields { f := params.Defaults(); f.Method = "gd"; return f }(),
			func(f params.Fields) bool { return f.Method == "gd" }},
		{"descent at a pace a class follows", "descent", func() params.Fields { f := params.Defaults(); f.Pace = "full"; return f }(),
			func(f params.Fields) bool { return f.Pace == params.DefaultPace }},
		{"redundancy without λ or a pin", "redundancy", pinned, func(f params.Fields) bool { return f.L2 == "0" && !f.Pin && f.Method == "sgd" }},
		{"Newton gets some λ", "newton", noL2, func(f params.Fields) bool { return f.L2 == "0.0001" }},
		{"Newton keeps a pinned class", "newton", pinned, func(f params.Fields) bool { return f.L2 == "0" && f.Pin }},
		{"Newton keeps λ", "newton", params.Defaults(), func(f params.Fields) bool { return f == params.Defaults() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, _ := Find(tt.chapter)
			got := Apply(n, tt.from)
			if !tt.check(got) {
				t.Errorf("%+v", got)
			}
			if errs := params.Check(got, 10000).Errors; !errs.OK() {
				t.Errorf("the Train panel refuses %+v: %+v", got, errs)
			}
		})
	}
	if got := Apply(0, newton); got != newton {
		t.Errorf("no chapter changed the fields: %+v", got)
	}
}

func TestFormulasTypeset(t *testing.T) {
	full := NoLive()
	px := make([]byte, 784)
	px[300], px[301] = 128, 255
	full.Example = &Shown{Label: 3, Pixels: px, Model: true}
	full.Example.P[3], full.Example.Z[3] = 0.9, 4.2
	full.TrainN, full.TestN, full.Batch = 10000, 2000, 100
	full.Rate, full.Lambda, full.Loss, full.TestLoss, full.Likelihood, full.Accuracy = 0.5, 1e-4, 0.27, 0.25, 0.78, 0.95
	full.PBefore, full.PAfter, full.InspectRate = 0.8, 0.85, 0.1
	full.MaxDP, full.DNorm, full.SumNorm = 1.2e-7, 3.5, 0.75
	full.HessianZero, full.HessianPinned, full.HessianL2, full.HessianN = 131, 81, 1, 500
	for _, l := range i18n.Langs {
		words := func(k string) string { return l.T(k) }
		for _, c := range Chapters {
			for name, v := range map[string]Live{"nothing known": NoLive(), "everything known": full} {
				fs := c.Formulas(v, words)
				if len(fs) == 0 {
					t.Errorf("%s has no formula", c.ID)
				}
				for _, f := range fs {
					if _, err := mathml.Parse(f); err != nil {
						t.Errorf("%s, %s, %s: %v", c.ID, name, l, err)
					}
				}
			}
		}
	}
	n, _ := Find("loss")
	loss := strings.Join(Chapters[n-1].Formulas(full, func(string) string { return "error" }), "\n")
	if !strings.Contains(loss, `-\log 0.9 = 0.1054`) {
		t.Errorf("the loss chapter does not show the digit's −log p_y:\n%s", loss)
	}
}

// trained returns a model trained for one epoch on the committed pack,
// and its test images.
func trained(t *testing.T) (*softmax.Model[float32], *softmax.Examples[float32]) {
	t.Helper()
	pack := datasettest.Default(t)
	x := softmax.FromSet[float32](pack.Train)
	cfg := train.Defaults()
	cfg.Epochs = 1
	tr, err := train.New(x, 784, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for tr.Stopped() == train.Running {
		tr.Step()
	}
	return tr.Model(), softmax.FromSet[float32](pack.Test)
}

// TestPsiChangesNoProbability: adding ψ to every θ_c of a trained model
// changes no probability of any test image beyond float32 rounding, and
// J by its L2 term; ‖θ‖² changes by 2Σ_c θ_cᵀψ + K‖ψ‖², computed apart.
func TestPsiChangesNoProbability(t *testing.T) {
	m, test := trained(t)
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 5 {
		psi := Psi(r, Largest(m))
		if top := slices.MaxFunc(psi, func(a, b float32) int { return int(math.Abs(float64(a))*1e6) - int(math.Abs(float64(b))*1e6) }); math.Abs(float64(top)-Largest(m)) > 1e-6 && math.Abs(float64(top)+Largest(m)) > 1e-6 {
			t.Errorf("ψ's largest magnitude is %v, want %v", top, Largest(m))
		}
		n := AddPsi(m, psi)
		if n.W[0] == m.W[0] && n.W[400*softmax.K+3] == m.W[400*softmax.K+3] {
			t.Fatal("ψ changed nothing")
		}
		worst := 0.0
		lambda := 1e-3
		for i := range test.Len() {
			index, value := test.Example(i)
			e := Measure(m, n, index, value, int(test.Labels[i]), lambda)
			worst = math.Max(worst, e.MaxDP)
			if d := math.Abs(e.JAfter - e.JBefore - e.LambdaTerm); d > 1e-4 {
				t.Errorf("trial %d, image %d: J went from %v to %v, %v beyond its L2 term %v", trial, i, e.JBefore, e.JAfter, d, e.LambdaTerm)
			}
		}
		if worst > MaxDPRounding {
			t.Errorf("trial %d: a probability changed by %v", trial, worst)
		}
		// ‖θ + ψ‖² − ‖θ‖² = 2Σ_c θ_cᵀψ + K‖ψ‖², in float64.
		dot, pp := 0.0, 0.0
		for j, v := range psi {
			pp += float64(v) * float64(v)
			for c := range softmax.K {
				dot += float64(m.W[j*softmax.K+c]) * float64(v)
			}
		}
		want := 2*dot + softmax.K*pp
		if got := Norm2(n) - Norm2(m); math.Abs(got-want) > 1e-4*math.Abs(want) {
			t.Errorf("trial %d: ‖θ‖² changed by %v, want %v", trial, got, want)
		}
		t.Logf("trial %d: largest change of a probability %.3g, of ‖θ‖² %.4g", trial, worst, want)
	}
}

// TestHandQuestionReadsTheRun: the hand chapter's question cannot tell
// before the plane's run from the line set by hand has ended, and then
// says lower, the same (to J's float32 rounding) or higher, and its
// answer and formulas give both J and the steps.
func TestHandQuestionReadsTheRun(t *testing.T) {
	n, ok := Find("hand")
	if !ok {
		t.Fatal("no hand chapter")
	}
	c := Chapters[n-1]
	if c.Question == nil || c.Question.Demo.Plane != PlaneFromHand || !slices.Contains(c.Panels, PlaneHand) {
		t.Fatalf("the hand chapter is %+v", c)
	}
	v := NoLive()
	if r := c.Question.Right(v); r != -1 {
		t.Errorf("before the run: right = %d", r)
	}
	if got := c.Formulas(v, func(k string) string { return k }); len(got) != 2 {
		t.Errorf("before the run: formulas %q", got)
	}
	for _, tt := range []struct {
		from, to float64
		want     int
	}{
		{0.9, 0.31, 0}, {0.31, 0.31, 1}, {0.31, 0.31 + 1e-8, 1}, {0.31, 0.5, 2}, {0.31, math.NaN(), -1},
	} {
		v.PlaneFrom, v.PlaneTo, v.PlaneSteps = tt.from, tt.to, 200
		if r := c.Question.Right(v); r != tt.want {
			t.Errorf("J %v → %v: right = %d, want %d", tt.from, tt.to, r, tt.want)
		}
	}
	v.PlaneFrom, v.PlaneTo = 0.9123, 0.3105
	args := c.Question.Args(v)
	if len(args) != 3 || args[0] != "0.9123" || args[1] != "0.3105" || args[2] != "200" {
		t.Errorf("the answer's numbers are %q", args)
	}
	f := c.Formulas(v, func(k string) string { return k })
	if len(f) != 3 || !strings.Contains(f[2], "0.9123") || !strings.Contains(f[2], "0.3105") {
		t.Errorf("after the run: formulas %q", f)
	}
	for _, l := range i18n.Langs {
		for _, k := range []string{"q.a", "q", "q.c1", "q.c2", "q.c3", "title", "text", "try"} {
			var a []any
			if k == "q.a" {
				a = args
			}
			if s := l.T("lesson.hand."+k, a...); strings.Contains(s, "%!") || strings.Contains(s, "lesson.hand") {
				t.Errorf("%s: lesson.hand.%s is %q", l, k, s)
			}
		}
	}
}

// TestAnswersReadAsProseForAnyNumber: every question's answer, in both
// languages, reads as prose whatever the live numbers are (tiny, huge,
// not known yet): no TeX shows outside a formula, every formula parses,
// and no argument is missing.
func TestAnswersReadAsProseForAnyNumber(t *testing.T) {
	for _, x := range []float64{0.8, 1.5e-9, 3e7, math.NaN(), 0} {
		v := NoLive()
		v.Stepped = [2]float64{x, x * 1.01}
		v.PlaneFrom, v.PlaneTo, v.PlaneSteps = x, x/2, 200
		v.MaxDP, v.DNorm = x, x
		v.HessianZero, v.HessianPinned, v.HessianL2 = 131, 81, 1
		for _, c := range Chapters {
			if c.Question == nil || c.Question.Args == nil {
				continue
			}
			for _, l := range i18n.Langs {
				s := l.T("lesson."+c.ID+".q.a", c.Question.Args(v)...)
				if strings.Contains(s, "%!") {
					t.Errorf("%s, %s, %v: %q", c.ID, l, x, s)
				}
				for _, p := range mathml.Split(s) {
					if p.Math {
						if _, err := mathml.Parse(p.Text); err != nil {
							t.Errorf("%s, %s, %v: %v", c.ID, l, x, err)
						}
					} else if strings.ContainsAny(p.Text, `\^{}`) {
						t.Errorf("%s, %s, %v: TeX in the prose: %q", c.ID, l, x, p.Text)
					}
				}
			}
		}
	}
}
