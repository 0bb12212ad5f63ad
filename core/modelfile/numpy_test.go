package modelfile

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/core/internal/numpytest"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
)

// TestNumPyPredictsLikeGo trains a model for one epoch on the committed
// pack, saves it as .npz, and checks that NumPy's argmax(x @ W + b)
// agrees with softmax.Model.Predict on every test image.
func TestNumPyPredictsLikeGo(t *testing.T) {
	numpytest.Need(t)
	p := datasettest.Default(t)
	cfg := train.Defaults()
	cfg.Epochs = 1
	tr, err := train.New(softmax.FromSet[float32](p.Train), dataset.Pixels, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for tr.Stopped() == train.Running {
		tr.Step()
	}
	m := tr.Model()

	dir := t.TempDir()
	model, images := filepath.Join(dir, "model.npz"), filepath.Join(dir, "images.npy")
	if err := os.WriteFile(model, encodeNPZ(t, m), 0o644); err != nil {
		t.Fatal(err)
	}
	n := p.Test.Len()
	px := make([]byte, n*dataset.Pixels)
	for i := range n {
		p.Test.Dense(px[i*dataset.Pixels:(i+1)*dataset.Pixels], i)
	}
	hdr := []byte(npy(1, "{'descr': '|u1', 'fortran_order': False, 'shape': ("+itoa(n)+", 784), }", nil))
	if err := os.WriteFile(images, append(hdr, px...), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(numpytest.Python, "testdata/predict.py", model, images)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("predict.py: %v\n%s", err, stderr.String())
	}
	got := strings.TrimSpace(string(out))
	if len(got) != n {
		t.Fatalf("NumPy made %d predictions for %d images", len(got), n)
	}
	x := softmax.FromSet[float32](p.Test)
	bad, right := 0, 0
	for i := range n {
		index, value := x.Example(i)
		want, _ := m.Predict(index, value)
		if int(got[i]-'0') != want {
			bad++
			t.Errorf("image %d: NumPy predicts %c, Go %d", i, got[i], want)
		}
		if want == int(x.Labels[i]) {
			right++
		}
	}
	t.Logf("%d test images: NumPy and Go agree on %d; Go's accuracy %.2f%%", n, n-bad, 100*float64(right)/float64(n))
}

func itoa(n int) string { return strconv.Itoa(n) }
