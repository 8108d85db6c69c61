"""Figure builders of the bound page, tested without Streamlit."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest
from app_helpers import plotly_array

from perceptron_core.sweeps import margin_sweep, shift_sweep
from perceptron_core.viz import style
from perceptron_core.viz.bound import (
    LEGEND_GAP,
    LEGEND_ROW,
    dependence_figure,
    halving_factors,
    halving_spread,
    largest_per_value,
    log_ticks,
    notebook_bounds,
    ratio_figure,
    shift_findings,
    step_changes,
    sweep_figure,
)


def as_json(fig: go.Figure) -> dict:
    return json.loads(fig.to_json())


MARGINS = np.repeat([0.05, 0.1, 0.2], 3)
UPDATES = np.array([40, 55, 61, 20, 22, 30, 5, 9, 8])
VALUES = np.array([0.05, 0.1, 0.2])
MEDIANS = np.array([55, 22, 8])
BOUND = np.array([900.0, 230.0, 60.0])


def test_sweep_figure_has_runs_median_and_bounds_on_log_axes():
    fig = sweep_figure(
        MARGINS,
        UPDATES,
        VALUES,
        MEDIANS,
        BOUND,
        "T(A)",
        reference=BOUND / 2,
        reference_label="(R/γ)² reference",
    )
    names = [trace.name for trace in fig.data]
    assert names == ["runs (one dot each)", "median over seeds", "T(A)", "(R/γ)² reference"]
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert fig.data[0].mode == "markers" and fig.data[1].mode == "lines+markers"
    np.testing.assert_array_equal(fig.data[0].y, UPDATES)
    np.testing.assert_array_equal(fig.data[2].y, BOUND)
    assert fig.data[3].line.dash == "dash"
    assert "margin" in fig.layout.xaxis.title.text and "updates" in fig.layout.yaxis.title.text


def test_sweep_figure_without_reference_and_in_json():
    fig = sweep_figure(MARGINS, UPDATES, VALUES, MEDIANS, BOUND, "(R/γ)²")
    assert len(fig.data) == 3
    spec = as_json(fig)
    np.testing.assert_allclose(plotly_array(spec["data"][0]["x"]), MARGINS)


def test_projector_style():
    fig = sweep_figure(MARGINS, UPDATES, VALUES, MEDIANS, BOUND, "T(A)")
    assert fig.layout.font.size == style.FONT_SIZE
    assert fig.data[0].marker.color == style.STEP
    assert fig.data[2].line.color == style.BOUND
    # legend above the plot area, and room left for it
    assert fig.layout.legend.y >= 1 and fig.layout.legend.yanchor == "bottom"
    assert fig.layout.margin.t >= LEGEND_ROW + LEGEND_GAP


def test_a_long_legend_gets_a_row_per_entry_and_the_plot_keeps_its_height():
    """Five long entries on a horizontal legend wrapped past the figure's top (the first
    /bound chart hid "runs" and half of "median"): each entry gets its own row instead."""
    short = sweep_figure(MARGINS, UPDATES, VALUES, MEDIANS, BOUND, "T(A)")
    long = sweep_figure(
        MARGINS,
        UPDATES,
        VALUES,
        MEDIANS,
        BOUND,
        "T(A) = (R²+1)/γ₂²",
        BOUND / 2,
        "(R/γ)², geometric γ: reference only",
        also_holds=BOUND * 2,
        also_holds_label="2(R²+1)/ε² (notebook), largest over seeds",
    )
    entries = [t for t in long.data if t.name and t.showlegend is not False]
    assert len(entries) == 5
    assert long.layout.legend.orientation == "v"
    assert long.layout.margin.t >= LEGEND_ROW * len(entries)
    plot_height = [f.layout.height - f.layout.margin.t - f.layout.margin.b for f in (short, long)]
    assert plot_height[0] == plot_height[1]
    ratio = ratio_figure(MARGINS, UPDATES / np.repeat(BOUND, 3), "T(A)")
    assert ratio.layout.legend.orientation == "h"
    assert LEGEND_ROW <= ratio.layout.margin.t < 2 * LEGEND_ROW + LEGEND_GAP


def test_ratio_figure_has_the_line_at_one():
    ratios = UPDATES / np.repeat(BOUND, 3)
    fig = ratio_figure(MARGINS, ratios, "T(A)")
    runs, limit = fig.data
    assert runs.mode == "markers"
    np.testing.assert_allclose(runs.y, ratios)
    np.testing.assert_array_equal(limit.y, [1.0, 1.0])
    assert limit.x[0] <= MARGINS.min() and limit.x[1] >= MARGINS.max()
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "linear"
    assert fig.layout.yaxis.range[0] == 0 and fig.layout.yaxis.range[1] >= 1.1
    assert "T(A)" in fig.layout.yaxis.title.text


def test_ratio_figure_shows_a_violation_instead_of_clipping_it():
    fig = ratio_figure([1.0, 2.0], [0.5, 1.7], "bound", log_x=False, xlabel="δ")
    assert fig.layout.yaxis.range[1] >= 1.7
    assert fig.layout.xaxis.type == "linear"
    assert fig.data[1].x[0] < 1.0 < 2.0 < fig.data[1].x[1]


def test_dependence_figure_draws_a_flat_bound_for_a_number():
    x = np.repeat([10, 100, 1000], 2)
    fig = dependence_figure(
        x,
        [5, 7, 6, 8, 7, 7],
        [10, 100, 1000],
        [6, 7, 7],
        99.0,
        "number of points n",
        "largest bound",
    )
    assert [trace.name for trace in fig.data] == [
        "runs (one dot each)",
        "median over seeds",
        "largest bound",
    ]
    flat = fig.data[2]
    np.testing.assert_array_equal(flat.x, [10, 1000])
    np.testing.assert_array_equal(flat.y, [99.0, 99.0])
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert fig.layout.xaxis.title.text == "number of points n"


def test_dependence_figure_draws_a_bound_per_value_on_linear_axes():
    fig = dependence_figure(
        [0, 0, 1, 1],
        [3, 4, 9, 8],
        [0, 1],
        [3.5, 8.5],
        [20.0, 40.0],
        "threshold δ",
        "bound (1.4)",
        log_x=False,
        log_y=False,
    )
    np.testing.assert_array_equal(fig.data[2].y, [20.0, 40.0])
    assert fig.layout.xaxis.type == "linear" and fig.layout.yaxis.type == "linear"
    assert "(log scale)" not in fig.layout.yaxis.title.text


@pytest.mark.parametrize(
    "builder",
    [
        lambda: sweep_figure([], [], [], [], [], "T(A)"),
        lambda: ratio_figure([], [], "T(A)"),
        lambda: dependence_figure([], [], [], [], 1.0, "n", "bound"),
    ],
)
def test_empty_input_still_gives_a_figure(builder):
    assert isinstance(builder(), go.Figure)


def test_log_axes_are_labelled_at_one_two_five():
    fig = sweep_figure(MARGINS, UPDATES, VALUES, MEDIANS, BOUND, "T(A)")
    assert list(fig.layout.xaxis.tickvals) == [0.05, 0.1, 0.2]
    assert list(fig.layout.xaxis.ticktext) == ["0.05", "0.1", "0.2"]
    assert list(fig.layout.yaxis.ticktext)[:3] == ["5", "10", "20"]
    assert fig.layout.yaxis.tickvals[-1] >= 900 / 1.6


def test_log_ticks_thin_out_over_many_decades():
    np.testing.assert_allclose(log_ticks([1, 1e6]), 10.0 ** np.arange(7))
    np.testing.assert_allclose(log_ticks([0.02, 0.5]), [0.02, 0.05, 0.1, 0.2, 0.5])
    assert log_ticks([0.0, -1.0, np.nan]).size == 0


# ---------------------------------------------------------------------------
# What the runs on screen show (numbers and words the page prints)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("power, factor", [(2, 4.0), (1, 2.0), (3, 8.0)])
def test_halving_factors_recover_the_power_of_the_margin(power, factor):
    margins = np.geomspace(0.02, 0.5, 7)
    bounds = 3.7 / margins**power  # a bound proportional to 1/γ^power
    np.testing.assert_allclose(halving_factors(margins, bounds), factor)
    assert halving_spread(margins, bounds) == f"about {factor:.2f}"


def test_halving_spread_gives_the_range_when_the_factors_differ():
    margins = np.array([0.1, 0.2, 0.4])
    bounds = np.array([400.0, 100.0, 50.0])  # 4 from 0.1 to 0.2, then 2
    assert halving_spread(margins, bounds) == "between 2.00 and 4.00"


def runs(seed, value, **columns):
    """A stand-in for a SweepResult with just the columns a function reads."""
    from types import SimpleNamespace

    value = np.asarray(value, float)
    return SimpleNamespace(
        seed=np.asarray(seed),
        value=value,
        values=lambda: np.unique(value),
        **{k: np.asarray(v, float) for k, v in columns.items()},
    )


def test_largest_per_value_matches_a_plain_loop():
    rng = np.random.default_rng(3)
    value = rng.choice([0.05, 0.1, 0.2, 0.4], size=40)
    per_run = rng.uniform(1, 100, size=40)
    result = runs(np.arange(40), value)
    expected = {}
    for v, x in zip(value, per_run):
        expected[v] = max(expected.get(v, -np.inf), x)
    np.testing.assert_array_equal(
        largest_per_value(result, per_run), [expected[v] for v in sorted(expected)]
    )


def test_notebook_bound_is_the_formula_and_holds_for_every_run():
    result = margin_sweep([0.05, 0.2], [0, 1, 2], n=60, dim=3, bias=True, order="cyclic")
    epsilon, bound = notebook_bounds(result)
    R, gamma = result.radius, result.gamma
    np.testing.assert_allclose(epsilon, gamma / np.maximum(1.0, R))
    np.testing.assert_allclose(bound, 2 * (R**2 + 1) / epsilon**2)
    assert np.all(result.updates <= bound) and np.all(bound >= result.padded * (1 - 1e-9))


def test_step_changes_count_rises_falls_and_ties_per_seed():
    # seed 0: 1 -> 2 -> 2 -> 1 (rise, same, fall); seed 1, given out of order: 5 -> 3 -> 4
    result = runs([0, 0, 0, 0, 1, 1, 1], [0, 1, 2, 3, 2, 0, 1], radius=[1, 2, 2, 1, 4, 5, 3])
    assert step_changes(result, "radius") == (2, 2, 1)


def test_shift_findings_report_the_counts_of_the_runs():
    rising = runs(
        [0, 0, 0],
        [0, 1, 2],
        radius=[1, 2, 3],
        gamma_2=[0.3, 0.2, 0.25],
        padded=[10, 20, 30],
        updates=[5, 4, 9],
    )
    text = shift_findings(rising)
    assert "for each of the 1 seed (2 steps in all)" in text
    assert "R grew in 2 of 2; γ₂ shrank in 1 of 2 and grew in 1 of 2" in text
    assert "the number of updates grew in 1 of 2, fell in 1 of 2" in text
    assert "Held every time: T(A) grew, R grew." in text
    assert (
        "Did not hold every time: γ₂ shrank (only 1 of 2), the number of updates grew "
        "(only 1 of 2)." in text
    )
    one_value = runs([0, 1], [0, 0], radius=[1, 1], gamma_2=[1, 1], padded=[1, 1], updates=[1, 1])
    assert shift_findings(one_value).startswith("Give at least two values of u")


def test_shift_findings_agree_with_a_real_translation_sweep():
    result = shift_sweep([0, 1, 3], [0, 1], margin=0.1, n=60, dim=2, order="cyclic")
    rose = 0
    for seed in (0, 1):  # R from each shift to the next larger one
        radius = result.radius[result.seed == seed][np.argsort(result.value[result.seed == seed])]
        rose += int(np.sum(radius[1:] > radius[:-1] * (1 + 1e-9)))
    assert f"R grew in {rose} of 4" in shift_findings(result)
