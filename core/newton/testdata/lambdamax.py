#!/usr/bin/python3
"""Independent reference for lambdamax.golden: the two largest eigenvalues
of the explicit Hessians that core/newton's curvature tests build, found by
NumPy's numpy.linalg.eigvalsh (LAPACK's symmetric eigensolver) from matrices
exported by Go.

Usage (the Go test writes the matrices, runs this and writes the golden file:
go test ./core/newton -run TestLambdaMaxMatchesNumPy -update):

    lambdamax.py NAME.f64...     print lambdamax.golden for the matrices

Each NAME.f64 holds one symmetric n×n matrix as n² little-endian float64s,
row-major (read by matrices.py); eigvalsh reads its lower triangle. For each file the output has
one line "NAME λ_max λ_2", each number printed so that it reads back exactly.
"""
import sys

import numpy as np

from matrices import read_matrices


def main():
    print(f"# numpy.linalg.eigvalsh (NumPy {np.__version__}): the two largest eigenvalues of the")
    print("# Hessians that core/newton's curvatureCases builds; written by testdata/lambdamax.py")
    for name, a in read_matrices(sys.argv[1:]):
        w = np.linalg.eigvalsh(a, UPLO="L")
        print(f"{name} {float(w[-1])!r} {float(w[-2])!r}")


if __name__ == "__main__":
    main()
