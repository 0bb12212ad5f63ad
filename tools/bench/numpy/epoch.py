#!/usr/bin/python3
"""NumPy reference for the native epoch benchmark (core/train BenchmarkEpoch).

One epoch of minibatch SGD on softmax regression over the 60,000 MNIST
training images, written the natural NumPy way: dense float32 X (pixels/255),
W of shape 10x784 and b of 10 starting at zero, B = 100, alpha = 0.5,
lambda = 1e-4 on W only (as the Go trainer's defaults), a fresh shuffle per
epoch, and per batch

    Z = Xb @ W.T + b; stable softmax; loss; G = (P - Y).T @ Xb / B + lambda W

followed by the update. The matrix products go to the BLAS NumPy is linked
against (Debian: OpenBLAS through libblas.so.3). Each thread count in
--threads trains a fresh model for --epochs epochs, timing every epoch with
time.perf_counter (evaluation excluded), and prints the first epoch, the
median of the later ones, and the test accuracy after epochs 1 and 3.

Run from the repository root, with the environment's OpenBLAS overrides off:

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 tools/bench/numpy/epoch.py

The thread count is set at run time with openblas_set_num_threads, so one
run compares 1 and 2 threads; OPENBLAS_NUM_THREADS=1 in the environment
gives the same single-threaded figure.
"""
import argparse
import ctypes
import ctypes.util
import os
import platform
import statistics
import sys
import time

import numpy as np


def read_idx(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = int.from_bytes(data[0:4], "big")
    dims = magic & 0xFF
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims).reshape(shape)


def load(folder, name):
    x = read_idx(os.path.join(folder, name + "-images-idx3-ubyte"))
    y = read_idx(os.path.join(folder, name + "-labels-idx1-ubyte"))
    return x.reshape(len(x), -1).astype(np.float32) / np.float32(255), y.astype(np.intp)


def openblas():
    """The OpenBLAS library NumPy has loaded, or None."""
    for name in ("libopenblas.so.0", ctypes.util.find_library("openblas")):
        if not name:
            continue
        try:
            lib = ctypes.CDLL(name)
            lib.openblas_get_config.restype = ctypes.c_char_p
            lib.openblas_get_corename.restype = ctypes.c_char_p
            return lib
        except (OSError, AttributeError):
            pass
    return None


def blas_info(lib):
    if lib is None:
        return "BLAS: not OpenBLAS (or not found); threads not controlled"
    return "BLAS: %s; core %s; %d threads available" % (
        lib.openblas_get_config().decode(), lib.openblas_get_corename().decode(),
        lib.openblas_get_num_threads())


def accuracy(W, b, X, y):
    return float(np.mean(np.argmax(X @ W.T + b, axis=1) == y))


def epoch(W, b, X, y, order, B, alpha, lam):
    """One pass of minibatch SGD in place; returns the mean batch loss."""
    total = 0.0
    rows = np.arange(B)
    for s in range(0, len(order), B):
        idx = order[s:s + B]
        Xb, yb = X[idx], y[idx]
        n = len(idx)
        Z = Xb @ W.T + b
        Z -= Z.max(axis=1, keepdims=True)
        P = np.exp(Z)
        S = P.sum(axis=1, keepdims=True)
        total += float(np.log(S).sum() - Z[rows[:n], yb].sum())
        P /= S
        P[rows[:n], yb] -= 1  # P - Y
        G = P.T @ Xb
        G *= np.float32(1 / n)
        G += np.float32(lam) * W
        W -= np.float32(alpha) * G
        b -= np.float32(alpha / n) * P.sum(axis=0)
    return total / len(order)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--idx", default=".cache/mnist/package/data", help="folder with the MNIST IDX files")
    ap.add_argument("--threads", default="1,2", help="comma-separated BLAS thread counts")
    ap.add_argument("--epochs", type=int, default=7, help="epochs per thread count (at least 5)")
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--lr", type=float, default=0.5)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()

    X, y = load(a.idx, "train")
    Xt, yt = load(a.idx, "t10k")
    lib = openblas()
    print("python %s, numpy %s, %s" % (platform.python_version(), np.__version__, blas_info(lib)))
    print("env: OPENBLAS_CORETYPE=%s OPENBLAS_L2_SIZE=%s OPENBLAS_NUM_THREADS=%s" % tuple(
        os.environ.get(k, "(unset)") for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS")))
    print("train %s %s, test %s; B %d, alpha %g, lambda %g, zeros, %d epochs" % (
        X.shape, X.dtype, Xt.shape, a.batch, a.lr, a.l2, a.epochs))

    for threads in [int(t) for t in a.threads.split(",")]:
        if lib is not None:
            lib.openblas_set_num_threads(threads)
            threads = lib.openblas_get_num_threads()
        rng = np.random.default_rng(a.seed)
        W = np.zeros((10, X.shape[1]), dtype=np.float32)
        b = np.zeros(10, dtype=np.float32)
        times, acc = [], {}
        for e in range(1, a.epochs + 1):
            order = rng.permutation(len(X))
            t0, c0 = time.perf_counter(), time.process_time()
            loss = epoch(W, b, X, y, order, a.batch, a.lr, a.l2)
            times.append(time.perf_counter() - t0)
            cpu = time.process_time() - c0  # above the wall time if BLAS used more than one thread
            acc[e] = accuracy(W, b, Xt, yt)
            print("  threads %d  epoch %d  %7.1f ms  (cpu %7.1f ms)  loss %.4f  test %.2f%%" % (
                threads, e, 1e3 * times[-1], 1e3 * cpu, loss, 100 * acc[e]))
        assert W.dtype == np.float32 and np.isfinite(W).all()
        print("threads %d: first epoch %.1f ms, later epochs median %.1f ms (min %.1f, max %.1f, n %d), "
              "all median %.1f ms; test accuracy %.2f%% after 1 epoch, %.2f%% after 3" % (
                  threads, 1e3 * times[0], 1e3 * statistics.median(times[1:]), 1e3 * min(times[1:]),
                  1e3 * max(times[1:]), len(times) - 1, 1e3 * statistics.median(times),
                  100 * acc[1], 100 * acc.get(3, float("nan"))))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
