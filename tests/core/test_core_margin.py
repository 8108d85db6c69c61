"""max_margin / padded_margin against independent solvers.

Hard-margin SVM: minimise ||w||^2 subject to y_i (w·x_i + b) >= 1; the
geometric margin is 1 / ||w||. SVC(C=1e10) alone is only accurate to about
1e-5, so its answer is *polished*: on its support vectors we solve the
equality-constrained QP exactly (a KKT linear system), then certify the result
(primal feasible and multipliers >= 0 means optimal for the convex QP). Without
a bias the active set comes from SciPy's SLSQP instead of SVC.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.optimize import linprog, minimize
from sklearn.svm import SVC

from perceptron_core import (
    make_blobs,
    make_separable,
    make_xor,
    max_margin,
    padded_margin,
    padded_separator,
    with_label_noise,
)

# ---------------------------------------------------------------------------
# independent solvers
# ---------------------------------------------------------------------------


def certified_hard_margin(A, active, free_last):
    """Exact minimiser of ||v[:p']||^2 s.t. A v >= 1, found from a guess of the active set.

    A : rows a_i (y_i x_i, with y_i appended when the bias is free).
    free_last : the last coordinate (the bias) is not penalised.
    Starting from ``active``, solve the KKT system with equalities on the active
    set; drop a constraint with a negative multiplier or add the most violated
    one, until the point is certified optimal. Returns v.
    """
    p = A.shape[1]
    P = np.eye(p)
    if free_last:
        P[-1, -1] = 0.0
    active = sorted(set(int(i) for i in active))
    for _ in range(50):
        S = A[active]
        k = len(active)
        kkt = np.block([[P, -S.T], [S, np.zeros((k, k))]])
        rhs = np.concatenate([np.zeros(p), np.ones(k)])
        solution = np.linalg.lstsq(kkt, rhs, rcond=None)[0]
        v, multipliers = solution[:p], solution[p:]
        np.testing.assert_allclose(kkt @ solution, rhs, atol=1e-9)  # consistent system
        slack = A @ v - 1.0
        if multipliers.size and multipliers.min() < -1e-10:
            active.pop(int(np.argmin(multipliers)))
        elif slack.min() < -1e-10:
            active = sorted(set(active) | {int(np.argmin(slack))})
        else:
            return v
    raise AssertionError("active-set polishing did not certify an optimum")


def svc_reference(X, y):
    """(certified margin, SVC's own verified margin) for the affine hard-margin SVM."""
    svc = SVC(kernel="linear", C=1e10, tol=1e-8).fit(X, y)
    w_svc, b_svc = svc.coef_[0], float(svc.intercept_[0])
    svc_margin = float(np.min(y * (X @ w_svc + b_svc)) / np.linalg.norm(w_svc))
    A = y[:, None] * np.hstack([X, np.ones((len(y), 1))])
    v = certified_hard_margin(A, svc.support_, free_last=True)
    return 1.0 / np.linalg.norm(v[:-1]), svc_margin


def slsqp_homogeneous_margin(A):
    """max over unit w of min_i a_i·w, via SLSQP on min ||w||^2 s.t. A w >= 1, then polished."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = minimize(
            lambda w: w @ w,
            np.zeros(A.shape[1]),
            jac=lambda w: 2 * w,
            constraints=[{"type": "ineq", "fun": lambda w: A @ w - 1.0, "jac": lambda w: A}],
            method="SLSQP",
            options={"ftol": 1e-14, "maxiter": 500},
        )
    active = np.flatnonzero(A @ result.x <= 1.0 + 1e-5)
    v = certified_hard_margin(A, active, free_last=False)
    return 1.0 / np.linalg.norm(v)


def separable_by_lp(X, y, bias=True) -> bool:
    """Is there (w, b) with y_i (w·x_i + b) >= 1 for all i? (LP feasibility, HiGHS)."""
    A = y[:, None] * (np.hstack([X, np.ones((len(y), 1))]) if bias else X)
    result = linprog(
        np.zeros(A.shape[1]),
        A_ub=-A,
        b_ub=-np.ones(len(y)),
        bounds=[(None, None)] * A.shape[1],
        method="highs",
    )
    assert result.status in (0, 2), result.message
    return result.status == 0


# ---------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------


def gaussian_separable(n, dim, seed, gap=0.05):
    """Gaussian points labelled by a random hyperplane; points within gap of it removed."""
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(dim)
    w /= np.linalg.norm(w)
    b = rng.uniform(-0.5, 0.5)
    X = rng.standard_normal((3 * n, dim)) * rng.uniform(0.5, 3.0, dim)
    distance = X @ w + b
    keep = np.abs(distance) > gap
    X, distance = X[keep][:n], distance[keep][:n]
    y = np.where(distance > 0, 1, -1)
    assert len(y) == n and np.unique(y).size == 2
    return X, y


AFFINE_CASES = [
    ("separable", n, dim, seed)
    for seed, (n, dim) in enumerate(
        [(2, 1), (10, 1), (25, 2), (100, 2), (300, 3), (150, 5), (1000, 4)]
    )
] + [
    ("gaussian", n, dim, seed)
    for seed, (n, dim) in enumerate([(30, 1), (60, 2), (400, 3), (2000, 2), (5000, 5), (5000, 3)])
]


def _affine_data(kind, n, dim, seed):
    if kind == "separable":
        margin = [0.3, 0.1, 0.02, 0.05][seed % 4]
        ds = make_separable(n=n, margin=margin, dim=dim, seed=seed, radius=1 + seed)
        return np.asarray(ds.X), np.asarray(ds.y)
    return gaussian_separable(n, dim, seed)


# ---------------------------------------------------------------------------
# bias=True: the affine hard-margin SVM
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind, n, dim, seed", AFFINE_CASES)
def test_max_margin_matches_polished_svc(kind, n, dim, seed):
    X, y = _affine_data(kind, n, dim, seed)
    result = max_margin(X, y)
    certified, svc_margin = svc_reference(X, y)
    assert result.separable
    assert result.margin == pytest.approx(certified, rel=1e-6)
    # ours is a feasible separator, so it is never worse than SVC's verified one
    assert result.margin >= svc_margin - 1e-9
    # the reported (w, b) really has the reported margin
    assert np.linalg.norm(result.w) == pytest.approx(1.0, abs=1e-12)
    scores = y * (X @ result.w + result.b)
    assert scores.min() == pytest.approx(result.margin, rel=1e-9, abs=1e-12)
    # support: the examples on the margin, including the closest one
    assert int(np.argmin(scores)) in set(result.support.tolist())
    assert np.all(scores[result.support] <= result.margin * (1 + 1e-5) + 1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_max_margin_finds_the_planted_separator(seed):
    """The pinned pair makes the planted (w*, b*) the unique max-margin separator."""
    ds = make_separable(n=200, margin=0.1, dim=3, seed=seed)
    result = max_margin(ds.X, ds.y)
    np.testing.assert_allclose(result.w, ds.w_star, atol=1e-4)
    assert result.b == pytest.approx(ds.b_star, abs=1e-4)


def _non_separable_sets():
    noisy = with_label_noise(make_separable(n=200, margin=0.05, seed=3), rate=0.2, seed=1)
    blobs = make_blobs(n=300, seed=2, spread=0.6)
    sets = {
        "xor": make_xor(n=100, seed=0),
        "xor_3d": make_xor(n=120, seed=1, dim=3),
        "noisy": noisy,
        "blobs": blobs,
    }
    out = {name: (np.asarray(ds.X), np.asarray(ds.y)) for name, ds in sets.items()}
    out["xor_4_points"] = (
        np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]),
        np.array([1, 1, -1, -1]),
    )
    out["duplicate_point"] = (np.array([[0.5, 0.5], [0.5, 0.5], [2.0, 0.0]]), np.array([1, -1, 1]))
    return out


@pytest.mark.parametrize("name", list(_non_separable_sets()))
def test_non_separable_data_has_no_margin(name):
    X, y = _non_separable_sets()[name]
    assert not separable_by_lp(X, y, bias=True)  # the data really are not separable
    for bias in (True, False):
        result = max_margin(X, y, bias=bias)
        assert result.margin <= 0
        assert not result.separable
        assert result.support.size == 0
    assert padded_margin(X, y) <= 0


def test_separable_only_with_a_bias():
    ds = make_separable(n=100, margin=0.1, seed=4)
    X, y = np.asarray(ds.X) + np.array([3.0, 3.0]), np.asarray(ds.y)  # move it away from 0
    assert separable_by_lp(X, y, bias=True)
    if not separable_by_lp(X, y, bias=False):
        no_origin = max_margin(X, y, bias=False)
        assert not no_origin.separable and no_origin.margin <= 0
    # translating the data does not change the affine margin
    assert max_margin(X, y).margin == pytest.approx(0.1, rel=1e-9)


# ---------------------------------------------------------------------------
# bias=False and the padded margin gamma_2 (eq. 1.5)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_homogeneous_margin_matches_slsqp(seed):
    rng = np.random.default_rng(seed)
    dim = 1 + seed % 5
    n = int(rng.integers(2, 41))
    ds = make_separable(
        n=n, margin=[0.05, 0.1, 0.3][seed % 3], dim=dim, seed=seed, through_origin=True
    )
    X, y = np.asarray(ds.X), np.asarray(ds.y)
    result = max_margin(X, y, bias=False)
    assert result.separable
    assert result.b == 0.0
    assert result.margin == pytest.approx(slsqp_homogeneous_margin(y[:, None] * X), rel=1e-6)
    assert np.linalg.norm(result.w) == pytest.approx(1.0, abs=1e-12)
    assert np.min(y * (X @ result.w)) == pytest.approx(result.margin, rel=1e-9)
    # a separator through the origin is also an affine one
    assert result.margin <= max_margin(X, y).margin * (1 + 1e-9)


@pytest.mark.parametrize("seed", range(8))
def test_padded_margin_matches_slsqp(seed):
    rng = np.random.default_rng(100 + seed)
    dim = 1 + seed % 4
    n = int(rng.integers(2, 41))
    ds = make_separable(
        n=n, margin=[0.05, 0.1, 0.3][seed % 3], dim=dim, seed=seed, radius=[0.5, 1.0, 3.0][seed % 3]
    )
    X, y = np.asarray(ds.X), np.asarray(ds.y)
    padded = np.hstack([X, np.ones((n, 1))])
    gamma_2 = padded_margin(X, y)
    assert gamma_2 > 0
    assert gamma_2 == pytest.approx(slsqp_homogeneous_margin(y[:, None] * padded), rel=1e-6)
    # the same number as max_margin through the origin on X' = [X, 1]
    assert gamma_2 == pytest.approx(max_margin(padded, y, bias=False).margin, rel=1e-12)
    # gamma_2 <= the affine margin: a unit (w, b) has ||w|| <= 1
    assert gamma_2 <= max_margin(X, y).margin * (1 + 1e-9)
    # padded_separator returns the unit (w, b) attaining it
    margin, w_padded = padded_separator(X, y)
    assert margin == gamma_2
    assert w_padded.shape == (dim + 1,)
    assert np.linalg.norm(w_padded) == pytest.approx(1.0, abs=1e-12)
    assert np.min(y * (padded @ w_padded)) == pytest.approx(gamma_2, rel=1e-9)


@pytest.mark.parametrize("kind, n, dim, seed", AFFINE_CASES[::2])
def test_padded_margin_is_homogeneous_margin_of_padded_data(kind, n, dim, seed):
    X, y = _affine_data(kind, n, dim, seed)
    padded = np.hstack([X, np.ones((len(y), 1))])
    assert padded_margin(X, y) == pytest.approx(max_margin(padded, y, bias=False).margin, rel=1e-12)


# ---------------------------------------------------------------------------
# units: the margin is scale-equivariant and translation-invariant
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("scale", [1e-6, 1e-3, 1e3, 1e4, 1e6])
@pytest.mark.parametrize("bias", [True, False])
def test_margin_follows_the_units_of_the_data(scale, bias):
    """Measuring the features in other units multiplies the margin by the same factor.

    Nothing about separability depends on the unit: a correct solver must give
    max_margin(c X).margin = c * max_margin(X).margin, the same w and b scaled by c.
    """
    for seed in range(3):
        ds = make_separable(n=60, margin=0.1, dim=3, seed=seed, through_origin=not bias)
        X, y = np.asarray(ds.X), np.asarray(ds.y)
        result = max_margin(scale * X, y, bias=bias)
        assert result.separable
        assert result.margin == pytest.approx(0.1 * scale, rel=1e-9)
        np.testing.assert_allclose(result.w, ds.w_star, atol=1e-4)
        assert result.b == pytest.approx(scale * ds.b_star, abs=1e-4 * scale)


def test_three_points_in_large_units():
    """Minimal case: the hull of the positives {(c, 0), (0, c)} is at distance
    c / sqrt(2) from the negative point 0, so the margin is c / (2 sqrt(2))."""
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    y = np.array([-1, 1, 1])
    for c in (1.0, 1e4, 1e-6):
        result = max_margin(c * X, y)
        assert result.separable
        assert result.margin == pytest.approx(c / (2 * np.sqrt(2)), rel=1e-9)
        np.testing.assert_allclose(result.w, [np.sqrt(0.5), np.sqrt(0.5)], atol=1e-9)


@pytest.mark.parametrize("offset", [10.0, 1e3, 1e5])
def test_affine_margin_ignores_translation(offset):
    ds = make_separable(n=80, margin=0.1, dim=2, seed=7)
    result = max_margin(np.asarray(ds.X) + offset, ds.y)
    assert result.margin == pytest.approx(0.1, rel=1e-9)


# At radius 1e6 the padded column (1) is 1e-6 of the features and the SLSQP
# reference itself loses accuracy (its active set goes wrong); ours stays feasible.
@pytest.mark.parametrize("radius", [1e3, 1e4, 1e5])
def test_padded_margin_on_data_in_large_units(radius):
    ds = make_separable(n=30, margin=0.1 * radius, dim=2, seed=1, radius=radius)
    X, y = np.asarray(ds.X), np.asarray(ds.y)
    padded = np.hstack([X, np.ones((len(y), 1))])
    assert padded_margin(X, y) == pytest.approx(
        slsqp_homogeneous_margin(y[:, None] * padded), rel=1e-6
    )


# ---------------------------------------------------------------------------
# exact arithmetic: separability and gamma^2 as fractions, against an independent
# KKT solution in fractions (tests/exact_reference.py)
# ---------------------------------------------------------------------------

from fractions import Fraction  # noqa: E402

from exact_reference import certified_margin_squared, closest_first, origin_in_hull  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as hst  # noqa: E402

from perceptron_core import bound_summary  # noqa: E402
from perceptron_core.margin import padded_max_margin  # noqa: E402


def _bracket_holds(result, square: Fraction) -> None:
    """margin_low <= sqrt(square) <= margin_high, compared as exact fractions, and margin
    is one of the two (the float next to the exact root)."""
    assert Fraction(result.margin_low) ** 2 <= square <= Fraction(result.margin_high) ** 2
    assert result.margin_low <= result.margin <= result.margin_high
    assert np.nextafter(result.margin_low, np.inf) >= result.margin_high


@pytest.mark.parametrize("margin", [0.1, 1e-7, 5e-13])
@pytest.mark.parametrize("n, dim", [(2, 2), (20, 2), (200, 2), (40, 3)])
@pytest.mark.parametrize("seed", range(2))
def test_tiny_margins_are_exact(margin, n, dim, seed):
    """At 5e-13 the data are separable (they were called not separable), and at 1e-7
    gamma^2 is the exact fraction of the KKT solution (it came out 2-5 % low)."""
    for kind in ("affine", "origin", "padded"):
        ds = make_separable(n=n, margin=margin, dim=dim, seed=seed, through_origin=kind == "origin")
        X, y = np.asarray(ds.X), np.asarray(ds.y)
        guess = closest_first(X, y, ds.w_star, 0.0 if kind == "origin" else ds.b_star)
        result = (
            padded_max_margin(X, y) if kind == "padded" else max_margin(X, y, bias=kind == "affine")
        )
        reference = certified_margin_squared(
            X, y, bias=kind == "affine", padded=kind == "padded", guess=guess
        )
        assert reference > 0
        assert result.separable and result.exact
        assert result.margin_squared == reference
        _bracket_holds(result, reference)
        if kind != "padded":
            assert result.margin == pytest.approx(margin, rel=1e-3)


@pytest.mark.parametrize("margin", [1e-7, 5e-13])
def test_the_bound_at_tiny_margins(margin):
    """T(A) = (R^2 + 1) / gamma_2^2 from the exact gamma_2 (it came out 5-11 % high)."""
    for seed in range(3):
        ds = make_separable(n=30, margin=margin, dim=2, seed=seed)
        X, y = np.asarray(ds.X), np.asarray(ds.y)
        reference = certified_margin_squared(
            X, y, bias=False, padded=True, guess=closest_first(X, y, ds.w_star, ds.b_star)
        )
        radius_sq = max(float(x @ x) for x in X)
        summary = bound_summary(X, y)
        assert summary.separable
        assert summary.padded == pytest.approx((radius_sq + 1) / float(reference), rel=1e-12)


def test_a_point_exactly_between_two_others():
    """A positive point exactly at the midpoint of two negatives: not separable, exactly.
    One unit in the last place off the segment: separable, with the exact margin."""
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.5, 0.5]])
    y = np.array([-1, -1, 1])
    for bias in (True, False):
        result = max_margin(X + [0.0, 3.0], y, bias=bias)
        assert not result.separable and result.exact and result.margin == 0.0
    moved = X.copy()
    moved[2, 1] = np.nextafter(0.5, 1.0)  # 2^-53 above the segment
    result = max_margin(moved, y)
    reference = certified_margin_squared(moved, y, bias=True, guess=[0, 1, 2])
    assert result.separable and result.exact and result.margin_squared == reference
    # the distance from the point to the line x1 = x2 is 2^-53 / sqrt(2), half is the margin
    assert reference == Fraction(1, 2**106) / 2 / 4
    assert not origin_in_hull(y[:, None] * np.hstack([moved, np.ones((3, 1))]))


def test_points_at_the_origin_and_duplicates():
    # a point at the origin: no line through the origin has it strictly on one side
    X = np.array([[0.0, 0.0], [1.0, 0.5], [-1.0, 0.25]])
    y = np.array([1, 1, -1])
    through = max_margin(X, y, bias=False)
    assert not through.separable and through.exact
    assert max_margin(X, y).separable
    # one point with both labels: nothing separates it
    X2 = np.array([[0.3, 0.7], [0.3, 0.7], [2.0, 1.0]])
    y2 = np.array([1, -1, 1])
    for bias in (True, False):
        assert not max_margin(X2, y2, bias=bias).separable
    assert padded_max_margin(X2, y2).margin == 0.0
    # n = 1 through the origin: the margin is the point's length, exactly
    single = max_margin(np.array([[3.0, 4.0]]), np.array([-1]), bias=False)
    assert single.margin == 5.0 and single.margin_squared == 25 and single.exact
    assert single.support.tolist() == [0]


def test_support_is_the_exact_set_on_the_margin():
    """Four points of a square: with a bias all four are on the margin, exactly."""
    X = np.array([[0.0, 0.0], [0.0, 1.0], [2.0, 0.0], [2.0, 1.0]])
    y = np.array([-1, -1, 1, 1])
    result = max_margin(X, y)
    assert result.exact and result.margin == 1.0 and result.support.tolist() == [0, 1, 2, 3]
    np.testing.assert_allclose(result.w, [1.0, 0.0])
    assert result.b == -1.0


coordinates = hst.floats(
    min_value=-4,
    max_value=4,
    allow_nan=False,
    allow_infinity=False,
    allow_subnormal=False,
    width=64,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    points=hst.lists(hst.tuples(coordinates, coordinates), min_size=1, max_size=7),
    labels=hst.lists(hst.sampled_from([-1, 1]), min_size=7, max_size=7),
    kind=hst.sampled_from(["affine", "origin", "padded"]),
)
def test_exact_margin_property(points, labels, kind):
    """Any small data set: separable exactly when the origin is not in the hull (checked
    by enumeration in fractions), and then gamma^2 is the KKT solution's, exactly."""
    X = np.array(points, dtype=np.float64)
    y = np.array(labels[: len(points)])
    if kind == "affine" and np.unique(y).size < 2:
        y[0] = -y[0]
    if kind == "affine" and len(points) < 2:
        return
    result = (
        padded_max_margin(X, y) if kind == "padded" else max_margin(X, y, bias=kind == "affine")
    )
    vectors = (
        y[:, None] * X if kind == "origin" else y[:, None] * np.hstack([X, np.ones((len(y), 1))])
    )
    assert result.exact
    assert result.separable == (not origin_in_hull(vectors))
    if result.separable:
        reference = certified_margin_squared(
            X,
            y,
            bias=kind == "affine",
            padded=kind == "padded",
            guess=result.support.tolist() or [0],
        )
        assert result.margin_squared == reference
        _bracket_holds(result, reference)
    else:
        assert result.margin == 0.0 and result.support.size == 0


def test_too_costly_for_the_exact_phase_is_a_certified_bracket():
    """Beyond the exact phase's work limit: a bracket from rounding-error bounds, margin
    its lower end; the returned (w, b) reaches it."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((400, 100))
    y = np.where(X @ rng.standard_normal(100) > 0, 1, -1)
    result = max_margin(X, y)
    assert not result.exact and result.separable and result.margin_squared is None
    assert result.margin == result.margin_low <= result.margin_high
    assert result.margin_high - result.margin_low <= 1e-9 * result.margin_high
    certified, _ = svc_reference(X, y)
    assert result.margin_low <= certified * (1 + 1e-9)
    assert certified <= result.margin_high * (1 + 1e-9)
    scores = y * (X @ result.w + result.b)
    assert scores.min() >= result.margin_low * (1 - 1e-12)


def test_a_root_that_is_rational_but_not_a_float_is_bracketed():
    """γ = (1 + 2.48·10⁻¹⁷⁹)/2 exactly: rational, rounded to 0.5; the bracket must still hold
    it (the upper end was 0.5, below γ)."""
    result = max_margin(np.array([[0.0, 1.0], [0.0, -2.481000730521884e-179]]), np.array([1, -1]))
    assert result.margin_squared == (Fraction(1) + Fraction(2.481000730521884e-179)) ** 2 / 4
    _bracket_holds(result, result.margin_squared)
    assert result.margin == 0.5 < result.margin_high
