"""Static 2-D charts drawn in the browser as SVG (svg_chart.js), without Plotly.

A page whose charts are all drawn here never downloads Plotly's chart bundle (4.7 MB raw,
1.7 MB gzipped): Streamlit loads it only for an ``st.plotly_chart``. The figures stay
Plotly figures (perceptron_core/viz builds them; they are the data): this module sends a
figure's JSON once, at mount, to a component that draws it; the component sends nothing
back, so mounting, hovering and playing its frames never rerun the script.

:func:`svg_unsupported` says why a figure must stay on Plotly (a 3-D scene, a contour, a
feature the renderer does not draw); :func:`svg_drawable` is its yes/no, and
:func:`plotly_only` the part of it known before the figure is serialised.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import plotly.io as pio
import streamlit as st

from pages.common.browser_scripts import compact_script

#: the folder of the renderer's script and styles (pages/chart/)
HERE = Path(__file__).resolve().parent
#: the renderer's files, joined into one script in this order (each uses the ones before)
CHART_SCRIPTS = (
    "chart_text.js",
    "chart_rich.js",
    "chart_axes.js",
    "chart_layout.js",
    "chart_ticks.js",
    "chart_notes.js",
    "chart_lines.js",
    "chart_traces.js",
    "svg_chart.js",
    "chart_mount.js",
)
#: the name the component is registered under (tests look elements up by it)
COMPONENT_NAME = "perceptron_svg_chart"
_COMPONENT: dict[str, object] = {}

#: trace types the renderer draws
TRACE_TYPES = frozenset({"scatter", "bar", "heatmap"})
#: scatter fills it draws
FILLS = frozenset({None, "none", "toself", "tozeroy", "tonexty"})
#: marker symbols it draws (each also with "-open")
SYMBOLS = frozenset(
    {
        "circle",
        "square",
        "diamond",
        "triangle-up",
        "triangle-down",
        "triangle-left",
        "triangle-right",
        "cross",
        "x",
        "x-thin",
        "cross-thin",
        "star",
    }
)
#: layout keys it reads, or may ignore without changing the picture
LAYOUT_KEYS = frozenset(
    {
        "font",
        "height",
        "hoverlabel",
        "legend",
        "margin",
        "title",
        "annotations",
        "shapes",
        "showlegend",
        "sliders",
        "updatemenus",
        "uirevision",
        "template",
        "paper_bgcolor",
        "plot_bgcolor",
        "hovermode",
        "autosize",
        "clickmode",
        "dragmode",
        "width",
        "meta",
    }
)  # meta: the figure in words (perceptron_core/viz/describe.py), never drawn
#: axis keys it reads, or may ignore (fixedrange: nothing zooms anyway)
AXIS_KEYS = frozenset(
    {
        "title",
        "range",
        "type",
        "domain",
        "anchor",
        "matches",
        "scaleanchor",
        "scaleratio",
        "constrain",
        "tickvals",
        "ticktext",
        "tickmode",
        "dtick",
        "tick0",
        "exponentformat",
        "showgrid",
        "gridcolor",
        "gridwidth",
        "zeroline",
        "zerolinecolor",
        "zerolinewidth",
        "showline",
        "linecolor",
        "linewidth",
        "mirror",
        "ticks",
        "ticklen",
        "tickcolor",
        "showticklabels",
        "tickfont",
        "rangemode",
        "fixedrange",
        "automargin",
        "visible",
        "autorange",
    }
)
SHAPE_TYPES = frozenset({"line", "rect", "circle"})


def _symbol_names(symbol) -> set[str]:
    symbols = symbol if isinstance(symbol, (list, tuple)) else [symbol]
    names = set()
    for name in symbols:
        if name is None:
            continue
        text = str(name)
        for suffix in ("-open-dot", "-open", "-dot"):
            text = text.removesuffix(suffix)
        names.add(text)
    return names


def plotly_only(figure, **chart_options) -> str | None:
    """Why ``figure`` must be drawn by Plotly, as far as that is known without serialising
    it (a 3-D scene or a contour costs as much to serialise as to draw: the check comes
    first), or None; :func:`svg_unsupported` then checks the rest.

    ``figure`` and ``chart_options`` as for :func:`svg_unsupported`.
    """
    if chart_options.get("on_select") not in (None, "ignore"):
        return "it reports clicks or selections back to the page (on_select)"
    kinds = (
        [trace.get("type", "scatter") for trace in figure.get("data") or []]
        if isinstance(figure, dict)
        else [trace.type for trace in figure.data]
    )
    for kind in kinds:
        if kind not in TRACE_TYPES:
            return f"a {kind} trace (3-D, contour or other types stay on Plotly)"
    return None


def _trace_problem(trace: dict) -> str | None:
    kind = trace.get("type", "scatter")
    if trace.get("error_x"):
        return "error bars in x"
    if kind == "scatter" and trace.get("fill") not in FILLS:
        return f"fill {trace.get('fill')!r}"
    if (trace.get("line") or {}).get("shape") not in (None, "linear", "hv", "vh", "hvh", "vhv"):
        return f"line shape {trace['line']['shape']!r}"
    if kind == "bar" and trace.get("orientation") == "h":
        return "horizontal bars"
    if kind == "heatmap" and (trace.get("showscale") is not False or trace.get("zsmooth")):
        return "a heatmap with a colour bar or smoothing"
    unknown = _symbol_names((trace.get("marker") or {}).get("symbol")) - SYMBOLS
    if unknown:
        return f"marker symbol {sorted(unknown)[0]!r}"
    return None


def svg_unsupported(figure, **chart_options) -> str | None:  # noqa: C901 (one check a feature)
    """Why ``figure`` must be drawn by Plotly, or None when the SVG renderer draws it.

    Parameters
    ----------
    figure : plotly.graph_objects.Figure or dict
        The figure, or its JSON (``fig.to_plotly_json()``).
    **chart_options
        What the page asks of the chart: ``on_select`` (points a student clicks) needs
        Plotly's selection events.
    """
    if reason := plotly_only(figure, **chart_options):
        return reason
    spec = figure if isinstance(figure, dict) else figure.to_plotly_json()
    layout = spec.get("layout") or {}
    bars = 0
    for trace in spec.get("data") or []:
        problem = _trace_problem(trace)
        if problem:
            return problem
        bars += trace.get("type") == "bar"
    if bars > 1:
        return "more than one bar trace (grouped or stacked bars)"
    for key, value in layout.items():
        if re.fullmatch(r"[xy]axis\d*", key):
            if key[5:] not in ("", "2"):
                return f"more than two subplots ({key})"
            extra = set(value or {}) - AXIS_KEYS
            if extra:
                return f"axis setting {key}.{sorted(extra)[0]}"
            if (value or {}).get("type") not in (None, "linear", "log", "-"):
                return f"a {value['type']} axis"
        elif key not in LAYOUT_KEYS:
            return f"layout setting {key!r}"
    for shape in layout.get("shapes") or []:
        if shape.get("type", "rect") not in SHAPE_TYPES:
            return f"a {shape.get('type')} shape"
    for menu in layout.get("updatemenus") or []:
        if any(button.get("method") != "animate" for button in menu.get("buttons") or []):
            return "a menu that restyles the figure"
    if (layout.get("updatemenus") or layout.get("sliders")) and not spec.get("frames"):
        return "menus or sliders without frames"
    return None


def svg_drawable(figure, **chart_options) -> bool:
    """Whether the SVG renderer draws ``figure`` (see :func:`svg_unsupported`)."""
    return svg_unsupported(figure, **chart_options) is None


def figure_data(figure) -> dict:
    """The figure's JSON as sent to the browser: Plotly's own encoding (arrays as base64
    typed arrays, as ``st.plotly_chart`` sends them), without the template (the
    renderer has plotly_white's look built in)."""
    spec = json.loads(pio.to_json(figure, validate=False))
    spec.get("layout", {}).pop("template", None)
    return spec


def chart_script() -> str:
    """The renderer: pages/chart/'s scripts joined (:data:`CHART_SCRIPTS`)."""
    return "\n".join((HERE / name).read_text() for name in CHART_SCRIPTS)


def _component():
    if "chart" not in _COMPONENT:
        script = chart_script()
        script += (
            "\nexport default function (component) {\n"
            "  return mountSvgChart(component.parentElement, component.data);\n"
            "}\n"
        )
        _COMPONENT["chart"] = st.components.v2.component(
            COMPONENT_NAME, css=(HERE / "svg_chart.css").read_text(), js=compact_script(script)
        )
    return _COMPONENT["chart"]


def svg_chart(figure, key: str, label: str):
    """Mount the SVG chart of ``figure`` (a figure, or its :func:`figure_data`) with widget
    key ``key``.

    ``label`` names the chart for a screen reader (the SVG's aria-label; the full summary
    in words is sent before it by the page). Nothing is sent back: returns None.
    """
    spec = figure if isinstance(figure, dict) else figure_data(figure)
    text = json.dumps(spec, sort_keys=True, allow_nan=False)
    payload = {
        "figure": spec,
        "label": label,
        "filename": key,
        "json_key": hashlib.sha1(text.encode()).hexdigest()[:16],
    }
    _component()(data=payload, key=key)
    return None
