// Bench trains the same softmax model in one headless Chromium with our
// training worker (web/worker.js running web/app.wasm) and with the peers a
// web developer would reach for: TensorFlow.js 4.22.0 (wasm backend with
// SIMD, and cpu backend; a manual optimizer.minimize loop and model.fit)
// and ConvNetJS 0.3.0. The model is 784→10 softmax with cross-entropy,
// plain minibatch SGD, B = 100, α = 0.5, zero initial weights, λ = 0, one
// epoch.
//
// Usage, from the repository root after `make site` and
// `cd tools/bench/peers && npm ci`:
//
//	go run ./tools/bench [-runs 5] [-md results.md] [-data-full] [-packs default,full]
//
// It benchmarks the default pack and, if web/data/full.mnpk exists (make
// data-full; -data-full runs that), the full pack. The implementations
// take turns in an order that rotates from run to run, each run with a
// fresh worker or model and the run index as the seed. It prints the
// machine (its CPU model, family and model number: tools/internal/cpuinfo)
// and browser, one table per pack (training ms per epoch: median,
// min, max; examples/s; test accuracy; the longest main-thread task; the
// ratio to ours), and, last,
//
//	speedup vs best peer (full pack): N.Nx
//
// Progress goes to stderr. The peers' inputs are written once, dense, to a
// temporary directory served beside the repository; preparing data is
// never timed.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"softmaxdemo/core/dataset"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "bench:", err)
		}
		os.Exit(1)
	}
}

// options are the command-line flags.
type options struct {
	runs     int
	md       string
	dataFull bool
	packs    []string
	root     string
	chrome   string
	timeout  time.Duration
	only     []string
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.runs, "runs", 5, "runs of each implementation per pack")
	fs.StringVar(&o.md, "md", "", "also write the results as Markdown to this `file`")
	fs.BoolVar(&o.dataFull, "data-full", false, "run `make data-full` if web/data/full.mnpk is missing")
	packs := fs.String("packs", "default,full", "comma-separated packs to benchmark")
	only := fs.String("only", "", "comma-separated implementation ids to run (ours, tfjs-wasm-loop, tfjs-wasm-fit, tfjs-cpu-loop, tfjs-cpu-fit, convnetjs); default all")
	fs.StringVar(&o.root, "root", ".", "the repository `directory`")
	fs.StringVar(&o.chrome, "chrome", "", "Chromium `binary` (default: $CHROME, then chromium on $PATH)")
	fs.DurationVar(&o.timeout, "timeout", time.Hour, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.runs < 1 {
		return o, fmt.Errorf("-runs %d: want at least 1", o.runs)
	}
	for _, p := range strings.Split(*packs, ",") {
		if p = strings.TrimSpace(p); p != "" {
			o.packs = append(o.packs, p)
		}
	}
	for _, id := range strings.Split(*only, ",") {
		if id = strings.TrimSpace(id); id == "" {
			continue
		}
		if !slices.ContainsFunc(impls, func(im Impl) bool { return im.ID == id }) {
			return o, fmt.Errorf("-only: unknown implementation %q", id)
		}
		o.only = append(o.only, id)
	}
	return o, nil
}

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if len(o.only) > 0 {
		impls = slices.DeleteFunc(impls, func(im Impl) bool { return !slices.Contains(o.only, im.ID) })
	}
	root, err := filepath.Abs(o.root)
	if err != nil {
		return err
	}
	if err := checkBuilt(root); err != nil {
		return err
	}
	manifest, err := readManifest(root)
	if err != nil {
		return err
	}
	packs, notes, err := choosePacks(root, manifest, o, stderr)
	if err != nil {
		return err
	}

	dir, err := os.MkdirTemp("", "softmaxdemo-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for _, p := range packs {
		fmt.Fprintf(stderr, "bench: writing dense arrays of the %s pack\n", p.Name)
		if err := writeDense(filepath.Join(root, "web", "data", p.File), filepath.Join(dir, p.Name)); err != nil {
			return err
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	h, err := startHarness(ctx, root, dir, o.chrome)
	if err != nil {
		return err
	}
	defer h.close()

	rep := Report{
		Header: machineHeader(h.info, time.Now()),
		Runs:   o.runs,
		Notes:  notes,
	}
	fmt.Fprint(stdout, rep.headerText())
	for _, p := range packs {
		results, err := h.benchPack(ctx, p, o.runs, stderr)
		if err != nil {
			return err
		}
		rep.Packs = append(rep.Packs, summarize(p, results))
	}
	var to92line string
	if last := packs[len(packs)-1]; slices.Contains(o.only, "ours") || len(o.only) == 0 {
		runs, err := h.timeTo92(ctx, last, o.runs, stderr)
		if err != nil {
			return err
		}
		to92line = to92Summary(last.Name, runs)
	}
	if o.md != "" {
		md := rep.Markdown()
		if to92line != "" {
			md += "\n" + to92line + "\n"
		}
		if err := os.WriteFile(o.md, []byte(md), 0o644); err != nil {
			return err
		}
	}
	if to92line != "" {
		fmt.Fprintln(stdout, to92line)
	}
	fmt.Fprint(stdout, rep.bodyText())
	return nil
}

// to92Summary describes the runs of timeTo92 in one line.
func to92Summary(pack string, runs []to92) string {
	var ms []float64
	epochs := make([]string, 0, len(runs))
	for _, r := range runs {
		if r.Reached {
			ms = append(ms, r.Ms)
			epochs = append(epochs, strconv.Itoa(r.Epoch))
		} else {
			epochs = append(epochs, "not in 5")
		}
	}
	if len(ms) == 0 {
		return fmt.Sprintf("pressing Train to 92%% test accuracy (%s pack, page defaults): not reached in 5 epochs in any of %d runs", pack, len(runs))
	}
	return fmt.Sprintf("pressing Train to 92%% test accuracy (%s pack, page defaults): median %.0f ms over the %d of %d runs that reached it (epochs: %s)",
		pack, median(ms), len(ms), len(runs), strings.Join(epochs, ", "))
}

// checkBuilt reports what to run if the worker or the peers are missing.
func checkBuilt(root string) error {
	for _, f := range []string{"web/worker.js", "web/app.wasm", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			return fmt.Errorf("%s is missing: run `make site` first", f)
		}
	}
	for _, f := range []string{tfjsMin, tfjsWasmMin, convnetMin} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			return fmt.Errorf("%s is missing: run `cd %s && npm ci` first", f, peersDir)
		}
	}
	return nil
}

// peersDir holds the benchmark page (page.html, bench.js) and the npm
// package that installs the peers into its node_modules.
const peersDir = "tools/bench/peers"

// The peers' scripts that page.html loads.
const (
	tfjsMin     = peersDir + "/node_modules/@tensorflow/tfjs/dist/tf.min.js"
	tfjsWasmMin = peersDir + "/node_modules/@tensorflow/tfjs-backend-wasm/dist/tf-backend-wasm.min.js"
	convnetMin  = peersDir + "/node_modules/convnetjs/build/convnet-min.js"
)

func readManifest(root string) (*dataset.Manifest, error) {
	b, err := os.ReadFile(filepath.Join(root, "web", "data", "manifest.json"))
	if err != nil {
		return nil, err
	}
	var m dataset.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("web/data/manifest.json: %w", err)
	}
	if m.Version != dataset.ManifestVersion {
		return nil, fmt.Errorf("web/data/manifest.json: version %d, want %d", m.Version, dataset.ManifestVersion)
	}
	return &m, nil
}

// choosePacks returns the packs to benchmark, in order (the full pack last,
// so the last line of the report is about it), and notes for the report.
// A missing full pack is made with `make data-full` if o.dataFull is set
// and skipped with a note otherwise.
func choosePacks(root string, m *dataset.Manifest, o options, stderr io.Writer) ([]dataset.PackInfo, []string, error) {
	var packs []dataset.PackInfo
	var notes []string
	for _, name := range []string{"default", "full"} {
		if !slices.Contains(o.packs, name) {
			continue
		}
		p, ok := m.Find(name)
		if !ok {
			return nil, nil, fmt.Errorf("web/data/manifest.json has no %s pack", name)
		}
		path := filepath.Join(root, "web", "data", p.File)
		if _, err := os.Stat(path); err != nil && name == "full" {
			if !o.dataFull {
				note := "the full pack (web/data/full.mnpk) is missing: run `make data-full` or pass -data-full; only the default pack was benchmarked"
				fmt.Fprintln(stderr, "bench:", note)
				notes = append(notes, note)
				continue
			}
			fmt.Fprintln(stderr, "bench: web/data/full.mnpk is missing; running make data-full")
			cmd := exec.Command("make", "data-full")
			cmd.Dir, cmd.Stdout, cmd.Stderr = root, stderr, stderr
			if err := cmd.Run(); err != nil {
				return nil, nil, fmt.Errorf("make data-full: %w", err)
			}
			if m, err = readManifest(root); err != nil {
				return nil, nil, err
			}
			if p, ok = m.Find(name); !ok {
				return nil, nil, fmt.Errorf("web/data/manifest.json has no %s pack after make data-full", name)
			}
		} else if err != nil {
			return nil, nil, err
		}
		packs = append(packs, p)
	}
	for _, name := range o.packs {
		if name != "default" && name != "full" {
			return nil, nil, fmt.Errorf("-packs: unknown pack %q (want default, full)", name)
		}
	}
	if len(packs) == 0 {
		return nil, nil, errors.New("no pack to benchmark")
	}
	return packs, notes, nil
}
