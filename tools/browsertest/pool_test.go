package browsertest

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/core/digit"
	"softmaxdemo/core/modelfile"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/ui/kit"
)

// TestWorkersGiveTheSameBits: full-batch gradient descent and Newton's
// method, on the default pack, end with the same model (#weights'
// data-checksum) and the same final J (#runs' data-final-loss, at full
// precision) with 1, 2 and 3 workers (#workers' data-value; 3 does not
// divide the 8 shards), and with core's own run natively over the same
// shards.
func TestWorkersGiveTheSameBits(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	base := strings.TrimSuffix(srv.URL, "/")
	pack := datasettest.Default(t)
	x := softmax.FromSet[float32](pack.Train)
	cases := []struct {
		name, link string
		native     func() *softmax.Model[float32]
	}{
		{"gd", "method=gd&lr=0.5&l2=0.001&epochs=30&deskew=0&pace=full&lang=en", func() *softmax.Model[float32] {
			tr, err := train.New(x, dataset.Pixels, train.Config{LearningRate: 0.5, BatchSize: x.Len(), L2: 0.001, Epochs: 30, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			for tr.Stopped() == train.Running {
				tr.Step()
			}
			return tr.Model()
		}},
		{"newton", "method=newton&l2=0.0001&iters=4&deskew=0&pace=full&lang=en", func() *softmax.Model[float32] {
			s, err := newton.NewWith(newton.NewLocal(x, dataset.Pixels, softmax.K), x.Len(), dataset.Pixels,
				softmax.Objective{Lambda: 1e-4}, newton.Settings{Iterations: 4})
			if err != nil {
				t.Fatal(err)
			}
			for s.Iterate().Stop == newton.Running {
			}
			m := softmax.New[float32](dataset.Pixels)
			softmax.Convert(m, s.Model())
			return m
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := kit.Checksum(c.native())
			var loss string
			for _, n := range []int{1, 2, 3} {
				ctx := openReady(t, base+"/#"+c.link+"&workers="+strconv.Itoa(n))
				if !eventually(20*time.Second, func() bool { return attr(t, ctx, "#workers", "data-value") == strconv.Itoa(n) }) {
					t.Fatalf("workers=%d: #workers says %q; page says: %s", n, attr(t, ctx, "#workers", "data-value"), pageText(ctx))
				}
				trainRun(t, ctx, 3*time.Minute)
				if s := attr(t, ctx, "#status", "data-state"); s != "done" {
					t.Fatalf("workers=%d: the run ended %q; page says: %s", n, s, pageText(ctx))
				}
				if r := attr(t, ctx, "#workers", "data-replaced"); r != "0" {
					t.Errorf("workers=%d: %s helpers were replaced: they failed or did not answer", n, r)
				}
				if got := attr(t, ctx, "#weights", "data-checksum"); got != want {
					t.Errorf("workers=%d: the model's checksum is %s, core's native run over the same shards %s", n, got, want)
				}
				l := attr(t, ctx, "#runs > *:last-child", "data-final-loss")
				if n == 1 {
					loss = l
				} else if l != loss {
					t.Errorf("workers=%d: final J %s, one worker's %s", n, l, loss)
				}
			}
		})
	}
}

// TestHelpersAnswerUnderTheServiceWorker: a helper started once the
// service worker serves the site (its script comes from the service
// worker's cache, as on every return visit) still computes its shards:
// none is replaced for failing or falling silent, and a 20-step run ends
// within a minute, not after 10 s a step. A helper that learned its role
// from its URL's fragment, which the cached response drops, would start
// as a training worker and never answer.
func TestHelpersAnswerUnderTheServiceWorker(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	link := "method=gd&lr=0.5&l2=0.001&epochs=20&pace=full&lang=en&workers="
	ctx := openReady(t, strings.TrimSuffix(srv.URL, "/")+"/#"+link+"1")
	if !eventually(60*time.Second, func() bool { return serviceWorkerCached(ctx) }) {
		t.Fatal("the service worker did not cache the site")
	}
	// The helper starts now, its script served by the service worker.
	if _, err := eval[bool](ctx, `(location.hash = "#`+link+`2", true)`); err != nil {
		t.Fatal(err)
	}
	if !eventually(20*time.Second, func() bool { return attr(t, ctx, "#workers", "data-value") == "2" }) {
		t.Fatalf("#workers says %q; page says: %s", attr(t, ctx, "#workers", "data-value"), pageText(ctx))
	}
	if c, _ := eval[bool](ctx, `navigator.serviceWorker.controller !== null`); !c {
		t.Fatal("the service worker does not serve the page")
	}
	trainRun(t, ctx, time.Minute)
	if s := attr(t, ctx, "#status", "data-state"); s != "done" {
		t.Fatalf("the run ended %q; page says: %s", s, pageText(ctx))
	}
	if r := attr(t, ctx, "#workers", "data-replaced"); r != "0" {
		t.Errorf("%s helpers were replaced: they failed or did not answer", r)
	}
}

// TestWorkersInALink: a workers= value that is not 1 to 8 falls back to
// what the browser offers, less one core for the page (at least 1, at
// most 8), with a notice that names it.
func TestWorkersInALink(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	for _, bad := range []string{"0", "-2", "abc", "9"} {
		ctx := openReady(t, strings.TrimSuffix(srv.URL, "/")+"/#workers="+bad+"&lang=en")
		if !eventually(20*time.Second, func() bool {
			return attr(t, ctx, "#workers", "data-value") != "" && attr(t, ctx, "#workers", "data-value") != "0"
		}) {
			t.Fatalf("workers=%s: #workers never said how many", bad)
		}
		want, _ := eval[float64](ctx, `Math.max(1, Math.min((navigator.hardwareConcurrency || 1) - 1, 8))`)
		if got := attr(t, ctx, "#workers", "data-value"); got != strconv.Itoa(int(want)) {
			t.Errorf("workers=%s: %s workers, want the browser's cores less one: %v", bad, got, want)
		}
		notice, _ := eval[string](ctx, `document.getElementById("notice").textContent`)
		if !strings.Contains(notice, "workers") || !strings.Contains(notice, "1 to 8") {
			t.Errorf("workers=%s: the notice says %q", bad, notice)
		}
	}
}

// TestAlphaMaxBesideAlpha: under α, #alpha-max shows 2/λ_max of the
// Hessian at the current model, as core computes it natively on the same
// images (straightened, the page's default) with the panel's λ: first at
// θ = 0, then after a run, for the run's weights (#weights' checksum names
// them), and again when λ changes.
func TestAlphaMaxBesideAlpha(t *testing.T) {
	needBrowser(t)
	srv := startServer(t)
	ctx := openReady(t, strings.TrimSuffix(srv.URL, "/")+"/#l2=0.001&epochs=1&pace=full&lang=en")
	pack := datasettest.Default(t)
	x := softmax.FromSet[float64](digit.DeskewSet(pack.Train))
	x32 := softmax.FromSet[float32](digit.DeskewSet(pack.Train))
	for i, v := range x32.Value {
		x.Value[i] = float64(v) // the worker's float32 pixels, widened
	}
	want := func(m *softmax.Model[float32], l2 float64) float64 {
		md := softmax.New[float64](dataset.Pixels)
		softmax.Convert(md, m)
		st, err := newton.LambdaMax(x, md, softmax.Objective{Lambda: l2}, newton.PowerSettings{Tol: 1e-10, Iterations: 100})
		if err != nil {
			t.Fatal(err)
		}
		return 2 / st.Lambda
	}
	shown := func(l2 string) float64 {
		t.Helper()
		var v float64
		if !eventually(60*time.Second, func() bool {
			// One read of both: the value and the λ it is for.
			both, _ := eval[[]string](ctx, `(e => [e.dataset.value || "", e.dataset.l2 || ""])(document.getElementById("alpha-max"))`)
			if len(both) != 2 || both[1] != l2 {
				return false
			}
			v, _ = strconv.ParseFloat(both[0], 64)
			return v > 0
		}) {
			t.Fatalf("#alpha-max never showed a value for λ = %s; page says: %s", l2, pageText(ctx))
		}
		return v
	}
	close := func(got, want float64) bool { return math.Abs(got-want) <= 1e-6*want }
	if got, w := shown("0.001"), want(softmax.New[float32](dataset.Pixels), 1e-3); !close(got, w) {
		t.Errorf("at θ = 0: #alpha-max %v, core's 2/λ_max %v", got, w)
	}
	// The default α, 0.5, is a little above 2/λ_max at θ = 0, and the
	// default run converges: the note says so, and says that for SGD's
	// minibatches the figure is a guide.
	text, _ := eval[string](ctx, `document.getElementById("alpha-max").textContent`)
	if regime := attr(t, ctx, "#alpha-max", "data-regime"); regime != "above" ||
		!strings.Contains(text, "overshoot") || !strings.Contains(text, "usually still falls") || !strings.Contains(text, "guide, not a bound") {
		t.Errorf("at α = 0.5, B = 100: #alpha-max (%s) says %q", regime, text)
	}
	before := attr(t, ctx, "#alpha-max", "data-value")
	trainRun(t, ctx, 2*time.Minute)
	if !eventually(60*time.Second, func() bool { return attr(t, ctx, "#alpha-max", "data-value") != before }) {
		t.Fatal("#alpha-max did not follow the trained model")
	}
	dir := t.TempDir()
	downloadsTo(t, ctx, dir)
	f, err := modelfile.Decode(download(t, ctx, "download-model", dir, "softmax-model.json"), dataset.Pixels)
	if err != nil {
		t.Fatal(err)
	}
	m := f.Model
	if got, w := shown("0.001"), want(m, 1e-3); !close(got, w) {
		t.Errorf("after a run: #alpha-max %v, core's 2/λ_max at its weights %v", got, w)
	}
	setField(t, ctx, "l2", "0.01")
	if got, w := shown("0.01"), want(m, 1e-2); !close(got, w) {
		t.Errorf("with λ = 0.01: #alpha-max %v, core's %v", got, w)
	}
}
