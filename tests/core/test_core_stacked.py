"""run_perceptrons (perceptron_core/stacked.py): many binary problems on one X at once.

Every run must be the one run_perceptron makes on that problem alone: the same updates at
the same steps, the same weights and biases bit for bit, the same stop (converged, steps
examined, stop reason) and, for the greedy orders, the same choices; the recorded scores
agree within rounding (each engine sums the products in its own order).
"""

from __future__ import annotations

import numpy as np
import pytest
from reference_perceptron import random_labels

from perceptron_core import ORDERS, make_blobs, make_separable, run_perceptron
from perceptron_core.multiclass import one_vs_all, one_vs_one
from perceptron_core.stacked import run_perceptrons


def _assert_same(stacked, alone):
    np.testing.assert_array_equal(stacked.update_indices, alone.update_indices)
    np.testing.assert_array_equal(stacked.update_steps, alone.update_steps)
    np.testing.assert_array_equal(stacked.weights, alone.weights)
    np.testing.assert_array_equal(stacked.biases, alone.biases)
    assert (stacked.converged, stacked.n_examined, stacked.stop_reason) == (
        alone.converged,
        alone.n_examined,
        alone.stop_reason,
    )
    if alone.greedy_indices is None:
        assert stacked.greedy_indices is None
    else:
        np.testing.assert_array_equal(stacked.greedy_indices, alone.greedy_indices)
    scale = 1.0 + np.abs(alone.weights).max()
    np.testing.assert_allclose(
        stacked.update_scores, alone.update_scores, rtol=1e-12, atol=1e-12 * scale
    )


def _problems(rng, X, y, count=4):
    """Random subsets of the rows (kept in order), with their labels."""
    out = []
    for _ in range(count):
        size = int(rng.integers(2, X.shape[0] + 1))
        rows = np.sort(rng.choice(X.shape[0], size=size, replace=False))
        out.append((rows, y[rows]))
    return out


@pytest.mark.parametrize("order", list(ORDERS))
@pytest.mark.parametrize("seed", range(4))
def test_each_stacked_run_is_the_run_alone(order, seed):
    rng = np.random.default_rng(seed)
    for case in range(6):
        if case % 2:  # usually not separable: runs stop at a limit, at different times
            X, y = random_labels(rng, max_dim=5, max_n=70)
        else:
            ds = make_separable(
                n=int(rng.integers(5, 70)),
                margin=0.05,
                dim=int(rng.integers(1, 4)),
                seed=10 * seed + case,
            )
            X, y = ds.X, ds.y
        problems = _problems(rng, X, y)
        for bias in (True, False):
            for delta in (0.0, 0.5):
                w0 = rng.standard_normal(X.shape[1]) if case % 3 == 0 else None
                settings = dict(
                    bias=bias,
                    delta=delta,
                    w0=w0,
                    order=order,
                    seed=case,
                    max_updates=150,
                    max_epochs=40,
                )
                stacked = run_perceptrons(X, problems, **settings)
                for (rows, labels), trace in zip(problems, stacked):
                    _assert_same(trace, run_perceptron(X[rows], labels, **settings))


@pytest.mark.parametrize("order", ["cyclic", "permuted", "max_residual"])
def test_multiclass_runs_are_the_binary_runs_alone(order):
    """one_vs_all and one_vs_one (stacked) against run_perceptron on each binary problem,
    on blobs that overlap (some problems never separate) and that do not."""
    for spread, seed in ((0.6, 1), (0.1, 2)):
        data = make_blobs(n=150, seed=seed, dim=2, radius=1.0, k=5, spread=spread)
        X, labels = np.asarray(data.X), np.asarray(data.y)
        settings = dict(order=order, seed=3, max_updates=400, max_epochs=30)
        ova, ovo = one_vs_all(X, labels, **settings), one_vs_one(X, labels, **settings)
        for j, trace in zip(ova.classes.tolist(), ova.traces):
            _assert_same(trace, run_perceptron(X, np.where(labels == j, 1, -1), **settings))
        for rows, (j, _), trace in zip(ovo.subsets, ovo.pairs.tolist(), ovo.traces):
            _assert_same(
                trace, run_perceptron(X[rows], np.where(labels[rows] == j, 1, -1), **settings)
            )
        if spread == 0.6:
            assert not ova.converged.all() and ova.converged.size == 5


def test_problems_are_checked():
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    with pytest.raises(ValueError, match="at least one problem"):
        run_perceptrons(X, [])
    with pytest.raises(ValueError, match="indices into X"):
        run_perceptrons(X, [([0, 5], [1, -1])])
    with pytest.raises(ValueError, match="labels"):
        run_perceptrons(X, [([0, 1], [1, 2])])
    with pytest.raises(ValueError, match="pair"):
        run_perceptrons(X, [object()])
