"""The kernel perceptron and kernels (perceptron_core/kernels.py) against independent references.

* linear kernel: the same updates, steps, biases and stop as run_perceptron (every order,
  bias on/off, delta 0 and 0.5), and w = sum alpha_i y_i x_i equals run_perceptron's w;
* polynomial kernel: the same updates as run_perceptron on the explicit feature map written
  here (the tensor power of (sqrt(scale) x, sqrt(c)));
* monotone-conjunction kernel (Claim 2.1): = Gram matrix of the explicit features = 2^|Ones|
  counted bit by bit in plain Python; the kernel run = run_perceptron on those features;
* XOR and circles: a suitable kernel converges, the linear one stops at its limit;
* the feature-space margin against scikit-learn's SVC(kernel="precomputed") (test-only),
  and the mistake bound (R_Phi / gamma_Phi)^2 as a property over seeds;
* decision_function / decision_path against eq. (2) summed in the test; ValueErrors.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_perceptron import random_labels
from sklearn.svm import SVC

from perceptron_core import (
    GREEDY_ORDERS,
    KERNEL_PARAMETERS,
    KERNELS,
    MAX_CONJUNCTION_BITS,
    MAX_KERNEL_SAMPLES,
    ORDERS,
    kernel_margin,
    kernel_perceptron,
    make_circles,
    make_separable,
    make_xor,
    max_margin,
    monotone_conjunction_features,
    monotone_conjunction_kernel,
    padded_margin,
    run_perceptron,
)

# ---------------------------------------------------------------------------
# helpers written independently of the engine
# ---------------------------------------------------------------------------


def polynomial_features(X, degree, coef0, scale):
    """Explicit Phi with Phi(a)·Phi(b) = (scale a·b + coef0)^degree.

    With u = (sqrt(scale) x, sqrt(coef0)), u·v = scale a·b + coef0, and the
    degree-fold tensor power u ⊗ ... ⊗ u has inner product (u·v)^degree.
    """
    X = np.asarray(X, dtype=float)
    u = np.hstack([np.sqrt(scale) * X, np.full((X.shape[0], 1), np.sqrt(coef0))])
    phi = np.ones((X.shape[0], 1))
    for _ in range(degree):
        phi = np.einsum("ni,nj->nij", phi, u).reshape(X.shape[0], -1)
    return phi


def ones_kernel_by_counting(A, B):
    """2^|Ones(a, b)|: count positions where both bits are 1, in plain Python."""
    return np.array(
        [[2.0 ** sum(1 for p, q in zip(a, b) if p == 1 and q == 1) for b in B] for a in A]
    )


def conjunction_by_definition(a, subset):
    """The monotone conjunction AND_{j in subset} a_j (empty: 1)."""
    return float(all(a[j] == 1 for j in subset))


def _datasets(seed: int):
    """(X, y) pairs: separable data, then random labels.

    make_separable puts points at exactly +-margin and in mirrored pairs; then a score can
    equal delta (or two scores each other) in exact arithmetic, a tie that rounding decides
    differently in w·x and in a sum of kernel values. A jitter of 1e-7 (far below the
    margins) removes those exact ties.
    """
    rng = np.random.default_rng(seed)
    for k in range(5):
        dim = int(rng.integers(1, 5))
        n = int(rng.integers(2, 50))
        margin = float(rng.choice([0.05, 0.1, 0.2]))
        ds = make_separable(
            n=n, margin=margin, dim=dim, seed=100 * seed + k, through_origin=k % 2 == 0
        )
        yield ds.X + 1e-7 * rng.standard_normal(ds.X.shape), ds.y
    for _ in range(2):
        yield random_labels(rng, max_dim=5, max_n=50)


def _limit_part(stop_reason: str) -> str | None:
    """'limit of ...' inside the parentheses of a stop reason, None when converged."""
    if "(limit of" not in stop_reason:
        return None
    start = stop_reason.index("(limit of") + 1
    return stop_reason[start : stop_reason.index(")", start)]


def _assert_same_updates(kernel_trace, trace):
    np.testing.assert_array_equal(kernel_trace.update_indices, trace.update_indices)
    np.testing.assert_array_equal(kernel_trace.update_steps, trace.update_steps)
    assert kernel_trace.n_examined == trace.n_examined
    assert kernel_trace.epochs == trace.epochs
    assert kernel_trace.converged == trace.converged
    assert kernel_trace.n_updates == trace.n_updates
    assert _limit_part(kernel_trace.stop_reason) == _limit_part(trace.stop_reason)
    scale = 1.0 + np.abs(trace.update_scores).max(initial=0.0)
    np.testing.assert_allclose(
        kernel_trace.update_scores, trace.update_scores, rtol=1e-9, atol=1e-9 * scale
    )
    np.testing.assert_allclose(kernel_trace.biases, trace.biases, rtol=0, atol=1e-12)


# ---------------------------------------------------------------------------
# linear kernel = run_perceptron
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "order, bias, delta", list(itertools.product(list(ORDERS), [True, False], [0.0, 0.5]))
)
def test_linear_kernel_makes_the_updates_of_run_perceptron(order, bias, delta):
    for case, (X, y) in enumerate(_datasets(seed=len(order) + 7 * bias)):
        limits = dict(max_updates=300, max_epochs=60)
        trace = run_perceptron(X, y, bias=bias, delta=delta, order=order, seed=case, **limits)
        kt = kernel_perceptron(
            X, y, kernel="linear", bias=bias, delta=delta, order=order, seed=case, **limits
        )
        _assert_same_updates(kt, trace)
        # eq. (1): w = sum_i alpha_i y_i x_i, here after every update
        for upto in sorted({0, kt.n_updates // 2, kt.n_updates}):
            alphas = np.bincount(kt.update_indices[:upto], minlength=len(y))
            np.testing.assert_allclose(
                alphas @ (y[:, None] * X), trace.weights[upto], rtol=1e-12, atol=1e-9
            )
            np.testing.assert_array_equal(kt.alphas_after(upto), alphas)
        np.testing.assert_array_equal(
            kt.alphas, np.bincount(trace.update_indices, minlength=len(y))
        )
        if order in GREEDY_ORDERS:
            np.testing.assert_array_equal(kt.greedy_indices, trace.greedy_indices)
        steps = np.arange(1, kt.n_examined + 1)
        np.testing.assert_array_equal(kt.indices_at_steps(steps), trace.indices_at_steps(steps))


def test_linear_decision_function_is_w_dot_x_plus_b():
    ds = make_separable(n=60, margin=0.05, dim=3, seed=4)
    trace = run_perceptron(ds.X, ds.y, bias=True)
    kt = kernel_perceptron(ds.X, ds.y, kernel="linear", bias=True)
    grid = np.random.default_rng(0).uniform(-1, 1, (37, 3))
    path = kt.decision_path(grid)
    assert path.shape == (kt.n_updates + 1, 37)
    for upto in range(kt.n_updates + 1):
        expected = grid @ trace.weights[upto] + trace.biases[upto]
        np.testing.assert_allclose(
            kt.decision_function(grid, upto=upto), expected, rtol=1e-10, atol=1e-10
        )
        np.testing.assert_allclose(path[upto], expected, rtol=1e-10, atol=1e-10)


# ---------------------------------------------------------------------------
# polynomial kernel = run_perceptron on explicit features
# ---------------------------------------------------------------------------


def test_explicit_polynomial_features_reproduce_the_kernel():
    rng = np.random.default_rng(1)
    A, B = rng.standard_normal((7, 3)), rng.standard_normal((5, 3))
    for degree, coef0, scale in [(1, 0.0, 1.0), (2, 1.0, 1.0), (3, 0.5, 2.0), (2, 0.0, 0.3)]:
        expected = (
            polynomial_features(A, degree, coef0, scale)
            @ polynomial_features(B, degree, coef0, scale).T
        )
        np.testing.assert_allclose(
            KERNELS["poly"](A, B, degree=degree, coef0=coef0, scale=scale),
            expected,
            rtol=1e-12,
            atol=1e-12,
        )


@pytest.mark.parametrize("order", list(ORDERS))
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("degree, coef0, scale", [(2, 1.0, 1.0), (3, 1.0, 0.5), (2, 0.0, 2.0)])
def test_poly_kernel_makes_the_updates_of_the_primal_on_explicit_features(
    order, bias, degree, coef0, scale
):
    datasets = [
        make_xor(n=40, seed=3),
        make_circles(n=50, seed=5),
        make_separable(n=30, margin=0.1, dim=2, seed=6),
    ]
    for seed, ds in enumerate(datasets):
        features = polynomial_features(ds.X, degree, coef0, scale)
        limits = dict(max_updates=400, max_epochs=100)
        trace = run_perceptron(features, ds.y, bias=bias, order=order, seed=seed, **limits)
        kt = kernel_perceptron(
            ds.X,
            ds.y,
            kernel="poly",
            degree=degree,
            coef0=coef0,
            scale=scale,
            bias=bias,
            order=order,
            seed=seed,
            **limits,
        )
        _assert_same_updates(kt, trace)
        # f(x) = w·Phi(x) + b (eq. 2) on new points
        grid = np.random.default_rng(seed).uniform(-1.2, 1.2, (25, 2))
        expected = polynomial_features(grid, degree, coef0, scale) @ trace.w + trace.b
        np.testing.assert_allclose(
            kt.decision_function(grid),
            expected,
            rtol=1e-9,
            atol=1e-9 * (1 + np.abs(expected).max()),
        )


# ---------------------------------------------------------------------------
# monotone-conjunction kernel (Claim 2.1)
# ---------------------------------------------------------------------------


def test_conjunction_features_for_three_bits_follow_the_notes_list():
    bits = np.array(list(itertools.product([0, 1], repeat=3)))
    features = monotone_conjunction_features(bits)
    assert features.shape == (8, 8)
    for s in range(8):
        subset = [j for j in range(3) if s >> j & 1]
        for row, a in enumerate(bits):
            assert features[row, s] == conjunction_by_definition(a, subset)
    # column 0 is the empty conjunction, always 1; the last one is a1 AND a2 AND a3
    assert (features[:, 0] == 1).all()
    np.testing.assert_array_equal(features[:, 7], bits.all(axis=1))


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(
    n_bits=st.integers(1, 9),
    m=st.integers(1, 8),
    k=st.integers(1, 8),
    seed=st.integers(0, 2**32 - 1),
)
def test_conjunction_kernel_is_the_gram_matrix_of_all_conjunctions(n_bits, m, k, seed):
    rng = np.random.default_rng(seed)
    A = rng.integers(0, 2, (m, n_bits))
    B = rng.integers(0, 2, (k, n_bits))
    K = monotone_conjunction_kernel(A, B)
    np.testing.assert_array_equal(K, ones_kernel_by_counting(A, B))
    explicit = monotone_conjunction_features(A) @ monotone_conjunction_features(B).T
    np.testing.assert_array_equal(K, explicit)
    np.testing.assert_array_equal(KERNELS["monotone_conjunction"](A, B), K)


@pytest.mark.parametrize("order", list(ORDERS))
def test_conjunction_kernel_run_equals_the_primal_on_explicit_features(order):
    rng = np.random.default_rng(8)
    n_bits = 6
    bits = rng.integers(0, 2, (60, n_bits))
    # target: x1 AND x3 (a monotone conjunction) -> separable in feature space
    y = np.where((bits[:, 0] == 1) & (bits[:, 2] == 1), 1, -1)
    y[:2] = (1, -1)
    bits[0, [0, 2]] = 1
    bits[1, 0] = 0
    for bias in (True, False):
        trace = run_perceptron(
            monotone_conjunction_features(bits), y, bias=bias, order=order, seed=2
        )
        kt = kernel_perceptron(
            bits, y, kernel="monotone_conjunction", bias=bias, order=order, seed=2
        )
        _assert_same_updates(kt, trace)
        assert kt.converged


# ---------------------------------------------------------------------------
# XOR and circles: kernels separate what no line separates
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("maker", [make_xor, make_circles])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_xor_and_circles_need_a_kernel(maker, seed):
    ds = maker(n=120, seed=seed)
    assert not max_margin(ds.X, ds.y).separable  # no line separates them
    linear = kernel_perceptron(ds.X, ds.y, kernel="linear", max_updates=3_000, max_epochs=200)
    assert not linear.converged
    assert "limit of" in linear.stop_reason and "not be separable" in linear.stop_reason
    for kernel, params in [("poly", dict(degree=2, coef0=1.0)), ("rbf", dict(scale=2.0))]:
        for order in ORDERS:
            kt = kernel_perceptron(ds.X, ds.y, kernel=kernel, order=order, seed=seed, **params)
            assert kt.converged, (kernel, order, kt.stop_reason)
            assert kt.stop_reason.startswith("converged")
            # converged means every training example is strictly on its side
            assert np.all(ds.y * kt.decision_function(ds.X) > 0)
            assert kt.alphas.sum() == kt.n_updates


# ---------------------------------------------------------------------------
# the margin in feature space
# ---------------------------------------------------------------------------


def svc_homogeneous_margin(signed_gram):
    """min ||p|| over conv{a_i} from <a_i, a_j> = signed_gram, by scikit-learn's SVC.

    SVC has a free intercept; on the symmetric set {a_i labelled +1} ∪ {-a_i labelled -1}
    the best intercept is 0, so its margin 1/||w|| is the margin through the origin.
    """
    n = signed_gram.shape[0]
    doubled = np.block([[signed_gram, -signed_gram], [-signed_gram, signed_gram]])
    labels = np.concatenate([np.ones(n), -np.ones(n)])
    svc = SVC(kernel="precomputed", C=1e7, tol=1e-10).fit(doubled, labels)
    coef = svc.dual_coef_[0]
    sv = svc.support_
    return 1.0 / np.sqrt(coef @ doubled[np.ix_(sv, sv)] @ coef)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
@pytest.mark.parametrize(
    "maker, kernel, params",
    [
        (make_xor, "poly", dict(degree=2, coef0=1.0, scale=1.0)),
        (make_circles, "poly", dict(degree=2, coef0=0.5, scale=2.0)),
        (make_xor, "rbf", dict(scale=3.0)),
        (make_circles, "rbf", dict(scale=0.7)),
    ],
)
@pytest.mark.parametrize("bias", [True, False])
def test_kernel_margin_matches_scikit_learn(seed, maker, kernel, params, bias):
    ds = maker(n=60, seed=seed)
    result = kernel_margin(ds.X, ds.y, kernel=kernel, bias=bias, **params)
    gram = KERNELS[kernel](ds.X, ds.X, **params) + (1.0 if bias else 0.0)
    assert result.radius == pytest.approx(np.sqrt(np.diag(gram).max()), rel=1e-12)
    expected = svc_homogeneous_margin(ds.y[:, None] * ds.y[None, :] * gram)
    assert result.separable
    assert result.margin == pytest.approx(expected, rel=1e-4)
    assert result.bound == pytest.approx((result.radius / result.margin) ** 2)
    # the nearest point is a convex combination of the support vectors
    assert result.support_weights.sum() == pytest.approx(1.0)
    assert np.all(result.support_weights > 0)


@pytest.mark.parametrize("seed", range(6))
def test_linear_kernel_margin_is_the_margin_of_the_original_space(seed):
    ds = make_separable(n=80, margin=0.1, dim=3, seed=seed, through_origin=True)
    assert kernel_margin(ds.X, ds.y, kernel="linear", bias=False).margin == pytest.approx(
        max_margin(ds.X, ds.y, bias=False).margin, rel=1e-6
    )
    assert kernel_margin(ds.X, ds.y, kernel="linear", bias=True).margin == pytest.approx(
        padded_margin(ds.X, ds.y), rel=1e-6
    )


def test_kernel_margin_does_not_depend_on_the_room_for_coordinates(monkeypatch):
    """Starting with 2 axes forces the solver to restart with more; the margin is the same."""
    from perceptron_core import kernels

    ds = make_circles(n=80, seed=1)
    expected = kernel_margin(ds.X, ds.y, kernel="rbf", scale=20.0)
    monkeypatch.setattr(kernels, "_INITIAL_AXES", 2)
    again = kernel_margin(ds.X, ds.y, kernel="rbf", scale=20.0)
    assert len(expected.support) > 2
    assert again.margin == pytest.approx(expected.margin, rel=1e-9)


def test_linear_kernel_margin_reports_xor_as_not_separable():
    ds = make_xor(n=80, seed=0)
    result = kernel_margin(ds.X, ds.y, kernel="linear")
    assert not result.separable and result.margin == 0.0 and result.bound == np.inf


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(
    seed=st.integers(0, 10_000),
    order=st.sampled_from(list(ORDERS)),
    kernel=st.sampled_from(["poly", "rbf"]),
    xor=st.booleans(),
)
def test_updates_never_exceed_the_feature_space_bound(seed, order, kernel, xor):
    """Theorem 1.28 in feature space (padded, w0 = 0, delta = 0): M <= (R_Phi / gamma_Phi)^2."""
    ds = (make_xor if xor else make_circles)(n=50, seed=seed)
    params = dict(degree=2, coef0=1.0) if kernel == "poly" else dict(scale=2.0)
    margin = kernel_margin(ds.X, ds.y, kernel=kernel, bias=True, **params)
    kt = kernel_perceptron(ds.X, ds.y, kernel=kernel, bias=True, order=order, seed=seed, **params)
    assert margin.separable and kt.converged
    assert kt.n_updates <= margin.bound


# ---------------------------------------------------------------------------
# decision_path, the trace
# ---------------------------------------------------------------------------


def test_decision_path_is_eq_2_summed_directly():
    ds = make_circles(n=40, seed=2)
    kt = kernel_perceptron(ds.X, ds.y, kernel="rbf", scale=1.5)
    grid = np.random.default_rng(3).uniform(-1.2, 1.2, (30, 2))
    K = np.exp(-1.5 * ((grid[:, None, :] - ds.X[None, :, :]) ** 2).sum(-1)) + 1.0
    updates = [kt.n_updates, 0, 3, 3, 1]
    path = kt.decision_path(grid, updates=updates)
    for row, upto in enumerate(updates):
        alphas = np.zeros(len(ds.y))
        for i in kt.update_indices[:upto]:
            alphas[i] += 1
        np.testing.assert_allclose(path[row], K @ (alphas * ds.y), rtol=1e-10, atol=1e-10)
    assert kt.decision_path(grid, updates=[]).shape == (0, 30)


def test_trace_is_read_only():
    ds = make_xor(n=30, seed=1)
    kt = kernel_perceptron(ds.X, ds.y)
    with pytest.raises(dataclasses.FrozenInstanceError):
        kt.converged = False
    for name in ("update_indices", "update_steps", "update_scores", "alphas", "biases", "X", "y"):
        with pytest.raises(ValueError):
            getattr(kt, name)[0] = 1


def test_every_kernel_in_the_table_has_the_shared_signature():
    bits = np.random.default_rng(0).integers(0, 2, (6, 4))
    for name, kernel in KERNELS.items():
        K = kernel(bits, bits[:3], degree=3, coef0=0.5, scale=0.5)
        assert K.shape == (6, 3)
        assert set(KERNEL_PARAMETERS[name]) <= {"degree", "coef0", "scale"}


# ---------------------------------------------------------------------------
# ValueErrors that say what to fix
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(kernel="sigmoid"), "unknown kernel"),
        (dict(kernel="poly", degree=0), "degree"),
        (dict(kernel="poly", degree=2.5), "whole number"),
        (dict(kernel="poly", coef0=-1.0), "coef0"),
        (dict(kernel="rbf", scale=0.0), "scale"),
        (dict(order="sideways"), "unknown order"),
        (dict(seed=-1), "seed"),
        (dict(max_updates=0), "max_updates"),
        (dict(max_epochs=0), "max_epochs"),
        (dict(max_updates=10**7), "max_updates"),
        (dict(max_epochs=10**8), "max_epochs"),
        (dict(delta=-0.5), "delta"),
        (dict(bias="yes"), "bias"),
        (dict(kernel="monotone_conjunction"), "bits 0 or 1"),
    ],
)
def test_kernel_perceptron_value_errors(kwargs, message):
    ds = make_xor(n=20, seed=0)
    with pytest.raises(ValueError, match=message):
        kernel_perceptron(ds.X, ds.y, **kwargs)


def test_unused_parameters_are_not_checked():
    ds = make_xor(n=20, seed=0)
    kernel_perceptron(ds.X, ds.y, kernel="linear", degree=0, scale=-1.0, max_updates=5)
    kernel_perceptron(ds.X, ds.y, kernel="rbf", degree=0, coef0=-1.0)


def test_value_errors_of_data_and_sizes():
    ds = make_xor(n=20, seed=0)
    with pytest.raises(ValueError, match="-1 or \\+1"):
        kernel_perceptron(ds.X, np.where(ds.y > 0, 1, 0))
    big = np.zeros((MAX_KERNEL_SAMPLES + 1, 2))
    labels = np.where(np.arange(MAX_KERNEL_SAMPLES + 1) % 2 == 0, 1, -1)
    with pytest.raises(ValueError, match=f"at most {MAX_KERNEL_SAMPLES} examples"):
        kernel_perceptron(big, labels)
    with pytest.raises(ValueError, match=f"at most {MAX_KERNEL_SAMPLES} examples"):
        kernel_margin(big, labels)
    with pytest.raises(ValueError, match="overflowed"):
        kernel_perceptron(ds.X * 1e200, ds.y, kernel="poly", degree=3)


def test_value_errors_of_the_trace_methods():
    ds = make_xor(n=20, seed=0)
    kt = kernel_perceptron(ds.X, ds.y)
    with pytest.raises(ValueError, match="upto"):
        kt.decision_function(ds.X, upto=kt.n_updates + 1)
    with pytest.raises(ValueError, match="features"):
        kt.decision_function(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="updates must lie"):
        kt.decision_path(ds.X, updates=[-1])
    with pytest.raises(ValueError, match="whole numbers"):
        kt.decision_path(ds.X, updates=[0.5])
    with pytest.raises(ValueError, match="steps must lie"):
        kt.indices_at_steps([0])


def test_value_errors_of_the_conjunction_functions():
    with pytest.raises(ValueError, match="bits 0 or 1"):
        monotone_conjunction_kernel([[0, 2]], [[1, 1]])
    with pytest.raises(ValueError, match="bits 0 or 1"):
        monotone_conjunction_features([[0.5, 1]])
    with pytest.raises(ValueError, match=f"d <= {MAX_CONJUNCTION_BITS} bits"):
        monotone_conjunction_features(np.ones((1, MAX_CONJUNCTION_BITS + 1)))
    with pytest.raises(ValueError, match="at most 256 rows"):
        monotone_conjunction_features(np.ones((257, MAX_CONJUNCTION_BITS)))
    with pytest.raises(ValueError, match="same length|features but B"):
        monotone_conjunction_kernel(np.ones((2, 3)), np.ones((2, 4)))
    with pytest.raises(ValueError, match="2-D"):
        KERNELS["rbf"](np.ones(3), np.ones((2, 3)))
