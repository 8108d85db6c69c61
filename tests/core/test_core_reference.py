"""run_perceptron against the plain textbook loop of Algorithm 1.16 (reference_perceptron.py).

Every combination of bias, delta, order, w0 and the aggressive rule is run on
separable data (make_separable, various margins, dims 1..5, n 2..60) and on
random labels (usually not separable) with small limits. The engine and the textbook loop
must make the same updates at the same steps and end at the same (w, b).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from reference_perceptron import random_labels, reference_perceptron

from perceptron_core import GREEDY_ORDERS, ORDERS, STREAM_ORDERS, make_separable, run_perceptron

COMBOS = [
    (bias, delta, order, random_w0, aggressive)
    for bias, delta, order, random_w0, aggressive in itertools.product(
        [True, False], [0.0, 0.5], list(ORDERS), [False, True], [False, True]
    )
    if not (aggressive and order in GREEDY_ORDERS)
]


def _datasets(bias: bool, seed: int):
    """(X, y, separable) triples: make_separable with varied shapes, then random labels."""
    rng = np.random.default_rng(seed)
    for k in range(8):
        dim = int(rng.integers(1, 6))
        n = int(rng.integers(2, 61))
        margin = float(rng.choice([0.05, 0.1, 0.2, 0.4]))
        # without a bias the data must be separable through the origin to converge
        ds = make_separable(
            n=n,
            margin=margin,
            dim=dim,
            seed=100 * seed + k,
            through_origin=(not bias) or k % 3 == 0,
        )
        yield ds.X, ds.y, True
    for _ in range(3):
        yield *random_labels(rng, max_dim=6, max_n=61), False


def _limits(aggressive: bool, separable: bool) -> dict:
    if aggressive:
        return dict(max_updates=120, max_epochs=8)
    if not separable:
        return dict(max_updates=100, max_epochs=200)
    return dict(max_updates=20_000, max_epochs=500)


def _assert_same_run(trace, ref, *, same_stop_rule: bool):
    np.testing.assert_array_equal(trace.update_indices, ref.update_indices)
    np.testing.assert_array_equal(trace.update_steps, ref.update_steps)
    scale = 1.0 + np.abs(ref.weights).max()
    np.testing.assert_allclose(trace.weights, ref.weights, rtol=1e-12, atol=1e-12 * scale)
    np.testing.assert_allclose(trace.biases, ref.biases, rtol=1e-12, atol=1e-12 * scale)
    assert trace.converged == ref.converged
    np.testing.assert_allclose(trace.update_scores, ref.update_scores, rtol=1e-9, atol=1e-9 * scale)
    # a mistake is y (w·x + b) <= delta (compare away from exact ties)
    clear = np.abs(ref.update_scores - trace.delta) > 1e-9 * scale
    np.testing.assert_array_equal(
        trace.update_mistakes[clear], (ref.update_scores <= trace.delta)[clear]
    )
    if not trace.aggressive:
        assert trace.update_mistakes.all()
    if same_stop_rule:
        assert trace.n_examined == ref.n_examined


@pytest.mark.parametrize("bias, delta, order, random_w0, aggressive", COMBOS)
def test_engine_matches_textbook_loop(bias, delta, order, random_w0, aggressive):
    for case, (X, y, separable) in enumerate(_datasets(bias, seed=len(order) + 3 * bias)):
        rng = np.random.default_rng(case)
        w0 = rng.standard_normal(X.shape[1]) if random_w0 else None
        kwargs = dict(
            bias=bias,
            delta=delta,
            order=order,
            w0=w0,
            seed=case,
            aggressive=aggressive,
            **_limits(aggressive, separable),
        )
        trace = run_perceptron(X, y, **kwargs)
        ref = reference_perceptron(X, y, **kwargs)
        _assert_same_run(trace, ref, same_stop_rule=True)
        if separable and not aggressive:
            assert ref.converged, "test data should be separable enough to converge"
        # converged means: every example is on the right side, beyond delta
        final = y * (X @ trace.w + trace.b)
        assert trace.converged == bool(np.all(final > delta))


@pytest.mark.parametrize("order", list(STREAM_ORDERS))
@pytest.mark.parametrize("bias", [True, False])
def test_updates_do_not_depend_on_the_stopping_check(order, bias):
    """The notes' rule (check all examples after every epoch) makes the same updates.

    n_examined may differ (the epoch check can stop later), so it is not compared.
    """
    for X, y, separable in _datasets(bias, seed=11):
        if not separable:
            continue
        trace = run_perceptron(X, y, bias=bias, order=order, seed=4)
        ref = reference_perceptron(X, y, bias=bias, order=order, seed=4, check="epoch")
        assert ref.converged
        _assert_same_run(trace, ref, same_stop_rule=False)


@pytest.mark.parametrize("order", list(ORDERS))
def test_trace_replay(order):
    rng = np.random.default_rng(5)
    ds = make_separable(n=40, margin=0.05, dim=3, seed=9)
    for delta in (0.0, 0.5):
        trace = run_perceptron(ds.X, ds.y, delta=delta, order=order, seed=2)
        ref = reference_perceptron(ds.X, ds.y, delta=delta, order=order, seed=2)
        assert trace.n_examined == ref.n_examined == len(ref.examined)
        steps = np.unique(
            np.concatenate(
                [
                    rng.integers(1, trace.n_examined + 1, size=150),
                    ref.update_steps,
                    [1, trace.n_examined],
                ]
            )
        )
        np.testing.assert_array_equal(
            trace.indices_at_steps(steps), np.asarray(ref.examined)[steps - 1]
        )
        update_steps = set(ref.update_steps.tolist())
        for t in steps:
            t = int(t)
            step = trace.example_at(t, ds.X, ds.y)
            assert step.step == t
            assert step.index == ref.examined[t - 1]
            before = int(np.sum(ref.update_steps < t))  # updates strictly before step t
            assert step.updates_before == before
            np.testing.assert_allclose(step.w, ref.weights[before], rtol=1e-12, atol=1e-12)
            assert step.b == pytest.approx(ref.biases[before], abs=1e-12)
            expected_score = ds.y[step.index] * (
                ds.X[step.index] @ ref.weights[before] + ref.biases[before]
            )
            assert step.score == pytest.approx(expected_score, rel=1e-12, abs=1e-12)
            assert step.updated == (t in update_steps)
            assert step.mistake == (expected_score <= delta)
            if step.updated:
                assert step.mistake  # the standard rule only updates on mistakes


def test_aggressive_replay_marks_every_step_as_updated():
    ds = make_separable(n=12, margin=0.2, dim=2, seed=1)
    trace = run_perceptron(
        ds.X, ds.y, aggressive=True, order="permuted", seed=3, max_epochs=5, max_updates=1000
    )
    assert trace.n_updates == trace.n_examined
    np.testing.assert_array_equal(trace.update_steps, np.arange(1, trace.n_examined + 1))
    for t in range(1, trace.n_examined + 1):
        assert trace.example_at(t, ds.X, ds.y).updated


def test_indices_at_steps_rejects_steps_outside_the_run():
    ds = make_separable(n=10, margin=0.2, seed=0)
    trace = run_perceptron(ds.X, ds.y)
    with pytest.raises(ValueError, match="steps"):
        trace.indices_at_steps([0])
    with pytest.raises(ValueError, match="steps"):
        trace.indices_at_steps([trace.n_examined + 1])


@pytest.mark.parametrize("order", list(GREEDY_ORDERS))
def test_greedy_run_ending_exactly_at_step_limit_reports_convergence(order):
    """a_1 = (1, 0), a_2 = (-0.5, 1) through the origin: two updates are needed and the
    second one, w = (0.5, 1), separates both examples (scores 0.5 and 0.75). With
    max_epochs=1 the step limit (n = 2 steps) is reached right at that update.
    The stream orders report converged=True in this situation; so must the greedy
    ones: the final (w, b) does classify every example correctly.
    """
    X = np.array([[1.0, 0.0], [0.5, -1.0]])
    y = np.array([1, -1])
    trace = run_perceptron(X, y, bias=False, order=order, max_epochs=1)
    assert trace.n_updates == 2
    np.testing.assert_allclose(trace.w, [0.5, 1.0])
    assert np.all(y * (X @ trace.w) > 0)
    assert trace.converged, trace.stop_reason
    assert "not be linearly separable" not in trace.stop_reason


@pytest.mark.parametrize("bias, delta", [(True, 0.0), (True, 0.5), (False, 0.0)])
def test_cyclic_runs_are_the_loop_bit_for_bit(bias, delta):
    """The cyclic order's block search decides each candidate as the loop does (its np.dot
    score): every update, step and stop is the loop's, every w, b and recorded score
    equal to the last bit, on separable data and on random labels (runs stopped by a
    limit), larger than the blocks it scores at once, from w = 0 and from a random w0."""
    rng = np.random.default_rng(7)
    for case in range(8):
        if case % 2:
            X, y = random_labels(rng, max_dim=8, max_n=700)
            limits = dict(max_updates=300, max_epochs=30)
        else:
            ds = make_separable(
                n=int(rng.integers(300, 700)),
                margin=0.05,
                dim=int(rng.integers(2, 9)),
                seed=case,
                through_origin=not bias,
            )
            X, y = ds.X, ds.y
            limits = dict(max_updates=20_000, max_epochs=200)
        w0 = rng.standard_normal(X.shape[1]) if case % 4 == 3 else None
        kwargs = dict(bias=bias, delta=delta, w0=w0, order="cyclic", **limits)
        trace, ref = run_perceptron(X, y, **kwargs), reference_perceptron(X, y, **kwargs)
        np.testing.assert_array_equal(trace.update_indices, ref.update_indices)
        np.testing.assert_array_equal(trace.update_steps, ref.update_steps)
        np.testing.assert_array_equal(trace.weights, ref.weights)
        np.testing.assert_array_equal(trace.biases, ref.biases)
        np.testing.assert_array_equal(trace.update_scores, ref.update_scores)
        assert (trace.converged, trace.n_examined) == (ref.converged, ref.n_examined)
