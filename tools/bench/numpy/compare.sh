#!/usr/bin/env bash
# One comparison of one epoch over the 60,000 MNIST training images at
# B = 100: the Go core natively, the same code as WebAssembly under Node,
# and tools/bench/numpy/epoch.py with 1 and 2 OpenBLAS threads. The three
# run interleaved, ROUNDS times, so that a noisy shared machine slows them
# alike; take the medians and their ratios from one run of this script.
#
#   tools/bench/numpy/compare.sh [ROUNDS]      # from the repository root
#
# Needs web/data/full.mnpk (make data-full), the IDX files in
# .cache/mnist/package/data (make mnist-idx), /usr/bin/python3 with NumPy,
# and node for the WebAssembly rows.
set -euo pipefail
rounds=${1:-5}
cd "$(dirname "$0")/../../.."
out=${OUT:-$(mktemp -d)}
go test -c -o "$out/train.test" ./core/train/
GOOS=js GOARCH=wasm go test -c -o "$out/train.wasm" ./core/train/
exec_wasm="$(go env GOROOT)/lib/wasm/go_js_wasm_exec"
bench='Epoch/pack=full/batch=100$'
for r in $(seq "$rounds"); do
	echo "round $r" >&2
	(cd core/train && "$out/train.test" -test.run '^$' -test.bench "$bench" -test.benchmem) >>"$out/native.txt"
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 tools/bench/numpy/epoch.py --epochs 7 >>"$out/numpy.txt"
	if command -v node >/dev/null; then
		(cd core/train && "$exec_wasm" "$out/train.wasm" -test.run '^$' -test.bench "$bench" -test.benchmem) >>"$out/wasm.txt"
	fi
done
echo "results in $out" >&2
for f in native wasm; do
	[ -s "$out/$f.txt" ] && echo "== $f" && grep '^Benchmark' "$out/$f.txt"
done
echo "== numpy"
grep -E '^(python|env)' "$out/numpy.txt" | sort -u
# Medians over the rounds (NumPy: over every epoch of every round), and the
# ratios to the native steady-state epoch.
/usr/bin/python3 - "$out" <<'PY'
import re, statistics, sys, os
out = sys.argv[1]
med = {}
for f in ("native", "wasm"):
    p = os.path.join(out, f + ".txt")
    if not os.path.exists(p):
        continue
    for line in open(p):
        m = re.match(r"Benchmark(\w+)/\S+\s+\d+\s+\d+ ns/op.*?([\d.]+) ms/epoch", line)
        if m:
            med.setdefault("%s %s" % (f, m.group(1)), []).append(float(m.group(2)))
for line in open(os.path.join(out, "numpy.txt")):
    m = re.match(r"\s+threads (\d+)\s+epoch (\d+)\s+([\d.]+) ms", line)
    if m:
        kind = "FirstEpoch" if m.group(2) == "1" else "Epoch"
        med.setdefault("numpy-%st %s" % (m.group(1), kind), []).append(float(m.group(3)))
base = statistics.median(med["native Epoch"])
print("%-22s %8s %4s %8s" % ("median of", "ms", "n", "/native"))
for k in sorted(med):
    v = statistics.median(med[k])
    print("%-22s %8.1f %4d %8.2f" % (k, v, len(med[k]), v / base))
PY
