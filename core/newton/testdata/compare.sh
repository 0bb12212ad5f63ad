#!/bin/bash
# Interleaves Newton's method (tools/train natively, and the benchmark
# compiled to WebAssembly under Node) with scikit-learn's lbfgs and
# newton-cg on one BLAS thread, round by round, so that a busy machine slows
# them all alike: the default pack at λ = 1e-4 to ‖∇J‖ ≤ 1e-5 (tol 1e-5 for
# scikit-learn). FULL=1 uses the full 60,000/10,000 IDX files instead
# (make mnist-idx), natively only. ROUNDS=3 by default.
#
#	core/newton/testdata/compare.sh
#	FULL=1 ROUNDS=1 core/newton/testdata/compare.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
ROUNDS=${ROUNDS:-3}
IDX=.cache/mnist/package/data
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/train" ./tools/train
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
if [ "${FULL:-}" = 1 ]; then
	go_args=(-idx "$IDX") py_args=("$IDX" --idx)
else
	go run ./tools/newtonref -out "$dir"
	GOOS=js GOARCH=wasm go test -c -o "$dir/newton.wasm" ./core/newton
	go_args=() py_args=("$dir")
fi
for r in $(seq "$ROUNDS"); do
	echo "round $r, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "go native: $("$dir/train" "${go_args[@]}" -method newton -l2 1e-4 | tail -1)"
	if [ "${FULL:-}" != 1 ]; then
		echo "go wasm/node: $(cd core/newton && "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" "$dir/newton.wasm" \
			-test.run '^$' -test.bench 'Newton$/^default$/^truncated$' -test.benchtime 1x | grep Benchmark)"
	fi
	/usr/bin/python3 core/newton/testdata/reference.py "${py_args[@]}" --bench --runs 1
done
