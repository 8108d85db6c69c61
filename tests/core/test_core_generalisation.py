"""Margin perceptron, losses and SGD, test errors and the generalisation curve.

Source: notes-perceptron-margin-generalization.txt (Lemma: at most 3/gamma^2
margin mistakes; Theorem: E[L] <= 3/((N+1) gamma^2); the uniform-law bound) and
notebook-perceptron-sgd-d2l.txt (the perceptron is SGD on max(0, -y f(x))).
The core is checked against plain loops written here, against run_perceptron
(a separate engine), against numerical integration and against Monte Carlo.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from perceptron_core import (
    LOSSES,
    example_order,
    generalisation_curve,
    make_separable,
    make_unit_margin,
    margin_perceptron,
    max_margin,
    proof_quantities,
    run_perceptron,
    sgd_linear,
)
from perceptron_core import generalisation as gen  # the private samplers and batch engine

PROPERTY = settings(max_examples=60, deadline=None, derandomize=True, database=None)
STREAM = ["cyclic", "permuted", "random"]


# ---------------------------------------------------------------------------
# independent references
# ---------------------------------------------------------------------------


def reference_margin_perceptron(
    X, y, order="random", seed=0, max_updates=100_000, max_epochs=1_000
):
    """The notes' loop, one example at a time: if y x·beta < 1, beta += y x.

    Stops after n examined examples in a row without an update if then every
    example has y x·beta >= 1 (the stream is an input: ``example_order``).
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    n, d = X.shape
    beta = np.zeros(d)
    weights, indices, steps = [beta.copy()], [], []
    step = clean = 0
    for epoch in range(max_epochs):
        for i in example_order(order, n, seed, epoch):
            step += 1
            if y[i] * np.dot(X[i], beta) < 1:
                beta = beta + y[i] * X[i]
                weights.append(beta.copy())
                indices.append(int(i))
                steps.append(step)
                clean = 0
                if len(indices) >= max_updates:
                    return np.array(weights), indices, steps, step
            else:
                clean += 1
                if clean == n:
                    if all(y[j] * np.dot(X[j], beta) >= 1 for j in range(n)):
                        return np.array(weights), indices, steps, step
                    clean = 0
    return np.array(weights), indices, steps, step


def _unit_rows(X):
    X = np.asarray(X, dtype=float)
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def _exact_margin(X, y):
    """gamma through the origin, computed exactly by the hard-margin SVM."""
    result = max_margin(X, y, bias=False)
    assert result.separable
    return result.margin


data_params = st.fixed_dictionaries(
    {
        "n": st.integers(4, 60),
        "dim": st.integers(2, 6),
        "margin": st.sampled_from([0.05, 0.1, 0.2, 0.4, 0.7]),
        "seed": st.integers(0, 10**6),
    }
)


# ---------------------------------------------------------------------------
# the margin perceptron: the notes' loop and the Lemma
# ---------------------------------------------------------------------------


@settings(PROPERTY)
@given(params=data_params, order=st.sampled_from(STREAM), run_seed=st.integers(0, 1000))
def test_margin_perceptron_matches_the_plain_loop(params, order, run_seed):
    ds = make_unit_margin(**params)
    trace = margin_perceptron(ds.X, ds.y, order=order, seed=run_seed)
    weights, indices, steps, examined = reference_margin_perceptron(ds.X, ds.y, order, run_seed)
    assert trace.update_indices.tolist() == indices
    assert trace.update_steps.tolist() == steps
    assert trace.n_examined == examined
    np.testing.assert_allclose(trace.weights, weights, rtol=1e-12, atol=1e-12)
    assert trace.converged
    assert np.all(ds.y * (np.asarray(ds.X) @ trace.w) >= 1)


@settings(PROPERTY)
@given(
    params=data_params,
    order=st.sampled_from(STREAM),
    run_seed=st.integers(0, 1000),
    source=st.sampled_from(["unit_margin", "separable"]),
)
def test_margin_mistakes_never_exceed_three_over_gamma_squared(params, order, run_seed, source):
    if source == "unit_margin":
        ds = make_unit_margin(**params)
    else:
        ds = make_separable(
            n=params["n"],
            margin=params["margin"] * 0.9,
            dim=params["dim"],
            seed=params["seed"],
            through_origin=True,
        )
    X, y = _unit_rows(ds.X), np.asarray(ds.y)  # ||x|| = 1, as the Lemma assumes
    assume(np.unique(y).size == 2)  # max_margin needs both classes
    gamma = _exact_margin(X, y)
    trace = margin_perceptron(
        X, y, order=order, seed=run_seed, max_updates=10**6, max_epochs=100_000
    )
    assert trace.converged
    assert trace.n_updates <= 3 / gamma**2 * (1 + 1e-9)
    # both kinds of margin mistake are told apart by the score before the update
    scores = np.asarray(trace.update_scores)
    assert np.all(scores < 1)
    np.testing.assert_array_equal(trace.update_mistakes, scores <= 0)
    # the Lemma's two lines: beta·beta* >= t gamma, ||beta_t||^2 <= 3 t
    proof = proof_quantities(trace, X, y)
    assert np.all(proof.alignment >= proof.alignment_lower - 1e-9)
    assert np.all(proof.norm_sq <= proof.norm_sq_upper + 1e-9)
    np.testing.assert_allclose(proof.norm_sq_upper, 3.0 * np.arange(trace.n_updates + 1), rtol=1e-9)


def test_margin_perceptron_trace_replays_like_run_perceptron():
    ds = make_unit_margin(n=40, margin=0.2, dim=3, seed=5)
    trace = margin_perceptron(ds.X, ds.y, seed=2)
    assert not trace.bias and trace.delta == 1.0 and np.all(trace.biases == 0)
    assert trace.update_mistakes.any() and not trace.update_mistakes.all()
    for k, step in enumerate(trace.update_steps):
        replay = trace.example_at(int(step), ds.X, ds.y)
        assert replay.updated and replay.index == trace.update_indices[k]
        assert replay.score == pytest.approx(trace.update_scores[k], abs=1e-12)
        assert replay.updates_before == k
    # an examined step without an update had y x·beta >= 1
    quiet = sorted(set(range(1, trace.n_examined + 1)) - set(trace.update_steps.tolist()))
    for step in quiet[:50]:
        replay = trace.example_at(step, ds.X, ds.y)
        assert not replay.updated and replay.score >= 1


def test_margin_rule_is_strict_at_one():
    # after one update beta = x and y x·beta = 1 exactly: the notes' rule (< 1) stops there
    X, y = np.array([[1.0, 0.0]]), np.array([1])
    trace = margin_perceptron(X, y, order="cyclic")
    assert trace.n_updates == 1 and trace.converged


def test_margin_perceptron_stops_at_its_limits_without_separability():
    X = np.array([[1.0, 0.0], [1.0, 0.0]])
    y = np.array([1, -1])
    trace = margin_perceptron(X, y, max_updates=50)
    assert trace.n_updates == 50 and not trace.converged
    assert "50 updates" in trace.stop_reason


# ---------------------------------------------------------------------------
# losses
# ---------------------------------------------------------------------------


def test_losses_table_and_kink_conventions():
    assert set(LOSSES) == {"zero_one", "perceptron", "hinge"}
    assert set(gen.LOSS_LABELS) == set(LOSSES)
    m = np.array([-2.0, -0.5, 0.0, 0.5, 1.0, 2.0])
    expected = {
        "zero_one": ([1, 1, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0]),
        "perceptron": ([2, 0.5, 0, 0, 0, 0], [-1, -1, -1, 0, 0, 0]),  # -1 at m = 0
        "hinge": ([3, 1.5, 1, 0.5, 0, 0], [-1, -1, -1, -1, 0, 0]),  # 0 at m = 1
    }
    for name, (loss, subgradient) in LOSSES.items():
        np.testing.assert_array_equal(loss(m), expected[name][0])
        np.testing.assert_array_equal(subgradient(m), expected[name][1])
        assert loss(m).shape == subgradient(m).shape == m.shape


@pytest.mark.parametrize("name", ["perceptron", "hinge"])
def test_subgradients_are_subgradients_of_the_convex_losses(name):
    loss, subgradient = LOSSES[name]
    m = np.linspace(-3, 3, 241)  # includes both kinks 0 and 1
    g = subgradient(m)
    # l(m') >= l(m) + g(m) (m' - m) for all pairs: g is a subgradient
    gap = loss(m[None, :]) - loss(m[:, None]) - g[:, None] * (m[None, :] - m[:, None])
    assert gap.min() >= -1e-12
    # away from the kinks it is the derivative
    smooth = (np.abs(m) > 0.05) & (np.abs(m - 1) > 0.05)
    h = 1e-6
    numeric = (loss(m + h) - loss(m - h)) / (2 * h)
    np.testing.assert_allclose(g[smooth], numeric[smooth], atol=1e-6)


# ---------------------------------------------------------------------------
# SGD: the perceptron and the margin perceptron as special cases
# ---------------------------------------------------------------------------


@settings(PROPERTY)
@given(
    params=data_params,
    order=st.sampled_from(STREAM),
    run_seed=st.integers(0, 1000),
    noisy=st.booleans(),
)
def test_sgd_on_perceptron_loss_with_step_one_is_the_perceptron(params, order, run_seed, noisy):
    ds = make_unit_margin(**params)
    y = np.asarray(ds.y).copy()
    if noisy:  # not separable: both stop at the same update limit
        y[: max(1, len(y) // 5)] *= -1
    assume(np.unique(y).size == 2)  # run_perceptron needs both classes
    sgd = sgd_linear(
        ds.X, y, loss="perceptron", eta=1.0, order=order, seed=run_seed, max_updates=500
    )
    perceptron = run_perceptron(ds.X, y, bias=False, order=order, seed=run_seed, max_updates=500)
    np.testing.assert_array_equal(sgd.update_indices, perceptron.update_indices)
    np.testing.assert_array_equal(sgd.update_steps, perceptron.update_steps)
    np.testing.assert_allclose(sgd.weights, perceptron.weights, rtol=1e-12, atol=1e-12)
    assert sgd.n_examined == perceptron.n_examined
    assert sgd.converged == perceptron.converged
    assert sgd.update_mistakes.all()


@settings(PROPERTY)
@given(
    params=data_params,
    order=st.sampled_from(STREAM),
    run_seed=st.integers(0, 1000),
    eta=st.sampled_from([1e-3, 0.1, 0.7, 3.0, 250.0]),
)
def test_perceptron_loss_mistakes_do_not_depend_on_eta(params, order, run_seed, eta):
    ds = make_unit_margin(**params)
    one = sgd_linear(ds.X, ds.y, loss="perceptron", eta=1.0, order=order, seed=run_seed)
    scaled = sgd_linear(ds.X, ds.y, loss="perceptron", eta=eta, order=order, seed=run_seed)
    np.testing.assert_array_equal(scaled.update_indices, one.update_indices)
    np.testing.assert_array_equal(scaled.update_steps, one.update_steps)
    # every beta is eta times the eta = 1 one
    np.testing.assert_allclose(
        scaled.weights, eta * np.asarray(one.weights), rtol=1e-9, atol=1e-12 * eta
    )


@settings(PROPERTY)
@given(
    params=data_params,
    order=st.sampled_from(STREAM),
    run_seed=st.integers(0, 1000),
    eta=st.sampled_from([0.05, 0.3, 1.0, 4.0]),
)
def test_hinge_sgd_is_the_threshold_perceptron_with_delta_one_over_eta(
    params, order, run_seed, eta
):
    # beta_eta / eta follows: update when y x·beta' < 1/eta (the perceptron with delta = 1/eta)
    ds = make_unit_margin(**params)
    assume(np.unique(ds.y).size == 2)  # run_perceptron needs both classes
    hinge = sgd_linear(ds.X, ds.y, loss="hinge", eta=eta, order=order, seed=run_seed)
    # hinge steps where y x·β < 1 (strictly: at a margin of exactly 1 its subgradient is 0),
    # the perceptron where its score is ≤ δ: δ is the float just below 1/η, so a score equal
    # to 1/η (an example of norm 1 right after its own update) moves neither
    below = float(np.nextafter(1 / eta, -np.inf))
    threshold = run_perceptron(ds.X, ds.y, bias=False, delta=below, order=order, seed=run_seed)
    np.testing.assert_array_equal(hinge.update_indices, threshold.update_indices)
    np.testing.assert_allclose(
        hinge.weights, eta * np.asarray(threshold.weights), rtol=1e-9, atol=1e-12
    )
    if eta == 1.0:
        margin = margin_perceptron(ds.X, ds.y, order=order, seed=run_seed)
        np.testing.assert_array_equal(hinge.update_indices, margin.update_indices)
        np.testing.assert_array_equal(hinge.weights, margin.weights)


def test_hinge_sgd_mistakes_depend_on_eta():
    ds = make_unit_margin(n=100, margin=0.1, dim=2, seed=0)
    runs = {
        eta: sgd_linear(ds.X, ds.y, loss="hinge", eta=eta, order="random", seed=0)
        for eta in (0.1, 1.0, 10.0)
    }
    counts = [runs[eta].n_updates for eta in (0.1, 1.0, 10.0)]
    assert counts[0] > counts[1] > counts[2]  # a smaller step needs more of them
    assert not np.array_equal(runs[0.1].update_indices[: counts[1]], runs[1.0].update_indices)


def test_sgd_on_zero_one_loss_never_moves():
    ds = make_unit_margin(n=30, margin=0.2, seed=1)
    trace = sgd_linear(ds.X, ds.y, loss="zero_one", eta=5.0)
    assert trace.n_updates == 0 and not trace.converged
    assert np.all(trace.w == 0)
    assert "stuck" in trace.stop_reason


# ---------------------------------------------------------------------------
# the data: uniform on the sphere, restricted to the margin region
# ---------------------------------------------------------------------------


def _ks_two_sample(a, b) -> float:
    a, b = np.sort(a), np.sort(b)
    grid = np.concatenate([a, b])
    return float(
        np.max(
            np.abs(
                np.searchsorted(a, grid, side="right") / a.size
                - np.searchsorted(b, grid, side="right") / b.size
            )
        )
    )


@pytest.mark.parametrize(
    "dim, margin", [(2, 0.1), (3, 0.3), (4, 0.05), (7, 0.2), (30, 0.1), (30, 0.3), (12, 0.5)]
)
def test_unit_margin_data_match_rejection_from_the_sphere(dim, margin):
    ds = make_unit_margin(n=20_000, margin=margin, dim=dim, seed=11)
    X, y, star = np.asarray(ds.X), np.asarray(ds.y), np.asarray(ds.w_star)
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1.0, atol=1e-12)
    assert np.linalg.norm(star) == pytest.approx(1.0)
    assert np.all(y * (X @ star) >= margin - 1e-12)
    np.testing.assert_array_equal(y, np.where(X @ star > 0, 1, -1))
    # independent sampler: normalised Gaussians, keep |x·beta*| >= margin
    rng = np.random.default_rng(99)
    keep = []
    while sum(len(k) for k in keep) < 20_000:
        Z = rng.standard_normal((200_000, dim))
        Z /= np.linalg.norm(Z, axis=1, keepdims=True)
        keep.append(Z[np.abs(Z @ star) >= margin])
    ref = np.vstack(keep)[:20_000]
    direction = rng.standard_normal(dim)
    direction /= np.linalg.norm(direction)
    critical = 1.95 * math.sqrt(2 / 20_000)  # two-sample KS, alpha about 0.001
    for ours, theirs in [(X @ star, ref @ star), (X @ direction, ref @ direction)]:
        assert _ks_two_sample(ours, theirs) < critical
    assert abs(np.mean(y == 1) - 0.5) < 4 * 0.5 / math.sqrt(20_000)


@pytest.mark.parametrize(
    "dim, margin",
    [(2, 0.2), (3, 0.1), (4, 0.01), (5, 0.4), (9, 0.05), (40, 0.2), (200, 0.02), (1000, 0.9)],
)
def test_margin_coordinate_has_the_sphere_density(dim, margin):
    # t = x·beta* on the unit sphere has density c (1 - t^2)^((d-3)/2); restricted to
    # [margin, 1] its distribution function is computed here by quadrature
    t = gen._margin_coordinate(np.random.default_rng(dim), 1_000_000, margin, dim)
    assert t.min() >= margin and t.max() <= 1
    grid = np.linspace(margin, 1, 400_001)
    if dim == 2:  # integrable singularity at t = 1: integrate in the angle instead
        cdf = (np.arccos(margin) - np.arccos(grid)) / np.arccos(margin)
    else:
        k = 0.5 * (dim - 3)
        inner = grid[:-1]  # the density is 0 at t = 1 (k > 0)
        log_density = k * np.log1p(-(inner**2))
        density = np.append(np.exp(log_density - log_density.max()), 1.0 if k == 0 else 0.0)
        cdf = np.concatenate([[0.0], np.cumsum(0.5 * (density[1:] + density[:-1]))])
        cdf /= cdf[-1]
    empirical = np.searchsorted(np.sort(t), grid, side="right") / t.size
    assert np.max(np.abs(empirical - cdf)) < 1.95 / math.sqrt(t.size)  # KS, alpha ~ 0.001


def test_unit_margin_data_are_reproducible_and_read_only():
    a, b = make_unit_margin(50, 0.2, 3, seed=4), make_unit_margin(50, 0.2, 3, seed=4)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)
    assert not np.array_equal(a.X, make_unit_margin(50, 0.2, 3, seed=5).X)
    assert not a.X.flags.writeable and a.b_star == 0.0 and a.name == "unit_margin"
    one = make_unit_margin(5, 0.5, 1, seed=0)
    np.testing.assert_array_equal(np.abs(one.X), 1.0)


# ---------------------------------------------------------------------------
# the test error: exact in d = 2, Monte Carlo in any d
# ---------------------------------------------------------------------------


def _error_by_integration(beta, star, margin, points=2_000_001):
    """Disagreement measured on a fine grid of angles (independent of the closed form)."""
    alpha = np.linspace(0, 2 * np.pi, points, endpoint=False)
    X = np.column_stack([np.cos(alpha), np.sin(alpha)])
    inside = np.abs(X @ star) >= margin
    truth = np.where(X @ star > 0, 1, -1)
    predicted = np.where(X @ beta > 0, 1, -1)
    return float(np.mean(truth[inside] != predicted[inside]))


@pytest.mark.parametrize("margin", [0.05, 0.3, 0.8])
@pytest.mark.parametrize("angle", [0.0, 0.02, 0.3, 1.0, np.pi / 2, 2.5, np.pi])
def test_exact_2d_error_against_integration_and_monte_carlo(margin, angle):
    star = np.array([0.6, 0.8])
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    beta = 3.7 * rotation @ star
    exact = gen.test_error_exact_2d(beta, star, margin)
    assert exact == pytest.approx(_error_by_integration(beta, star, margin), abs=2e-6)
    sample = gen.test_error_sample(beta, star, margin, dim=2, n_test=200_000, seed=3)
    assert abs(sample.error - exact) <= 4 * max(sample.stderr, 1 / 200_000)
    if angle == np.pi / 2:
        assert exact == pytest.approx(0.5)


def test_exact_2d_error_special_cases_and_stacks():
    star = np.array([1.0, 0.0])
    assert gen.test_error_exact_2d([0.0, 0.0], star, 0.2) == 0.5  # sign(0) = -1
    assert gen.test_error_exact_2d(-star, star, 0.2) == pytest.approx(1.0)
    assert gen.test_error_exact_2d(star, 5 * star, 0.2) == 0.0
    g = math.asin(0.2)  # inside the empty band: still no error
    tilt = np.array([math.cos(0.99 * g), math.sin(0.99 * g)])
    assert gen.test_error_exact_2d(tilt, star, 0.2) == 0.0
    stack = np.array([star, -star, [0.0, 1.0]])
    np.testing.assert_allclose(gen.test_error_exact_2d(stack, star, 0.2), [0.0, 1.0, 0.5])


@pytest.mark.parametrize("dim", [3, 5, 12])
def test_curve_sampler_agrees_with_test_error_sample(dim):
    # the curve samples only (x·beta*, x·e2); test_error_sample draws whole vectors
    rng = np.random.default_rng(dim)
    star = rng.standard_normal(dim)
    star /= np.linalg.norm(star)
    betas = star + 0.8 * rng.standard_normal((4, dim))
    full = gen.test_error_sample(betas, star, 0.15, dim=dim, n_test=200_000, seed=1)
    angles = np.arccos(np.clip(betas @ star / np.linalg.norm(betas, axis=1), -1, 1))
    zero = np.zeros(4, dtype=bool)
    reduced = gen._sampled_errors(np.random.default_rng(2), angles, zero, 0.15, dim, 200_000)
    assert np.all(np.abs(reduced - full.error) <= 4 * np.sqrt(2) * np.maximum(full.stderr, 1e-5))
    assert np.all(full.error > 0)


# ---------------------------------------------------------------------------
# the curve
# ---------------------------------------------------------------------------


def test_batch_engine_is_margin_perceptron_run_by_run():
    runs, n, dim = 12, 40, 3
    data = [make_unit_margin(n, 0.15, dim, seed=s) for s in range(runs)]
    signed = np.stack([np.asarray(d.y)[:, None] * np.asarray(d.X) for d in data])
    seeds = list(range(100, 100 + runs))

    def streams(run_ids, epochs):
        return np.stack(
            [example_order("random", n, seeds[r], int(e)) for r, e in zip(run_ids, epochs)]
        )

    beta, count, wrong, converged = gen._margin_perceptron_batch(signed, streams, 10**6, 10**5)

    # a tie at exactly 1 (x = e1: after one update y x·beta = 1) stops, as the notes' rule
    def two(run_ids, epochs):
        return np.stack([example_order("random", 2, 100, int(e)) for e in epochs])

    tie = gen._margin_perceptron_batch(np.eye(2)[None], two, 10, 10)
    assert tie[1][0] == 2 and margin_perceptron(np.eye(2), [1, 1], seed=100).n_updates == 2
    for r, d in enumerate(data):
        trace = margin_perceptron(d.X, d.y, order="random", seed=seeds[r], unit=True)
        np.testing.assert_allclose(beta[r], trace.w, rtol=1e-12, atol=1e-12)
        assert count[r] == trace.n_updates
        assert wrong[r] == int(np.sum(trace.update_mistakes))
        assert converged[r] == trace.converged


def test_default_curve_is_under_the_stability_bound():
    curve = generalisation_curve()
    np.testing.assert_array_equal(curve.n_train, [10, 30, 100, 300, 1000])
    assert curve.exact and curve.errors.shape == curve.margin_mistakes.shape == (5, 200)
    assert np.all(curve.mean_error <= curve.stability_bound)
    assert np.all(curve.margin_mistakes <= curve.mistake_bound)
    assert np.all(curve.mean_error[:-1] >= curve.mean_error[1:])  # more data, less error
    np.testing.assert_allclose(curve.stability_bound, 3 / ((curve.n_train + 1) * 0.1**2))
    assert curve.stability_bound[0] > 1  # raw, not clipped
    np.testing.assert_allclose(curve.mean_error, curve.errors.mean(axis=1))
    np.testing.assert_allclose(curve.stderr, curve.errors.std(axis=1, ddof=1) / math.sqrt(200))


@pytest.mark.parametrize("margin, dim", [(0.5, 2), (0.7, 3), (0.6, 10)])
def test_curve_under_the_stability_bound_where_it_bites(margin, dim):
    curve = generalisation_curve(
        n_train=[5, 20, 80], margin=margin, dim=dim, repeats=300, seed=1, n_test=5_000
    )
    assert curve.exact == (dim == 2)
    assert np.all(curve.mean_error <= curve.stability_bound)
    assert np.all(curve.margin_mistakes <= 3 / margin**2)


def test_curve_at_one_training_point_has_the_expected_error():
    # N = 1: beta_hat is a positive multiple of y x, whose angle phi to beta* is uniform on
    # [0, a], a = arccos(gamma) (d = 2). With g = arcsin(gamma) = pi/2 - a the exact error
    # clip((phi - g) / (pi - 2g), 0, 1) has mean (a - g)^2 / (2 a (pi - 2 g)).
    margin = 0.3
    curve = generalisation_curve(n_train=[1], margin=margin, repeats=1000, seed=4)
    a, g = math.acos(margin), math.asin(margin)
    expected = (a - g) ** 2 / (2 * a * (math.pi - 2 * g))
    assert abs(curve.mean_error[0] - expected) <= 4 * curve.stderr[0]
    # w = y x has y x·w = ||x||^2 = 1 exactly: one margin mistake, however x rounds
    assert np.all(curve.margin_mistakes == 1)


def test_uniform_bound_is_the_notes_formula():
    curve = generalisation_curve(n_train=[10, 100], repeats=3, dim=3, n_test=100, confidence=0.9)
    N, P = np.array([10.0, 100.0]), 3
    delta = np.sqrt(2 * np.log(1 / 0.1) / N)  # exp(-N delta^2 / 2) = 0.1
    np.testing.assert_allclose(np.exp(-N * delta**2 / 2), 0.1)
    np.testing.assert_allclose(curve.uniform_bound, np.sqrt((P + 1) * np.log(N + 1) / N) + delta)


def test_curve_is_reproducible_and_reports_progress():
    seen = []
    a = generalisation_curve(n_train=[10, 50], repeats=20, seed=3, progress=seen.append)
    b = generalisation_curve(n_train=[50, 10], repeats=20, seed=3)
    np.testing.assert_array_equal(a.errors, b.errors[::-1])  # seeded by (seed, N)
    assert seen[-1] == pytest.approx(1.0) and seen == sorted(seen)
    assert not a.errors.flags.writeable
    assert set(a.columns) >= {"n_train", "mean_error", "stderr", "stability_bound", "uniform_bound"}


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------

X_OK = make_unit_margin(10, 0.2, 2, seed=0).X
Y_OK = make_unit_margin(10, 0.2, 2, seed=0).y

BAD_CALLS = {
    "margin 0": (lambda: make_unit_margin(10, 0.0), r"margin"),
    "margin 1": (lambda: make_unit_margin(10, 1.0), r"margin"),
    "margin negative": (lambda: generalisation_curve(margin=-0.1), r"margin"),
    "margin above 1": (lambda: gen.test_error_exact_2d([1, 0], [0, 1], 1.5), r"margin"),
    "N = 0": (lambda: generalisation_curve(n_train=[10, 0]), r"N \(training points\)"),
    "no N": (lambda: generalisation_curve(n_train=[]), r"at least one"),
    "N too big": (lambda: generalisation_curve(n_train=[20_000]), r"N"),
    "too many N": (lambda: generalisation_curve(n_train=list(range(1, 30))), r"too many"),
    "bound at N = 0": (lambda: gen.stability_bound([0, 10], 0.1), r"N \(training points\)"),
    "uniform at N = 0": (lambda: gen.uniform_bound(0, 2), r"N \(training points\)"),
    "uniform at P = 0": (lambda: gen.uniform_bound(10, 0), r"P \(dimension\)"),
    "repeats 0": (lambda: generalisation_curve(repeats=0), r"repeats"),
    "repeats too many": (lambda: generalisation_curve(repeats=5000), r"repeats"),
    "too much work": (
        lambda: generalisation_curve(margin=0.01, n_train=[1000], repeats=100),
        r"too much work",
    ),
    "n_test 0": (lambda: generalisation_curve(dim=3, n_test=0), r"n_test"),
    "bad confidence": (lambda: generalisation_curve(confidence=1.0), r"confidence"),
    "bad progress": (lambda: generalisation_curve(progress=3), r"progress"),
    "unknown loss": (lambda: sgd_linear(X_OK, Y_OK, loss="squared"), r"unknown loss"),
    "eta 0": (lambda: sgd_linear(X_OK, Y_OK, eta=0.0), r"eta"),
    "eta negative": (lambda: sgd_linear(X_OK, Y_OK, eta=-1.0), r"eta"),
    "greedy order": (lambda: margin_perceptron(X_OK, Y_OK, order="max_residual"), r"unknown order"),
    "unknown order": (lambda: sgd_linear(X_OK, Y_OK, order="sorted"), r"unknown order"),
    "bad labels": (lambda: margin_perceptron(X_OK, np.zeros(10)), r"labels must be"),
    "max_updates 0": (lambda: margin_perceptron(X_OK, Y_OK, max_updates=0), r"max_updates"),
    "max_updates too many": (lambda: sgd_linear(X_OK, Y_OK, max_updates=10**7), r"max_updates"),
    "max_epochs too many": (lambda: margin_perceptron(X_OK, Y_OK, max_epochs=10**9), r"max_epochs"),
    "too many values": (lambda: make_unit_margin(100_000, 0.1, 200), r"over the limit"),
    "dim 0": (lambda: make_unit_margin(10, 0.1, 0), r"dim"),
    "dim too big": (lambda: make_unit_margin(10, 0.1, 5000), r"dim"),
    "n 0": (lambda: make_unit_margin(0, 0.1), r"n \(number of points\)"),
    "negative seed": (lambda: make_unit_margin(10, 0.1, seed=-1), r"seed"),
    "beta shape": (lambda: gen.test_error_exact_2d([1, 0, 0], [1, 0], 0.1), r"beta must have"),
    "zero beta_star": (lambda: gen.test_error_exact_2d([1, 0], [0, 0], 0.1), r"nonzero"),
    "beta_star not 2-D": (lambda: gen.test_error_exact_2d([1, 0, 0], [1, 0, 0], 0.1), r"dim"),
    "dim mismatch": (lambda: gen.test_error_sample([1, 0], [1, 0], 0.1, dim=3), r"dim"),
    "NaN beta": (lambda: gen.test_error_sample([np.nan, 0], [1, 0], 0.1), r"finite"),
    "n_test too big": (lambda: gen.test_error_sample([1, 0], [1, 0], 0.1, n_test=10**7), r"n_test"),
}


@pytest.mark.parametrize("case", list(BAD_CALLS))
def test_bad_arguments_raise_value_error_saying_what_to_fix(case):
    call, pattern = BAD_CALLS[case]
    with pytest.raises(ValueError, match=pattern):
        call()
