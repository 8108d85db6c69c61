"""An independent exact reference for margins: the hard-margin SVM's KKT system in fractions.

Nothing here calls perceptron_core. The stored float64 data are read as exact
fractions (Fraction(float) is exact). For an active set S, the hard-margin SVM

    minimise ||w||^2 / 2  subject to  a_i·w (+ y_i b) >= 1 for every i

has the stationarity conditions w = sum_{i in S} mu_i a_i (and sum mu_i y_i = 0 with a
free bias b) and the equalities a_i·w (+ y_i b) = 1 on S. Solving them by Gauss-Jordan
elimination in fractions and checking mu >= 0 and every constraint gives a certified
optimum (the problem is convex), whose geometric margin squared is exactly 1 / ||w||^2.
The active set is guessed (from scikit-learn's SVC on rescaled data, or the points
closest to a given separator) and repaired by the usual active-set moves, all in
fractions. Through the origin a_i = y_i x_i; the padded margin gamma_2 of eq. (1.5)
is the margin through the origin of a_i = y_i (x_i, 1).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np


def _solve(matrix: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """Gauss-Jordan elimination in fractions; None if the matrix is singular."""
    size = len(matrix)
    A = [row[:] + [value] for row, value in zip(matrix, rhs)]
    for col in range(size):
        pivot = next((r for r in range(col, size) if A[r][col] != 0), None)
        if pivot is None:
            return None
        A[col], A[pivot] = A[pivot], A[col]
        inverse = 1 / A[col][col]
        A[col] = [value * inverse for value in A[col]]
        for r in range(size):
            if r != col and A[r][col] != 0:
                factor = A[r][col]
                A[r] = [a - factor * b for a, b in zip(A[r], A[col])]
    return [row[size] for row in A]


def _rows(X, y, padded: bool) -> tuple[list[list[Fraction]], list[int]]:
    labels = [int(v) for v in np.asarray(y)]
    rows = []
    for x, label in zip(np.asarray(X, dtype=np.float64), labels):
        row = [Fraction(float(v)) * label for v in x]
        rows.append(row + [Fraction(label)] if padded else row)
    return rows, labels


def _kkt(rows, labels, active, free_bias):
    """(w, b, multipliers) solving the KKT equalities on ``active``; None if singular."""
    k, d = len(active), len(rows[0])
    # unknowns: mu (k), then b when free. Equations: a_i·w + y_i b = 1 on the active set,
    # with w = sum_j mu_j a_j, and sum_j mu_j y_j = 0 when b is free.
    gram = [[sum(p * q for p, q in zip(rows[i], rows[j])) for j in active] for i in active]
    if free_bias:
        matrix = [gram[r] + [Fraction(labels[active[r]])] for r in range(k)]
        matrix.append([Fraction(labels[j]) for j in active] + [Fraction(0)])
        rhs = [Fraction(1)] * k + [Fraction(0)]
    else:
        matrix, rhs = gram, [Fraction(1)] * k
    solution = _solve(matrix, rhs)
    if solution is None:
        return None
    mu = solution[:k]
    b = solution[k] if free_bias else Fraction(0)
    w = [sum(m * rows[j][c] for m, j in zip(mu, active)) for c in range(d)]
    return w, b, mu


def certified_margin_squared(X, y, *, bias: bool, padded: bool = False, guess=()):
    """gamma^2 as an exact Fraction, certified by the KKT conditions, or 0 when no
    active set certifies a separator (then the caller checks non-separability itself).

    ``bias``: free b (the affine margin); ``padded``: gamma_2 of a_i = y_i (x_i, 1).
    ``guess``: indices to start the active set from.
    """
    rows, labels = _rows(X, y, padded)
    free_bias = bias and not padded
    n = len(rows)
    # an independent start: the guesses, in order, as long as the KKT system stays regular
    active: list[int] = []
    for i in dict.fromkeys(int(i) for i in guess):
        if _kkt(rows, labels, sorted(active + [i]), free_bias) is not None:
            active = sorted(active + [i])
    active = active or [int(next(iter(guess), 0))]
    seen = set()
    for _ in range(500):
        key = tuple(active)
        if key in seen:
            break
        seen.add(key)
        solved = _kkt(rows, labels, active, free_bias)
        if solved is None:
            active = active[:-1] or [0]
            continue
        w, b, mu = solved
        if mu and min(mu) < 0:
            active.pop(mu.index(min(mu)))
            continue
        slack = [sum(p * q for p, q in zip(rows[i], w)) + labels[i] * b - 1 for i in range(n)]
        worst = min(range(n), key=lambda i: slack[i])
        if slack[worst] < 0:
            active = sorted(set(active) | {worst})
            continue
        norm_sq = sum(v * v for v in w)
        return 1 / norm_sq
    return _brute_force(rows, labels, free_bias) if n <= 14 else Fraction(0)


def _brute_force(rows, labels, free_bias):
    """Every active set of size 1..d+1 (small n only); 0 if none certifies."""
    n, d = len(rows), len(rows[0])
    best = None
    for size in range(1, min(n, d + 1 + free_bias) + 1):
        for active in combinations(range(n), size):
            solved = _kkt(rows, labels, list(active), free_bias)
            if solved is None:
                continue
            w, b, mu = solved
            if min(mu) < 0:
                continue
            if all(sum(p * q for p, q in zip(rows[i], w)) + labels[i] * b >= 1 for i in range(n)):
                value = 1 / sum(v * v for v in w)
                best = value if best is None else max(best, value)
    return best if best is not None else Fraction(0)


def origin_in_hull(vectors) -> bool:
    """Exactly: is 0 a convex combination of the given float vectors (small sets only)?

    By Caratheodory, if it is, it is one of affinely independent vectors; for each
    such subset S the weights solve [v_S; 1] lambda = [0; 1], found from the normal
    equations in fractions and checked exactly (lambda >= 0, the point exactly 0).
    Through the origin the vectors are y_i x_i; two classes are not separable by any
    line with a bias iff 0 is in the hull of the y_i (x_i, 1).
    """
    rows = [[Fraction(float(v)) for v in row] + [Fraction(1)] for row in np.asarray(vectors)]
    n, d = len(rows), len(rows[0]) - 1
    for size in range(1, min(n, d + 1) + 1):
        for subset in combinations(range(n), size):
            columns = [rows[i] for i in subset]
            normal = [[sum(p * q for p, q in zip(a, b)) for b in columns] for a in columns]
            weights = _solve(normal, [a[d] for a in columns])  # M^T e, e = (0, ..., 0, 1)
            if weights is None or min(weights) < 0:
                continue
            point = [sum(w * a[c] for w, a in zip(weights, columns)) for c in range(d + 1)]
            if point[:d] == [0] * d and point[d] == 1:
                return True
    return False


def closest_first(X, y, w, b=0.0, count=6) -> list[int]:
    """The ``count`` examples with the smallest y (w·x + b): a start for the active set."""
    scores = np.asarray(y) * (np.asarray(X) @ np.asarray(w) + b)
    return [int(i) for i in np.argsort(scores)[:count]]


def svc_support(X, y) -> list[int]:
    """scikit-learn's support vectors of the affine hard-margin SVM, on data rescaled so
    that the margin is of order 1 (the active set does not depend on the units)."""
    from sklearn.svm import SVC

    X = np.asarray(X, dtype=np.float64)
    centred = X - X.mean(axis=0)
    scale = np.max(np.abs(centred)) or 1.0
    svc = SVC(kernel="linear", C=1e8, tol=1e-10).fit(centred / scale, y)
    return [int(i) for i in svc.support_]
