"""/multiclass regions, numbers and figures against the core's predictions."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from perceptron_core import make_blobs, one_vs_all, one_vs_one
from perceptron_core.margin import max_margin
from perceptron_core.viz.multiclass import (axis_limit, disagreement_figure, grid, ova_figure,
                                            ovo_figure, regions, summary, winner_notes)


def fitted(k=4, seed=1, spread=0.12, middle=False, max_epochs=100):
    data = make_blobs(n=90, seed=seed, k=k, spread=spread)
    X, labels = np.array(data.X), np.array(data.y)
    if middle:
        X[labels == 0] -= X[labels == 0].mean(axis=0)
    settings = dict(max_updates=20_000, max_epochs=max_epochs)
    return X, labels, one_vs_all(X, labels, **settings), one_vs_one(X, labels, **settings)


@pytest.mark.parametrize("k,seed,middle", [(3, 0, False), (4, 1, True), (5, 2, False),
                                           (6, 3, True)])
def test_regions_are_the_models_predictions_on_the_grid(k, seed, middle):
    X, labels, ova, ovo = fitted(k, seed, middle=middle)
    limit = axis_limit(X)
    region = regions(ova, ovo, limit, resolution=41)
    axis, points = grid(limit, 41)
    np.testing.assert_array_equal(region["axis"], axis)
    # an independent argmax / vote count written here
    scores = points @ ova.weights.T + ova.biases
    assert np.array_equal(region["ova"].ravel(), np.argmax(scores, axis=1))
    assert np.array_equal(region["ova_tie"].ravel(),
                          (scores == scores.max(axis=1, keepdims=True)).sum(axis=1) > 1)
    votes = np.zeros((len(points), k), dtype=int)
    for (j, jj), w, b in zip(ovo.pair_codes, ovo.weights, ovo.biases):
        positive = points @ w + b > 0
        votes[:, j] += positive
        votes[:, jj] += ~positive
    assert np.array_equal(region["ovo"].ravel(), np.argmax(votes, axis=1))
    assert np.array_equal(region["ovo_tie"].ravel(),
                          (votes == votes.max(axis=1, keepdims=True)).sum(axis=1) > 1)
    assert np.array_equal(region["disagree"], region["ova"] != region["ovo"])
    for key in ("ova_share", "ovo_share"):
        assert region[key].sum() == pytest.approx(1.0)
    # one-vs-all's shares are exact polygon areas: against 400 000 uniform points of the
    # square (standard error below 0.001) and, coarser, the grid's own count
    rng = np.random.default_rng(seed)
    sample = rng.uniform(-limit, limit, size=(400_000, 2))
    counted = np.bincount(np.argmax(sample @ ova.weights.T + ova.biases, axis=1),
                          minlength=k) / len(sample)
    np.testing.assert_allclose(region["ova_share"], counted, atol=0.004)
    np.testing.assert_allclose(region["ova_share"],
                               np.bincount(np.argmax(scores, axis=1), minlength=k) / len(points),
                               atol=3 / 41)
    assert region["ova_tie_share"] == 0  # distinct scores tie on lines only


def test_summary_counts_against_the_core():
    X, labels, ova, ovo = fitted(4, 1, spread=0.3)
    region = regions(ova, ovo, axis_limit(X), resolution=41)
    numbers = summary(X, labels, ova, ovo, region)
    assert numbers["one-vs-all"]["accuracy"] == np.mean(ova.predict(X) == labels)
    assert numbers["one-vs-one"]["accuracy"] == np.mean(ovo.predict(X) == labels)
    assert numbers["one-vs-all"]["perceptrons"] == 4 and numbers["one-vs-one"]["perceptrons"] == 6
    assert numbers["one-vs-all"]["updates"] == int(ova.n_updates.sum())
    assert numbers["one-vs-one"]["converged"] == int(ovo.converged.sum())
    assert numbers["disagree_training"] == int(np.sum(ova.predict(X) != ovo.predict(X)))
    off = ~region["on_line"]
    assert numbers["disagree_share"] == pytest.approx(region["disagree"][off].mean())
    for label, separable in zip(ova.classes.tolist(), numbers["separable"]):
        assert separable == max_margin(X, np.where(labels == label, 1, -1)).separable


def test_notes_name_classes_that_win_nowhere_or_were_not_separated():
    X, labels, ova, _ = fitted(4, 1)
    # a class whose score is far below the others everywhere wins nowhere
    weights = np.array(ova.weights)
    biases = np.array(ova.biases)
    weights[2], biases[2] = 0.0, -1e6
    sunk = dataclasses.replace(ova, weights=weights, biases=biases)
    region = regions(sunk, one_vs_one(X, labels), axis_limit(X), resolution=21)
    assert region["ova_share"][2] == 0
    notes = winner_notes(sunk, region)
    assert any(note.startswith("class 2 wins nowhere") for note in notes)
    # one class in the middle with a tiny epoch limit: its problem is not separated
    X, labels, ova, ovo = fitted(4, 1, middle=True, max_epochs=2)
    region = regions(ova, ovo, axis_limit(X), resolution=21)
    notes = winner_notes(ova, region)
    for j in np.flatnonzero(~ova.converged):
        assert any(note.startswith(f"class {ova.classes[j]} against the rest was not separated")
                   for note in notes)
    assert len(notes) >= int((~ova.converged).sum())


def test_figures_show_the_regions_the_lines_chosen_and_every_point():
    X, labels, ova, ovo = fitted(3, 0, spread=0.35)
    limit = axis_limit(X)
    region = regions(ova, ovo, limit, resolution=31)
    fig = ova_figure(X, labels, ova, region, limit, shown_lines=(0, 2))
    assert np.array_equal(np.asarray(fig.data[0].z) - 0.5, region["ova"])
    names = [t.name for t in fig.data]
    assert "line 0 vs rest" in names and "line 2 vs rest" in names
    assert "line 1 vs rest" not in names
    line = fig.data[names.index("line 0 vs rest")]
    w, b = ova.weights[0], ova.biases[0]
    np.testing.assert_allclose(w[0] * np.asarray(line.x) + w[1] * np.asarray(line.y) + b, 0,
                               atol=1e-9)
    points = [t for t in fig.data if getattr(t, "mode", None) == "markers"]
    assert sum(len(t.x) for t in points) == len(labels)
    fig = ovo_figure(X, labels, ovo, region, limit)
    assert np.array_equal(np.asarray(fig.data[0].z) - 0.5, region["ovo"])
    assert ("tied vote" in [t.name for t in fig.data]) == bool(region["ovo_tie"].any())
    fig = disagreement_figure(X, labels, ova.classes, region, limit)
    z = np.asarray(fig.data[0].z, dtype=float)
    assert np.array_equal(~np.isnan(z), region["disagree"])
    assert fig.layout.margin.autoexpand is False


def test_the_j_vs_rest_lines_differ_by_dash_as_well_as_colour():
    """Nothing told by colour alone (issue #20): with every line of k = 6 shown, no two
    lines share a dash or a colour."""
    X, labels, ova, ovo = fitted(6, 3, spread=0.12)
    limit = axis_limit(X)
    region = regions(ova, ovo, limit, resolution=21)
    fig = ova_figure(X, labels, ova, region, limit, shown_lines=tuple(ova.classes.tolist()))
    lines = [t for t in fig.data if str(t.name).endswith("vs rest")]
    assert len(lines) >= 5
    assert len({t.line.dash for t in lines}) == len(lines)
    assert len({t.line.color for t in lines}) == len(lines)
