#!/usr/bin/python3
"""Independent reference for reference.golden: the optimum of softmax
regression with L2, found by scikit-learn, on data exported by Go.

The objective is ours (softmax.Objective, bias not regularised):

    J(θ, b) = -(1/m) Σ log h(x_i)_{y_i} + (λ/2) Σ θ²

scikit-learn's multinomial LogisticRegression minimises
C·Σ_i loss_i + ½‖θ‖² (the intercept unpenalised), which is m·C times J when
C = 1/(λ·m). J is recomputed here in NumPy float64 from the fitted θ and b.

Usage (the Go test does both steps and writes reference.golden:
go test ./core/newton -run TestMatchesReference -update):

    reference.py DIR            print reference.golden for the data in DIR
    reference.py DIR --bench    time lbfgs and newton-cg instead (one BLAS thread:
                                OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1)

DIR holds NAME-x.u8 (m×784 grey levels, row-major) and NAME-y.u8 (labels) for
NAME in train, test, as written by tools/newtonref (go run ./tools/newtonref
-out DIR, which the Go test's -update flag also runs); with
--side 7 the images are averaged down to 7×7 (4×4 block means) first. With
--idx, DIR holds the four original MNIST IDX files instead (the full set:
reference.py .cache/mnist/package/data --idx --bench --runs 1).
"""
import sys
import time
import warnings

import numpy as np
from sklearn.linear_model import LogisticRegression

LAMBDAS = [1e-4, 1e-3]


def load(d, name, side):
    if "--idx" in sys.argv:
        stem = {"train": "train", "test": "t10k"}[name]
        y = np.fromfile(f"{d}/{stem}-labels-idx1-ubyte", dtype=np.uint8, offset=8).astype(int)
        x = np.fromfile(f"{d}/{stem}-images-idx3-ubyte", dtype=np.uint8, offset=16).reshape(len(y), 784) / 255.0
    else:
        y = np.fromfile(f"{d}/{name}-y.u8", dtype=np.uint8).astype(int)
        x = np.fromfile(f"{d}/{name}-x.u8", dtype=np.uint8).reshape(len(y), 784) / 255.0
    if side == 7:
        x = x.reshape(len(y), 7, 4, 7, 4).mean(axis=(2, 4)).reshape(len(y), 49)
    return x, y


def objective(x, y, theta, b, lam):
    z = x @ theta.T + b
    zmax = z.max(axis=1, keepdims=True)
    lse = zmax[:, 0] + np.log(np.exp(z - zmax).sum(axis=1))
    return np.mean(lse - z[np.arange(len(y)), y]) + lam / 2 * np.sum(theta ** 2)


def fit(x, y, lam, solver, tol):
    clf = LogisticRegression(multi_class="multinomial", C=1 / (lam * len(y)), fit_intercept=True,
                             solver=solver, tol=tol, max_iter=100000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(x, y)
    return clf


def main():
    d = sys.argv[1]
    side = 7 if "--side" in sys.argv and sys.argv[sys.argv.index("--side") + 1] == "7" else 28
    x, y = load(d, "train", side)
    xt, yt = load(d, "test", side)
    if "--bench" in sys.argv:
        runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 3
        for lam in [1e-4]:
            for solver in ["lbfgs", "newton-cg"]:
                times = []
                for _ in range(runs):
                    t0 = time.perf_counter()
                    clf = fit(x, y, lam, solver, 1e-5)
                    times.append(time.perf_counter() - t0)
                j = objective(x, y, clf.coef_, clf.intercept_, lam)
                acc = np.mean(clf.predict(xt) == yt)
                print(f"{solver} lambda {lam:g} tol 1e-5, {side}x{side}, train {len(y)}: median {sorted(times)[len(times) // 2]:.3f} s of {times}, "
                      f"J {j:.12f}, test {acc:.4f}, iterations {clf.n_iter_[0]}")
        return
    print(f"# scikit-learn optimum of J (newton-cg, tol 1e-12), {side}x{side} images, train {len(y)}, test {len(yt)}")
    print("# side lambda J test_accuracy")
    for lam in LAMBDAS:
        clf = fit(x, y, lam, "newton-cg", 1e-12)
        j = objective(x, y, clf.coef_, clf.intercept_, lam)
        acc = np.mean(clf.predict(xt) == yt)
        print(f"{side} {lam:g} {j:.15f} {acc:.6f}")


if __name__ == "__main__":
    main()
