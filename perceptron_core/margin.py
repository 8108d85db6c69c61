"""Margins decided in exact arithmetic: the hard-margin SVM as a minimum-norm-point problem.

The margin of a dataset is a distance from the origin to a convex hull:

* through the origin (``bias=False``): gamma = min ||z|| over z in conv{y_i x_i}
  (when positive), the separator is w = z / ||z||;
* with an unregularised bias (Remark 1.31): the margin is half the distance
  between conv{x_i : y_i = +1} and conv{x_i : y_i = -1}, i.e. half the minimum
  norm over the Minkowski difference of the two hulls; with p, q the nearest
  points, w = (p - q) / ||p - q|| and b = -w·(p + q) / 2;
* gamma_2(A) of eq. (1.5): min norm over conv{a_i}, a_i = y_i (x_i, 1).

All three are solved by Wolfe's (1976) minimum-norm-point algorithm, which only
needs the lowest vertex along a direction (for the difference of two hulls: the
lowest vertex of one minus the highest of the other, O(n d)). It runs twice:

1. in float64, to find the support set (the "corral") quickly;
2. in exact rational arithmetic, started from that corral. Every float64 number
   is a fraction m / 2^k, so the stored data are exact rationals; the nearest
   point p = sum_s lambda_s v_s is solved on the corral with integers
   (fraction-free elimination), and it is certified optimal when
   <p, v> >= ||p||^2 for every vertex v (the condition that no vertex lies
   below p's supporting plane). That check runs in float64 with a rigorous
   bound on its rounding error, and in exact integers for the vertices the
   bound cannot decide (those on or near the margin). A vertex that fails the
   check enters the corral and Wolfe's exact step is repeated.

So ``separable``, the support set and gamma^2 are exact for the data as
stored: a margin of 5e-13 is a margin, and two points 1e-300 apart with
opposite labels are separable. gamma itself is the square root of the exact
rational gamma^2; ``margin`` is that root rounded to float64, and
``margin_low <= gamma <= margin_high`` bracket it by adjacent floats.

The exact phase is limited to ``EXACT_WORK_LIMIT`` big-integer operations (about a
support set of 40 vectors in 1000 dimensions). Beyond it the result is the float64
solution with a certified bracket instead (``exact`` is False): margin_low is the
margin the returned (w, b) reaches for certain, margin_high an upper bound on any
separator's margin, both with rigorous rounding-error bounds, and ``margin`` is
margin_low, so that a bound computed from it is never too small. NumPy and the
standard library only.

A caller that must bound the time (a page answering a request) passes ``max_work``, in
estimated CPU seconds counted from what the algorithm does (iterations, numbers read,
least-squares sizes, big-integer multiplications): a count, not a clock, so the same data
stop alike at any load. The float phase past it raises :class:`MarginUnfinished`; the
exact phase gets what the float phase left (at most ``EXACT_WORK_LIMIT``), and past that
the result is the certified bracket, as above.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ._checks import check_dataset, check_number, frozen

#: big-integer multiplications the exact phase may spend on one margin
EXACT_WORK_LIMIT = 6_000_000
#: float64's unit roundoff (half the gap between 1 and the next float)
UNIT_ROUNDOFF = 2.0**-53

#: the work of the float phase (min_norm_point), counted in estimated CPU seconds of this
#: 2-core machine (upper figures, measured under load, 2026-11-27): per iteration (Python),
#: per number the linear oracle reads (a product over the vertices), and per corral size²
#: × coordinates of a least-squares solve
SECONDS_PER_ITERATION = 3e-5
SECONDS_PER_ORACLE_NUMBER = 2e-9
SECONDS_PER_SOLVE_UNIT = 1e-9
#: and of the exact phase, per big-integer multiplication it counts (0.3-0.5 µs measured
#: on supports of 10 to 60 vectors, growing with the integers' length)
SECONDS_PER_EXACT_UNIT = 6e-7


class MarginUnfinished(ValueError):
    """A margin was not reached within the work a call was allowed (``max_work``)."""


def work_limit(max_work) -> float:
    """``max_work`` checked (None: no limit)."""
    if max_work is None:
        return math.inf
    return check_number(max_work, "max_work", low=0, low_open=True)


@dataclass
class WorkMeter:
    """Work counted in estimated CPU seconds against a limit (a count, not a clock)."""

    limit: float = math.inf
    spent: float = 0.0

    def charge(self, seconds: float) -> None:
        """Count ``seconds`` of work; past the limit, :class:`MarginUnfinished`."""
        self.spent += seconds
        if self.spent > self.limit:
            raise MarginUnfinished("the margin was not reached within the work allowed")

    def exact_units_left(self) -> float:
        """The big-integer multiplications the exact phase may still do."""
        if math.isinf(self.limit):
            return EXACT_WORK_LIMIT
        return min(EXACT_WORK_LIMIT, max(0.0, self.limit - self.spent) / SECONDS_PER_EXACT_UNIT)


@dataclass(frozen=True)
class MarginResult:
    """The best separator and its geometric margin.

    Attributes
    ----------
    margin : float
        gamma = max over unit w (and free b) of min_i y_i (w·x_i + b), rounded to
        float64 (exact: the float nearest the exact gamma up to one unit in the last
        place; not exact: ``margin_low``); 0.0 if not separable; inf for data of one
        class with a free b (no best separator exists).
    w : ndarray of shape (n_features,)
        Unit normal of the best separator, rounded to float64 (zeros if not
        separable; e_1 for one class with a free b).
    b : float
        Offset (inf times the class's label for one class with a free b).
    separable : bool
        Some (w, b) has y_i (w·x_i + b) > 0 for every i (b = 0 through the origin).
    support : ndarray of int
        The examples on the margin: y_i (w·x_i + b) = gamma exactly for the exact
        best separator (when ``exact``; otherwise within the certified bracket).
    exact : bool
        ``separable``, ``support`` and ``margin_squared`` were decided in exact rational
        arithmetic on the stored float64 data.
    margin_low, margin_high : float
        margin_low <= gamma <= margin_high, certified (adjacent floats when exact).
    margin_squared : Fraction or None
        gamma^2 as an exact fraction when ``exact`` and finite, else None.
    """

    margin: float
    w: np.ndarray
    b: float
    separable: bool
    support: np.ndarray
    exact: bool = True
    margin_low: float = 0.0
    margin_high: float = 0.0
    margin_squared: Fraction | None = field(default=None, compare=False)


# ---------------------------------------------------------------------------
# Wolfe's algorithm in float64: the support set, fast
# ---------------------------------------------------------------------------


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


def min_norm_point(
    linear_oracle: Callable[[np.ndarray], tuple[np.ndarray, object]],
    start: tuple[np.ndarray, object],
    scale: float,
    tolerance: float = 1e-10,
    max_iterations: int = 10_000,
    max_work: float = math.inf,
    oracle_numbers: float = 0.0,
    meter: WorkMeter | None = None,
):
    """Wolfe's minimum-norm-point algorithm over a polytope given by its vertices (float64).

    Parameters
    ----------
    linear_oracle : callable
        direction -> (vertex minimising <direction, vertex>, a label for it).
    start : (vertex, label)
    scale : float
        Largest vertex norm (for the stopping rule).
    tolerance : float
        Stop when the duality gap ||p||^2 - min_v <p, v> is below tolerance ||p||^2.
    max_work : float
        The most work it may do, in estimated CPU seconds counted from what it does
        (iterations, ``oracle_numbers`` read by each call of the oracle, the sizes of the
        least-squares problems: SECONDS_PER_ITERATION and the like): past it,
        :class:`MarginUnfinished`. A count, not a clock: the same data stop alike
        whatever the machine's load.
    oracle_numbers : float
        How many numbers one call of ``linear_oracle`` reads (n × d for a product).
    meter : WorkMeter or None
        Counts the work instead of a meter of its own with limit ``max_work`` (so that a
        caller can give what is left to a later phase).

    Returns
    -------
    point : ndarray, the nearest point of the polytope to the origin (float64)
    labels : list of vertex labels in the final corral
    weights : ndarray, their convex weights
    gap_ok : bool, whether the duality gap reached the tolerance
    """
    vertices = [start[0]]
    labels = [start[1]]
    weights = np.array([1.0])
    point = start[0].copy()
    meter = WorkMeter(max_work) if meter is None else meter
    per_iteration = SECONDS_PER_ITERATION + oracle_numbers * SECONDS_PER_ORACLE_NUMBER
    for _ in range(max_iterations):
        meter.charge(per_iteration)
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
            meter.charge(corral.shape[0] ** 2 * corral.shape[1] * SECONDS_PER_SOLVE_UNIT)
            alpha = _affine_minimizer(corral)
            if np.all(alpha > 1e-14):
                weights = alpha
                break
            shrinking = alpha < weights
            ratios = weights[shrinking] / (weights[shrinking] - alpha[shrinking])
            theta = (
                min(1.0, ratios[alpha[shrinking] <= 1e-14].min())
                if np.any(alpha[shrinking] <= 1e-14)
                else 1.0
            )
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


# ---------------------------------------------------------------------------
# Exact arithmetic: the stored floats as integers times one power of two
# ---------------------------------------------------------------------------


class _IntegerRows:
    """The rows of a float64 matrix as exact Python integers, all in units of 2^E.

    Every finite float is m·2^e with an integer m (|m| < 2^53); with E the smallest
    such e over the matrix, every entry is the integer m·2^(e - E). Rows are converted
    when first asked for.
    """

    def __init__(self, M: np.ndarray):
        self.M = M
        mantissa, exponent = np.frexp(M)
        self.mantissa = (mantissa * 2.0**53).astype(np.int64)  # exact: 53 bits
        self.exponent = exponent.astype(np.int64) - 53
        nonzero = self.mantissa != 0
        self.E = int(self.exponent[nonzero].min()) if nonzero.any() else 0
        self.rows: dict[int, list[int]] = {}

    def row(self, i: int) -> list[int]:
        if i not in self.rows:
            self.rows[i] = [
                int(m) << int(e - self.E) if m else 0
                for m, e in zip(self.mantissa[i].tolist(), self.exponent[i].tolist())
            ]
        return self.rows[i]


def _dot(u: list[int], v: list[int]) -> int:
    return sum(a * b for a, b in zip(u, v))


def _to_float(value: Fraction, exponent: int) -> float:
    """value·2^exponent, rounded to the nearest float64."""
    return float(value * Fraction(2) ** exponent)


def _float_below(value: Fraction) -> float:
    f = float(value)
    return math.nextafter(f, -math.inf) if Fraction(f) > value else f


def _float_above(value: Fraction) -> float:
    f = float(value)
    return math.nextafter(f, math.inf) if Fraction(f) < value else f


def _sqrt_bracket(square: Fraction) -> tuple[float, float, float]:
    """(low, nearest, high) floats with low <= sqrt(square) <= high, adjacent or equal."""
    if square == 0:
        return 0.0, 0.0, 0.0
    num, den = square.numerator, square.denominator
    # sqrt(num / den) = sqrt(num·den) / den; scale by 4^k so the root has 80+ bits
    k = max(0, 81 - (num.bit_length() + den.bit_length()) // 2)
    root = math.isqrt((num * den) << (2 * k))
    low = Fraction(root, den << k)
    high = Fraction(root + 1, den << k)
    exact = root * root == (num * den) << (2 * k)
    nearest = float(low)
    return _float_below(low), nearest, _float_above(low if exact else high)


def _solve_bordered(gram: list[list[int]]) -> list[Fraction] | None:
    """alpha minimising alpha^T G alpha with sum(alpha) = 1: solve [[G, 1], [1^T, 0]]
    [alpha; -mu] = [0; 1] by fraction-free (Bareiss) elimination. None if singular
    (the corral's vertices are affinely dependent)."""
    k = len(gram)
    size = k + 1
    # augmented matrix, integers
    A = [list(gram[r]) + [1, 0] for r in range(k)] + [[1] * k + [0, 1]]
    previous = 1
    for col in range(size):
        pivot = next((r for r in range(col, size) if A[r][col] != 0), None)
        if pivot is None:
            return None
        A[col], A[pivot] = A[pivot], A[col]
        for r in range(col + 1, size):
            for c in range(col + 1, size + 1):
                A[r][c] = (A[r][c] * A[col][col] - A[r][col] * A[col][c]) // previous
            A[r][col] = 0
        previous = A[col][col]
    solution = [Fraction(0)] * size
    for r in range(size - 1, -1, -1):
        total = Fraction(A[r][size]) - sum(
            (A[r][c] * solution[c] for c in range(r + 1, size)), Fraction(0)
        )
        solution[r] = total / A[r][r]
    return solution[:k]


class _ExactPolytope:
    """Vertices of the polytope as exact integer vectors, and the lowest one along p.

    ``homogeneous``: vertices are the rows of V (labels: row index).
    ``difference``: vertices are P_i - N_j (labels: pairs (i, j)); the lowest along p
    is the lowest P_i minus the highest N_j.
    """

    def __init__(
        self, rows: np.ndarray, negatives: np.ndarray | None = None, limit: float = EXACT_WORK_LIMIT
    ):
        self.limit = limit  # big-integer multiplications allowed (_TooMuchWork past it)
        self.V = rows
        self.N = negatives
        both = rows if negatives is None else np.vstack([rows, negatives])
        self.integers = _IntegerRows(both)
        self.E = self.integers.E
        self.offset = rows.shape[0]
        self.dim = rows.shape[1]
        self.work = 0

    def vertex(self, label) -> list[int]:
        if self.N is None:
            return self.integers.row(label)
        i, j = label
        return [a - b for a, b in zip(self.integers.row(i), self.integers.row(self.offset + j))]

    def _extreme(
        self, M: np.ndarray, base: int, P: list[int], p_float: np.ndarray, lowest: bool
    ) -> tuple[int, int, list[int]]:
        """The row of M with the lowest (or highest) exact <P, row>: (index, value, all
        indices attaining it). The float products decide every row whose rounding-error
        bound keeps it clear of the extreme; the others are computed in integers."""
        sign = 1.0 if lowest else -1.0
        with np.errstate(over="ignore", invalid="ignore", under="ignore"):
            scores = sign * (M @ p_float)
            sizes = np.abs(M) @ np.abs(p_float)
        d = M.shape[1]
        error = 4.0 * (d + 2) * UNIT_ROUNDOFF * sizes + (d + 2) * 2.0**-1060 * (
            1.0 + np.max(np.abs(M), axis=1)
        )
        if not (np.all(np.isfinite(scores)) and np.all(np.isfinite(error))):
            candidates = np.arange(M.shape[0])
        else:
            candidates = np.flatnonzero(scores - error <= np.min(scores + error))
        self.work += (candidates.size + 1) * d
        if self.work > self.limit:
            raise _TooMuchWork
        values = {int(i): _dot(P, self.integers.row(base + int(i))) for i in candidates}
        best = min(values.values()) if lowest else max(values.values())
        ties = sorted(i for i, v in values.items() if v == best)
        return ties[0], best, ties

    def lowest(self, P: list[int], D: int) -> tuple[object, int, tuple[list[int], list[int]]]:
        """The vertex minimising <p, v> for p = P / D (units 2^E): (label, <P, v>, the
        indices attaining the extreme: rows, or positive and negative rows)."""
        p_float = _scaled_floats(P, D)[0]
        if self.N is None:
            i, value, ties = self._extreme(self.V, 0, P, p_float, lowest=True)
            return i, value, (ties, [])
        i, low, ties_p = self._extreme(self.V, 0, P, p_float, lowest=True)
        j, high, ties_n = self._extreme(self.N, self.offset, P, p_float, lowest=False)
        return (i, j), low - high, (ties_p, ties_n)


def _scaled_floats(P: list[int], D: int) -> tuple[np.ndarray, int]:
    """P / D divided by a power of two 2^shift so that its largest entry is of order 1,
    each entry rounded to the nearest float64: (floats, shift)."""
    largest = max((abs(c) for c in P), default=0)
    shift = largest.bit_length() - D.bit_length() if largest else 0
    scale = Fraction(1, 1 << shift) if shift >= 0 else Fraction(1 << -shift)
    return np.array([float(Fraction(c, D) * scale) for c in P]), shift


class _TooMuchWork(Exception):
    """The exact phase would exceed its limit (EXACT_WORK_LIMIT, or what max_work left)."""


@dataclass
class _ExactNearest:
    """The exact nearest point p = P / D (integer vector in units 2^E, D > 0)."""

    P: list[int]
    D: int
    norm_sq: Fraction  # ||p||^2 in units 2^(2E)
    labels: list
    extremes: tuple[list[int], list[int]]  # rows attaining the lowest <p, v>
    lowest: int  # <P, lowest vertex>


def _exact_nearest(poly: _ExactPolytope, start_labels: list) -> _ExactNearest:
    """Wolfe's algorithm in exact arithmetic, started from a corral found in float64.

    Finite in exact arithmetic: ||p|| decreases strictly at every major cycle, so no
    corral repeats. Raises _TooMuchWork past the polytope's limit.
    """
    corral: list = []  # vertex labels: a row, or a pair of rows for a difference body
    vectors: list[list[int]] = []
    gram: list[list[int]] = []

    def add(label):
        poly.work += (len(vectors) + 1) * poly.dim + (len(vectors) + 2) ** 3
        if poly.work > poly.limit:
            raise _TooMuchWork
        vector = poly.vertex(label)
        row = [_dot(vector, other) for other in vectors]
        for r, value in zip(gram, row):
            r.append(value)
        gram.append(row + [_dot(vector, vector)])
        corral.append(label)
        vectors.append(vector)

    def drop(keep: list[bool]):
        nonlocal corral, vectors, gram
        corral = [c for c, k in zip(corral, keep) if k]
        vectors = [v for v, k in zip(vectors, keep) if k]
        gram = [[g for g, k in zip(row, keep) if k] for row, kk in zip(gram, keep) if kk]

    # warm start: the float corral, if its exact affine minimiser lies inside it
    for label in dict.fromkeys(start_labels):
        add(label)
    weights = _solve_bordered(gram) if corral else None
    if weights is None or min(weights) <= 0:
        first = start_labels[0]
        corral, vectors, gram = [], [], []
        add(first)
        weights = [Fraction(1)]
    while True:
        D = math.lcm(*(w.denominator for w in weights))
        numerators = [int(w * D) for w in weights]
        P = [sum(n * v[c] for n, v in zip(numerators, vectors)) for c in range(poly.dim)]
        poly.work += len(vectors) * poly.dim
        norm_sq_scaled = _dot(P, P)  # ||p||^2 = this / D^2
        label, value, extremes = poly.lowest(P, D)
        # optimal iff <p, v> >= ||p||^2 for the lowest vertex: value / D >= |P|^2 / D^2
        if value * D >= norm_sq_scaled:
            return _ExactNearest(
                P=P,
                D=D,
                norm_sq=Fraction(norm_sq_scaled, D * D),
                labels=list(corral),
                extremes=extremes,
                lowest=value,
            )
        add(label)
        weights = weights + [Fraction(0)]
        while True:  # minor cycle, exact
            alpha = _solve_bordered(gram)
            if alpha is None:  # cannot happen in exact arithmetic: the new vertex is
                raise _TooMuchWork  # below p's plane, so outside the corral's affine hull
            if min(alpha) > 0:
                weights = alpha
                break
            theta = min(w / (w - a) for w, a in zip(weights, alpha) if a <= 0 and w != a)
            weights = [w + theta * (a - w) for w, a in zip(weights, alpha)]
            keep = [w > 0 for w in weights]
            weights = [w for w, k in zip(weights, keep) if k]
            drop(keep)


# ---------------------------------------------------------------------------
# Certified bounds in float64, when the exact phase is too costly
# ---------------------------------------------------------------------------


def _certified_low(rows: np.ndarray, v: np.ndarray, norm_of: np.ndarray | None = None) -> float:
    """A number <= min_i <row_i, v> / ||norm_of|| in exact arithmetic (rows, v and
    norm_of as stored; norm_of defaults to v), or 0.0 when that minimum is not certainly
    positive."""
    norm_of = v if norm_of is None else norm_of
    d = rows.shape[1]
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        scores = rows @ v
        error = 4.0 * (d + 2) * UNIT_ROUNDOFF * (np.abs(rows) @ np.abs(v)) + 2.0**-1000
        low = float(np.min(scores - error))
        norm_high = (
            math.sqrt(float(norm_of @ norm_of)) * (1 + 4 * (d + 2) * UNIT_ROUNDOFF) + 2.0**-500
        )
    if not math.isfinite(low) or low <= 0:
        return 0.0
    return math.nextafter(low / norm_high * (1 - 4 * UNIT_ROUNDOFF), 0.0)


def _certified_high(vertices: np.ndarray, weights: np.ndarray) -> float:
    """A number >= ||sum_s lambda_s v_s|| / sum_s lambda_s (a point of the hull, so an
    upper bound on the distance from the origin to it), with lambda >= 0."""
    weights = np.clip(weights, 0.0, None)
    k, d = vertices.shape
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        point = weights @ vertices
        error = 4.0 * (k + 2) * UNIT_ROUNDOFF * (weights @ np.abs(vertices)) + 2.0**-1000
        norm = math.sqrt(float(np.sum((np.abs(point) + error) ** 2)))
        total = float(np.sum(weights)) * (1 - 4 * (k + 2) * UNIT_ROUNDOFF)
    high = norm * (1 + 4 * (d + 2) * UNIT_ROUNDOFF) / total
    return math.nextafter(high, math.inf) if math.isfinite(high) else math.inf


# ---------------------------------------------------------------------------
# The three margins
# ---------------------------------------------------------------------------


def _support(extremes, rows_index: np.ndarray, negatives_index: np.ndarray | None) -> np.ndarray:
    positive, negative = extremes
    indices = list(rows_index[positive])
    if negatives_index is not None:
        indices += list(negatives_index[negative])
    return np.sort(np.array(indices, dtype=np.int64))


def nearest_point_of_rows(unit: np.ndarray, **limits):
    """Wolfe's min-norm point of conv{rows of ``unit``} (each of length about 1 or less),
    the rows themselves as the vertices: :func:`min_norm_point`'s (point, support rows,
    convex weights, whether the duality gap reached its tolerance). ``limits``: its
    ``max_work`` or ``meter``."""

    def oracle(direction):
        index = int(np.argmin(unit @ direction))  # the lowest vertex along the direction
        return unit[index], index

    start = int(np.argmin(np.einsum("ij,ij->i", unit, unit)))
    return min_norm_point(oracle, (unit[start], start), 1.0, oracle_numbers=unit.size, **limits)


def _homogeneous(A: np.ndarray, meter: WorkMeter):
    """Min norm over conv{a_i}: (margin, unit w, separable, support rows, exact, low,
    high, margin^2 or None). The float phase counts its work on ``meter``
    (MarginUnfinished past its limit); the exact phase may do what is left."""
    dim = A.shape[1]
    scale = float(np.max(np.abs(A)))  # not the largest norm: a norm may underflow to 0
    if scale == 0:  # every a_i = 0: the origin is the hull
        return 0.0, np.zeros(dim), False, np.array([], np.int64), True, 0.0, 0.0, Fraction(0)
    unit = A / scale  # float phase in units of order 1
    point, labels, weights, _ = nearest_point_of_rows(unit, meter=meter)
    poly = _ExactPolytope(A, limit=meter.exact_units_left())
    try:
        nearest = _exact_nearest(poly, labels)
    except _TooMuchWork:
        return _homogeneous_certified(A, point, labels, weights)
    square = nearest.norm_sq * Fraction(2) ** (2 * poly.E)
    if square == 0:
        return 0.0, np.zeros(dim), False, np.array([], np.int64), True, 0.0, 0.0, Fraction(0)
    low, margin, high = _sqrt_bracket(square)
    p = _scaled_floats(nearest.P, nearest.D)[0]  # p / 2^(E + shift)
    w = p / np.linalg.norm(p)
    support = np.array(nearest.extremes[0], dtype=np.int64)
    return margin, w, True, support, True, low, high, square


def _homogeneous_certified(A, point, labels, weights):
    """The float solution with a certified bracket (the exact phase was too costly)."""
    dim = A.shape[1]
    norm = float(np.linalg.norm(point))
    high = _certified_high(A[labels], np.asarray(weights))
    if norm == 0:
        return 0.0, np.zeros(dim), False, np.array([], np.int64), False, 0.0, high, None
    w = point / norm
    low = _certified_low(A, w)
    if low <= 0:
        return 0.0, np.zeros(dim), False, np.array([], np.int64), False, 0.0, high, None
    scores = A @ w
    support = np.flatnonzero(scores <= high * (1 + 1e-12))
    return low, w, True, support, False, low, high, None


def _affine(X: np.ndarray, y: np.ndarray, meter: WorkMeter):
    """Half the distance between the two class hulls: (margin, w, b, separable, support,
    exact, low, high, margin^2 or None). Work counted as in :func:`_homogeneous`."""
    dim = X.shape[1]
    pos_index, neg_index = np.flatnonzero(y > 0), np.flatnonzero(y < 0)
    positives, negatives = X[pos_index], X[neg_index]
    none = np.array([], np.int64)
    if np.all(X == X[0]):  # every point the same: both classes share it
        return 0.0, np.zeros(dim), 0.0, False, none, True, 0.0, 0.0, Fraction(0)
    # float phase in centred units of order 1 (the differences do not see the centre)
    centre = X.mean(axis=0)
    spread = float(np.max(np.abs(X - centre)))
    if spread == 0:  # the points differ by less than the centre's rounding
        centre, spread = np.zeros(dim), float(np.max(np.abs(X)))
    unit_p, unit_n = (positives - centre) / spread, (negatives - centre) / spread

    def oracle(direction):
        i = int(np.argmin(unit_p @ direction))
        j = int(np.argmax(unit_n @ direction))
        return unit_p[i] - unit_n[j], (i, j)

    mean_gap = unit_p.mean(axis=0) - unit_n.mean(axis=0)
    i0, j0 = int(np.argmin(unit_p @ mean_gap)), int(np.argmax(unit_n @ mean_gap))
    point, labels, weights, _ = min_norm_point(
        oracle, (unit_p[i0] - unit_n[j0], (i0, j0)), 2.0, oracle_numbers=X.size, meter=meter
    )
    poly = _ExactPolytope(positives, negatives, limit=meter.exact_units_left())
    try:
        nearest = _exact_nearest(poly, labels)
    except _TooMuchWork:
        return _affine_certified(X, y, positives, negatives, point, labels, weights, spread)
    distance_sq = nearest.norm_sq * Fraction(2) ** (2 * poly.E)
    if distance_sq == 0:
        return 0.0, np.zeros(dim), 0.0, False, none, True, 0.0, 0.0, Fraction(0)
    square = distance_sq / 4  # the margin is half the distance between the hulls
    low, margin, high = _sqrt_bracket(square)
    p, shift = _scaled_floats(nearest.P, nearest.D)  # p / 2^(E + shift)
    norm = float(np.linalg.norm(p))
    w = p / norm
    # the hyperplane <p, x> = (min_+ <p, x> + max_- <p, x>) / 2, halfway between the hulls;
    # <p, x> = <P, x in units 2^E> / D · 2^(2E), and ||p|| = norm · 2^(E + shift)
    top = _dot(nearest.P, poly.integers.row(nearest.extremes[0][0]))
    bottom = _dot(nearest.P, poly.integers.row(poly.offset + nearest.extremes[1][0]))
    b = -_to_float(Fraction(top + bottom, 2 * nearest.D), poly.E - shift) / norm
    support = _support(nearest.extremes, pos_index, neg_index)
    return margin, w, b, True, support, True, low, high, square


def _affine_certified(X, y, positives, negatives, point, labels, weights, spread):
    """The float solution with a certified bracket (the exact phase was too costly)."""
    dim = X.shape[1]
    none = np.array([], np.int64)
    differences = np.array([positives[i] - negatives[j] for i, j in labels])
    high = _certified_high(differences, np.asarray(weights)) / 2
    norm = float(np.linalg.norm(point))
    if norm == 0:
        return 0.0, np.zeros(dim), 0.0, False, none, False, 0.0, high, None
    w = point / norm
    low_p, high_n = float(np.min(positives @ w)), float(np.max(negatives @ w))
    b = -(low_p + high_n) / 2.0
    padded = y[:, None] * np.hstack([X, np.ones((X.shape[0], 1))])
    low = _certified_low(padded, np.append(w, b), w)  # the geometric margin: over ||w||
    if low <= 0:
        return 0.0, np.zeros(dim), 0.0, False, none, False, 0.0, high, None
    scores = y * (X @ w + b)
    support = np.flatnonzero(scores <= high * (1 + 1e-12))
    return low, w, b, True, support, False, low, high, None


def max_margin(X, y, bias=True, max_work=None) -> MarginResult:
    """Geometric margin of the best separator: the hard-margin SVM (Remark 1.31).

    gamma = max over ||w|| = 1 and b of min_i y_i (w·x_i + b), with b free
    (unregularised) when ``bias`` is True and b = 0 when False. Decided in exact
    rational arithmetic on the data as stored (see the module's docstring and
    ``MarginResult.exact``).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), values in {-1, +1}
    bias : bool
    max_work : float > 0 or None
        The work it may do, in estimated CPU seconds counted from its steps (see the
        module's docstring): past it in the float phase, :class:`MarginUnfinished` (a
        ValueError); the exact phase does what is left, then the certified bracket
        (``exact`` False). It takes from milliseconds to seconds on the same n and d,
        depending on the data.

    Data of one class are allowed. Through the origin their margin is finite
    (or they are not separable, when the origin lies in their hull). With a free
    b it is unbounded: moving the line away from the points, along any unit w,
    raises every y_i (w·x_i + b) without limit, so ``margin`` is inf.

    Returns
    -------
    MarginResult
        ``margin`` 0.0 and ``separable=False`` when no separator exists (then the
        origin lies in the hull: some convex combination of the y_i x_i, or of the
        differences of the two classes, is exactly 0).
    """
    meter = WorkMeter(work_limit(max_work))
    X, y = check_dataset(X, y, both_classes=False)
    if bias and np.unique(y).size == 1:
        # one class, free b: y (w·x + b) -> inf as b -> y·inf, for any unit w
        unit = np.zeros(X.shape[1])
        unit[0] = 1.0
        inf = float("inf")
        return MarginResult(
            margin=inf,
            w=frozen(unit),
            b=float(y[0]) * inf,
            separable=True,
            support=frozen(np.array([], dtype=np.int64), dtype=np.int64),
            exact=True,
            margin_low=inf,
            margin_high=inf,
        )
    if bias:
        margin, w, b, separable, support, exact, low, high, square = _affine(X, y, meter)
    else:
        margin, w, separable, support, exact, low, high, square = _homogeneous(
            y[:, None] * X, meter
        )
        b = 0.0
    return MarginResult(
        margin=float(margin),
        w=frozen(w),
        b=float(b),
        separable=separable,
        support=frozen(support, dtype=np.int64),
        exact=exact,
        margin_low=float(low),
        margin_high=float(high),
        margin_squared=square,
    )


def padded_max_margin(X, y, max_work=None) -> MarginResult:
    """gamma_2(A) of eq. (1.5) and the unit padded vector (w, b) attaining it.

    gamma_2 = max over ||(w, b)||_2 <= 1 of min_i <a_i, (w, b)>, a_i = y_i (x_i, 1): the
    margin of the padded problem (Remark 1.17), where the bias counts in the norm. It is
    at most the affine margin of :func:`max_margin`. Decided in exact arithmetic as
    :func:`max_margin` is, within ``max_work`` as there.

    Returns
    -------
    MarginResult
        ``w`` the first n_features entries of the unit padded vector, ``b`` its last;
        ``margin`` is gamma_2 (0.0 and ``separable=False`` when no padded vector has every
        <a_i, (w, b)> > 0).
    """
    meter = WorkMeter(work_limit(max_work))
    X, y = check_dataset(X, y, both_classes=False)  # one class: gamma_2 is still finite
    padded = y[:, None] * np.hstack([X, np.ones((X.shape[0], 1))])
    margin, w, separable, support, exact, low, high, square = _homogeneous(padded, meter)
    return MarginResult(
        margin=float(margin),
        w=frozen(w[:-1]),
        b=float(w[-1]),
        separable=separable,
        support=frozen(support, dtype=np.int64),
        exact=exact,
        margin_low=float(low),
        margin_high=float(high),
        margin_squared=square,
    )


def padded_margin(X, y, max_work=None) -> float:
    """gamma_2(A) of eq. (1.5) as a float (see :func:`padded_max_margin`); 0.0 if the
    data are not separable.

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
    return padded_max_margin(X, y, max_work=max_work).margin


def padded_separator(X, y) -> tuple[float, np.ndarray]:
    """gamma_2(A) and the unit padded vector (w, b) attaining it (eq. 1.5).

    Returns
    -------
    margin : float
    w_padded : ndarray of shape (n_features + 1,)
        Last entry is the bias; zeros if not separable.
    """
    result = padded_max_margin(X, y)
    return result.margin, frozen(np.append(result.w, result.b))


def separator_margin(X, y, w, b=0.0) -> float:
    """A certified lower bound on min_i y_i (w·x_i + b) / ||w||: the geometric margin a
    given separator (w, b) reaches on the data as stored (0.0 if it misses a point).

    Computed in float64 with a rigorous bound on the rounding error (a few units in the
    last place of the products), so the exact margin is never below the number returned.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), values in {-1, +1}
    w : ndarray of shape (n_features,), not all zero
    b : float

    Returns
    -------
    float
    """
    X, y = check_dataset(X, y, both_classes=False)
    w = np.asarray(w, dtype=np.float64)
    if w.shape != (X.shape[1],) or not np.all(np.isfinite(w)) or not np.any(w):
        raise ValueError(f"w must be a nonzero finite vector of {X.shape[1]} numbers.")
    if not math.isfinite(b):
        raise ValueError("b must be a finite number.")
    padded = y[:, None] * np.hstack([X, np.ones((X.shape[0], 1))])
    return _certified_low(padded, np.append(w, float(b)), w)
