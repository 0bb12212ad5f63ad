package train

import (
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"softmaxdemo/core/internal/golden"
	"softmaxdemo/core/softmax"
)

var update = flag.Bool("update", false, "rewrite testdata/trajectory.golden with testdata/trajectory.py (needs /usr/bin/python3 with NumPy)")

// tinyData builds the data set of testdata/trajectory.py: 20 examples, 6
// features, values and labels from formulas so both sides agree exactly.
func tinyData() *softmax.Examples[float32] {
	x := &softmax.Examples[float32]{Start: []int32{0}}
	for i := range 20 {
		for j := range 6 {
			if (i+j)%3 != 0 {
				x.Index = append(x.Index, uint16(j))
				x.Value = append(x.Value, float32((i*7+j*3)%11+1)/12)
			}
		}
		x.Start = append(x.Start, int32(len(x.Index)))
		x.Labels = append(x.Labels, uint8(i*3%10))
	}
	return x
}

// TestTrajectoryMatchesNumPy compares the first 20 losses of full-batch
// gradient descent with an independent NumPy implementation in float64.
// Our float32 trainer must agree to 1e-6 relative.
func TestTrajectoryMatchesNumPy(t *testing.T) {
	if *update {
		out, err := exec.Command("/usr/bin/python3", "testdata/trajectory.py").Output()
		if err != nil {
			t.Fatalf("running trajectory.py: %v", err)
		}
		if err := os.WriteFile("testdata/trajectory.golden", out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := readGolden("testdata/trajectory.golden")
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 20 {
		t.Fatalf("golden file has %d losses, want 20", len(want))
	}
	tr, err := New(tinyData(), 6, Config{LearningRate: 0.5, L2: 0.01, Iterations: 20})
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		st := tr.Step()
		if rel := math.Abs(st.Loss-w) / w; rel > 1e-6 {
			t.Errorf("step %d: loss %.12f, NumPy %.12f (relative error %.1e)", i+1, st.Loss, w, rel)
		}
	}
}

func readGolden(path string) ([]float64, error) {
	records, err := golden.Records(path, 2)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(records))
	for i, f := range records {
		if out[i], err = strconv.ParseFloat(f[1], 64); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return out, nil
}
