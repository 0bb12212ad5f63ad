package classhub

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"softmaxdemo/core/class"
	"softmaxdemo/core/dataset"
	"softmaxdemo/core/modelfile"
)

// TestDownloads: the class's drawings kept (a removed one left out), as
// IDX and as .npz, read back by the project's own readers
// (dataset.ReadIDX, modelfile.DecodeDigitsNPZ) and by NumPy; a saved
// set uploaded again is added to the class's, all or none.
func TestDownloads(t *testing.T) {
	tc := newClass(t, t.TempDir(), nil)
	ctx := tc.ctx()
	pres := tc.presenter()
	r := newRand()
	want := dataset.NewSet(0, 0)
	p := tc.phone()
	for i := range 6 {
		px := digit(r)
		if _, err := p.Draw(ctx, uint8(i+3)%10, px); err != nil {
			t.Fatal(err)
		}
		if i != 2 {
			want.Append(uint8(i+3)%10, px[:])
		}
	}
	if err := pres.Remove(ctx, 3); err != nil {
		t.Fatal(err)
	}
	images, err := pres.Get(ctx, class.PathDigitsImages, nil)
	if err != nil {
		t.Fatal(err)
	}
	labels, err := pres.Get(ctx, class.PathDigitsLabels, nil)
	if err != nil {
		t.Fatal(err)
	}
	fromIDX, err := dataset.ReadIDX(bytes.NewReader(images), bytes.NewReader(labels))
	if err != nil || !sameSets(fromIDX, want) {
		t.Errorf("the IDX files read back: %v", err)
	}
	npz, err := pres.Get(ctx, class.PathDigitsNPZ, nil)
	if err != nil {
		t.Fatal(err)
	}
	fromNPZ, err := modelfile.DecodeDigitsNPZ(npz, 100)
	if err != nil || !sameSets(fromNPZ, want) {
		t.Errorf("the .npz read back: %v", err)
	}
	numpyReads(t, npz, images, labels, want)

	// Next lesson: a new class, the saved set uploaded.
	tc2 := newClass(t, t.TempDir(), func(h *Hub) { h.MaxDrawings = 7 })
	pr := follow(t, tc2.presenter())
	ack, err := tc2.presenter().UploadDigits(ctx, npz)
	if err != nil || ack.Drawing != 5 {
		t.Fatalf("the upload: %+v %v", ack, err)
	}
	pr.next(t, "the fifth drawing", func(e class.Event) bool { d, ok := e.(*class.Digit); return ok && d.N == 5 })
	again, err := tc2.presenter().Get(ctx, class.PathDigitsNPZ, nil)
	if err != nil || !bytes.Equal(again, npz) {
		t.Errorf("the uploaded set downloads as other bytes (%v)", err)
	}
	_, err = tc2.presenter().UploadDigits(ctx, npz) // 5 more would be 10 > 7
	if ref := refusal(t, err, http.StatusForbidden); ref.Code != class.CodeClassLimit {
		t.Errorf("an upload past the limit: %+v", ref)
	}
	_, err = tc2.presenter().UploadDigits(ctx, []byte("not a file"))
	if ref := refusal(t, err, http.StatusBadRequest); !strings.Contains(ref.Message, "not a .npz") {
		t.Errorf("an upload of another file: %+v", ref)
	}
	tc2.locked(func(h *Hub) {
		if h.digits.kept != 5 {
			t.Errorf("%d drawings after refused uploads, want 5", h.digits.kept)
		}
	})
}

func sameSets(a, b *dataset.Set) bool {
	la, pa := modelfile.DigitsPixels(a)
	lb, pb := modelfile.DigitsPixels(b)
	return bytes.Equal(la, lb) && bytes.Equal(pa, pb)
}

// numpyReads checks that NumPy reads the .npz and the IDX files as
// want's images and labels.
func numpyReads(t *testing.T, npz, images, labels []byte, want *dataset.Set) {
	t.Helper()
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import numpy").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s with NumPy is needed under CI (apt-get install -y python3-numpy): %v", python, err)
		}
		t.Logf("SKIPPED the NumPy check: %s with NumPy is not installed (apt-get install -y python3-numpy): %v", python, err)
		return
	}
	dir := t.TempDir()
	for name, b := range map[string][]byte{"class-digits.npz": npz, "images": images, "labels": labels} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const py = `
import sys, numpy as np
d = sys.argv[1]
f = np.load(d + "/class-digits.npz")
x, y = f["images"], f["labels"]
ix = np.frombuffer(open(d + "/images", "rb").read(), dtype=np.uint8, offset=16).reshape(-1, 28, 28)
iy = np.frombuffer(open(d + "/labels", "rb").read(), dtype=np.uint8, offset=8)
assert (ix == x).all() and (iy == y).all(), "the IDX files and the .npz differ"
print(x.dtype, x.shape, y.dtype, y.shape, x.tobytes().hex(), y.tobytes().hex())
`
	out, err := exec.Command(python, "-c", py, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	l, px := modelfile.DigitsPixels(want)
	exp := "uint8 (" + itoa(want.Len()) + ", 28, 28) uint8 (" + itoa(want.Len()) + ",) " + hexOf(px) + " " + hexOf(l)
	if strings.TrimSpace(string(out)) != exp {
		t.Errorf("NumPy reads\n%.200s\nwant\n%.200s", out, exp)
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
