"""Own data, drawn: click to add a point of the chosen class, click a point to remove it.
The points live in the link (``points=x,y,label;...``)."""

from __future__ import annotations

import math
from functools import partial

import numpy as np
import streamlit as st

from pages.common.own_data_spec import OwnData, OwnDataSpec
from pages.common.page_basics import show_chart
from pages.common.shown_text import as_code, shown_value
from perceptron_core._checks import check_drawable_scale
from perceptron_core.viz import multiclass as _multiclass_viz
from perceptron_core.viz.train import axis_limit as _axis_limit
from perceptron_core.viz.train import draw_figure as _binary_draw_figure

#: drawn points lie in [-DRAW_REACH, DRAW_REACH]²: the board's clickable grid (a point
#: every DRAW_SPACING) then has at most (2·1.15·DRAW_REACH/DRAW_SPACING)² = 8 500 cells
DRAW_REACH = 2.0
DRAW_SPACING = 0.05  # the grid of perceptron_core.viz.train.click_grid


def points_from_link(spec: OwnDataSpec, text: str) -> list | None:
    """Drawn points from a link, 'x,y,label;x,y,label' (None if malformed, too many,
    a label the page does not take, off the board or not of a drawable size)."""
    try:
        rows = [[float(v) for v in item.split(",")] for item in text.split(";") if item]
        if (
            rows
            and len(rows) <= spec.max_points
            and all(
                len(r) == 3
                and r[2] in spec.class_labels
                and all(map(math.isfinite, r))
                and abs(r[0]) <= DRAW_REACH
                and abs(r[1]) <= DRAW_REACH
                for r in rows
            )
        ):
            check_drawable_scale(np.array(rows)[:, :2], "the drawn points")
            return [[r[0], r[1], int(r[2])] for r in rows]
    except ValueError:
        pass
    return None


def restore_drawn_points(spec: OwnDataSpec, link_values: dict) -> None:
    """Drawn points come from the link once per session (then from the clicks)."""
    key = spec.key("drawn_points")
    if key in st.session_state:
        return
    raw = link_values.get("points", "")
    restored = points_from_link(spec, raw)
    st.session_state[key] = restored or []
    if raw and restored is None:
        labels = "±1" if spec.binary else "a class from " + ", ".join(map(str, spec.class_labels))
        st.warning(
            f"This link's points value could not be read (at most "
            f"{spec.max_points:,} points x,y,{labels} with x and y between "
            f"-{DRAW_REACH:g} and {DRAW_REACH:g}), so it was ignored: "
            f"{as_code('points=' + shown_value(raw))}",
            icon=":material/link_off:",
        )


def edit_drawn_points(points: list, clicked: dict, label: int, max_points: int) -> list:
    """The drawn points after one click at ``clicked`` (Plotly's selected point).

    On a point: the points without it. On the grid (curve 0): in a grid cell that
    already holds a point, that point goes (Plotly may report the grid point under a
    drawn point, since drawn points sit on the grid); in an empty cell of the board,
    a new point of ``label`` (while fewer than ``max_points``).
    """
    x, y = clicked["x"], clicked["y"]
    tolerance = 1e-9 if clicked.get("curve_number", 0) else DRAW_SPACING / 2
    kept = [p for p in points if not (abs(p[0] - x) < tolerance and abs(p[1] - y) < tolerance)]
    if len(kept) < len(points) or clicked.get("curve_number", 0):
        return kept
    if len(points) >= max_points or max(abs(x), abs(y)) > DRAW_REACH:
        return points
    return points + [[round(x, 3), round(y, 3), label]]


def _on_draw_click(spec: OwnDataSpec) -> None:
    selected = st.session_state[spec.key("draw_chart")].selection.points
    if selected:
        key = spec.key("drawn_points")
        st.session_state[key] = edit_drawn_points(
            st.session_state[key],
            selected[0],
            st.session_state[spec.key("draw_class")],
            spec.max_points,
        )


def _undo_point(key: str) -> None:
    st.session_state[key] = st.session_state[key][:-1]


def _draw_hint(spec: OwnDataSpec, y: np.ndarray) -> str | None:
    """What to draw next when the points are too few for the page (None: enough)."""
    present = sorted(set(y.tolist()))
    if y.size and len(present) >= spec.min_classes:
        return None
    if spec.min_classes == 1:
        return (
            "Click on the chart to add a point. One point is enough to train (the "
            "slides' first quiz); add points of both classes to see a separating line."
        )
    wanted = (
        "points of both classes"
        if spec.binary
        else f"points of at least {spec.min_classes} classes (up to {len(spec.class_labels)})"
    )
    if not present:
        return f"Click on the chart to add {wanted}: choose the class of new points above."
    return (
        f"Every point is of class {spec.class_name(present[0])}: add {wanted}; choose "
        "another class of new points above."
    )


def _points_to_link(points: list) -> None:
    encoded = _multiclass_viz.points_text(points)
    if st.query_params.get("points") != (encoded or None):
        if encoded:
            st.query_params["points"] = encoded
        else:
            st.query_params.pop("points", None)


def drawn_data(spec: OwnDataSpec, height: int = 460) -> OwnData | None:
    """The drawing board beside its controls (class picker, Undo, Clear, what to do
    next); the points go into the link."""
    key = spec.key("drawn_points")
    points = np.array(st.session_state[key], dtype=float).reshape(-1, 3)
    X, y = points[:, :2], points[:, 2].astype(int)
    board, side = st.columns([3, 2])
    with side:
        with st.container(horizontal=True, key=spec.key("draw_controls")):
            st.segmented_control(
                "class of new points",
                list(spec.class_labels),
                format_func=spec.class_name,
                default=spec.class_labels[0],
                required=True,
                key=spec.key("draw_class"),
            )
            st.button(
                "Undo last point",
                key=spec.key("draw_undo"),
                icon=":material/undo:",
                on_click=_undo_point,
                args=(key,),
            )
            st.button(
                "Clear",
                key=spec.key("draw_clear"),
                icon=":material/delete:",
                on_click=lambda: st.session_state.update({key: []}),
            )
        full = f" (the most a page takes: {spec.max_points:,})" if len(y) >= spec.max_points else ""
        st.caption(
            f"{len(y)} point{'s' * (len(y) != 1)} drawn{full}. Click an empty spot to "
            "add a point of the chosen class; click a point to remove it. Points lie "
            f"within ±{DRAW_REACH:g}."
        )
        hint = _draw_hint(spec, y)
        if hint:
            st.info(hint)
    limit = _axis_limit(X, 1.0)
    figure = (
        _binary_draw_figure(X, y, limit=limit, height=height)
        if spec.binary
        else _multiclass_viz.draw_figure(X, y, spec.class_labels, limit=limit, height=height)
    )
    with board:
        show_chart(
            figure,
            spec.key("draw_chart"),
            on_select=partial(_on_draw_click, spec),
            selection_mode="points",
        )
    _points_to_link(st.session_state[key])
    return None if hint else OwnData(X, y, f"{len(y)} drawn point{'s' * (len(y) != 1)}")
