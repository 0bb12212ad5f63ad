#!/usr/bin/python3
"""Independent reference for eigenvalues.golden: the eigenvalues of the
explicit Hessians that core/newton's tests build, found by NumPy's
numpy.linalg.eigh (LAPACK's symmetric eigensolver) from matrices exported
by Go.

Usage (the Go test writes the matrices, runs this and writes the golden file:
go test ./core/newton -run TestEigenvaluesMatchNumPy -update):

    eigh.py NAME.f64...     print eigenvalues.golden for the matrices

Each NAME.f64 holds one symmetric n×n matrix as n² little-endian float64s,
row-major; eigh reads its lower triangle, as Go's Eigenvalues does. For each
file the output has a line "case NAME n" and then the n eigenvalues in
increasing order, one per line, each printed so that it reads back exactly.
"""
import os
import sys

import numpy as np


def main():
    print(f"# numpy.linalg.eigh (NumPy {np.__version__}) eigenvalues, increasing, of the matrices")
    print("# that core/newton's viewHessians builds; written by testdata/eigh.py")
    for path in sys.argv[1:]:
        a = np.fromfile(path, dtype="<f8")
        n = int(round(len(a) ** 0.5))
        if n * n != len(a):
            sys.exit(f"{path}: {len(a)} numbers is not a square matrix")
        w = np.linalg.eigh(a.reshape(n, n), UPLO="L")[0]
        name = os.path.basename(path).removesuffix(".f64")
        print(f"case {name} {n}")
        for x in w:
            print(repr(float(x)))


if __name__ == "__main__":
    main()
