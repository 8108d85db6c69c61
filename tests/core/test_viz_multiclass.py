"""/multiclass regions, numbers and figures against the core's predictions."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from perceptron_core import make_blobs, one_vs_all, one_vs_one
from perceptron_core.multiclass_plane import plane
from perceptron_core.viz.multiclass import (
    axis_limit,
    disagreement_figure,
    fit_both,
    ova_figure,
    ovo_figure,
    summary,
    winner_notes,
)


def fitted(k=4, seed=1, spread=0.12, middle=False, max_epochs=100):
    data = make_blobs(n=90, seed=seed, k=k, spread=spread)
    X, labels = np.array(data.X), np.array(data.y)
    if middle:
        X[labels == 0] -= X[labels == 0].mean(axis=0)
    settings = dict(max_updates=20_000, max_epochs=max_epochs)
    return X, labels, one_vs_all(X, labels, **settings), one_vs_one(X, labels, **settings)


def inside(polygon: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points strictly inside a convex anticlockwise polygon (a plain loop over its edges)."""
    keep = np.ones(len(points), dtype=bool)
    for a, b in zip(polygon, np.roll(polygon, -1, axis=0)):
        cross = (b[0] - a[0]) * (points[:, 1] - a[1]) - (b[1] - a[1]) * (points[:, 0] - a[0])
        keep &= cross > 1e-12
    return keep


@pytest.mark.parametrize(
    "k,seed,middle", [(3, 0, False), (4, 1, True), (5, 2, False), (6, 3, True)]
)
def test_regions_are_the_models_predictions(k, seed, middle):
    """Each class's polygons hold exactly the random points the core's predict gives that
    class (points within 1e-9 of a border left out), and the exact shares match a count of
    400 000 uniform points (standard error below 0.001)."""
    X, labels, ova, ovo = fitted(k, seed, middle=middle)
    limit = axis_limit(X)
    region = plane(ova, ovo, limit)
    rng = np.random.default_rng(seed)
    sample = rng.uniform(-limit, limit, size=(20_000, 2))
    for key, model in (("ova", ova), ("ovo", ovo)):
        predicted = np.searchsorted(model.classes, model.predict(sample))
        claimed = np.full(len(sample), -1)
        for j, part in enumerate(region[key]):
            for polygon in part.polygons:
                claimed[inside(polygon, sample)] = j
        known = claimed >= 0
        assert known.mean() > 0.99  # only points on a border are in no open cell
        np.testing.assert_array_equal(claimed[known], predicted[known])
        assert sum(part.share for part in region[key]) == 1  # exact fractions
    big = rng.uniform(-limit, limit, size=(400_000, 2))
    counted = np.bincount(np.argmax(big @ ova.weights.T + ova.biases, axis=1), minlength=k) / len(
        big
    )
    np.testing.assert_allclose([float(p.share) for p in region["ova"]], counted, atol=0.004)
    disagree = (ova.predict(big) != ovo.predict(big)).mean()
    assert float(region["disagree"].share) == pytest.approx(disagree, abs=0.004)
    assert region["ova_tie"].share == 0  # distinct scores tie on lines only


def test_summary_counts_against_the_core():
    X, labels, ova, ovo = fitted(4, 1, spread=0.3)
    region = plane(ova, ovo, axis_limit(X))
    numbers = summary(X, labels, ova, ovo, region)
    assert numbers["one-vs-all"]["accuracy"] == np.mean(ova.predict(X) == labels)
    assert numbers["one-vs-one"]["accuracy"] == np.mean(ovo.predict(X) == labels)
    assert numbers["one-vs-all"]["perceptrons"] == 4 and numbers["one-vs-one"]["perceptrons"] == 6
    assert numbers["one-vs-all"]["updates"] == int(ova.n_updates.sum())
    assert numbers["one-vs-one"]["converged"] == int(ovo.converged.sum())
    assert numbers["disagree_training"] == int(np.sum(ova.predict(X) != ovo.predict(X)))
    assert numbers["disagree"] is region["disagree"]
    assert numbers["class_counts"] == np.bincount(labels).tolist()


def test_notes_name_classes_that_win_nowhere_or_were_not_separated():
    X, labels, ova, ovo = fitted(4, 1)
    # a class whose score is far below the others everywhere wins nowhere
    weights = np.array(ova.weights)
    biases = np.array(ova.biases)
    weights[2], biases[2] = 0.0, -1e6
    sunk = dataclasses.replace(ova, weights=weights, biases=biases)
    region = plane(sunk, ovo, axis_limit(X))
    assert region["ova"][2].empty
    numbers = summary(X, labels, sunk, ovo, region)
    notes = winner_notes(sunk, region, numbers)
    assert any(note.startswith("class 2 wins nowhere") for note in notes)
    # one class in the middle with a tiny epoch limit: its problem is not separated
    X, labels, ova, ovo, region, numbers = fit_both_parts(4, 1, middle=True, max_epochs=2)
    notes = winner_notes(ova, region, numbers)
    for j in np.flatnonzero(~ova.converged):
        assert any(
            note.startswith(f"class {ova.classes[j]} against the rest was not separated")
            for note in notes
        )
    assert len(notes) >= int((~ova.converged).sum())


def fit_both_parts(k, seed, middle=False, max_epochs=100):
    X, labels, _, _ = fitted(k, seed, middle=middle, max_epochs=max_epochs)
    ova, ovo, _, region, numbers = fit_both(X, labels, "cyclic", 0, max_epochs)
    return X, labels, ova, ovo, region, numbers


def test_figures_show_the_regions_the_lines_chosen_and_every_point():
    X, labels, ova, ovo = fitted(3, 0, spread=0.35)
    limit = axis_limit(X)
    region = plane(ova, ovo, limit)
    fig = ova_figure(X, labels, ova, region, limit, shown_lines=(0, 2))
    areas = [t for t in fig.data if t.fill == "toself"]
    assert len(areas) == sum(bool(part.polygons) for part in region["ova"])
    names = [t.name for t in fig.data]
    assert "line 0 vs rest" in names and "line 2 vs rest" in names
    assert "line 1 vs rest" not in names
    line = fig.data[names.index("line 0 vs rest")]
    w, b = ova.weights[0], ova.biases[0]
    np.testing.assert_allclose(
        w[0] * np.asarray(line.x) + w[1] * np.asarray(line.y) + b, 0, atol=1e-9
    )
    points = [
        t
        for t in fig.data
        if getattr(t, "mode", None) == "markers"
        and str(t.name).startswith("class ")
        and "(" not in str(t.name)
    ]
    assert sum(len(t.x) for t in points) == len(labels)
    fig = ovo_figure(X, labels, ovo, region, limit)
    assert ("tied vote (area)" in [t.name for t in fig.data]) == region["ovo_tie"].has_area
    fig = disagreement_figure(X, labels, ova.classes, region, limit)
    assert ("disagree (area)" in [t.name for t in fig.data]) == region["disagree"].has_area
    assert fig.layout.margin.autoexpand is False


def test_the_j_vs_rest_lines_differ_by_dash_as_well_as_colour():
    """Nothing told by colour alone (issue #20): with every line of k = 6 shown, no two
    lines share a dash or a colour."""
    X, labels, ova, ovo = fitted(6, 3, spread=0.12)
    limit = axis_limit(X)
    region = plane(ova, ovo, limit)
    fig = ova_figure(X, labels, ova, region, limit, shown_lines=tuple(ova.classes.tolist()))
    lines = [t for t in fig.data if str(t.name).endswith("vs rest")]
    assert len(lines) >= 5
    assert len({t.line.dash for t in lines}) == len(lines)
    assert len({t.line.color for t in lines}) == len(lines)
