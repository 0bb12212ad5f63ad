#!/usr/bin/python3
"""Independent reference for eigenvalues.golden: the eigenvalues of the
explicit Hessians that core/newton's tests build, found by NumPy's
numpy.linalg.eigh (LAPACK's symmetric eigensolver) from matrices exported
by Go.

Usage (the Go test writes the matrices, runs this and writes the golden file:
go test ./core/newton -run TestEigenvaluesMatchNumPy -update):

    eigh.py NAME.f64...     print eigenvalues.golden for the matrices

Each NAME.f64 holds one symmetric n×n matrix as n² little-endian float64s,
row-major (read by matrices.py); eigh reads its lower triangle, as Go's Eigenvalues does. For each
file the output has a line "case NAME n" and then the n eigenvalues in
increasing order, one per line, each printed so that it reads back exactly.
"""
import sys

import numpy as np

from matrices import read_matrices


def main():
    print(f"# numpy.linalg.eigh (NumPy {np.__version__}) eigenvalues, increasing, of the matrices")
    print("# that core/newton's viewHessians builds; written by testdata/eigh.py")
    for name, a in read_matrices(sys.argv[1:]):
        w = np.linalg.eigh(a, UPLO="L")[0]
        print(f"case {name} {len(a)}")
        for x in w:
            print(repr(float(x)))


if __name__ == "__main__":
    main()
