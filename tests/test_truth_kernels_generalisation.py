"""Sentences on /kernels, /generalisation and /bound true for the settings on screen
(issue 22), each test with settings chosen so that the old sentence was false."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import kernel_margin, kernel_perceptron, make_xor
from perceptron_core.theory import value_text, whole_cap
from perceptron_core.viz import bound as viz_bound
from perceptron_core.viz import generalisation as viz_gen
from perceptron_core.viz import kernels as viz_kernels


@pytest.mark.parametrize("margin", [0.9, 0.6, 0.15, 0.35])
def test_kind_4_a_value_in_an_equality_is_not_rounded_to_a_whole_number(margin):
    """γ = 0.9: 3/γ² = 3.70 (the old text said "= 4"); γ = 0.6: 8.33 (old "= 8")."""
    bound = 3 / margin**2
    text = viz_gen.stability_texts(
        {"count": 0, "caused": False, "same": True, "full_beta": [1.0, 0.0],
         "reduced_beta": [1.0, 0.0], "mistake_points": [1], "full_updates": 1,
         "reduced_updates": 1}, 0, 5, margin, 0)[0]
    assert f"3/γ² = {bound:,.2f}" in text and f"at most {int(np.floor(bound)):,}" in text
    assert f"3/γ² = {round(bound):,})" not in text


def test_value_text_is_exact_for_whole_numbers_and_two_decimals_otherwise():
    assert value_text(3 / 0.1**2) == "300" and whole_cap(3 / 0.1**2) == 300
    assert value_text(3 / 0.9**2) == "3.70" and whole_cap(3 / 0.9**2) == 3
    assert value_text(1403.79) == "1,403.79" and value_text(0.5333) == "0.533"
    rng = np.random.default_rng(0)
    for v in rng.uniform(1, 1e5, 200):  # never a whole number unless it is one
        assert abs(float(value_text(v).replace(",", "")) - v) <= 0.005 + 1e-9 * v


def test_kind_6_kernels_says_never_stops_when_not_separable_in_feature_space():
    """XOR with the linear kernel: no separator, so the run can never stop (the old text
    said "may never stop")."""
    ds = make_xor(n=40, seed=0)
    trace = kernel_perceptron(ds.X, ds.y, kernel="linear", max_updates=300, max_epochs=50)
    margin = kernel_margin(ds.X, ds.y, kernel="linear")
    assert not margin.separable and not trace.converged
    payload = viz_kernels.player_payload(trace, margin, limit=1.5, player={})
    for text in (payload["facts"], payload["end_text"]):
        assert "never stops" in text and "may never stop" not in text


def test_kind_6_kernels_a_converged_run_is_never_called_not_separable():
    """If the solver calls the margin 0 but the run separated the data, the page says the
    margin is positive (a run that stopped is a separator)."""
    ds = make_xor(n=40, seed=0)
    trace = kernel_perceptron(ds.X, ds.y, kernel="rbf", scale=2.0)
    assert trace.converged
    fake = kernel_margin(make_xor(n=40, seed=0).X, ds.y, kernel="linear")  # margin 0
    text = viz_kernels._facts(trace, fake)
    assert "never stops" not in text and "a separator exists" in text


@pytest.mark.parametrize("values", [np.geomspace(0.02, 0.5, 8), np.geomspace(0.05, 0.8, 5),
                                    np.array([0.1, 0.2, 0.4])])
def test_kind_6_bound_names_the_margin_ratio_the_sweep_used(values):
    """The default sweep's margins are 1.58x apart: the text says so instead of "halving"."""
    bounds = 2.0 / values**2
    text = viz_bound.margin_step_text(values, bounds)
    ratio = values[1] / values[0]
    assert f"{ratio:.2f} times apart" in text
    assert f"multiplied the median bound by about {ratio**2:.2f}" in text
    assert "per halving of γ that is a factor about 4.00" in text


def test_kernel_width_is_reported_with_its_own_symbol():
    ds = make_xor(n=20, seed=1)
    trace = kernel_perceptron(ds.X, ds.y, kernel="rbf", scale=8.0)
    text = viz_kernels.kernel_text(trace)
    assert "κ = 8" in text and "σ = 0.25" in text and "γ" not in text
