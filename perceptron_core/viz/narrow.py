"""A chart laid out for a phone: what a 360–430 px screen can show without clipping.

The figures are laid out for a desktop or a projector: legends inside the plot or in one
row above it, titles and axis titles on one line. On a phone a long legend entry or title
runs past the chart's edge and is cut off. ``narrow_figure`` keeps the data and lays the
words out again: titles, axis titles, legend entries and notes wrapped to a phone's width,
the legend in one column under the plot, the plot no taller than a phone shows at once.
Figure in, figure out; the page decides when (a phone's browser).
"""

from __future__ import annotations

import textwrap

import plotly.graph_objects as go

#: characters per line of a wrapped legend entry, title or note (12–16 px type in 330 px)
NARROW_CHARS = 30
#: the tallest plot area on a phone (px): a square plane fills the width and no more
NARROW_PLOT_HEIGHT = 340
#: room under the plot for the tick labels and the x-axis title (px)
AXIS_ROOM = 78
LEGEND_LINE = 21  # px per line of the legend, at 12 px type
TITLE_LINE = 22  # px per line of the title, at 15 px type
#: room under the axis for an animation's Play button and slider (px)
CONTROLS_ROOM = 95
#: type on a phone (px): tick labels and axis titles; at least 12 px everywhere
NARROW_FONT = 13


def wrap(text: str | None, width: int = NARROW_CHARS) -> str | None:
    """``text`` with <br> between lines of at most ``width`` characters (words kept)."""
    if not text:
        return text
    lines = []
    for part in str(text).replace("<br />", "<br>").replace("<br/>", "<br>").split("<br>"):
        lines += textwrap.wrap(part, width, break_long_words=False) or [""]
    return "<br>".join(lines)


def _lines(text: str | None) -> int:
    return 0 if not text else str(text).count("<br>") + 1


def _title_text(title) -> str | None:
    return None if title is None else title.text


def narrow_figure(figure: go.Figure) -> go.Figure:
    """A copy of ``figure`` laid out for a phone (see the module's note).

    Parameters
    ----------
    figure : plotly.graph_objects.Figure
        A figure of the app, laid out for a wide screen.

    Returns
    -------
    plotly.graph_objects.Figure
        The same traces; wrapped words, the legend in a column below the plot, fixed
        margins that leave room for them.
    """
    fig = go.Figure(figure)
    layout = fig.layout
    legend_lines = 0
    for trace in fig.data:
        if trace.name and trace.showlegend is not False:
            trace.name = wrap(trace.name)
            legend_lines += _lines(trace.name)
    if not layout.showlegend and layout.showlegend is not None:
        legend_lines = 0
    title = wrap(_title_text(layout.title), NARROW_CHARS - 4)
    # the x title runs across a narrow plot: wrapped; the y title runs up its height
    # (a wrapped one would run into the tick labels), so it only gets smaller type
    if layout.xaxis.title and layout.xaxis.title.text:
        layout.xaxis.title.text = wrap(layout.xaxis.title.text, NARROW_CHARS - 6)
    side_by_side = "xaxis2" in layout.to_plotly_json()  # notes over half the width
    for note in layout.annotations or ():
        if note.text:
            note.text = wrap(note.text, NARROW_CHARS - (14 if side_by_side else 8))
    margin = layout.margin
    height = layout.height or 450
    plot_height = height - (margin.t or 60) - (margin.b or 75)
    if not side_by_side and "yaxis2" not in layout.to_plotly_json():  # one plot: whole
        plot_height = min(plot_height, NARROW_PLOT_HEIGHT)
    # the title's lines, or the room the figure kept above the plot for its notes
    top = max(30 + TITLE_LINE * _lines(title), min(margin.t or 0, 70))
    controls = CONTROLS_ROOM if (layout.sliders or layout.updatemenus) else 0
    legend_room = LEGEND_LINE * legend_lines + 16 if legend_lines else 0
    bottom = AXIS_ROOM + controls + legend_room
    total = top + plot_height + bottom
    # an animation's controls just under the axis, the legend under them
    for control in (*(layout.sliders or ()), *(layout.updatemenus or ())):
        control.y, control.yanchor = -(AXIS_ROOM - 8) / plot_height, "top"
    fig.update_layout(
        height=total,
        font=dict(size=NARROW_FONT),
        title=(
            dict(
                text=title,
                font=dict(size=15),
                x=0.02,
                xanchor="left",
                yref="container",
                y=1 - 8 / total,
                yanchor="top",
            )
            if title
            else None
        ),
        margin=dict(l=min(margin.l or 80, 62), r=12, t=top, b=bottom, autoexpand=False),
        legend=dict(
            orientation="v",
            x=0,
            xanchor="left",
            y=legend_room / total,
            yref="container",
            yanchor="top",
            font=dict(size=12),
            entrywidth=None,
            bgcolor="rgba(0,0,0,0)",
            borderwidth=0,
        ),
    )
    return fig
