"""One palette and one look for every figure (colour-blind safe, projector sized).

Colours are the Okabe-Ito palette; the two classes differ by marker shape as
well as colour, so a grey-scale projector still tells them apart.
"""

from __future__ import annotations

import plotly.graph_objects as go
import plotly.io as pio

POSITIVE = "#0072B2"  # blue, class +1, circles
NEGATIVE = "#D55E00"  # vermillion, class -1, squares
POSITIVE_FILL = "rgba(0, 114, 178, 0.10)"
NEGATIVE_FILL = "rgba(213, 94, 0, 0.10)"
HYPERPLANE = "#000000"
WEIGHT = "#009E73"  # bluish green: the weight vector w
STEP = "#E69F00"  # orange: the update y·x and the example that caused it
GHOST = "#999999"  # grey: the previous hyperplane / previous w
PLANTED = "#CC79A7"  # reddish purple: the planted separator w* and its margin band
BOUND = "#56B4E9"  # sky blue: theoretical bounds
ACCENT = "#F0E442"  # yellow (sparingly)
SERIES = [POSITIVE, NEGATIVE, WEIGHT, STEP, PLANTED, BOUND, GHOST]

MARKER_POSITIVE = "circle"
MARKER_NEGATIVE = "square"
MARKER_SIZE = 11
FONT_SIZE = 18


def number_text(value: float) -> str:
    """A bound or a count as a person writes it: 1,404 from 10 up, else three
    significant digits (2.99, 0.533)."""
    return f"{value:,.0f}" if value >= 10 else f"{value:.3g}"


def class_marker(label: int) -> dict:
    """Marker style of a class: colour and shape both differ."""
    if label > 0:
        return dict(
            color=POSITIVE,
            symbol=MARKER_POSITIVE,
            size=MARKER_SIZE,
            line=dict(color="white", width=1),
        )
    return dict(
        color=NEGATIVE,
        symbol=MARKER_NEGATIVE,
        size=MARKER_SIZE - 1,
        line=dict(color="white", width=1),
    )


#: plotly_white, with every axis told not to grow the margins to fit its labels: a
#: figure is laid out once, at the margins given, instead of again and again while
#: Plotly pushes margins for labels and legends (its doAutoMargin loop).
TEMPLATE = go.layout.Template(pio.templates["plotly_white"])
TEMPLATE.layout.xaxis.automargin = False
TEMPLATE.layout.yaxis.automargin = False


def base_layout_spec(
    *, title: str | None = None, height: int = 560, font_size: int = FONT_SIZE
) -> dict:
    """The shared look as a plain layout dict: what :func:`base_layout` applies.

    For figures built as dicts and wrapped without Plotly's per-property validation
    (``figure_without_validation``): the same keys and values, with ``title`` written as
    ``{}`` when there is none (what ``update_layout(title=None)`` leaves in the JSON).
    """
    return dict(
        template=TEMPLATE,
        font=dict(size=font_size),
        title=dict(text=title) if title else {},
        height=height,
        margin=dict(l=90, r=20, t=90 if title else 60, b=75, autoexpand=False),
        # inside the plot's top-left corner: it takes no margin, so none has to grow
        legend=dict(
            orientation="v",
            yanchor="top",
            y=0.99,
            xanchor="left",
            x=0.01,
            bgcolor="rgba(255, 255, 255, 0.85)",
            bordercolor="#dddddd",
            borderwidth=1,
        ),
        hoverlabel=dict(font=dict(size=font_size - 2)),
    )


def base_layout(
    fig: go.Figure, *, title: str | None = None, height: int = 560, font_size: int = FONT_SIZE
) -> go.Figure:
    """Apply the shared look: white background, large fonts, legend in the top-left corner.

    Margins are fixed (``autoexpand`` off, no axis ``automargin``): they leave room
    for tick labels, axis titles and the legend above the plot.
    """
    spec = base_layout_spec(title=title, height=height, font_size=font_size)
    fig.update_layout(**spec | dict(title=spec["title"] or None))
    return fig


def figure_without_validation(data: list[dict], layout: dict) -> go.Figure:
    """A Figure of trace dicts (each with its ``type``) and a layout dict, wrapped as they
    are: no per-property validation, which costs 10–20 ms a figure (most of it copying and
    checking the template) where this takes about 1 ms. The dicts must be what Plotly's
    validation would have produced (full property names, nested dicts, no magic
    underscores); the tests compare such figures' JSON with validated ones'.
    """
    return go.Figure(dict(data=data, layout=layout), _validate=False)
