"""relaxation (Algorithm 1.37, index rules of Remark 1.38) and the perceptron as a special case.

The plain loop below is written from the notes: for t = 1, 2, ...: pick I_t,
w <- (1 - eta) w + eta [w - (a_i·w - c_i)^+ / <a_i, a_i> a_i]. The engine must
take the same steps. Geometry is checked directly: eta = 1 lands on the violated
hyperplane, eta = 2 on the mirror point; systems with an interior point are
solved by every rule; infeasible systems stop at max_iter with bounded iterates.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_core import (
    INDEX_RULE_LABELS,
    INDEX_RULES,
    example_order,
    make_separable,
    perceptron_eta,
    perceptron_system,
    project,
    relaxation,
    relaxation_step,
    run_perceptron,
)

ETAS = [0.5, 1.0, 1.5, 2.0]


def _interior_system(seed: int, p: int = 2):
    """A^T w <= c containing the ball of radius 0.3 around a random w* (an interior)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 12))
    A = rng.standard_normal((p, n))
    w_star = rng.standard_normal(p)
    c = A.T @ w_star + 0.3 * np.linalg.norm(A, axis=0)
    w0 = w_star + 4 * rng.standard_normal(p)
    return A, c, w0


def _infeasible_system(seed: int, p: int = 2):
    """Random half-spaces plus a_0·w <= -1 and -a_0·w <= -1, which contradict each other."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 8))
    A = rng.standard_normal((p, n))
    c = rng.standard_normal(n)
    a = rng.standard_normal((p, 1))
    return np.hstack([a, A, -a]), np.concatenate([[-1.0], c, [-1.0]])


def _plain_relaxation(A, c, eta, rule, w0, max_iter, tol=0.0):
    """Algorithm 1.37 with the deterministic rules, one index at a time."""
    p, n = A.shape
    w = np.array(w0, dtype=float)
    iterates, indices = [w.copy()], []
    for t in range(max_iter):
        residuals = [float(np.dot(A[:, i], w)) - c[i] for i in range(n)]
        if max(residuals) <= tol:
            break
        if rule == "cyclic":
            i = t % n
        elif rule == "max_residual":
            i = max(range(n), key=lambda j: (residuals[j], -j))
        else:  # max_distance, measured beyond the tolerance
            i = max(range(n), key=lambda j: ((residuals[j] - tol) / np.linalg.norm(A[:, j]), -j))
        a = A[:, i]
        violation = max(residuals[i], 0.0) if residuals[i] > tol else 0.0
        projection = w - violation / np.dot(a, a) * a
        w = (1 - eta) * w + eta * projection
        iterates.append(w.copy())
        indices.append(i)
    return np.array(iterates), np.array(indices, dtype=int)


finite = st.floats(-10, 10, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.lists(finite, min_size=3, max_size=3), st.lists(finite, min_size=3, max_size=3), finite)
def test_eta_one_projects_onto_the_hyperplane_and_eta_two_reflects(a, w, c_i):
    a, w = np.array(a), np.array(w)
    if np.dot(a, a) < 1e-3:
        return
    A, c = a[:, None], np.array([c_i])
    residual = a @ w - c_i
    on_plane = relaxation_step(A, c, w, 0, eta=1.0)
    mirror = relaxation_step(A, c, w, 0, eta=2.0)
    scale = 1 + np.abs(a) @ np.abs(w) + abs(c_i)
    if residual <= 0:  # satisfied: nothing moves
        np.testing.assert_array_equal(on_plane, w)
        np.testing.assert_array_equal(mirror, w)
        return
    assert a @ on_plane - c_i == pytest.approx(0, abs=1e-12 * scale)  # on the hyperplane
    # the move is along -a and as short as possible: distance residual / ||a||
    np.testing.assert_allclose(w - on_plane, residual / (a @ a) * a, atol=1e-12 * scale)
    assert np.linalg.norm(w - on_plane) == pytest.approx(residual / np.linalg.norm(a))
    assert a @ mirror - c_i == pytest.approx(-residual, abs=1e-12 * scale)  # mirrored side
    np.testing.assert_allclose((w + mirror) / 2, on_plane, atol=1e-12 * scale)
    for eta in (0.3, 1.0, 1.7):  # general eta: the point (1 - eta) w + eta P(w)
        np.testing.assert_allclose(
            relaxation_step(A, c, w, 0, eta), (1 - eta) * w + eta * on_plane, atol=1e-12 * scale
        )


@pytest.mark.parametrize("rule", ["cyclic", "max_residual", "max_distance"])
@pytest.mark.parametrize("eta", ETAS)
@pytest.mark.parametrize("seed", range(5))
def test_engine_takes_the_steps_of_the_plain_loop(rule, eta, seed):
    for A, c, w0 in (_interior_system(seed), _infeasible_system(seed) + (np.ones(2),)):
        trace = relaxation(A, c, eta=eta, rule=rule, w0=w0, tol=1e-9, max_iter=300)
        iterates, indices = _plain_relaxation(A, c, eta, rule, w0, 300, tol=1e-9)
        np.testing.assert_array_equal(trace.indices, indices)
        np.testing.assert_allclose(trace.iterates, iterates, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("rule", list(INDEX_RULES))
@pytest.mark.parametrize("eta", [1.0, 2.0])
def test_every_move_lands_on_the_hyperplane_or_its_mirror(rule, eta):
    for seed in range(4):
        A, c = _infeasible_system(seed)
        trace = relaxation(A, c, eta=eta, rule=rule, seed=seed, max_iter=400)
        assert trace.n_iter == 400 and trace.moved.any()
        for t in np.flatnonzero(trace.moved):
            i, before, after = trace.indices[t], trace.iterates[t], trace.iterates[t + 1]
            a = A[:, i]
            assert a @ before - c[i] == pytest.approx(trace.residuals[t], abs=1e-9)
            target = 0.0 if eta == 1.0 else -trace.residuals[t]
            assert a @ after - c[i] == pytest.approx(target, abs=1e-9)
            np.testing.assert_allclose(after, relaxation_step(A, c, before, i, eta), atol=1e-12)
        for t in np.flatnonzero(~trace.moved):  # a satisfied inequality: w stays
            np.testing.assert_array_equal(trace.iterates[t + 1], trace.iterates[t])
            assert trace.residuals[t] <= 0


@pytest.mark.parametrize("rule", list(INDEX_RULES))
@pytest.mark.parametrize("eta", ETAS)
def test_systems_with_an_interior_become_feasible_with_every_rule(rule, eta):
    for seed in range(8):
        A, c, w0 = _interior_system(seed, p=2 + seed % 2)
        trace = relaxation(A, c, eta=eta, rule=rule, w0=w0, seed=seed, tol=1e-6, max_iter=50_000)
        assert trace.feasible, (seed, trace.stop_reason)
        assert trace.stop_reason.startswith("feasible")
        assert (A.T @ trace.w - c).max() <= 1e-6
        # it stops at the first feasible iterate
        if trace.n_iter:
            assert (A.T @ trace.iterates[-2] - c).max() > 1e-6


@pytest.mark.parametrize("rule", list(INDEX_RULES))
def test_reflections_enter_the_interior_exactly(rule):
    """eta = 2 and tol = 0 (Motzkin and Schoenberg 1954): a finite run, strictly feasible."""
    for seed in range(8):
        A, c, w0 = _interior_system(seed)
        trace = relaxation(A, c, eta=2.0, rule=rule, w0=w0, seed=seed, max_iter=50_000)
        assert trace.feasible and (A.T @ trace.w - c).max() <= 0


def test_start_inside_takes_no_step():
    A, c, w0 = _interior_system(3)
    inside = np.linalg.lstsq(A.T, c - 0.3 * np.linalg.norm(A, axis=0), rcond=None)[0]
    trace = relaxation(A, c, w0=inside)
    assert trace.feasible and trace.n_iter == 0 and trace.iterates.shape == (1, 2)
    assert trace.indices.shape == (0,)


@pytest.mark.parametrize("seed", range(6))
def test_chaotic_rule_visits_every_index_within_tau(seed):
    A, c = _infeasible_system(seed)
    n = A.shape[1]
    for tau in (n, n + 1, 2 * n - 1, 2 * n, 3 * n, None):
        trace = relaxation(A, c, rule="chaotic", tau=tau, seed=seed, max_iter=3_000)
        window = trace.tau
        assert window == (2 * n if tau is None else tau)
        seq = trace.indices
        for start in range(seq.size - window + 1):
            assert np.unique(seq[start : start + window]).size == n, (tau, start)
        if tau == n:  # every window of n holds every index: one fixed cycle
            np.testing.assert_array_equal(seq[n:], seq[:-n])
    # seeded: the same seed gives the same sequence, another seed (usually) another
    one = relaxation(A, c, rule="chaotic", seed=seed, max_iter=200).indices
    np.testing.assert_array_equal(
        one, relaxation(A, c, rule="chaotic", seed=seed, max_iter=200).indices
    )
    assert not np.array_equal(
        one, relaxation(A, c, rule="chaotic", seed=seed + 50, max_iter=200).indices
    )


def test_stream_rules_follow_their_definition():
    A, c = _infeasible_system(1)
    n = A.shape[1]
    cyclic = relaxation(A, c, rule="cyclic", max_iter=5 * n)
    np.testing.assert_array_equal(cyclic.indices, np.arange(5 * n) % n)
    permuted = relaxation(A, c, rule="permuted", seed=4, max_iter=5 * n)
    for epoch in range(5):  # the perceptron's permuted order, epoch by epoch
        np.testing.assert_array_equal(
            permuted.indices[epoch * n : (epoch + 1) * n], example_order("permuted", n, 4, epoch)
        )
    assert (
        relaxation(A, c, rule="permuted", max_iter=n).indices.tolist()
        == relaxation(A, c, rule="permuted", seed=0, max_iter=n).indices.tolist()
    )  # None means 0


@pytest.mark.slow
def test_randomized_rule_draws_proportional_to_squared_norms():
    A, c = _infeasible_system(2)
    A = A * np.arange(1, A.shape[1] + 1)  # unequal norms
    trace = relaxation(A, c, rule="randomized", seed=3, max_iter=40_000)
    p = np.einsum("ij,ij->j", A, A)
    p /= p.sum()
    counts = np.bincount(trace.indices, minlength=A.shape[1])
    sd = np.sqrt(trace.n_iter * p * (1 - p))
    assert np.all(np.abs(counts - trace.n_iter * p) < 5 * sd + 1)


@pytest.mark.parametrize(
    "rule, key",
    [
        ("max_residual", lambda r, a: r),
        ("max_distance", lambda r, a: r / np.linalg.norm(a, axis=0)),
    ],
)
def test_greedy_rules_take_the_most_violated_inequality(rule, key):
    for seed in range(5):
        A, c = _infeasible_system(seed)
        trace = relaxation(A, c, rule=rule, max_iter=200)
        for t, i in enumerate(trace.indices):
            values = key(A.T @ trace.iterates[t] - c, A)
            assert values[i] == pytest.approx(values.max())
            assert trace.moved[t]  # the most violated one is violated


@pytest.mark.parametrize("rule", list(INDEX_RULES))
@pytest.mark.parametrize("eta", [0.5, 1.0, 1.5, 1.9])
def test_infeasible_systems_stop_at_max_iter_with_bounded_iterates(rule, eta):
    """No solution: the run says so, and with eta < 2 ||w_t|| stays bounded (cf. Theorem 1.35)."""
    for seed in range(3):
        A, c = _infeasible_system(seed)
        trace = relaxation(A, c, eta=eta, rule=rule, seed=seed, max_iter=4_000)
        assert not trace.feasible and trace.n_iter == 4_000
        assert trace.iterates.shape == (4_001, 2)
        assert trace.stop_reason.startswith("no feasible point after 4000 iterations")
        norms = np.linalg.norm(trace.iterates, axis=1)
        # the second half wanders no farther than the first half reached (no drift away)
        assert norms[2_000:].max() <= 1.5 * norms[:2_000].max() + 1e-9


def test_reflections_drift_away_on_contradicting_parallel_half_planes():
    """eta = 2 is different: a·w <= -1 and a·w >= 1 (a unit) reflect w across two parallel
    lines 2 apart; the two reflections make a translation by 4 along a, every cycle."""
    a = np.array([0.6, 0.8])
    A, c = np.column_stack([a, -a]), np.array([-1.0, -1.0])
    trace = relaxation(A, c, eta=2.0, rule="cyclic", max_iter=200)
    assert not trace.feasible
    along = trace.iterates @ a
    np.testing.assert_allclose(along[2::2][1:] - along[2::2][:-1], 4.0)
    assert np.linalg.norm(trace.w) > 350
    bounded = relaxation(A, c, eta=1.9, rule="cyclic", max_iter=200)
    assert np.linalg.norm(bounded.iterates, axis=1).max() < 30


@pytest.mark.parametrize(
    "bias, delta, order",
    list(itertools.product([True, False], [0.0, 0.5], ["cyclic", "permuted", "max_distance"])),
)
def test_perceptron_update_is_a_relaxation_step(bias, delta, order):
    """Exercise 1.22: a_i = -y_i (x_i, 1), c = -delta. Each perceptron update is
    w - a_i = (1 - eta_t) w + eta_t P_i(w) with eta_t = ||a_i||^2 / (a_i·w - c_i)."""
    for seed in range(4):
        ds = make_separable(n=40, margin=0.1, dim=2, seed=seed, through_origin=not bias)
        trace = run_perceptron(ds.X, ds.y, bias=bias, delta=delta, order=order, seed=seed)
        A, c = perceptron_system(ds.X, ds.y, bias=bias, delta=delta)
        assert A.shape == (3 if bias else 2, 40) and np.all(c == -delta)
        padded = np.column_stack([trace.weights, trace.biases]) if bias else trace.weights
        for t, i in enumerate(trace.update_indices):
            w, w_next = padded[t], padded[t + 1]
            residual = A[:, i] @ w - c[i]
            assert residual == pytest.approx(delta - trace.update_scores[t], abs=1e-12)
            assert residual >= -1e-12  # a mistake is an inequality that does not hold strictly
            np.testing.assert_allclose(w_next, w - A[:, i], atol=1e-12)
            if trace.update_scores[t] == delta:  # score delta (up to rounding, as the run
                # takes it): the perceptron moves, the projection not
                assert perceptron_eta(A, c, w, i) == np.inf
                np.testing.assert_allclose(project(A, c, w, i), w, atol=1e-12)
                continue
            eta = perceptron_eta(A, c, w, i)
            assert eta * residual == pytest.approx(A[:, i] @ A[:, i], rel=1e-12)
            assert (eta > 2) == (residual < A[:, i] @ A[:, i] / 2)
            if residual > 1e-6:  # (tiny residuals: eta huge, the formula below cancels badly)
                moved = (1 - eta) * w + eta * project(A, c, w, i)
                np.testing.assert_allclose(moved, w_next, atol=1e-9 * max(1.0, eta))
        # a converged perceptron solves the system strictly
        assert trace.converged and (A.T @ padded[-1] < c).all()


def test_homogeneous_system_is_solved_by_zero_but_a_threshold_gives_a_separator():
    ds = make_separable(n=50, margin=0.2, dim=2, seed=5)
    A, c = perceptron_system(ds.X, ds.y)
    assert relaxation(A, c).n_iter == 0  # w = 0 satisfies A^T w <= 0
    A, c = perceptron_system(ds.X, ds.y, delta=1.0)
    for rule in INDEX_RULES:
        trace = relaxation(A, c, eta=2.0, rule=rule, max_iter=50_000)
        assert trace.feasible, rule
        w, b = trace.w[:-1], trace.w[-1]
        assert (ds.y * (ds.X @ w + b) >= 1.0 - 1e-9).all()  # a separator with y(w·x + b) >= 1


def test_menus_and_rules_share_the_names():
    assert (
        list(INDEX_RULE_LABELS)
        == list(INDEX_RULES)
        == ["cyclic", "chaotic", "randomized", "permuted", "max_distance", "max_residual"]
    )


def test_results_are_read_only_and_inputs_untouched():
    A, c = _infeasible_system(0)
    A_before, c_before = A.copy(), c.copy()
    trace = relaxation(A, c, max_iter=50)
    for array in (trace.iterates, trace.indices, trace.residuals, trace.moved):
        assert not array.flags.writeable
    np.testing.assert_array_equal(A, A_before)
    np.testing.assert_array_equal(c, c_before)


def test_errors_say_what_to_fix():
    A, c = _infeasible_system(0)
    n = A.shape[1]
    for eta in (0, -0.5, 2.01, float("nan")):
        with pytest.raises(ValueError, match="eta"):
            relaxation(A, c, eta=eta)
        with pytest.raises(ValueError, match="eta"):
            relaxation_step(A, c, np.zeros(2), 0, eta=eta)
    with pytest.raises(ValueError, match="one column"):
        relaxation(A[0], c)
    with pytest.raises(ValueError, match=r"c must have shape"):
        relaxation(A, c[:-1])
    with pytest.raises(ValueError, match="w0 must have shape"):
        relaxation(A, c, w0=np.zeros(3))
    with pytest.raises(ValueError, match="unknown rule"):
        relaxation(A, c, rule="alphabetical")
    zero = A.copy()
    zero[:, 1] = 0
    with pytest.raises(ValueError, match="column 1 of A is zero"):
        relaxation(zero, c)
    with pytest.raises(ValueError, match="tau"):
        relaxation(A, c, rule="chaotic", tau=n - 1)
    with pytest.raises(ValueError, match="finite"):
        relaxation(np.where(A > 0, np.nan, A), c)
    with pytest.raises(ValueError, match="max_iter"):
        relaxation(A, c, max_iter=0)
    with pytest.raises(ValueError, match="tol"):
        relaxation(A, c, tol=-1)
    with pytest.raises(ValueError, match="seed"):
        relaxation(A, c, seed=-3)
    with pytest.raises(ValueError, match="inequality index"):
        project(A, c, np.zeros(2), n)
    with pytest.raises(ValueError, match="holds strictly"):
        perceptron_eta(np.array([[1.0]]), np.array([1.0]), np.zeros(1), 0)
    with pytest.raises(ValueError, match="one class"):
        perceptron_system(np.ones((3, 2)), np.ones(3))


def test_tau_is_checked_only_for_the_chaotic_rule():
    """A window below n is wrong only for the chaotic rule: the other rules ignore τ
    (issue 23: 11 own rows with the cyclic rule and τ = 10 raised)."""
    A = np.array([np.cos(np.arange(11)), np.sin(np.arange(11))])
    c = np.ones(11)
    for rule in INDEX_RULES:
        if rule == "chaotic":
            with pytest.raises(ValueError, match="at least n = 11"):
                relaxation(A, c, rule=rule, tau=10)
            assert relaxation(A, c, rule=rule, tau=11).tau == 11
        else:
            trace = relaxation(A, c, rule=rule, tau=10)
            assert trace.tau is None and trace.feasible


# ---------------------------------------------------------------------------
# Exact feasibility (issue 22, kind 1): decided in fractions on the rows as typed
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("gap", [1e-10, 1e-300, 3e-16, 0.1])
def test_a_tiny_gap_between_two_rows_has_no_solution(gap):
    """w₁ ≤ 0 and w₁ ≥ gap (rows (1, 0, 0) and (-1, 0, -gap)): no w for any gap > 0.
    A slack of 1e-9, as the old check allowed, would have called these solvable."""
    from perceptron_core.relaxation import plane_system

    A, c = np.array([[1.0, -1.0], [0.0, 0.0]]), np.array([0.0, -gap])
    decided = plane_system(A, c)
    assert not decided.feasible and decided.witness is None
    assert "(1) and (2)" in decided.reason and "exactly" in decided.reason
    # the same gap tilted so that both unknowns are involved (a rank-2 system)
    A2 = np.array([[1.0, -1.0, 0.0], [1.0, -1.0, 1.0]])
    assert not plane_system(A2, np.array([0.0, -gap, 5.0])).feasible


@pytest.mark.parametrize("gap", [0.0, -1e-10])
def test_a_gap_of_zero_or_an_overlap_has_a_solution(gap):
    from perceptron_core.relaxation import plane_system

    decided = plane_system(np.array([[1.0, -1.0], [0.0, 0.0]]), np.array([0.0, -gap]))
    assert decided.feasible
    w = decided.witness
    assert w[0] <= 0.0 and -w[0] <= -gap  # the witness satisfies both rows, in floats too


def test_decimals_are_read_as_typed():
    """0.1 + 0.2 ≤ w₁ ≤ 0.3 written as rows: w₁ ≥ 0.3 and w₁ ≤ 0.3 meet in exactly one
    value when 0.1, 0.2, 0.3 are the decimals typed (in binary 0.1 + 0.2 > 0.3)."""
    from perceptron_core.relaxation import exact_value, plane_system

    assert exact_value(0.1) + exact_value(0.2) == exact_value(0.3)
    A = np.array([[-1.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    assert plane_system(A, np.array([-0.3, 0.3, 1.0])).feasible
    assert not plane_system(A, np.array([-0.3, 0.2999999999999999, 1.0])).feasible


@pytest.mark.slow
@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 10**6))
def test_exact_decision_matches_a_brute_force_rational_vertex_search(seed):
    """Against an independent exact reference: small integer systems, every crossing and
    every point of a 1/2-grid checked in fractions (a nonempty set of integer data
    contains a crossing, or a line: then a grid point on it)."""
    from fractions import Fraction

    from perceptron_core.relaxation import plane_system

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 6))
    A = rng.integers(-2, 3, size=(2, n)).astype(float)
    A[:, ~A.any(axis=0)] = 1.0
    c = rng.integers(-3, 4, size=n).astype(float)
    rows = [
        (Fraction(int(a)), Fraction(int(b)), Fraction(int(v))) for a, b, v in zip(A[0], A[1], c)
    ]

    def ok(x, y):
        return all(a * x + b * y <= v for a, b, v in rows)

    found = any(ok(Fraction(x, 2), Fraction(y, 2)) for x in range(-40, 41) for y in range(-40, 41))
    for (a, b, v), (a2, b2, v2) in itertools.combinations(rows, 2):
        det = a * b2 - b * a2
        if det:
            found = found or ok((v * b2 - b * v2) / det, (a * v2 - v * a2) / det)
    decided = plane_system(A, c)
    assert decided.feasible == found
    if found:
        assert ok(
            Fraction(float(decided.witness[0])), Fraction(float(decided.witness[1]))
        ) or np.all(A.T @ decided.witness - c <= 1e-12)
        for vertex in decided.vertices:
            assert np.all(A.T @ vertex - c <= 1e-12)


# ---------------------------------------------------------------------------
# Why a run missed (issue 22, kind 2): the distance to the solutions and its behaviour
# ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 10**6))
def test_distance_to_solutions_matches_a_constrained_minimisation(seed):
    """Against scipy's SLSQP minimising ‖v − w‖² subject to A^T v <= c (test-only)."""
    from scipy.optimize import minimize

    from perceptron_core.relaxation import distance_to_solutions, plane_system

    rng = np.random.default_rng(seed)
    A, c, _ = _interior_system(seed)
    points = rng.uniform(-4, 4, size=(5, 2))
    found = distance_to_solutions(A, c, points)
    for w, d in zip(points, found):
        best = minimize(
            lambda v: float((v - w) @ (v - w)),
            x0=plane_system(A, c).witness,
            constraints=[{"type": "ineq", "fun": lambda v: c - A.T @ v, "jac": lambda v: -A.T}],
            method="SLSQP",
            options={"ftol": 1e-14, "maxiter": 500},
        )
        assert d == pytest.approx(np.sqrt(best.fun), abs=1e-5)
        assert (d == 0) == bool(np.all(A.T @ w <= c))


def test_distance_to_a_line_and_to_a_point():
    from perceptron_core.relaxation import distance_to_solutions

    line = (np.array([[1.0, -1.0], [0.0, 0.0]]), np.zeros(2))  # w₁ = 0
    np.testing.assert_allclose(distance_to_solutions(*line, [[3.0, 5.0], [-0.5, 1.0]]), [3.0, 0.5])
    point = (np.array([[1.0, -1.0, 0.0, 0.0], [0.0, 0.0, 1.0, -1.0]]), np.array([1, -1, 2, -2.0]))
    np.testing.assert_allclose(distance_to_solutions(*point, [[4.0, 6.0]]), [5.0])
    with pytest.raises(ValueError, match="no solution"):
        distance_to_solutions(
            np.array([[1.0, -1.0], [0.0, 0.0]]), np.array([0.0, -1.0]), [[0.0, 0.0]]
        )


@pytest.mark.parametrize("rule", ["cyclic", "max_distance", "max_residual"])
def test_reflections_across_one_line_cycle_with_period_two_for_ever(rule):
    """w₁ ≤ 0 and w₁ ≥ 0 with η = 2 from w₁ = 3: 3, −3, 3, ... (the audit's case)."""
    from perceptron_core.relaxation import miss_behaviour

    A, c = np.array([[1.0, -1.0], [0.0, 0.0]]), np.zeros(2)
    trace = relaxation(A, c, eta=2.0, rule=rule, w0=[3.0, 0.0], max_iter=301)
    miss = miss_behaviour(A, c, trace)
    assert miss.kind == "circling" and miss.period == 2
    assert miss.before == miss.after == 3.0
    np.testing.assert_array_equal(np.abs(trace.iterates[:, 0]), 3.0)


def test_under_relaxation_is_approaching_and_a_translation_is_diverging():
    from perceptron_core.relaxation import miss_behaviour

    A, c = np.array([[1.0, -1.0], [0.0, 0.0]]), np.zeros(2)
    slow = relaxation(A, c, eta=0.05, w0=[3.0, 0.0], max_iter=200)
    miss = miss_behaviour(A, c, slow)
    # tolerance 0 and eta < 1: every move leaves its inequality violated, so never in
    assert miss.kind == "never"
    assert miss.after == pytest.approx(3 * 0.95**100) and miss.before == pytest.approx(3 * 0.95**50)
    slow = relaxation(A, c, eta=0.05, w0=[3.0, 0.0], max_iter=200, tol=1e-9)
    miss = miss_behaviour(A, c, slow)
    assert miss.kind == "approaching" and miss.period is None
    a = np.array([0.6, 0.8])
    contra = (np.column_stack([a, -a]), np.array([-1.0, -1.0]))
    assert miss_behaviour(*contra, relaxation(*contra, eta=2.0, max_iter=200)).kind == "diverging"
    assert miss_behaviour(*contra, relaxation(*contra, eta=1.5, max_iter=200)).kind == "bounded"
    with pytest.raises(ValueError, match="reached feasibility"):
        miss_behaviour(A, c, relaxation(A, c, eta=1.0, w0=[3.0, 0.0], max_iter=20))


def _same_trace(one, other) -> bool:
    """Two relaxation traces equal number for number (bit for bit)."""
    return (
        one.n_iter == other.n_iter
        and one.feasible == other.feasible
        and one.stop_reason == other.stop_reason
        and one.tau == other.tau
        and all(
            np.array_equal(getattr(one, name), getattr(other, name))
            for name in ("iterates", "indices", "residuals", "moved")
        )
    )


@pytest.mark.parametrize(
    "seed", [0, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(1, 6))]
)
def test_a_sweep_makes_each_run_exactly_as_alone(seed):
    """relaxation_sweep runs every (rule, eta) together; each run must be the one
    relaxation() makes on its own, bit for bit, whatever the other runs do (some stop
    early, some never get in)."""
    from perceptron_core.relaxation import relaxation_sweep

    rng = np.random.default_rng(seed)
    systems = [
        _interior_system(seed),
        _interior_system(seed, p=3),
        (*_infeasible_system(seed), rng.standard_normal(2)),
    ]
    etas = [0.1, 0.5, 0.95, 1.0, 1.3, 2.0]
    rules = list(INDEX_RULES)
    for number, (A, c, w0) in enumerate(systems):
        for tol in (0.0, 1e-6):
            swept = relaxation_sweep(
                A, c, etas, rules=rules, w0=w0, seed=seed, tol=tol, max_iter=300
            )
            alone = [
                relaxation(A, c, eta=eta, rule=rule, w0=w0, seed=seed, tol=tol, max_iter=300)
                for rule in rules
                for eta in etas
            ]
            assert len(swept) == len(alone)
            assert all(_same_trace(one, other) for one, other in zip(swept, alone))
            if number < 2:  # systems with an interior: the runs got in at different times
                assert len({trace.n_iter for trace in swept}) > 1
