"""Margins computed exactly: the hard-margin SVM as a minimum-norm-point problem.

The margin of a dataset is a distance from the origin to a convex hull:

* through the origin (``bias=False``): gamma = min ||z|| over z in conv{y_i x_i}
  (when positive), the separator is w = z / ||z||;
* with an unregularised bias (Remark 1.31): the margin is half the distance
  between conv{x_i : y_i = +1} and conv{x_i : y_i = -1}, i.e. half the minimum
  norm over the Minkowski difference of the two hulls; with p, q the nearest
  points, w = (p - q) / ||p - q|| and b = -w·(p + q) / 2;
* gamma_2(A) of eq. (1.5): min norm over conv{a_i}, a_i = y_i (x_i, 1).

All three are solved by Wolfe's (1976) minimum-norm-point algorithm, which
only needs a linear minimisation over the vertices (for the difference of two
hulls: the lowest vertex of one minus the highest of the other, O(n d)), and
is finite and exact up to the tolerance of its stopping rule. We stop when the
duality gap certifies a relative error below 1e-10. NumPy only: no SciPy.

Not separable: then the origin lies in the hull, the minimum norm is 0, and we
report ``margin = 0.0`` with ``separable = False``; a positive number is only
returned after checking min_i y_i (w·x_i + b) > 0 for the returned (w, b).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ._checks import check_dataset, check_number, frozen


class MarginUnfinished(ValueError):
    """A margin was not reached within the work a call was allowed (``max_work``)."""


#: min_norm_point's work, counted in estimated CPU seconds of this 2-core machine (upper
#: figures, measured under load, 2026-11-27): per iteration (Python), per number the
#: linear oracle reads (a product over the vertices), and per corral size² × coordinates
#: of a least-squares solve
SECONDS_PER_ITERATION = 3e-5
SECONDS_PER_ORACLE_NUMBER = 2e-9
SECONDS_PER_SOLVE_UNIT = 1e-9


def work_limit(max_work) -> float:
    """``max_work`` checked (None: no limit)."""
    if max_work is None:
        return math.inf
    return check_number(max_work, "max_work", low=0, low_open=True)


@dataclass(frozen=True)
class MarginResult:
    """The best separator and its geometric margin.

    Attributes
    ----------
    margin : float
        max over unit w (and free b) of min_i y_i (w·x_i + b); 0.0 if not separable;
        inf for data of one class with a free b (no best separator exists).
    w : ndarray of shape (n_features,)
        Unit normal of the best separator (zeros if not separable; e_1 for one
        class with a free b).
    b : float
        Offset (inf times the class's label for one class with a free b).
    separable : bool
    support : ndarray of int
        Indices of the examples that sit on the margin (the support vectors).
    """

    margin: float
    w: np.ndarray
    b: float
    separable: bool
    support: np.ndarray


def _affine_minimizer(corral: np.ndarray) -> np.ndarray:
    """Weights alpha (sum 1) minimising ||alpha @ corral|| over the affine hull.

    Written as least squares in the differences s_k - s_0 (no Gram matrix, so
    the conditioning is not squared): min over beta of ||s_0 + D beta||.
    """
    if corral.shape[0] == 1:
        return np.ones(1)
    base = corral[0]
    differences = (corral[1:] - base).T
    beta = np.linalg.lstsq(differences, -base, rcond=None)[0]
    return np.concatenate([[1.0 - beta.sum()], beta])


def min_norm_point(linear_oracle: Callable[[np.ndarray], tuple[np.ndarray, object]],
                   start: tuple[np.ndarray, object], scale: float,
                   tolerance: float = 1e-10, max_iterations: int = 10_000,
                   max_work: float = math.inf, oracle_numbers: float = 0.0):
    """Wolfe's minimum-norm-point algorithm over a polytope given by its vertices.

    Parameters
    ----------
    linear_oracle : callable
        direction -> (vertex minimising <direction, vertex>, a label for it).
    start : (vertex, label)
    scale : float
        Largest vertex norm (for the stopping rule).

    max_work : float
        The most work it may do, in estimated CPU seconds counted from what it does
        (iterations, ``oracle_numbers`` read by each call of the oracle, the sizes of the
        least-squares problems: SECONDS_PER_ITERATION and the like): past it,
        :class:`MarginUnfinished`. A count, not a clock: the same data stop alike
        whatever the machine's load.
    oracle_numbers : float
        How many numbers one call of ``linear_oracle`` reads (n × d for a product).

    Returns
    -------
    point : ndarray, the nearest point of the polytope to the origin
    labels : list of vertex labels in the final corral
    weights : ndarray, their convex weights
    gap_ok : bool, whether the duality gap reached the tolerance
    """
    vertices = [start[0]]
    labels = [start[1]]
    weights = np.array([1.0])
    point = start[0].copy()
    work = 0.0
    per_iteration = SECONDS_PER_ITERATION + oracle_numbers * SECONDS_PER_ORACLE_NUMBER
    for _ in range(max_iterations):
        work += per_iteration
        if work > max_work:
            raise MarginUnfinished("the margin was not reached within the work allowed")
        vertex, label = linear_oracle(point)
        # optimality: no vertex lies below the supporting plane of point
        gap = point @ point - point @ vertex
        if gap <= tolerance * max(point @ point, 1e-300) or point @ point <= (1e-14 * scale) ** 2:
            return point, labels, weights, True
        if any(label == existing for existing in labels):
            return point, labels, weights, gap <= 1e-8 * max(point @ point, 1e-300)
        vertices.append(vertex)
        labels.append(label)
        weights = np.append(weights, 0.0)
        while True:  # minor cycle: move toward the affine minimiser, drop vertices
            corral = np.array(vertices)
            work += corral.shape[0] ** 2 * corral.shape[1] * SECONDS_PER_SOLVE_UNIT
            if work > max_work:
                raise MarginUnfinished("the margin was not reached within the work allowed")
            alpha = _affine_minimizer(corral)
            if np.all(alpha > 1e-14):
                weights = alpha
                break
            shrinking = alpha < weights
            ratios = weights[shrinking] / (weights[shrinking] - alpha[shrinking])
            theta = min(1.0, ratios[alpha[shrinking] <= 1e-14].min()) if np.any(
                alpha[shrinking] <= 1e-14) else 1.0
            weights = weights + theta * (alpha - weights)
            keep = weights > 1e-14
            if keep.all():
                keep[np.argmin(weights)] = False
            vertices = [v for v, k in zip(vertices, keep) if k]
            labels = [lab for lab, k in zip(labels, keep) if k]
            weights = weights[keep]
            weights /= weights.sum()
        point = weights @ np.array(vertices)
    return point, labels, weights, False


def _homogeneous_margin(A: np.ndarray, max_work: float = math.inf):
    """Min norm over conv{a_i}: returns (margin, unit w, separable).

    The points are divided by their largest norm first (the minimum-norm point
    scales with the data), so the solver always works in units of order 1.
    """
    scale = float(np.sqrt(np.max(np.einsum("ij,ij->i", A, A))))
    if scale == 0:
        return 0.0, np.zeros(A.shape[1]), False
    margin, w, separable = _homogeneous_margin_unit(A / scale, max_work)
    return margin * scale, w, separable


def _homogeneous_margin_unit(A: np.ndarray, max_work: float = math.inf):
    scale = 1.0

    def oracle(direction):
        index = int(np.argmin(A @ direction))
        return A[index], index

    start = int(np.argmin(np.einsum("ij,ij->i", A, A)))
    point, _, _, _ = min_norm_point(oracle, (A[start], start), scale, max_work=max_work,
                                    oracle_numbers=A.size)
    norm = float(np.linalg.norm(point))
    if norm <= 1e-12 * max(scale, 1e-300):
        return 0.0, np.zeros(A.shape[1]), False
    w = point / norm
    margin = float(np.min(A @ w))  # verified: the margin this w really has
    if margin <= 0:
        return 0.0, np.zeros(A.shape[1]), False
    return margin, w, True


def _affine_margin(X: np.ndarray, y: np.ndarray, max_work: float = math.inf):
    """Half the distance between the two class hulls: (margin, w, b, separable).

    Solved in centred units of order 1 (translate by the mean, divide by the
    largest norm), then mapped back: the margin scales with the data and the
    offset b follows the translation.
    """
    centre = X.mean(axis=0)
    spread = float(np.sqrt(np.max(np.einsum("ij,ij->i", X - centre, X - centre))))
    if spread == 0:
        return 0.0, np.zeros(X.shape[1]), 0.0, False
    margin, w, b, separable = _affine_margin_unit((X - centre) / spread, y, max_work)
    if not separable:
        return margin, w, b, separable
    # w·(x - c)/s + b' = 0  <=>  w·x + (s b' - w·c) = 0, margin scales by s
    return margin * spread, w, b * spread - float(w @ centre), True


def _affine_margin_unit(X: np.ndarray, y: np.ndarray, max_work: float = math.inf):
    positives, negatives = X[y > 0], X[y < 0]
    scale = float(np.sqrt(np.max(np.einsum("ij,ij->i", X, X)))) * 2 + 1e-300

    def oracle(direction):
        i = int(np.argmin(positives @ direction))
        j = int(np.argmax(negatives @ direction))
        return positives[i] - negatives[j], (i, j)

    mean_gap = positives.mean(axis=0) - negatives.mean(axis=0)
    i0 = int(np.argmin(positives @ mean_gap))
    j0 = int(np.argmax(negatives @ mean_gap))
    point = min_norm_point(oracle, (positives[i0] - negatives[j0], (i0, j0)), scale,
                           max_work=max_work, oracle_numbers=X.size)[0]
    norm = float(np.linalg.norm(point))
    if norm <= 1e-12 * scale:
        return 0.0, np.zeros(X.shape[1]), 0.0, False
    w = point / norm
    # centre b exactly between the two classes along w, then verify the margin
    low, high = float(np.min(positives @ w)), float(np.max(negatives @ w))
    b = -(low + high) / 2.0
    margin = (low - high) / 2.0
    if margin <= 0:
        return 0.0, np.zeros(X.shape[1]), 0.0, False
    return margin, w, b, True


def max_margin(X, y, bias=True, max_work=None) -> MarginResult:
    """Geometric margin of the best separator: the hard-margin SVM (Remark 1.31).

    gamma = max over ||w|| = 1 and b of min_i y_i (w·x_i + b), with b free
    (unregularised) when ``bias`` is True and b = 0 when False.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), values in {-1, +1}
    bias : bool
    max_work : float > 0 or None
        The work Wolfe's algorithm may do, in estimated CPU seconds (:func:`min_norm_point`);
        past it, :class:`MarginUnfinished` (a ValueError). It takes from milliseconds to
        seconds on the same n and d, depending on the data.

    Data of one class are allowed. Through the origin their margin is finite
    (or they are not separable, when the origin lies in their hull). With a free
    b it is unbounded: moving the line away from the points, along any unit w,
    raises every y_i (w·x_i + b) without limit, so ``margin`` is inf.

    Returns
    -------
    MarginResult
        ``margin <= 0`` (reported as 0.0, ``separable=False``) when no
        separator exists.
    """
    max_work = work_limit(max_work)
    X, y = check_dataset(X, y, both_classes=False)
    if bias and np.unique(y).size == 1:
        # one class, free b: y (w·x + b) -> inf as b -> y·inf, for any unit w
        unit = np.zeros(X.shape[1])
        unit[0] = 1.0
        return MarginResult(margin=float("inf"), w=frozen(unit), b=float(y[0]) * float("inf"),
                            separable=True, support=frozen(np.array([], dtype=np.int64),
                                                           dtype=np.int64))
    if bias:
        margin, w, b, separable = _affine_margin(X, y, max_work)
    else:
        margin, w, separable = _homogeneous_margin(y[:, None] * X, max_work)
        b = 0.0
    if separable:
        scores = y * (X @ w + b)
        support = np.flatnonzero(scores <= margin * (1 + 1e-6) + 1e-12)
    else:
        support = np.array([], dtype=np.int64)
    return MarginResult(margin=float(margin), w=frozen(w), b=float(b), separable=separable,
                        support=frozen(support, dtype=np.int64))


def padded_margin(X, y, max_work=None) -> float:
    """gamma_2(A) of eq. (1.5): max over ||w||_2 <= 1 of min_i <a_i, w>, a_i = y_i (x_i, 1).

    This is the margin of the padded problem (Remark 1.17), where the bias is
    part of the weight vector and so counts in its norm. It is at most the
    affine margin of :func:`max_margin`. Returns 0.0 if the data are not
    separable.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    max_work : float > 0 or None
        As in :func:`max_margin`.

    Returns
    -------
    float
    """
    max_work = work_limit(max_work)
    X, y = check_dataset(X, y, both_classes=False)  # one class: gamma_2 is still finite
    padded = y[:, None] * np.hstack([X, np.ones((X.shape[0], 1))])
    margin, _, _ = _homogeneous_margin(padded, max_work)
    return float(margin)


def padded_separator(X, y) -> tuple[float, np.ndarray]:
    """gamma_2(A) and the unit padded vector (w, b) attaining it (eq. 1.5).

    Returns
    -------
    margin : float
    w_padded : ndarray of shape (n_features + 1,)
        Last entry is the bias; zeros if not separable.
    """
    X, y = check_dataset(X, y, both_classes=False)  # one class: gamma_2 is still finite
    padded = y[:, None] * np.hstack([X, np.ones((X.shape[0], 1))])
    margin, w, _ = _homogeneous_margin(padded)
    return float(margin), frozen(w)
