"""Issue 21: the static 2-D charts are drawn in SVG (pages/chart/), Plotly only where needed.

Every chart every page draws (its deferred parts open, a few settings) is either sent to
the SVG chart component, whose renderer draws it (``svg_unsupported`` is None), or to
``st.plotly_chart`` with a stated reason the renderer cannot draw it (a 3-D scene, a
contour, clicks sent back); the first view of the four pages that used to open on Plotly
charts sends no Plotly chart at all, so the browser never downloads Plotly's bundle.
"""

from __future__ import annotations

import json

import plotly.graph_objects as go
import pytest
from app_helpers import SVG_CHART, chart_elements, chart_figure, open_page, page_files

from pages.chart.chart_component import svg_drawable, svg_unsupported
from perceptron_core.viz.narrow import narrow_figure

#: reasons a chart may stay on Plotly (svg_unsupported's words)
PLOTLY_REASONS = ("scatter3d trace", "surface trace", "contour trace", "on_select")
#: /bound's tabs after the first
BOUND_TABS = (
    ":material/straighten: n and d",
    ":material/tune: Threshold δ",
    ":material/target: Margin mistakes",
    ":material/open_in_full: Scaling and translation",
)
#: pages and settings to survey: every page with its parts open, and a few other settings
SURVEY = (
    [(page, {}, None) for page in page_files() if not page.endswith("/class.py")]
    + [("pages/bound.py", {}, {"bound_tab": tab}) for tab in BOUND_TABS]
    + [
        ("pages/multiclass.py", {"k": "5", "layout": "one class in the middle"}, None),
        ("pages/multiclass.py", {"source": "draw"}, None),
        ("pages/train.py", {"source": "draw"}, None),
        ("pages/generalisation.py", {"d": "5"}, None),
    ]
)
FIRST_VIEW_WITHOUT_PLOTLY = [
    "pages/bound.py",
    "pages/aggressive.py",
    "pages/adversary.py",
    "pages/multiclass.py",
]


def chart_key(element) -> str:
    return element.proto.id.rsplit("-", 1)[-1]


@pytest.mark.parametrize("page, query, state", SURVEY)
def test_every_chart_is_svg_or_has_a_reason_to_stay_on_plotly(page, query, state):
    at = open_page(page, query, state=state)
    charts = chart_elements(at)
    assert charts or page.endswith("/home.py") or "train" in page, (page, query, state)
    for element in charts:
        figure = chart_figure(element)
        if element.type == "plotly_chart":
            reason = svg_unsupported(
                figure, on_select="rerun" if element.proto.selection_mode else None
            )
            assert reason and any(word in reason for word in PLOTLY_REASONS), (
                page,
                chart_key(element),
                reason,
            )
        else:
            assert element.proto.component_name == SVG_CHART
            assert svg_unsupported(figure) is None, (page, chart_key(element))
            # drawn on a phone as well: the narrow layout adds nothing it cannot draw
            assert svg_drawable(narrow_figure(go.Figure(figure))), (page, chart_key(element))


@pytest.mark.parametrize("page", FIRST_VIEW_WITHOUT_PLOTLY)
def test_the_first_view_of_the_chart_pages_sends_no_plotly_chart(page):
    at = open_page(page, parts_open=False)
    charts = chart_elements(at)
    assert charts, page  # it draws its charts ...
    assert [chart_key(c) for c in charts if c.type == "plotly_chart"] == [], page  # ... in SVG


def test_an_svg_chart_sends_the_figure_once_with_its_name_and_nothing_else():
    at = open_page("pages/adversary.py", parts_open=False)
    element = next(c for c in chart_elements(at) if c.type != "plotly_chart")
    data = json.loads(element.proto.json)
    assert set(data) == {"figure", "label", "filename", "json_key"}
    assert "template" not in data["figure"]["layout"]  # the look is built into the renderer
    assert data["label"] and data["filename"] == chart_key(element)


@pytest.mark.parametrize(
    "trace, reason",
    [
        (go.Scatter3d(x=[0], y=[0], z=[0]), "scatter3d"),
        (go.Contour(z=[[0, 1], [1, 0]]), "contour"),
        (go.Surface(z=[[0, 1], [1, 0]]), "surface"),
        (go.Scatter(x=[0], y=[0], marker=dict(symbol="hexagram")), "hexagram"),
        (go.Scatter(x=[0, 1], y=[0, 1], fill="tozerox"), "tozerox"),
        (go.Heatmap(z=[[0, 1], [1, 0]]), "colour bar"),  # showscale defaults to True
        (go.Bar(x=[1], y=[1], orientation="h"), "horizontal"),
    ],
)
def test_what_the_renderer_cannot_draw_is_named(trace, reason):
    message = svg_unsupported(go.Figure(trace))
    assert message and reason in message


def test_layout_and_options_it_does_not_draw_are_named():
    plain = go.Figure(go.Scatter(x=[0, 1], y=[1, 0], mode="lines+markers"))
    assert svg_drawable(plain)
    assert "on_select" in svg_unsupported(plain, on_select="rerun")
    assert "polar" in svg_unsupported(go.Figure(plain).update_layout(polar=dict(hole=0.2)))
    assert "xaxis3" in svg_unsupported(go.Figure(plain).update_layout(xaxis3=dict(range=[0, 1])))
    assert "date" in svg_unsupported(go.Figure(plain).update_xaxes(type="date"))
    frames = go.Figure(
        data=plain.data, frames=[go.Frame(data=[go.Scatter(x=[0], y=[0])], name="1")]
    )
    assert svg_drawable(
        frames.update_layout(
            updatemenus=[
                dict(type="buttons", buttons=[dict(label="Play", method="animate", args=[None])])
            ]
        )
    )
    assert "restyles" in svg_unsupported(
        go.Figure(plain).update_layout(
            updatemenus=[
                dict(buttons=[dict(label="red", method="restyle", args=["marker.color", "red"])])
            ]
        )
    )


def test_the_renderer_joins_every_script_of_its_folder_and_keeps_functions_short():
    import sys

    from pages.chart.chart_component import CHART_SCRIPTS, HERE, chart_script

    sys.path.insert(0, str(HERE.parent.parent / "scripts"))
    import code_stats

    assert set(CHART_SCRIPTS) == {path.name for path in HERE.glob("*.js")}
    script = chart_script()
    assert "function mountSvgChart(" in script and "function drawChart(" in script
    long_ones = [
        (path.name, name, length)
        for path in HERE.glob("*.js")
        for name, _, length in code_stats.script_function_lengths(path)
        if length > 60
    ]
    assert long_ones == []
