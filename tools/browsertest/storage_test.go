package browsertest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/modelfile"
	"softmaxdemo/core/softmax"
	"softmaxdemo/wasm/ui/files"

	"github.com/chromedp/chromedp"
)

// keptRecord reads the page's kept record from the browser's storage and
// decodes it whole: its model's checksum and its settings.
func keptRecord(t *testing.T, ctx context.Context) (sum, settings string, err error) {
	t.Helper()
	s, _ := eval[string](ctx, `localStorage.getItem("softmax:kept") || ""`)
	if s == "" {
		return "", "", nil
	}
	k, err := files.ReadKept(s)
	if err != nil {
		return "", "", err
	}
	f, err := k.File()
	if err != nil {
		return "", "", err
	}
	return files.Checksum(f.Model), k.Settings, nil
}

// TestStorageThatThrowsLosesNothing: with storage that throws on every
// write (full, or turned off), the page trains, says once that it could
// not keep the model, and the model stays in the page: its templates,
// its evaluation and its predictions.
func TestStorageThatThrowsLosesNothing(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := openWith(t, 3*time.Minute, strings.TrimSuffix(srv.URL, "/")+shortRun,
		`globalThis.softmaxWrites = 0; Storage.prototype.setItem = function () { globalThis.softmaxWrites++; throw new DOMException("the quota has been exceeded", "QuotaExceededError"); };`)
	trainDefault(t, ctx)
	sum, acc, gallery := settled(t, ctx, 2)
	waitAttr(t, ctx, 5*time.Second, "#model-status", "data-kind", is("notKept"))
	if w, _ := eval[int](ctx, `globalThis.softmaxWrites`); w == 0 {
		t.Fatal("the page never tried to write: the test proves nothing")
	}
	text, _ := eval[string](ctx, `document.body.innerText`)
	if n := strings.Count(text, "could not be kept in this browser"); n != 1 {
		t.Errorf("the page says %d times that the model could not be kept, want once", n)
	}
	if e, _ := eval[string](ctx, `(document.getElementById("error")||{}).textContent||""`); e != "" {
		t.Errorf("the error banner shows %q", e)
	}
	if sum == "" || acc < 0.5 || len(gallery) != 60 {
		t.Errorf("the model in the page: checksum %q, accuracy %v, gallery %q", sum, acc, gallery)
	}
	// A step still trains on from it: the model in memory was never lost.
	click(t, ctx, "step")
	waitAttr(t, ctx, 10*time.Second, "#weights", "data-checksum", func(v string) bool { return v != sum && v != "" })
	if text, _ := eval[string](ctx, `document.body.innerText`); strings.Count(text, "could not be kept in this browser") > 1 {
		t.Error("after another keep the page says it twice")
	}
}

// TestTwoTabsKeepOneWholeRecord: two tabs of one browser train different
// runs and keep their models at the same moment; after both, the kept
// record decodes whole, and its model and settings are one tab's.
func TestTwoTabsKeepOneWholeRecord(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	base := strings.TrimSuffix(srv.URL, "/") + "/#deskew=0&pace=full&epochs=2&lang=en&seed="
	tab1 := newBrowser(t, 4*time.Minute)
	tab2, cancel := chromedp.NewContext(tab1) // a second target in the same browser context
	defer cancel()
	seeds := []string{"3", "4"}
	tabs := []context.Context{tab1, tab2}
	for i, ctx := range tabs {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+seeds[i])); err != nil {
			t.Fatal(err)
		}
	}
	for _, ctx := range tabs {
		waitState(t, ctx, 60*time.Second, "ready")
	}
	for _, ctx := range tabs {
		click(t, ctx, "train")
	}
	sums := map[string]string{} // model checksum → the tab's seed
	for i, ctx := range tabs {
		waitState(t, ctx, 90*time.Second, "done")
		sum, _, _ := settled(t, ctx, 2)
		sums[sum] = seeds[i]
	}
	if len(sums) != 2 {
		t.Fatalf("the two tabs trained the same model: %v", sums)
	}
	var sum, settings string
	var err error
	if !eventually(10*time.Second, func() bool {
		sum, settings, err = keptRecord(t, tab1)
		return err == nil && sums[sum] != ""
	}) {
		t.Fatalf("the kept record is model %q, settings %q, error %v; the tabs trained %v", sum, settings, err, sums)
	}
	if !strings.Contains("&"+settings+"&", "&seed="+sums[sum]+"&") {
		t.Errorf("the kept model is seed %s's, its settings %q another's", sums[sum], settings)
	}
	// Both tabs see the same whole record.
	if s2, set2, err := keptRecord(t, tab2); err != nil || s2 != sum || set2 != settings {
		t.Errorf("the second tab reads model %q, settings %q (%v)", s2, set2, err)
	}
}

// TestOlderKeptModelIsRead: a model kept by the page's version 1, under
// two keys, is restored with its settings, and moved into one record the
// next time the page keeps its model.
func TestOlderKeptModelIsRead(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	m := softmax.New[float32](dataset.Pixels)
	for i := range m.B {
		m.B[i] = float32(i) / 10
	}
	model, _, _, err := files.EncodeModel(m, modelfile.Info{Epochs: 1}, "json")
	if err != nil {
		t.Fatal(err)
	}
	ctx := openReady(t, srv.URL)
	js := fmt.Sprintf(`localStorage.clear(), localStorage.setItem(%q, %q), localStorage.setItem(%q, "epochs=3&seed=5&lang=en"), true`,
		files.LegacyModelKey, model, files.LegacySettingsKey)
	if _, err := eval[bool](ctx, js); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	waitAttr(t, ctx, 60*time.Second, "#weights", "data-checksum", is(files.Checksum(m)))
	waitAttr(t, ctx, 5*time.Second, "#model-status", "data-kind", is("restored"))
	waitValue(t, ctx, "seed", "5")
	waitValue(t, ctx, "epochs", "3")
	click(t, ctx, "step")
	var sum, settings string
	if !eventually(10*time.Second, func() bool {
		sum, settings, err = keptRecord(t, ctx)
		return err == nil && sum != "" && sum != files.Checksum(m)
	}) {
		t.Fatalf("after a step the kept record is %q, %q, %v", sum, settings, err)
	}
	if !strings.Contains(settings, "seed=5") {
		t.Errorf("the record's settings %q are not the restored ones", settings)
	}
	left, _ := eval[string](ctx, fmt.Sprintf(`(localStorage.getItem(%q) || "") + (localStorage.getItem(%q) || "")`, files.LegacyModelKey, files.LegacySettingsKey))
	if left != "" {
		t.Errorf("version 1's keys are still kept: %d bytes", len(left))
	}
}
