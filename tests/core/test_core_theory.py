"""Mistake bounds (Theorem 1.28, eq. 1.4 and 1.5; Novikoff) and the proof quantities.

Properties over many seeds: the number of updates of every order never
exceeds the bound, and the two lines of the convergence proof hold at every
update.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_core import (
    ORDERS,
    bound_summary,
    make_separable,
    max_margin,
    novikoff_bound,
    padded_bound,
    padded_margin,
    proof_quantities,
    run_perceptron,
    threshold_bound,
)

PROPERTY = settings(max_examples=100, deadline=None, derandomize=True, database=None)

separable_data = st.fixed_dictionaries(
    {
        "n": st.integers(2, 80),
        "dim": st.integers(1, 5),
        "margin_fraction": st.sampled_from([0.05, 0.1, 0.2, 0.4]),
        "radius": st.sampled_from([0.5, 1.0, 2.0]),
        "seed": st.integers(0, 10**6),
    }
)


def _make(params, through_origin=False):
    return make_separable(
        n=params["n"],
        dim=params["dim"],
        radius=params["radius"],
        margin=params["margin_fraction"] * params["radius"],
        seed=params["seed"],
        through_origin=through_origin,
    )


# ---------------------------------------------------------------------------
# the bound formulas themselves
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "norm_sq, s, delta, w0_norm",
    [(1.0, 0.1, 0.0, 0.0), (2.0, 0.05, 0.5, 0.0), (4.0, 0.3, 1.0, 2.0), (0.5, 1.0, 0.0, 3.0)],
)
def test_threshold_bound_is_eq_1_4_with_unit_w_star(norm_sq, s, delta, w0_norm):
    # (1.4): t <= ((2 delta + ||A||^2) ||w*||^2 + 2 s ||w*|| ||w_0||) / s^2 with ||w*|| = 1
    expected = ((2 * delta + norm_sq) * 1.0 + 2 * s * 1.0 * w0_norm) / s**2
    assert threshold_bound(norm_sq, s, delta, w0_norm) == pytest.approx(expected, rel=1e-14)
    if delta == 0 and w0_norm == 0:
        assert padded_bound(norm_sq, s) == pytest.approx(norm_sq / s**2, rel=1e-14)
    assert novikoff_bound(math.sqrt(norm_sq), s) == pytest.approx(norm_sq / s**2, rel=1e-14)


# ---------------------------------------------------------------------------
# the bounds hold for every order
# ---------------------------------------------------------------------------


@settings(PROPERTY)
@given(
    params=separable_data,
    order=st.sampled_from(list(ORDERS)),
    delta=st.sampled_from([0.0, 0.5, 2.0]),
    run_seed=st.integers(0, 1000),
)
def test_updates_within_threshold_bound_with_bias(params, order, delta, run_seed):
    ds = _make(params)
    X, y = np.asarray(ds.X), np.asarray(ds.y)
    max_norm_sq = float(np.max(np.sum(X**2, axis=1))) + 1.0  # ||a_i||^2, a_i = y_i (x_i, 1)
    gamma_2 = padded_margin(X, y)
    assert gamma_2 > 0
    bound = threshold_bound(max_norm_sq, gamma_2, delta)
    trace = run_perceptron(
        X,
        y,
        bias=True,
        delta=delta,
        order=order,
        seed=run_seed,
        max_updates=int(bound) + 2,
        max_epochs=10_000_000,
    )
    assert trace.converged
    assert trace.n_updates <= bound
    if delta == 0:
        assert bound == pytest.approx(padded_bound(max_norm_sq, gamma_2), rel=1e-12)


@settings(PROPERTY)
@given(
    params=separable_data,
    order=st.sampled_from(list(ORDERS)),
    delta=st.sampled_from([0.0, 0.5]),
    w0_scale=st.sampled_from([0.5, 3.0, 20.0]),
    run_seed=st.integers(0, 1000),
)
def test_updates_within_threshold_bound_from_any_start(params, order, delta, w0_scale, run_seed):
    """(1.4) with w_0 != 0: the padded start (w_0, b_0) adds 2 s ||w_0|| / s^2."""
    ds = _make(params)
    X, y = np.asarray(ds.X), np.asarray(ds.y)
    rng = np.random.default_rng(run_seed)
    w0, b0 = w0_scale * rng.standard_normal(X.shape[1]), float(w0_scale * rng.standard_normal())
    max_norm_sq = float(np.max(np.sum(X**2, axis=1))) + 1.0
    gamma_2 = padded_margin(X, y)
    bound = threshold_bound(max_norm_sq, gamma_2, delta, float(np.hypot(np.linalg.norm(w0), b0)))
    trace = run_perceptron(
        X,
        y,
        w0=w0,
        b0=b0,
        delta=delta,
        order=order,
        seed=run_seed,
        max_updates=int(bound) + 2,
        max_epochs=10_000_000,
    )
    assert trace.converged
    assert trace.n_updates <= bound


@settings(PROPERTY)
@given(
    params=separable_data,
    order=st.sampled_from(list(ORDERS)),
    delta=st.sampled_from([0.0, 0.5]),
    run_seed=st.integers(0, 1000),
)
def test_updates_within_novikoff_bound_through_origin(params, order, delta, run_seed):
    ds = _make(params, through_origin=True)
    X, y = np.asarray(ds.X), np.asarray(ds.y)
    R = float(np.max(np.linalg.norm(X, axis=1)))
    trace = run_perceptron(
        X,
        y,
        bias=False,
        delta=delta,
        order=order,
        seed=run_seed,
        max_updates=10**6,
        max_epochs=10_000_000,
    )
    assert trace.converged
    assert trace.b == 0.0 and np.all(trace.biases == 0.0)
    # ds.margin is the margin the generator promises through the origin
    # 1e-9 relative: with every point at distance gamma from the line, R^2 / gamma^2 = 1
    # computes as 0.9999999999999997 (n = 2, margin 0.025) while the run makes 1 update
    assert trace.n_updates <= threshold_bound(R**2, ds.margin, delta) * (1 + 1e-9)
    if delta == 0:
        assert trace.n_updates <= novikoff_bound(R, ds.margin) * (1 + 1e-9)
        assert trace.n_updates <= novikoff_bound(ds.radius, ds.margin)


def test_bound_summary_matches_its_parts():
    ds = make_separable(n=50, margin=0.1, dim=2, seed=3)
    X, y = np.asarray(ds.X), np.asarray(ds.y)
    summary = bound_summary(X, y, bias=True, delta=0.5, w0_norm=1.0)
    R = float(np.max(np.linalg.norm(X, axis=1)))
    assert summary.separable
    assert summary.radius == pytest.approx(R, rel=1e-12)
    assert summary.margin == pytest.approx(0.1, rel=1e-9)
    assert summary.margin_2 == pytest.approx(padded_margin(X, y), rel=1e-12)
    assert summary.max_norm_sq == pytest.approx(R**2 + 1, rel=1e-12)
    assert summary.padded == pytest.approx((R**2 + 1) / summary.margin_2**2, rel=1e-12)
    assert summary.bound == pytest.approx(
        (2 * 0.5 + R**2 + 1 + 2 * summary.margin_2 * 1.0) / summary.margin_2**2, rel=1e-12
    )
    trace = run_perceptron(X, y, delta=0.5)
    assert trace.n_updates <= bound_summary(X, y, bias=True, delta=0.5).bound


def test_bound_summary_is_infinite_without_separability():
    X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    y = np.array([1, 1, -1, -1])
    summary = bound_summary(X, y)
    assert not summary.separable
    assert summary.padded == summary.bound == summary.novikoff == float("inf")


# ---------------------------------------------------------------------------
# the generator's margin is the asked one
# ---------------------------------------------------------------------------


@settings(PROPERTY)
@given(params=separable_data, balance=st.sampled_from([0.5, 0.1, 0.3, 0.8]))
def test_generated_margin_is_exact(params, balance):
    ds = make_separable(
        n=params["n"],
        dim=params["dim"],
        radius=params["radius"],
        margin=params["margin_fraction"] * params["radius"],
        seed=params["seed"],
        balance=balance,
    )
    margin = params["margin_fraction"] * params["radius"]
    assert ds.margin == margin
    assert max_margin(ds.X, ds.y).margin == pytest.approx(margin, rel=1e-9)
    # the planted separator is a unit normal with margin at least the asked one
    assert np.linalg.norm(ds.w_star) == pytest.approx(1.0, abs=1e-12)
    assert np.min(ds.y * (ds.X @ ds.w_star + ds.b_star)) >= margin * (1 - 1e-12)


@settings(PROPERTY)
@given(params=separable_data)
def test_generated_margin_is_exact_through_origin(params):
    ds = _make(params, through_origin=True)
    margin = params["margin_fraction"] * params["radius"]
    assert ds.b_star == 0.0
    assert max_margin(ds.X, ds.y, bias=False).margin == pytest.approx(margin, rel=1e-9)
    assert max_margin(ds.X, ds.y, bias=True).margin == pytest.approx(margin, rel=1e-9)


# ---------------------------------------------------------------------------
# the two quantities of the proof of Theorem 1.28
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("order", list(ORDERS))
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("delta", [0.0, 0.5])
@pytest.mark.parametrize("random_w0", [False, True])
def test_proof_quantities_follow_their_lines(order, bias, delta, random_w0):
    for seed in range(3):
        ds = make_separable(n=40, margin=0.08, dim=1 + seed, seed=seed, through_origin=not bias)
        X, y = np.asarray(ds.X), np.asarray(ds.y)
        w0 = np.random.default_rng(seed).standard_normal(X.shape[1]) if random_w0 else None
        trace = run_perceptron(X, y, bias=bias, delta=delta, order=order, seed=seed, w0=w0)
        q = proof_quantities(trace, X, y)
        t = np.arange(trace.n_updates + 1)
        # the iterates (padded with b when there is a bias) and the examples a_i
        iterates = np.column_stack([trace.weights, trace.biases]) if bias else trace.weights
        A = y[:, None] * (np.hstack([X, np.ones((len(y), 1))]) if bias else X)
        reference = np.asarray(q.reference)
        # the reference w* is a unit vector that attains the reported margin on every a_i
        assert np.linalg.norm(reference) == pytest.approx(1.0, abs=1e-12)
        assert np.min(A @ reference) == pytest.approx(q.margin, rel=1e-9)
        assert q.max_norm_sq == pytest.approx(np.max(np.sum(A**2, axis=1)), rel=1e-12)
        np.testing.assert_allclose(q.alignment, iterates @ reference, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(q.norm_sq, np.sum(iterates**2, axis=1), rtol=1e-12)
        np.testing.assert_allclose(
            q.alignment_lower, q.alignment[0] + t * q.margin, rtol=1e-12, atol=1e-12
        )
        np.testing.assert_allclose(
            q.norm_sq_upper, q.norm_sq[0] + t * (q.max_norm_sq + 2 * delta), rtol=1e-12
        )
        # the proof: <w_t, w*> grows by >= gamma, ||w_t||^2 by <= R^2 + 2 delta per update
        tol = 1e-9 * (1 + t)
        assert np.all(q.alignment >= q.alignment_lower - tol)
        assert np.all(q.norm_sq <= q.norm_sq_upper + tol)


@pytest.mark.parametrize("bias", [True, False])
def test_proof_quantities_reuse_the_summary_margin_instead_of_solving_again(bias):
    ds = make_separable(n=40, margin=0.1, dim=2, seed=5, through_origin=not bias)
    trace = run_perceptron(ds.X, ds.y, bias=bias)
    summary = bound_summary(ds.X, ds.y, bias=bias)
    passed, solved = (
        proof_quantities(trace, ds.X, ds.y, summary),
        proof_quantities(trace, ds.X, ds.y),
    )
    np.testing.assert_array_equal(passed.alignment, solved.alignment)
    np.testing.assert_array_equal(passed.reference, summary.reference)
    with pytest.raises(ValueError, match="BoundSummary of these data"):
        proof_quantities(trace, ds.X, ds.y, bound_summary(ds.X, ds.y, bias=not bias))
