"""A chart in words: a short text summary of a Plotly figure, for a screen reader.

Every chart a page shows carries one: what it is (its title), what its axes
measure and over which range, and what each named trace shows (how many points, and for a
line the values at its two ends). Figure in, one plain sentence per part out.
"""

from __future__ import annotations

import base64
import re

import numpy as np

from .style import number_text

#: traces a summary names at the most (the rest are counted)
MAX_TRACES = 8


def plain(text: object) -> str:
    """A title or a name without the HTML Plotly accepts (<b>, <br>, <sup>)."""
    words = re.sub(r"<br\s*/?>", " ", str(text or ""))
    words = re.sub(r"<[^>]+>", "", words)
    return " ".join(words.split())


def _value_text(value: float) -> str:
    """A number as the charts label it (1,404; 2.99; 0.0123)."""
    value = float(value)
    if value == 0 or 1e-3 <= abs(value) < 1e6:
        return ("-" if value < 0 else "") + number_text(abs(value))
    return f"{value:.3g}"


def _numbers(values) -> np.ndarray | None:
    """The finite numbers of a trace's x or y, or None when they are not numbers."""
    if values is None:
        return None
    if isinstance(values, dict) and "bdata" in values:  # Plotly's typed array
        values = np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
    try:
        array = np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError):
        return None
    array = array[np.isfinite(array)]
    return array if array.size else None


def _pieces(values) -> int:
    """How many runs of numbers a line's x holds, gaps (None, NaN) between them: the
    separate segments one trace draws."""
    if not isinstance(values, (list, tuple)):
        return 1
    runs, inside = 0, False
    for value in values:
        gap = value is None or (isinstance(value, float) and not np.isfinite(value))
        runs += not gap and not inside
        inside = not gap
    return max(runs, 1)


def _axis_title(layout: dict, name: str) -> str:
    """The title of the x or y axis in plain words ('' when it has none)."""
    axis = layout.get(f"{name}axis") or {}
    if axis.get("visible") is False:
        return ""
    title = axis.get("title")
    return plain(title.get("text") if isinstance(title, dict) else title)


def axis_sentence(layout: dict, name: str) -> str | None:
    """'x axis: margin γ (log scale), 0.01 to 1' for a titled axis, else None."""
    axis = layout.get(f"{name}axis") or {}
    title = _axis_title(layout, name)
    if not title:
        return None
    scale = " (log scale)" if axis.get("type") == "log" and "log" not in title else ""
    span = axis.get("range")
    if span and len(span) == 2 and None not in span and axis.get("type") != "log":
        return f"{name} axis: {title}{scale}, {_value_text(span[0])} to {_value_text(span[1])}"
    return f"{name} axis: {title}{scale}"


def trace_sentence(trace: dict) -> str | None:
    """What one named trace shows: its kind, its points, a line's two ends."""
    name = plain(trace.get("name"))
    if not name or trace.get("visible") in (False, "legendonly"):
        return None
    kind = trace.get("type") or "scatter"
    if kind in ("heatmap", "contour"):
        return f"{name}: a map in colour"
    if kind in ("surface", "mesh3d"):
        return f"{name}: a surface in 3-D"
    if kind == "scatter3d":
        points = _numbers(trace.get("x"))
        count = 0 if points is None else points.size
        return f"{name}: {count} point{'s' * (count != 1)} in 3-D"
    if kind == "bar":
        heights = _numbers(trace.get("y"))
        count = 0 if heights is None else heights.size
        return f"{name}: {count} bar{'s' * (count != 1)}"
    if trace.get("fill") not in (None, "none"):
        return f"{name}: a shaded region"
    x, y = _numbers(trace.get("x")), _numbers(trace.get("y"))
    if y is None:
        return f"{name}"
    mode = trace.get("mode") or "lines+markers"
    if "lines" in mode and _pieces(trace.get("x")) > 1:
        return f"{name}: {_pieces(trace.get('x'))} line segments"
    if "lines" in mode and x is not None and x.size == y.size and y.size > 1:
        return (
            f"{name}: a line from {_value_text(y[0])} at {_value_text(x[0])} "
            f"to {_value_text(y[-1])} at {_value_text(x[-1])}"
        )
    return f"{name}: {y.size} point{'s' * (y.size != 1)}"


def figure_summary(figure) -> str:
    """A short text summary of a Plotly figure (its title, axes and named traces).

    Parameters
    ----------
    figure : plotly.graph_objects.Figure or dict
        The chart a page shows.

    Returns
    -------
    str
        "Chart: TITLE. x axis: …; y axis: …. Shows: NAME: …; NAME: …." A figure with
        no title is called by its axes.
    """
    spec = figure.to_plotly_json() if hasattr(figure, "to_plotly_json") else dict(figure)
    layout = spec.get("layout") or {}
    title_spec = layout.get("title")
    title = plain(title_spec.get("text") if isinstance(title_spec, dict) else title_spec)
    axes = [
        sentence
        for sentence in (axis_sentence(layout, "x"), axis_sentence(layout, "y"))
        if sentence
    ]
    traces = list(
        dict.fromkeys(
            sentence for sentence in map(trace_sentence, spec.get("data") or []) if sentence
        )
    )
    if not title and isinstance(layout.get("scene"), dict):  # a 3-D view: its three axes
        titles = [
            plain(((layout["scene"].get(f"{name}axis") or {}).get("title") or {}).get("text", ""))
            for name in "xyz"
        ]
        title = f"a 3-D view over {titles[0]}, {titles[1]} and {titles[2]}" if all(titles) else ""
    if not title:
        titles = [_axis_title(layout, name) for name in ("y", "x")]
        title = " against ".join(titles) if all(titles) else ""
    parts = [f"Chart: {title}." if title else "Chart."]
    if axes:
        parts.append("; ".join(axes) + ".")
    if traces:
        more = len(traces) - MAX_TRACES
        shown = "; ".join(traces[:MAX_TRACES]) + (f"; and {more} more" if more > 0 else "")
        parts.append(f"Shows {shown}.")
    words = figure_words(spec)
    if words:
        parts.append(f"In words: {words}")
    return " ".join(parts)


#: where a figure keeps what it shows in words (its layout's meta), beyond axes and traces
WORDS_KEY = "words"


def with_words(figure, words: str):
    """``figure`` with ``words`` (where its regions lie, which points matter) kept in its
    layout's ``meta``, for :func:`figure_summary`; a Figure or a figure as a dict."""
    if hasattr(figure, "update_layout"):
        meta = dict(figure.layout.meta or {}) if isinstance(figure.layout.meta, dict) else {}
        figure.update_layout(meta=meta | {WORDS_KEY: words})
    else:
        layout = figure.setdefault("layout", {})
        meta = layout.get("meta") if isinstance(layout.get("meta"), dict) else {}
        layout["meta"] = meta | {WORDS_KEY: words}
    return figure


def figure_words(spec: dict) -> str:
    """The words a figure carries in its layout's meta ("" when none)."""
    meta = (spec.get("layout") or {}).get("meta")
    return str(meta.get(WORDS_KEY) or "") if isinstance(meta, dict) else ""
