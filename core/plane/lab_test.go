package plane

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// TestThePlaneTrainsWithTheDigitsTrainer: the plane's training is
// core/train's Trainer, the one type that trains the digits: the model a
// Lab shows is its Trainer's live model, stepped by the Lab, and gives the
// bits that train.New gives on the same examples; the paths of gradient
// descent and SGD are that Trainer's too. A copy of the trainer written
// for two dimensions would fail each check.
func TestThePlaneTrainsWithTheDigitsTrainer(t *testing.T) {
	s := Defaults()
	s.Bias, s.Pin, s.Lambda = true, false, 0.001
	d, lab := newLab(t, "blobs", 3, 1, s, 50)
	tr := lab.Trainer()
	if step, _, _ := tr.Progress(); step != 50 || lab.Model() != tr.Model() {
		t.Fatalf("the Lab's model is not its Trainer's (%d steps)", step)
	}
	// One trainer type, two data sets: the same type trains the digits.
	pack := datasettest.Default(t)
	digits, err := train.New(softmax.FromSet[float32](pack.Train), dataset.Pixels, train.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	digits.Step()
	if reflect.TypeOf(digits) != reflect.TypeOf(tr) || digits.Model().Classes() != softmax.K || tr.Model().Classes() != 3 {
		t.Fatal("the digits and the plane do not share the Trainer")
	}
	// The bits of train.New on the plane's examples.
	direct, err := train.New(Examples[float32](d), 2, train.Config{LearningRate: s.Rate, L2: s.Lambda, Classes: 3,
		Iterations: s.steps(), Seed: s.Seed})
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		direct.Step()
	}
	if !slices.Equal(direct.Model().W, lab.Model().W) || !slices.Equal(direct.Model().B, lab.Model().B) {
		t.Errorf("the Lab's model %v %v, train.New's %v %v", lab.Model().W, lab.Model().B, direct.Model().W, direct.Model().B)
	}
	// The path of gradient descent is the same Trainer's run from the start.
	sc, err := Build(d, s)
	if err != nil {
		t.Fatal(err)
	}
	start := softmax.NewClasses[float32](2, 3)
	for i, v := range sc.Paths[GD].Theta[0] {
		if i < 6 {
			start.W[i] = float32(v)
		} else {
			start.B[i-6] = float32(v)
		}
	}
	gd, err := train.New(Examples[float32](d), 2, train.Config{LearningRate: s.Rate, L2: s.Lambda, Classes: 3, Iterations: s.steps(), Seed: s.Seed})
	if err != nil {
		t.Fatal(err)
	}
	if err := gd.SetModel(start); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(sc.Paths[GD].Theta); i++ {
		gd.Step()
		if got := flat32(gd.Model()); !slices.Equal(got, sc.Paths[GD].Theta[i]) {
			t.Fatalf("step %d: the path's θ %v, the Trainer's %v", i, sc.Paths[GD].Theta[i], got)
		}
	}
}

// newLab returns the data set name with k classes and the seed, and a Lab
// on it with the settings s that has taken the given number of steps,
// failing the test on an error.
func newLab(t *testing.T, name string, k int, seed uint64, s Settings, steps int) (Data, *Lab) {
	t.Helper()
	d := generate(t, name, k, seed)
	lab, err := NewLab(d, s)
	if err != nil {
		t.Fatal(err)
	}
	for range steps {
		lab.Step()
	}
	return d, lab
}

// TestLabStatus: the status is the model's accuracy, J and ‖θ‖ on the
// points; on separable data without λ the model comes to separate them,
// and the status says so.
func TestLabStatus(t *testing.T) {
	d, lab := newLab(t, "separable", 2, 1, Defaults(), 0)
	st := lab.Status()
	if st.Steps != 0 || st.Points != 2*PerClass || math.Abs(st.Loss-math.Ln2) > 1e-12 || st.ThetaNorm != 0 {
		t.Errorf("at θ = 0: %+v, want J = log 2", st)
	}
	for lab.Step().Stop == train.Running {
	}
	st = lab.Status()
	if st.Steps != DefaultSteps || st.Accuracy != 1 || !st.Separated || st.Loss > 0.05 {
		t.Errorf("after training: %+v", st)
	}
	w := lab.Model().W
	if want := math.Hypot(float64(w[1]), float64(w[3])); math.Abs(st.ThetaNorm-want) > 1e-6 {
		t.Errorf("‖θ‖ %v, want %v", st.ThetaNorm, want)
	}
	more, _ := d.Add(Point{X: [2]float64{0.1, 0.1}, Class: 0})
	more, _ = more.Add(Point{X: [2]float64{0.2, 0.1}, Class: 1})
	if err := lab.SetData(more); err != nil {
		t.Fatal(err)
	}
	if st := lab.Status(); st.Points != 2*PerClass+2 || st.Steps != 0 || st.ThetaNorm == 0 {
		t.Errorf("after two points were added: %+v; the model should go on from where it was", st)
	}
	bad := more
	bad.Points = append(slices.Clone(bad.Points), Point{X: [2]float64{math.NaN(), 0}})
	if err := lab.SetData(bad); err == nil || lab.Status().Points != 2*PerClass+2 {
		t.Errorf("a NaN point: %v, %d points", err, lab.Status().Points)
	}
}

// TestPsiChangesNothingButTheNorm: adding one ψ to every θ_c (and to every
// bias) leaves every probability and region as it was and moves ‖θ‖; with
// class 0 pinned it is refused.
func TestPsiChangesNothingButTheNorm(t *testing.T) {
	s := Defaults()
	s.Bias, s.Pin = true, false
	d, lab := newLab(t, "blobs", 4, 2, s, 30)
	const n = 50
	c0, p0 := make([]uint8, n*n), make([]float32, n*n)
	Regions(c0, p0, lab.Model(), n, n)
	before := lab.Status()
	r, err := lab.AddPsi([3]float64{1.5, -2, 0.75})
	if err != nil {
		t.Fatal(err)
	}
	c1, p1 := make([]uint8, n*n), make([]float32, n*n)
	Regions(c1, p1, lab.Model(), n, n)
	after := lab.Status()
	changed := 0
	for i := range c0 {
		if c0[i] != c1[i] {
			changed++
		}
		if math.Abs(float64(p0[i]-p1[i])) > 1e-5 {
			t.Fatalf("cell %d: p %v → %v", i, p0[i], p1[i])
		}
	}
	if changed > 3 || r.MaxDP > 1e-5 || r.MaxDZ < 1 || math.Abs(r.NormAfter-r.NormBefore) < 1 {
		t.Errorf("%d cells changed class; %+v", changed, r)
	}
	if before.Accuracy != after.Accuracy || math.Abs(before.Loss-after.Loss) > 1e-5 || after.ThetaNorm != r.NormAfter {
		t.Errorf("status %+v → %+v", before, after)
	}
	pinned, _ := NewLab(d, Defaults())
	var ie *InputError
	if _, err := pinned.AddPsi([3]float64{1, 1, 0}); !errors.As(err, &ie) || ie.Problem != Pinned {
		t.Errorf("with class 0 pinned: %v", err)
	}
}

// TestLabGoesOnFromAModel: a Lab made from another's model draws the same
// regions and goes on training from there; a model of another shape is
// refused.
func TestLabGoesOnFromAModel(t *testing.T) {
	s := Defaults()
	s.Pin, s.Bias = false, true
	d, a := newLab(t, "blobs", 3, 1, s, 20)
	b, err := NewLabFrom(d, s, a.Model())
	if err != nil {
		t.Fatal(err)
	}
	if sa, sb := a.Status(), b.Status(); sa.Loss != sb.Loss || sa.ThetaNorm != sb.ThetaNorm || sb.Steps != 0 {
		t.Errorf("the Lab taken over: %+v, from %+v", sb, sa)
	}
	b.Step()
	if b.Status().Loss >= a.Status().Loss {
		t.Errorf("a step from the model taken over did not lower J: %v, %v", b.Status().Loss, a.Status().Loss)
	}
	d2, _ := Generate("blobs", 2, 1)
	if _, err := NewLabFrom(d2, s, a.Model()); err == nil {
		t.Error("a 3-class model was taken for 2 classes")
	}
	if _, err := NewLabFrom(d, s, nil); err == nil {
		t.Error("no model was taken")
	}
}
