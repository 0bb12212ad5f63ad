// Command kernelprof shows where an epoch's time goes in the worker's
// WebAssembly SIMD kernels (web/kernels.wat), phase by phase: it assembles
// variants of the batch gradient with phases left out (the softmax's
// exponentials, the scatter of the gradient, everything after the forward
// pass), runs each over a pack's training images in batches of 100 under
// Node's V8, interleaved round by round, and prints each variant's median
// and the phases' shares by difference. It needs wat2wasm (wabt) and node.
//
//	go run ./tools/kernelprof -pack web/data/default.mnpk -rounds 40
//
// The full kernel is the one the worker runs; the variants compute
// nonsense and exist only to be timed.
//
// With -vs OTHER.wat it times the whole kernel against another source
// of the kernels instead, interleaved round by round, and prints the
// ratio of their medians.
//
//	go run ./tools/kernelprof -deskew -vs /tmp/before.wat
//
// -batch N -inorder times calls of N examples taken in order, as a
// full-batch pass takes a shard's (8 shards of the default pack's 10,000
// images: -batch 1250 -inorder).
//
// -hv times Newton's H·v kernel instead, one pass over the images in
// calls of -batch examples in order, at a random vector and random
// probabilities (with -vs against another source of the kernels).
//
//	go run ./tools/kernelprof -hv -deskew -batch 1250
//
// With -together N it times the kernel alone, then in N Node processes
// at once, each on its own copy of the data, as the page's workers run
// their shards: how much N cores of this machine give a kernel that runs
// from memory and keeps the vector units busy.
//
//	go run ./tools/kernelprof -pack web/data/full.mnpk -together 2
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"softmaxdemo/core/dataset"
	"softmaxdemo/core/digit"
	"softmaxdemo/core/softmax"
)

const harness = `
const fs = require("fs");
const [list, data, B, rounds, inOrder, kernel] = process.argv.slice(2);
const buf = fs.readFileSync(data);
const m = buf.readUInt32LE(0), nnz = buf.readUInt32LE(4);
let off = 8;
const mem = new WebAssembly.Memory({ initial: Math.ceil((nnz * 16 + m * 40 + 4e6) / 65536) + 16 });
const u8 = new Uint8Array(mem.buffer);
let top = 1024;
const place = (bytes) => { top = (top + 15) & ~15; const at = top; u8.set(bytes, at); top += bytes.length; return at; };
const alloc = (n) => { top = (top + 15) & ~15; const at = top; top += n; return at; };
const start = place(buf.subarray(off, off + 4 * (m + 1))); off += 4 * (m + 1);
const index = place(buf.subarray(off, off + 2 * nnz)); off += 2 * nnz + (nnz % 2) * 2;
const value = place(buf.subarray(off, off + 4 * nnz)); off += 4 * nnz;
const labels = place(buf.subarray(off, off + m));
// The pairs and singles of softmax.Block: {u16 j, f32 v1, f32 v2} and {u16 j, f32 v}.
const st = new Int32Array(mem.buffer, start, m + 1), ix = new Uint16Array(mem.buffer, index, nnz), vl = new Float32Array(mem.buffer, value, nnz);
let np = 0, ns = 0;
const paired = (t, end) => t + 1 < end && ix[t + 1] === ix[t] + 1;
for (let i = 0; i < m; i++) for (let t = st[i]; t < st[i + 1]; ) if (paired(t, st[i + 1])) { np++; t += 2; } else { ns++; t++; }
const pstart = alloc(4 * (m + 1)), sstart = alloc(4 * (m + 1)), pairs = alloc(12 * np + 16), singles = alloc(8 * ns + 16);
{
  const PS = new Int32Array(mem.buffer, pstart, m + 1), SS = new Int32Array(mem.buffer, sstart, m + 1), dv = new DataView(mem.buffer);
  let p = 0, s = 0;
  for (let i = 0; i < m; i++) {
    PS[i] = p; SS[i] = s;
    for (let t = st[i]; t < st[i + 1]; ) {
      if (paired(t, st[i + 1])) {
        dv.setUint16(pairs + 12 * p, ix[t], true); dv.setFloat32(pairs + 12 * p + 4, vl[t], true); dv.setFloat32(pairs + 12 * p + 8, vl[t + 1], true);
        p++; t += 2;
      } else {
        dv.setUint16(singles + 8 * s, ix[t], true); dv.setFloat32(singles + 8 * s + 4, vl[t], true);
        s++; t++;
      }
    }
  }
  PS[m] = p; SS[m] = s;
}
const d = 784, K = 10;
const w = alloc(d * K * 4), b = alloc(K * 4), gw = alloc(d * K * 4), gb = alloc(K * 4), out = alloc(16 * m);
const batch = alloc(4 * m);
const order = new Int32Array(mem.buffer, batch, m);
let seed = 1;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
for (let i = 0; i < m; i++) order[i] = i;
if (inOrder !== "1") for (let i = m - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
const W = new Float32Array(mem.buffer, w, d * K);
for (let i = 0; i < W.length; i++) W[i] = (rnd() - 0.5) * 0.05;
// For H·v: a vector and probabilities μ (float64), a row of ten a pixel.
const vec = alloc((d + 1) * K * 8), hvOut = alloc((d + 1) * K * 8), mu = alloc(m * K * 8);
{
  const V = new Float64Array(mem.buffer, vec, (d + 1) * K), MU = new Float64Array(mem.buffer, mu, m * K);
  for (let i = 0; i < V.length; i++) V[i] = rnd() - 0.5;
  for (let i = 0; i < m; i++) {
    let s = 0;
    for (let c = 0; c < K; c++) s += (MU[i * K + c] = rnd());
    for (let c = 0; c < K; c++) MU[i * K + c] /= s;
  }
}
const names = list.split(",");
const grads = names.map((p) => {
  const e = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(p)), { env: { mem } }).exports;
  if (kernel !== "hv") return e.grad;
  // Calls of B examples taken in order, as a pass takes a shard's.
  return (w, b, gw, gb, pstart, pairs, sstart, singles, labels, at, n, d) =>
    e.hv(vec, hvOut, mu + 20 * (at - batch), pstart + (at - batch), pairs, sstart + (at - batch), singles, n, d);
});
const times = names.map(() => []);
for (let r = 0; r < +rounds; r++) {
  for (let k = 0; k < grads.length; k++) {
    const g = grads[(k + r) % grads.length], t = times[(k + r) % grads.length];
    const t0 = performance.now();
    for (let p = 0; p < m; p += +B) {
      if (g(w, b, gw, gb, pstart, pairs, sstart, singles, labels, batch + 4 * p, Math.min(+B, m - p), d, out) >= 0) throw new Error("bad pixel");
    }
    t.push(performance.now() - t0);
  }
}
console.log(JSON.stringify(times.map((t) => { t.sort((a, b) => a - b); return t[t.length >> 1]; })));
`

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "kernelprof:", err)
		os.Exit(1)
	}
}

func run() error {
	pack := flag.String("pack", "web/data/default.mnpk", "the pack whose training images an epoch runs over")
	wat := flag.String("wat", "web/kernels.wat", "the kernels' source")
	rounds := flag.Int("rounds", 40, "epochs of each variant, interleaved")
	deskew := flag.Bool("deskew", false, "straighten the images first, as the page does by default")
	together := flag.Int("together", 0, "also run the kernel in this many processes at once")
	batch := flag.Int("batch", 100, "examples per call of the kernel")
	inOrder := flag.Bool("inorder", false, "take the examples in order, as a full-batch pass does, not shuffled as an epoch of SGD does")
	vs := flag.String("vs", "", "time the whole kernel against this other source of the kernels, interleaved, instead of the phases")
	hv := flag.Bool("hv", false, "time Newton's H·v kernel (hv) over the images in order, in calls of -batch, instead of the batch gradient; with -vs, against another source")
	flag.Parse()
	src, err := os.ReadFile(*wat)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(*pack)
	if err != nil {
		return err
	}
	p, err := dataset.Decode(b)
	if err != nil {
		return err
	}
	set := p.Train
	if *deskew {
		set = digit.DeskewSet(set)
	}
	dir, err := os.MkdirTemp("", "kernelprof")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	data := filepath.Join(dir, "pack.bin")
	if err := os.WriteFile(data, csr(softmax.FromSet[float32](set)), 0o644); err != nil {
		return err
	}
	variants, err := cut(string(src))
	if err != nil {
		return err
	}
	kernel := "grad"
	if *hv {
		kernel, *inOrder = "hv", true
		variants = variants[:1]
	}
	if *vs != "" {
		other, err := os.ReadFile(*vs)
		if err != nil {
			return err
		}
		variants = []variant{{"the kernel", string(src)}, {*vs, string(other)}}
	}
	var paths []string
	for i, v := range variants {
		w, o := filepath.Join(dir, fmt.Sprint(i, ".wat")), filepath.Join(dir, fmt.Sprint(i, ".wasm"))
		if err := os.WriteFile(w, []byte(v.src), 0o644); err != nil {
			return err
		}
		if out, err := exec.Command("wat2wasm", w, "-o", o).CombinedOutput(); err != nil {
			return fmt.Errorf("wat2wasm %s: %v\n%s", v.name, err, out)
		}
		paths = append(paths, o)
	}
	js := filepath.Join(dir, "harness.js")
	if err := os.WriteFile(js, []byte(harness), 0o644); err != nil {
		return err
	}
	cpu := cpuModel()
	if *together > 0 {
		return scaling(js, paths[0], data, *rounds, *together, set.Len(), *pack, cpu)
	}
	order := map[bool]string{true: "1", false: "0"}[*inOrder]
	ms, err := node(js, paths, data, *rounds, *batch, order, kernel)
	if err != nil {
		return err
	}
	what := "one epoch's batch gradient"
	if *hv {
		what = "one pass of H·v"
	}
	fmt.Printf("%s (B = %d, %s) over %d images (%d non-zero pixels) of %s, %s, medians of %d under Node's V8 on %s:\n",
		what, *batch, map[bool]string{true: "in order", false: "shuffled"}[*inOrder],
		set.Len(), len(set.Index), filepath.Base(*pack), map[bool]string{true: "straightened", false: "raw"}[*deskew], *rounds, cpu)
	full := ms[0]
	for i, v := range variants {
		fmt.Printf("  %-34s %7.2f ms\n", v.name, ms[i])
	}
	if *vs != "" {
		fmt.Printf("%s takes %.3f× the time of %s\n", *wat, ms[0]/ms[1], *vs)
		return nil
	}
	if *hv {
		return nil
	}
	fmt.Printf("by difference: the forward pass and its bounds check %.2f ms (%.0f%%), the softmax %.2f ms (%.0f%%, of which the exponentials %.2f ms), the scatter of the gradient %.2f ms (%.0f%%)\n",
		ms[3], 100*ms[3]/full, ms[2]-ms[3], 100*(ms[2]-ms[3])/full, full-ms[1], full-ms[2], 100*(full-ms[2])/full)
	return nil
}

// node runs the harness over the kernels at paths and returns each one's
// median epoch in milliseconds.
func node(js string, paths []string, data string, rounds, batch int, inOrder, kernel string) ([]float64, error) {
	out, err := exec.Command("node", js, strings.Join(paths, ","), data, fmt.Sprint(batch), fmt.Sprint(rounds), inOrder, kernel).Output()
	if err != nil {
		return nil, fmt.Errorf("node: %v", err)
	}
	var ms []float64
	for _, f := range strings.Split(strings.Trim(strings.TrimSpace(string(out)), "[]"), ",") {
		var v float64
		fmt.Sscan(f, &v)
		ms = append(ms, v)
	}
	if len(ms) != len(paths) {
		return nil, fmt.Errorf("node printed %q", out)
	}
	return ms, nil
}

// scaling times the kernel in one process, then in n at once, and prints
// the medians and what n processes give together against one.
func scaling(js, kernel, data string, rounds, n, images int, pack, cpu string) error {
	alone, err := node(js, []string{kernel}, data, rounds, 100, "0", "grad")
	if err != nil {
		return err
	}
	each := make([]float64, n)
	errs := make(chan error, n)
	for i := range n {
		go func() {
			ms, err := node(js, []string{kernel}, data, rounds, 100, "0", "grad")
			if err == nil {
				each[i] = ms[0]
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			return err
		}
	}
	slowest := slices.Max(each)
	fmt.Printf("one epoch's batch gradient (B = 100) over %d images of %s, medians of %d under Node's V8 on %s (%d CPUs):\n",
		images, filepath.Base(pack), rounds, cpu, runtime.NumCPU())
	fmt.Printf("  alone                %7.2f ms\n", alone[0])
	for i, v := range each {
		fmt.Printf("  %d at once, process %d %7.2f ms\n", n, i+1, v)
	}
	fmt.Printf("%d processes at once do %.2f× the work of one in the same time (%d× would be perfect scaling)\n",
		n, float64(n)*alone[0]/slowest, n)
	return nil
}

type variant struct{ name, src string }

// cut returns the kernel and the variants with phases removed.
func cut(src string) ([]variant, error) {
	between := func(s, from, to string) (string, error) {
		i, j := strings.Index(s, from), strings.Index(s, to)
		if i < 0 || j < i {
			return "", fmt.Errorf("web/kernels.wat has changed: %q then %q not found", from, to)
		}
		return s[:i] + s[j:], nil
	}
	grad := src[strings.Index(src, `(func (export "grad")`):]
	grad = grad[:strings.Index(grad, "\n  ;; update is")]
	noExp := strings.ReplaceAll(grad, "(call $exp10 ", "(call $noexp10 ")
	noScatter, err := between(grad, ";; gw[j] += v·d", ";; the next example")
	if err != nil {
		return nil, err
	}
	fwdOnly, err := between(grad, ";; m = max z.", ";; the next example")
	if err != nil {
		return nil, err
	}
	with := func(g string) string {
		return strings.Replace(src, grad, g, 1)
	}
	noExpSrc := strings.Replace(with(noExp), "  ;; probs is four", "  (func $noexp10 (param v128 v128 v128 v128 v128) (result v128 v128 v128 v128 v128)\n"+
		"    (local.get 0) (local.get 1) (local.get 2) (local.get 3) (local.get 4))\n\n  ;; probs is four", 1)
	return []variant{
		{"the kernel", src},
		{"without the exponentials", noExpSrc},
		{"without the scatter", with(noScatter)},
		{"the forward pass alone", with(fwdOnly)},
	}, nil
}

// csr writes x as the harness reads it: counts, starts, indices (padded
// to four bytes), values, labels.
func csr(x *softmax.Examples[float32]) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, uint32(x.Len()))
	binary.Write(&b, binary.LittleEndian, uint32(len(x.Index)))
	binary.Write(&b, binary.LittleEndian, x.Start)
	binary.Write(&b, binary.LittleEndian, x.Index)
	if len(x.Index)%2 == 1 {
		binary.Write(&b, binary.LittleEndian, uint16(0))
	}
	binary.Write(&b, binary.LittleEndian, x.Value)
	b.Write(x.Labels)
	return b.Bytes()
}

// cpuModel is /proc/cpuinfo's model name, or GOARCH.
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}
