"""A chart in words (perceptron_core/viz/describe.py): what a screen reader hears of a chart."""

import numpy as np
import plotly.graph_objects as go

from perceptron_core.viz.describe import MAX_TRACES, figure_summary


def test_title_axes_and_traces_are_read_from_the_figure():
    xs = np.array([0.01, 0.1, 1.0])
    figure = go.Figure(
        [
            go.Scatter(x=xs, y=[900.0, 40.0, 3.0], mode="lines", name="median"),
            go.Scatter(x=xs, y=[1.0, 2.0, 3.0], mode="markers", name="<b>runs</b>"),
            go.Scatter(x=xs, y=xs, mode="lines", showlegend=False),
        ]
    )
    figure.update_layout(
        title="Updates<br>against the margin",
        xaxis=dict(title="margin γ", type="log"),
        yaxis=dict(title="updates", range=[0, 1000]),
    )
    summary = figure_summary(figure)
    assert summary.startswith("Chart: Updates against the margin.")
    assert "x axis: margin γ (log scale)" in summary
    assert "y axis: updates, 0 to 1,000" in summary
    assert "median: a line from 900 at 0.01 to 3 at 1" in summary
    assert "runs: 3 points" in summary and "<b>" not in summary
    assert summary.count(":") == 5  # the unnamed trace is not read out


def test_a_figure_without_a_title_is_called_by_its_axes_and_shaded_regions_are_named():
    figure = go.Figure(
        [
            go.Scatter(x=[0, 1, 1], y=[0, 0, 1], fill="toself", name="feasible"),
            go.Bar(x=[1, 2], y=[3, 4], name="score"),
            go.Heatmap(z=[[0, 1], [1, 0]], name="f"),
        ]
    )
    figure.update_layout(xaxis_title="w₁", yaxis_title="w₂")
    summary = figure_summary(figure)
    assert summary.startswith("Chart: w₂ against w₁.")
    assert "feasible: a shaded region" in summary
    assert "score: 2 bars" in summary and "f: a map in colour" in summary


def test_many_traces_are_counted_not_read_and_repeats_are_read_once():
    figure = go.Figure(
        [
            go.Scatter(x=[0, 1], y=[k, k], mode="lines", name=f"line {k}")
            for k in range(MAX_TRACES + 3)
        ]
        + [go.Scatter(x=[0, 1], y=[0, 0], mode="lines", name="line 0")]
    )
    summary = figure_summary(figure)
    assert f"line {MAX_TRACES - 1}:" in summary and f"line {MAX_TRACES}:" not in summary
    assert "and 3 more" in summary
