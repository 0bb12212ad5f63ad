#!/usr/bin/python3
"""Independent reference for trajectory.golden: full-batch gradient descent
on softmax regression, written directly from the lecture notes in NumPy
float64, on a tiny data set defined by formulas (see tinyData in
trainer_golden_test.go, which builds the same one).

Run: /usr/bin/python3 core/train/testdata/trajectory.py > core/train/testdata/trajectory.golden
"""
import numpy as np

N, D, K = 20, 6, 10
ALPHA, LAMBDA, STEPS = 0.5, 0.01, 20

X = np.zeros((N, D))
y = np.zeros(N, dtype=int)
for i in range(N):
    for j in range(D):
        if (i + j) % 3 != 0:
            X[i, j] = ((i * 7 + j * 3) % 11 + 1) / 12
    y[i] = (i * 3) % K

theta = np.zeros((K, D))
b = np.zeros(K)
Y = np.eye(K)[y]
print("# full-batch GD, alpha 0.5, lambda 0.01 (bias not regularised), zeros init")
print("# step loss")
for step in range(1, STEPS + 1):
    Z = X @ theta.T + b
    Z -= Z.max(axis=1, keepdims=True)
    P = np.exp(Z)
    P /= P.sum(axis=1, keepdims=True)
    loss = -np.mean(np.log(P[np.arange(N), y])) + LAMBDA / 2 * np.sum(theta ** 2)
    print(f"{step} {loss:.12f}")
    G = (P - Y).T @ X / N + LAMBDA * theta
    gb = (P - Y).mean(axis=0)
    theta -= ALPHA * G
    b -= ALPHA * gb
