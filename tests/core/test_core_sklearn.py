"""scikit-learn's Perceptron as a peer implementation of the cyclic perceptron.

Perceptron(eta0=1, shuffle=False, tol=None) is plain SGD on the perceptron loss
with step 1 and no penalty: it visits the rows 0..n-1 in order each epoch and
updates when y (w·x + b) <= 0, exactly Algorithm 1.16 with the cyclic order and
delta = 0. Once the data are separated it never moves again, so running a few
more epochs than we needed must end at the same (w, b).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron

from perceptron_core import make_separable, run_perceptron

CASES = [
    (n, margin, dim, seed)
    for seed, (n, margin, dim) in enumerate(
        [(2, 0.3, 1), (30, 0.1, 2), (80, 0.05, 3), (200, 0.02, 2), (60, 0.2, 5), (150, 0.05, 4)]
    )
]


def _sklearn_fit(X, y, epochs, fit_intercept):
    clf = Perceptron(
        eta0=1.0, shuffle=False, tol=None, max_iter=epochs, fit_intercept=fit_intercept
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf.fit(X, y)
    return clf.coef_[0], float(np.atleast_1d(clf.intercept_)[0])


@pytest.mark.parametrize("n, margin, dim, seed", CASES)
def test_sklearn_perceptron_with_intercept(n, margin, dim, seed):
    ds = make_separable(n=n, margin=margin, dim=dim, seed=seed)
    trace = run_perceptron(ds.X, ds.y, bias=True, order="cyclic")
    assert trace.converged
    for extra in (1, 5):
        w, b = _sklearn_fit(ds.X, ds.y, trace.epochs + extra, fit_intercept=True)
        np.testing.assert_allclose(w, trace.w, rtol=1e-10, atol=1e-10)
        assert b == pytest.approx(trace.b, rel=1e-10, abs=1e-10)


@pytest.mark.parametrize("n, margin, dim, seed", CASES)
def test_sklearn_perceptron_without_intercept(n, margin, dim, seed):
    ds = make_separable(n=n, margin=margin, dim=dim, seed=seed, through_origin=True)
    trace = run_perceptron(ds.X, ds.y, bias=False, order="cyclic")
    assert trace.converged
    assert trace.b == 0.0
    w, b = _sklearn_fit(ds.X, ds.y, trace.epochs + 2, fit_intercept=False)
    np.testing.assert_allclose(w, trace.w, rtol=1e-10, atol=1e-10)
    assert b == 0.0


@pytest.mark.parametrize("epochs", [1, 3, 10])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_sklearn_agrees_epoch_by_epoch_on_non_separable_data(epochs, fit_intercept):
    """Stopped by max_epochs on noisy data, both have run the same k cyclic epochs."""
    rng = np.random.default_rng(epochs)
    X = rng.standard_normal((70, 3))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(70) > 0, 1, -1)
    trace = run_perceptron(X, y, bias=fit_intercept, order="cyclic", max_epochs=epochs)
    assert not trace.converged
    assert trace.n_examined == epochs * 70
    w, b = _sklearn_fit(X, y, epochs, fit_intercept=fit_intercept)
    np.testing.assert_allclose(w, trace.w, rtol=1e-10, atol=1e-10)
    assert b == pytest.approx(trace.b, abs=1e-10)
