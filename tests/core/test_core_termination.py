"""Runs always end: limits on non-separable data; runs are reproducible from their seed."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import (
    ORDERS,
    STREAM_ORDERS,
    example_order,
    make_separable,
    make_xor,
    run_perceptron,
    with_label_noise,
)

XOR = make_xor(n=60, seed=0)
XOR_4 = (np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]), np.array([1, 1, -1, -1]))


@pytest.mark.parametrize("order", list(ORDERS))
@pytest.mark.parametrize("data", ["xor", "xor_4"])
def test_max_updates_stops_a_non_separable_run(order, data):
    X, y = (XOR.X, XOR.y) if data == "xor" else XOR_4
    trace = run_perceptron(X, y, order=order, max_updates=500, max_epochs=10**6)
    assert not trace.converged
    assert trace.n_updates == 500
    assert "not be linearly separable" in trace.stop_reason
    assert "500 updates" in trace.stop_reason
    assert trace.weights.shape == (501, 2)


@pytest.mark.parametrize("order", list(ORDERS))
def test_max_epochs_stops_a_non_separable_run(order):
    trace = run_perceptron(XOR.X, XOR.y, order=order, max_epochs=7, max_updates=10**6)
    assert not trace.converged
    assert trace.n_examined == 7 * XOR.n
    assert trace.epochs == 7
    assert "not be linearly separable" in trace.stop_reason
    assert "7 epochs" in trace.stop_reason


@pytest.mark.parametrize("order", list(STREAM_ORDERS))
def test_aggressive_rule_stops_at_its_limits(order):
    ds = make_separable(n=30, margin=0.05, seed=2)
    trace = run_perceptron(ds.X, ds.y, aggressive=True, order=order, max_updates=77)
    assert trace.n_updates == trace.n_examined == 77
    if not trace.converged:
        assert "aggressive" in trace.stop_reason
    trace = run_perceptron(ds.X, ds.y, aggressive=True, order=order, max_epochs=4)
    assert trace.n_examined == trace.n_updates == 4 * ds.n


def test_label_noise_run_ends():
    noisy = with_label_noise(make_separable(n=300, margin=0.02, seed=1), rate=0.25, seed=3)
    trace = run_perceptron(noisy.X, noisy.y, max_updates=2000, order="random")
    assert not trace.converged
    assert trace.n_updates == 2000


@pytest.mark.parametrize("order", list(ORDERS))
def test_converged_run_says_so(order):
    ds = make_separable(n=50, margin=0.1, seed=5)
    trace = run_perceptron(ds.X, ds.y, order=order)
    assert trace.converged
    assert trace.stop_reason.startswith("converged")
    assert np.all(ds.y * (ds.X @ trace.w + trace.b) > 0)
    assert trace.epochs == -(-trace.n_examined // ds.n)


# ---------------------------------------------------------------------------
# reproducibility
# ---------------------------------------------------------------------------


def _same_trace(a, b):
    np.testing.assert_array_equal(a.weights, b.weights)
    np.testing.assert_array_equal(a.biases, b.biases)
    np.testing.assert_array_equal(a.update_indices, b.update_indices)
    np.testing.assert_array_equal(a.update_steps, b.update_steps)
    assert a.n_examined == b.n_examined and a.converged == b.converged


@pytest.mark.parametrize("order", ["permuted", "random"])
@pytest.mark.parametrize("aggressive", [False, True])
def test_same_seed_same_run(order, aggressive):
    ds = make_separable(n=60, margin=0.03, dim=3, seed=8)
    kwargs = dict(order=order, aggressive=aggressive, max_epochs=20)
    _same_trace(
        run_perceptron(ds.X, ds.y, seed=11, **kwargs), run_perceptron(ds.X, ds.y, seed=11, **kwargs)
    )
    # None means seed 0
    _same_trace(
        run_perceptron(ds.X, ds.y, seed=None, **kwargs),
        run_perceptron(ds.X, ds.y, seed=0, **kwargs),
    )
    a = run_perceptron(ds.X, ds.y, seed=11, **kwargs)
    b = run_perceptron(ds.X, ds.y, seed=12, **kwargs)
    steps = np.arange(1, min(a.n_examined, b.n_examined) + 1)
    assert not np.array_equal(a.indices_at_steps(steps), b.indices_at_steps(steps))


@pytest.mark.parametrize("order", list(STREAM_ORDERS))
def test_example_order_streams(order):
    n = 25
    for epoch in range(4):
        indices = example_order(order, n, 3, epoch)
        np.testing.assert_array_equal(indices, example_order(order, n, 3, epoch))
        assert indices.shape == (n,)
        assert indices.min() >= 0 and indices.max() < n
        if order == "cyclic":
            np.testing.assert_array_equal(indices, np.arange(n))
        if order == "permuted":
            np.testing.assert_array_equal(np.sort(indices), np.arange(n))
    if order != "cyclic":
        assert not np.array_equal(example_order(order, n, 3, 0), example_order(order, n, 3, 1))
        assert not np.array_equal(example_order(order, n, 3, 0), example_order(order, n, 4, 0))
