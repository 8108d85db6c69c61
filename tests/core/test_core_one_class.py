"""Issue 9: data of one class (the slides' first quiz has a single point (x, +1)).

The perceptron runs on them; with a free bias the geometric margin is unbounded, while
gamma_2 and T(A) stay finite. Checked against closed forms and a brute-force search
over directions written here, and as properties over many seeds.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_core import bound_summary, max_margin, run_perceptron
from perceptron_core.margin import padded_margin
from perceptron_core.theory import run_bounds, separability_case

ANGLES = np.linspace(0.0, 2.0 * np.pi, 20_001)


def brute_margin_through_origin(A: np.ndarray) -> float:
    """max over unit u in the plane of min_i <a_i, u>, by trying 20 001 directions."""
    directions = np.column_stack([np.cos(ANGLES), np.sin(ANGLES)])
    return float(np.max(np.min(A @ directions.T, axis=0)))


def one_class(seed: int, n: int, label: int, shift: float) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, 2)) + np.array([shift, 0.0])
    return X, np.full(n, label)


@pytest.mark.parametrize("x", [(0.5, 0.3), (-2.0, 0.0), (0.0, 1e-3), (3.0, -4.0)])
@pytest.mark.parametrize("label", [1, -1])
def test_one_point_closed_forms(x, label):
    X, y = np.array([x]), np.array([label])
    norm_sq = float(np.dot(x, x))
    # gamma_2 of one padded point a = y (x, 1) is its length: u = a / ||a||
    assert padded_margin(X, y) == pytest.approx(np.sqrt(norm_sq + 1), rel=1e-12)
    with_bias = bound_summary(X, y, bias=True)
    assert with_bias.margin == np.inf and with_bias.separable
    assert with_bias.padded == pytest.approx(1.0, rel=1e-12)  # T(A) = ||a||^2 / ||a||^2
    assert with_bias.novikoff == np.inf  # (R/gamma)^2: no value
    through_origin = bound_summary(X, y, bias=False)
    assert through_origin.margin == pytest.approx(np.sqrt(norm_sq), rel=1e-12)
    assert through_origin.novikoff == pytest.approx(1.0, rel=1e-12)
    for bias in (True, False):
        trace = run_perceptron(X, y, bias=bias)
        assert trace.converged and trace.n_updates == 1  # the quiz: exactly one mistake


def test_free_bias_margin_is_unbounded_and_says_so():
    X, y = one_class(3, 7, -1, 0.0)
    result = max_margin(X, y, bias=True)
    assert result.margin == np.inf and result.separable and result.support.size == 0
    assert np.linalg.norm(result.w) == pytest.approx(1.0)
    assert separability_case(X, y) in ("with_bias", "through_origin")


@settings(max_examples=120, deadline=None, derandomize=True, database=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(1, 12),
    label=st.sampled_from([1, -1]),
    shift=st.floats(-3, 3),
)
def test_margin_through_origin_matches_a_search_over_directions(seed, n, label, shift):
    X, y = one_class(seed, n, label, shift)
    result = max_margin(X, y, bias=False)
    brute = brute_margin_through_origin(y[:, None] * X)
    if result.separable:
        # the search over 20 001 directions can only fall short of the best margin
        assert brute <= result.margin + 1e-9
        assert brute >= result.margin - 1e-3 * np.max(np.linalg.norm(X, axis=1))
        assert separability_case(X, y) == "through_origin"
    else:
        assert brute <= 1e-3 * np.max(np.linalg.norm(X, axis=1))
        assert separability_case(X, y) == "with_bias"  # a far line always works


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(1, 15),
    label=st.sampled_from([1, -1]),
    shift=st.floats(-3, 3),
    bias=st.booleans(),
    delta=st.sampled_from([0.0, 0.1, 1.0]),
    w0_scale=st.sampled_from([0.0, 0.5]),
    order=st.sampled_from(["cyclic", "permuted"]),
)
def test_every_bound_said_to_hold_is_at_least_the_update_count(
    seed, n, label, shift, bias, delta, w0_scale, order
):
    X, y = one_class(seed, n, label, shift)
    rng = np.random.default_rng(seed + 1)
    w0 = w0_scale * rng.normal(size=2)
    b0 = float(w0_scale * rng.normal()) if bias else 0.0
    w0_norm = float(np.hypot(np.linalg.norm(w0), b0))
    bounds = bound_summary(X, y, bias=bias, delta=delta, w0_norm=w0_norm)
    statements = run_bounds(bounds, bias=bias, delta=delta, w0_norm=w0_norm)
    # an epoch that does not end the run makes an update, so 20 001 epochs are enough
    # for every run whose bound is below the 20 000 updates allowed
    trace = run_perceptron(
        X,
        y,
        bias=bias,
        delta=delta,
        w0=w0,
        b0=b0,
        order=order,
        seed=seed,
        max_updates=20_000,
        max_epochs=20_001,
    )
    if bias:
        assert statements and statements[0].holds  # one class is always separable with b
    for statement in statements:
        if statement.holds:
            assert trace.converged or statement.value >= 20_000
            # bounds are exact up to rounding: 1 update against T(A) = 0.99999... is fine
            assert trace.n_updates <= statement.value * (1 + 1e-9)
