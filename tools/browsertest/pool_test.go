package browsertest

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/dataset/datasettest"
	"softmaxdemo/core/newton"
	"softmaxdemo/core/softmax"
	"softmaxdemo/core/train"
	"softmaxdemo/wasm/ui/files"
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
			m64 := s.Model()
			m := softmax.New[float32](dataset.Pixels)
			for i, w := range m64.W {
				m.W[i] = float32(w)
			}
			for c, b := range m64.B {
				m.B[c] = float32(b)
			}
			return m
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := files.Checksum(c.native())
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

// TestWorkersInALink: a workers= value that is not 1 to 8 falls back to
// what the browser offers, with a notice that names it.
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
		notice, _ := eval[string](ctx, `document.getElementById("notice").textContent`)
		if !strings.Contains(notice, "workers") || !strings.Contains(notice, "1 to 8") {
			t.Errorf("workers=%s: the notice says %q", bad, notice)
		}
	}
}
