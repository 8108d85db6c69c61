"""A chart laid out for a phone (perceptron_core/viz/narrow.py): the same data, its words
wrapped to a phone's width, the legend under the plot with room for every line."""

import numpy as np
import plotly.graph_objects as go

from perceptron_core.viz import style
from perceptron_core.viz.narrow import (
    AXIS_ROOM,
    LEGEND_LINE,
    NARROW_CHARS,
    NARROW_PLOT_HEIGHT,
    narrow_figure,
    wrap,
)


def desktop_figure():
    fig = go.Figure(
        [
            go.Scatter(
                x=[1, 2, 3],
                y=[3, 2, 1],
                mode="lines",
                name="mistake-driven (update only on a mistake): 2 mistakes",
            ),
            go.Scatter(x=[1, 2, 3], y=[1, 2, 3], mode="markers", name="runs"),
            go.Scatter(x=[1, 3], y=[0, 0], mode="lines", name="hidden", showlegend=False),
        ]
    )
    style.base_layout(
        fig, title="t = 1 (power of two): x_t = (-2, 0), score 0 → MISTAKE", height=700
    )
    fig.update_layout(xaxis_title="margin γ (data units, log scale)", yaxis_title="updates")
    return fig


def test_wrap_keeps_words_and_lines_short():
    text = "aggressive (update on every example): 18 mistakes up to T"
    lines = wrap(text).split("<br>")
    assert all(len(line) <= NARROW_CHARS for line in lines) and len(lines) == 2
    assert " ".join(lines) == text
    assert wrap("a<br>b") == "a<br>b" and wrap(None) is None


def test_the_phone_layout_keeps_the_data_and_makes_room_for_every_word():
    wide = desktop_figure()
    narrow = narrow_figure(wide)
    assert wide.layout.height == 700  # the page's figure is left as it was
    for before, after in zip(wide.data, narrow.data):
        assert np.array_equal(np.asarray(before.y), np.asarray(after.y))
    names = [trace.name for trace in narrow.data]
    assert all(len(line) <= NARROW_CHARS for name in names for line in name.split("<br>"))
    assert narrow.data[2].name == "hidden"  # not in the legend: not counted either
    legend_lines = sum(name.count("<br>") + 1 for name in names[:2])
    margin = narrow.layout.margin
    assert margin.b >= AXIS_ROOM + LEGEND_LINE * legend_lines
    assert narrow.layout.height - margin.t - margin.b <= NARROW_PLOT_HEIGHT
    assert narrow.layout.legend.yref == "container" and narrow.layout.legend.yanchor == "top"
    assert narrow.layout.legend.y * narrow.layout.height <= margin.b - AXIS_ROOM + 1
    title_lines = narrow.layout.title.text.split("<br>")
    assert len(title_lines) >= 2 and all(len(line) <= NARROW_CHARS for line in title_lines)
    assert "<br>" in narrow.layout.xaxis.title.text
    assert narrow.layout.font.size >= 12 and narrow.layout.legend.font.size >= 12


def test_an_animation_keeps_its_play_button_and_slider_between_axis_and_legend():
    fig = desktop_figure()
    fig.update_layout(
        updatemenus=[dict(type="buttons", y=-0.12, buttons=[dict(label="Play")])],
        sliders=[dict(y=-0.12, steps=[dict(label="1")])],
    )
    narrow = narrow_figure(fig)
    plot_height = narrow.layout.height - narrow.layout.margin.t - narrow.layout.margin.b
    slider_top = -narrow.layout.sliders[0].y * plot_height  # px under the plot
    assert 0 < slider_top < AXIS_ROOM
    legend_top_from_bottom = narrow.layout.legend.y * narrow.layout.height
    assert narrow.layout.margin.b - slider_top - legend_top_from_bottom >= 80
