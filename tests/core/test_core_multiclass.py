"""one_vs_all / one_vs_one (Remark 1.36) against a plain loop and scikit-learn.

The reference below trains each binary problem with the textbook loop of
tests/reference_perceptron.py and predicts with explicit Python loops: the
argmax of w_j·x + b_j (first class among equal scores) for one-vs-all, and the
vote count of the notes for one-vs-one (pair (j, j') votes j when its score is
> 0 and j' when it is <= 0; the first class among equal counts wins).

scikit-learn as a peer (test-only): OneVsRestClassifier / OneVsOneClassifier
around Perceptron(eta0=1, shuffle=False, tol=None) run the same cyclic binary
perceptrons. Where conventions differ:
* OvO: sklearn trains pair (i, j) with class j as the positive class, so its w
  is minus ours, and a score of exactly 0 votes for i there and for j here
  (never met on Gaussian data); sklearn breaks vote ties by summed confidences,
  we by class order, so predictions are compared only where the vote is not tied
  (the vote counts themselves, rint of sklearn's decision_function, are compared
  everywhere).
* OvR: sklearn takes the first class among equal scores, as we do.
* Only the cyclic order is comparable (sklearn's shuffle uses its own RNG).
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from reference_perceptron import reference_perceptron
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron
from sklearn.multiclass import OneVsOneClassifier, OneVsRestClassifier

from perceptron_core import make_blobs, one_vs_all, one_vs_one

LIMITS = dict(max_updates=2_000, max_epochs=25)
CASES = [
    (k, seed, order)
    for k, seed, order in itertools.product(
        range(3, 7), range(4), ["cyclic", "permuted", "max_residual"]
    )
]


def _blobs(k: int, seed: int):
    rng = np.random.default_rng(1000 + seed)
    n = int(rng.integers(8 * k, 25 * k))
    spread = float(rng.choice([0.05, 0.1, 0.2]))
    return make_blobs(n=n, k=k, seed=seed, spread=spread)


def _grid(X, size=25):
    lo, hi = X.min(axis=0) - 0.3, X.max(axis=0) + 0.3
    xs, ys = np.meshgrid(np.linspace(lo[0], hi[0], size), np.linspace(lo[1], hi[1], size))
    return np.column_stack([xs.ravel(), ys.ravel()])


def _plain_ova(X, labels, order, seed, **limits):
    classes = sorted(set(labels.tolist()))
    runs = [
        reference_perceptron(
            X, [1 if v == cls else -1 for v in labels], bias=True, order=order, seed=seed, **limits
        )
        for cls in classes
    ]
    return classes, [(r.w, r.b) for r in runs], [r.converged for r in runs]


def _plain_ova_predict(classes, models, points):
    out, ties = [], []
    for x in points:
        scores = [float(np.dot(w, x) + b) for w, b in models]
        best = 0
        for j in range(1, len(scores)):
            if scores[j] > scores[best]:
                best = j
        out.append(classes[best])
        ties.append(scores.count(scores[best]) > 1)
    return np.array(out), np.array(ties)


def _plain_ovo(X, labels, order, seed, **limits):
    classes = sorted(set(labels.tolist()))
    models = []
    for a, b in itertools.combinations(range(len(classes)), 2):
        rows = [i for i, v in enumerate(labels) if v in (classes[a], classes[b])]
        y = [1 if labels[i] == classes[a] else -1 for i in rows]
        run = reference_perceptron(X[rows], y, bias=True, order=order, seed=seed, **limits)
        models.append((a, b, run.w, run.b))
    return classes, models


def _plain_ovo_votes(n_classes, models, points):
    votes = np.zeros((len(points), n_classes), dtype=int)
    for m, x in enumerate(points):
        for a, b, w, bias in models:
            if np.dot(w, x) + bias > 0:
                votes[m, a] += 1
            else:
                votes[m, b] += 1
    return votes


def _plain_ovo_predict(classes, votes):
    out, ties = [], []
    for row in votes:
        best = 0
        for j in range(1, len(row)):
            if row[j] > row[best]:
                best = j
        out.append(classes[best])
        ties.append(list(row).count(row[best]) > 1)
    return np.array(out), np.array(ties)


@pytest.mark.parametrize("k, seed, order", CASES)
def test_one_vs_all_matches_plain_loop(k, seed, order):
    ds = _blobs(k, seed)
    model = one_vs_all(ds.X, ds.y, order=order, seed=seed, **LIMITS)
    classes, models, converged = _plain_ova(ds.X, ds.y, order, seed, **LIMITS)
    np.testing.assert_array_equal(model.classes, classes)
    np.testing.assert_allclose(model.weights, [w for w, _ in models], atol=1e-9)
    np.testing.assert_allclose(model.biases, [b for _, b in models], atol=1e-9)
    np.testing.assert_array_equal(model.converged, converged)
    points = np.vstack([ds.X, _grid(ds.X)])
    expected, expected_ties = _plain_ova_predict(classes, models, points)
    labels, ties = model.predict_with_ties(points)
    np.testing.assert_array_equal(labels, expected)
    np.testing.assert_array_equal(ties, expected_ties)
    np.testing.assert_array_equal(model.predict(points), expected)
    counts = np.array([np.sum(ds.y == cls) for cls in classes])
    np.testing.assert_allclose(model.imbalance, 1 - counts / ds.n)
    assert model.n_perceptrons == k
    assert model.total_updates == sum(t.n_updates for t in model.traces)


@pytest.mark.parametrize("k, seed, order", CASES)
def test_one_vs_one_matches_plain_loop(k, seed, order):
    ds = _blobs(k, seed)
    model = one_vs_one(ds.X, ds.y, order=order, seed=seed, **LIMITS)
    classes, models = _plain_ovo(ds.X, ds.y, order, seed, **LIMITS)
    assert model.n_perceptrons == k * (k - 1) // 2 == len(models)
    np.testing.assert_array_equal(model.pair_codes, [(a, b) for a, b, _, _ in models])
    np.testing.assert_array_equal(model.pairs, [(classes[a], classes[b]) for a, b, _, _ in models])
    np.testing.assert_allclose(model.weights, [w for _, _, w, _ in models], atol=1e-9)
    np.testing.assert_allclose(model.biases, [b for _, _, _, b in models], atol=1e-9)
    points = np.vstack([ds.X, _grid(ds.X)])
    votes = _plain_ovo_votes(k, models, points)
    np.testing.assert_array_equal(model.votes(points), votes)
    assert (votes.sum(axis=1) == k * (k - 1) // 2).all()
    expected, expected_ties = _plain_ovo_predict(classes, votes)
    labels, ties = model.predict_with_ties(points)
    np.testing.assert_array_equal(labels, expected)
    np.testing.assert_array_equal(ties, expected_ties)
    for (a, b), rows, share in zip(model.pair_codes, model.subsets, model.imbalance):
        assert set(ds.y[rows].tolist()) == {classes[a], classes[b]}
        assert share == pytest.approx(np.mean(ds.y[rows] == classes[b]))


def _ours_and_sklearns(scheme, sklearn_scheme, k, seed):
    """Blobs, our ``scheme`` on them and scikit-learn's ``sklearn_scheme`` of Perceptrons
    (cyclic order, 25 epochs each; sklearn's "did not converge" warning silenced)."""
    ds = _blobs(k, seed)
    model = scheme(ds.X, ds.y, order="cyclic", max_updates=10**6, max_epochs=25)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        peer = sklearn_scheme(Perceptron(eta0=1.0, shuffle=False, tol=None, max_iter=25))
        peer.fit(ds.X, ds.y)
    return ds, model, peer


@pytest.mark.parametrize("k, seed", list(itertools.product(range(3, 7), range(4))))
def test_one_vs_rest_agrees_with_sklearn(k, seed):
    ds, model, peer = _ours_and_sklearns(one_vs_all, OneVsRestClassifier, k, seed)
    np.testing.assert_allclose(model.weights, [e.coef_[0] for e in peer.estimators_], atol=1e-8)
    points = np.vstack([ds.X, _grid(ds.X)])
    np.testing.assert_array_equal(model.predict(points), peer.predict(points))


@pytest.mark.parametrize("k, seed", list(itertools.product(range(3, 7), range(4))))
def test_one_vs_one_agrees_with_sklearn(k, seed):
    ds, model, peer = _ours_and_sklearns(one_vs_one, OneVsOneClassifier, k, seed)
    # sklearn's pair (i, j) has class j positive: its w is minus ours
    np.testing.assert_allclose(model.weights, [-e.coef_[0] for e in peer.estimators_], atol=1e-8)
    points = np.vstack([ds.X, _grid(ds.X, size=40)])
    votes = model.votes(points)
    np.testing.assert_array_equal(votes, np.rint(peer.decision_function(points)))
    labels, ties = model.predict_with_ties(points)
    np.testing.assert_array_equal(labels[~ties], peer.predict(points)[~ties])


@pytest.mark.parametrize("seed", range(6))
def test_exact_ties_go_to_the_first_class_and_are_reported(seed):
    """Integer data give integer w and b: on a grid of step 1/8 scores and votes are exact."""
    ds = make_blobs(n=40, k=4, seed=seed, spread=0.3)
    X = np.round(ds.X * 4)
    grid = np.array(list(itertools.product(np.arange(-40, 41) / 8, repeat=2)))
    ova = one_vs_all(X, ds.y, **LIMITS)
    classes, models, _ = _plain_ova(X, ds.y, "cyclic", 0, **LIMITS)
    expected, expected_ties = _plain_ova_predict(classes, models, grid)
    labels, ties = ova.predict_with_ties(grid)
    assert ties.any()  # some grid points score equally for two classes
    np.testing.assert_array_equal(labels, expected)
    np.testing.assert_array_equal(ties, expected_ties)
    ovo = one_vs_one(X, ds.y, **LIMITS)
    votes = ovo.votes(grid)
    expected, expected_ties = _plain_ovo_predict(list(ovo.classes), votes)
    labels, ties = ovo.predict_with_ties(grid)
    assert ties.any()  # four classes: somewhere the votes tie
    np.testing.assert_array_equal(labels, expected)
    np.testing.assert_array_equal(ties, expected_ties)
    top = votes.max(axis=1)
    for m in np.flatnonzero(ties):
        assert labels[m] == ovo.classes[np.flatnonzero(votes[m] == top[m])[0]]


def test_any_sortable_labels_and_read_only_results():
    ds = make_blobs(n=60, k=3, seed=2)
    catalog = np.array(["setosa", "versicolor", "virginica"])
    names = catalog[ds.y]
    numeric = one_vs_one(ds.X, ds.y)
    named = one_vs_one(ds.X, names)
    np.testing.assert_array_equal(named.classes, ["setosa", "versicolor", "virginica"])
    np.testing.assert_array_equal(named.predict(ds.X), catalog[numeric.predict(ds.X)])
    ova = one_vs_all(ds.X, names)
    for model in (named, ova):
        for array in (
            model.classes,
            model.weights,
            model.biases,
            model.n_updates,
            model.converged,
            model.imbalance,
        ):
            assert not array.flags.writeable
    assert (ova.predict(ds.X) == names).mean() > 0.9


def test_two_classes_work_like_one_binary_perceptron():
    ds = make_blobs(n=50, k=2, seed=1)
    ovo = one_vs_one(ds.X, ds.y)
    assert ovo.n_perceptrons == 1
    np.testing.assert_array_equal(ovo.pairs, [[-1, 1]])


def test_errors_say_what_to_fix():
    ds = make_blobs(n=30, k=3, seed=0)
    for build in (one_vs_all, one_vs_one):
        with pytest.raises(ValueError, match="only one class"):
            build(ds.X, np.zeros(30))
        with pytest.raises(ValueError, match="one label per row"):
            build(ds.X, ds.y[:-1])
        with pytest.raises(ValueError, match="NaN"):
            build(ds.X, np.where(ds.y == 0, np.nan, ds.y))
        with pytest.raises(ValueError, match="1-D"):
            build(ds.X, ds.y.reshape(-1, 1))
        with pytest.raises(ValueError, match="unknown order"):
            build(ds.X, ds.y, order="sideways")
        with pytest.raises(ValueError, match="max_epochs"):
            build(ds.X, ds.y, max_epochs=0)
        model = build(ds.X, ds.y)
        with pytest.raises(ValueError, match="features"):
            model.predict(np.zeros((3, 5)))
