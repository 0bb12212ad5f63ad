package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"softmaxdemo/core/dataset"
	"softmaxdemo/tools/internal/headless"
)

// runTimeout bounds one implementation's run, including its setup.
const runTimeout = 10 * time.Minute

// harness is a server and a headless Chromium showing the benchmark page
// (peersDir/page.html, served as /peers/page.html).
type harness struct {
	srv     *httptest.Server
	ctx     context.Context // the page's tab
	cancel  func()
	profile string
	info    pageInfo
}

// pageInfo is what bench.ready resolves to.
type pageInfo struct {
	UserAgent   string  `json:"userAgent"`
	Brands      []brand `json:"brands"` // navigator.userAgentData's fullVersionList
	TFJS        string  `json:"tfjs"`
	TFJSWasm    string  `json:"tfjsWasm"`
	WasmSIMD    bool    `json:"wasmSimd"`
	WasmThreads bool    `json:"wasmThreads"`
	LongTasks   bool    `json:"longTaskObserver"`
}

// brand is one entry of navigator.userAgentData's fullVersionList.
type brand struct {
	Brand   string `json:"brand"`
	Version string `json:"version"`
}

// result is what bench.run resolves to: one implementation's epoch.
type result struct {
	Millis   float64 `json:"ms"`       // training time of the epoch
	EvalMs   float64 `json:"evalMs"`   // ours: an evaluate command's round trip
	StepsMs  float64 `json:"stepsMs"`  // ours: the steps alone, by the worker's clock
	Accuracy float64 `json:"accuracy"` // on the pack's test set, after the epoch
	LongTask float64 `json:"longTask"` // ms; 0 if no main-thread task took 50 ms
	Seen     int     `json:"seen"`     // training examples in the epoch
}

// newHandler serves the repository's web/ folder and go-app's
// /wasm_exec.js (at the root, where the page's workers load it), under
// /peers/ the benchmark page's folder (peersDir) and, under /data/, the
// dense arrays in dataDir. Nothing else of the repository is served.
func newHandler(root, dataDir string) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/web/", http.FileServer(http.Dir(root)))
	mux.HandleFunc("/wasm_exec.js", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(root, "wasm_exec.js"))
	})
	mux.Handle("/peers/", http.StripPrefix("/peers/", http.FileServer(http.Dir(filepath.Join(root, peersDir)))))
	mux.Handle("/data/", http.StripPrefix("/data/", http.FileServer(http.Dir(dataDir))))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		mux.ServeHTTP(w, r)
	})
}

// startHarness serves root and dataDir and opens the benchmark page in a
// fresh headless Chromium, waiting until the page is ready.
func startHarness(ctx context.Context, root, dataDir, chrome string) (*harness, error) {
	if chrome == "" {
		chrome = headless.Find()
	}
	if chrome == "" {
		return nil, fmt.Errorf("no Chromium found: install it (Debian: apt-get install -y chromium) or pass -chrome")
	}
	profile, err := os.MkdirTemp("", "softmaxdemo-bench-profile-")
	if err != nil {
		return nil, err
	}
	h := &harness{srv: httptest.NewServer(newHandler(root, dataDir)), profile: profile}
	// gc() lets bench.js start every run from a collected heap (settle).
	opts := append(headless.Options(chrome, profile), chromedp.Flag("js-flags", "--expose-gc"))
	actx, cancelA := chromedp.NewExecAllocator(ctx, opts...)
	tctx, cancelT := chromedp.NewContext(actx)
	h.ctx = tctx
	h.cancel = func() { cancelT(); cancelA() }
	if err := chromedp.Do(tctx, chromedp.Navigate(h.srv.URL+"/peers/page.html")); err != nil {
		h.close()
		return nil, fmt.Errorf("starting %s and opening the benchmark page: %w", chrome, err)
	}
	if h.info, err = call[pageInfo](tctx, "bench.ready", time.Minute); err != nil {
		h.close()
		return nil, fmt.Errorf("the benchmark page did not get ready: %w", err)
	}
	if !h.info.LongTasks {
		h.close()
		return nil, fmt.Errorf("this browser does not report long tasks (PerformanceObserver 'longtask')")
	}
	return h, nil
}

func (h *harness) close() {
	h.cancel()
	h.srv.Close()
	os.RemoveAll(h.profile)
}

// call evaluates a JavaScript expression in the page, awaits the promise it
// returns and decodes the value into T.
func call[T any](ctx context.Context, js string, timeout time.Duration) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
}

// to92 is one measurement of the time from pressing Train to a test
// accuracy of 92%.
type to92 struct {
	Ms       float64 `json:"ms"`
	Epoch    int     `json:"epoch"`
	Accuracy float64 `json:"accuracy"`
	Reached  bool    `json:"reached"`
}

// timeTo92 trains our worker with the page's defaults runs times on pack p
// and reports how long each run took to reach 92% test accuracy.
func (h *harness) timeTo92(ctx context.Context, p dataset.PackInfo, runs int, log io.Writer) ([]to92, error) {
	arg := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	load := map[string]any{"name": p.Name, "url": "/web/data/" + p.File, "sha256": p.SHA256, "bytes": p.Bytes}
	var out []to92
	for r := range runs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res, err := call[to92](h.ctx, "bench.timeTo92("+arg(load)+", "+arg(r+1)+")", runTimeout)
		if err != nil {
			return nil, fmt.Errorf("%s pack, Train to 92%%, run %d: %w", p.Name, r+1, err)
		}
		fmt.Fprintf(log, "bench: %s pack, run %d/%d, Train to 92%%: %7.1f ms, epoch %d, accuracy %.4f\n",
			p.Name, r+1, runs, res.Ms, res.Epoch, res.Accuracy)
		out = append(out, res)
	}
	return out, nil
}

// benchPack loads pack p into the page and runs every implementation runs
// times, in an order that rotates from run to run, with seed r+1 for run
// r. It logs each result to log.
func (h *harness) benchPack(ctx context.Context, p dataset.PackInfo, runs int, log io.Writer) ([]Result, error) {
	arg := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	if _, err := call[map[string]int](h.ctx, "bench.load("+arg(p.Name)+")", 5*time.Minute); err != nil {
		return nil, fmt.Errorf("loading the %s pack's dense arrays into the page: %w", p.Name, err)
	}
	load := map[string]any{"name": p.Name, "url": "/web/data/" + p.File, "sha256": p.SHA256, "bytes": p.Bytes}
	var out []Result
	for r := range runs {
		for _, im := range rotate(impls, r) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			js := "bench.run(" + arg(map[string]any{"impl": im.ID, "pack": p.Name, "seed": r + 1, "load": load}) + ")"
			res, err := call[result](h.ctx, js, runTimeout)
			if err != nil {
				return nil, fmt.Errorf("%s pack, run %d, %s: %w", p.Name, r+1, im.Name, err)
			}
			if res.Seen != p.Train {
				return nil, fmt.Errorf("%s pack, run %d, %s: trained on %d examples, want %d", p.Name, r+1, im.Name, res.Seen, p.Train)
			}
			fmt.Fprintf(log, "bench: %s pack, run %d/%d, %-30s %9.1f ms  acc %.4f  longest task %s\n",
				p.Name, r+1, runs, im.Name, res.Millis, res.Accuracy, formatLongTask(res.LongTask))
			out = append(out, Result{Impl: im.ID, Run: r + 1, Millis: res.Millis, EvalMillis: res.EvalMs, StepsMillis: res.StepsMs,
				Accuracy: res.Accuracy, LongTask: res.LongTask})
		}
	}
	return out, nil
}
