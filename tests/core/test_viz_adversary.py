"""Figure builders of the /adversary page, without Streamlit."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from app_helpers import trace_named

from perceptron_core import constructions as cx
from perceptron_core.viz import adversary as viz


def _sweep(dim: int):
    # gamma = 1/k and 1/(k + 1/2): decimals whose 1/gamma^2 is an integer or lies half way
    # between two (the floor is decided exactly, gamma read as the decimal it prints as)
    gammas = np.sort([1 / k for k in range(1, 21)] + [1 / (k + 0.5) for k in range(1, 20)])[::-1]
    forced = np.array([cx.adversarial_lower_bound(g, dim, "perceptron").n_mistakes for g in gammas])
    return gammas, forced


def test_forced_mistakes_meet_the_bound_until_d_caps_them():
    dim = 100
    gammas, forced = _sweep(dim)
    fig = viz.forced_mistakes_figure(gammas, forced, dim)
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    bound = trace_named(fig, "perceptron upper bound")
    np.testing.assert_allclose(bound.y, bound.x)  # 1/gamma^2 against 1/gamma^2
    np.testing.assert_allclose(bound.x, 1 / gammas**2)
    shown = np.asarray(trace_named(fig, "mistakes forced").y)
    x = np.asarray(bound.x)
    meet = x <= dim
    floors = np.array(
        [math.floor(1 / Fraction(repr(float(g))) ** 2) for g in gammas[np.argsort(x)]]
    )
    x = np.sort(x)
    np.testing.assert_array_equal(shown[meet], floors[meet])  # the two curves coincide
    assert np.all(floors[meet] > x[meet] - 1)  # up to the floor
    assert np.all(shown[~meet] == dim)  # then d caps the adversary
    assert np.all(shown <= np.asarray(bound.y) + 1e-9)  # never above the upper bound
    assert set(trace_named(fig, "dimension d").y) == {dim}
    json.loads(fig.to_json())


def test_forced_mistakes_floor_between_integers():
    gammas = np.array([0.3, 0.15])  # 1/gamma^2 = 11.1..., 44.4...
    forced = np.array([cx.adversary_size(g, 1000) for g in gammas])
    fig = viz.forced_mistakes_figure(gammas, forced, 1000, current=(0.3, 11))
    np.testing.assert_array_equal(trace_named(fig, "mistakes forced").y, [11, 44])
    star = trace_named(fig, "your choice")
    assert star.x[0] == pytest.approx(1 / 0.09) and star.y[0] == 11


def test_forced_mistakes_rejects_bad_input():
    with pytest.raises(ValueError):
        viz.forced_mistakes_figure(np.array([0.1, 0.2]), np.array([1]), 5)
    with pytest.raises(ValueError):
        viz.forced_mistakes_figure(np.array([0.0]), np.array([1]), 5)


def test_rounds_figure_puts_every_prediction_opposite_its_label():
    result = cx.adversarial_lower_bound(0.25, 50, "majority")
    fig = viz.rounds_figure(result.predictions, result.y)
    prediction = trace_named(fig, "prediction")
    plus, minus = trace_named(fig, "label yᵢ = +1"), trace_named(fig, "label yᵢ = -1")
    assert len(plus.x) + len(minus.x) == result.n_mistakes == 16
    assert plus.marker.symbol == "circle" and minus.marker.symbol == "square"
    labels = dict(zip(list(plus.x) + list(minus.x), list(plus.y) + list(minus.y)))
    for round_, predicted in zip(prediction.x, prediction.y):
        assert labels[round_] == -predicted


def test_rounds_figure_rejects_mismatched_shapes():
    with pytest.raises(ValueError):
        viz.rounds_figure(np.array([1, -1]), np.array([1]))
