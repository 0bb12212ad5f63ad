"""The matrices that core/newton's tests export for eigh.py and
lambdamax.py: NAME.f64 holds one symmetric n×n matrix as n² little-endian
float64s, row-major."""
import os
import sys

import numpy as np


def read_matrices(paths):
    """Yield (NAME, the n×n matrix) for each NAME.f64 of paths in turn;
    exit naming a file whose numbers are not a square matrix."""
    for path in paths:
        a = np.fromfile(path, dtype="<f8")
        n = int(round(len(a) ** 0.5))
        if n * n != len(a):
            sys.exit(f"{path}: {len(a)} numbers is not a square matrix")
        yield os.path.basename(path).removesuffix(".f64"), a.reshape(n, n)
