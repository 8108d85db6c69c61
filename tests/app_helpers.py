"""Helpers for the AppTest tests (streamlit.testing, no browser): open a page, read what it sent.

    from app_helpers import open_page, player_payload, plotly_array, assert_every_widget_has_a_key

How AppTest runs a page: ``AppTest`` starts every run in Streamlit's older multipage
mode (a folder named ``pages/`` is there), so the page file usually runs on its own,
without app.py: the presenter toggle and the Notation popover are not drawn, and a test
that needs presenter mode sets ``at.session_state["present"]`` itself. (Only the first
page a test process opens goes through app.py: importing pages/common.py for the first
time switches that mode off and reruns, as on a fresh server.)
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Widget

REPO_ROOT = Path(__file__).resolve().parent.parent
APP = str(REPO_ROOT / "app.py")
HOME = "pages/home.py"


def page_files() -> list[str]:
    """Every page app.py registers, in menu order: Home, then pages/common's page table."""
    from pages.common import PAGE_TABLE, page_path

    return [HOME] + [page_path(entry) for entry in PAGE_TABLE]


def open_page(page: str = HOME, query: dict[str, str] | None = None, *,
              state: dict | None = None, timeout: float = 120) -> AppTest:
    """Run ``page`` (e.g. "pages/train.py") as a link with ``query`` would open it.

    ``state`` holds session-state values set before the page runs (as app.py sets
    ``present`` from ``?present=1`` before it runs a page). The page must run
    without an exception.
    """
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.query_params.update(query or {})
    for key, value in (state or {}).items():
        at.session_state[key] = value
    if page != HOME:  # the home page is app.py's default: it runs app.py itself
        at.switch_page(page)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


# ---------------------------------------------------------------------------
# What the page sent: the player's JSON, Plotly figures and their arrays, text
# ---------------------------------------------------------------------------


def player_payload(at: AppTest, page: str) -> dict:
    """The JSON the page's player component received (component "perceptron_player_<page>")."""
    players = [element for element in at.get("bidi_component")
               if element.proto.component_name == f"perceptron_player_{page}"]
    assert len(players) == 1, f"{len(players)} players named perceptron_player_{page}"
    return json.loads(players[0].proto.json)


def plotly_specs(at: AppTest) -> list[dict]:
    """Every Plotly figure on the page, as the JSON sent to the browser, in page order."""
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def plotly_spec(at: AppTest, key: str) -> dict:
    """The Plotly figure drawn with widget key ``key``."""
    for chart in at.get("plotly_chart"):
        if chart.proto.id and key in chart.proto.id:
            return json.loads(chart.proto.spec)
    raise AssertionError(f"no chart with key {key!r}")


def plotly_array(value) -> np.ndarray:
    """A data array of a Plotly figure's JSON as NumPy.

    Plotly writes a NumPy array as a typed array, {"dtype": "f8", "bdata": base64 of
    the bytes[, "shape": "rows, columns"]}; a list stays a list (None for a gap
    becomes NaN).
    """
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        if "shape" in value:
            array = array.reshape([int(size) for size in str(value["shape"]).split(",")])
        return array
    array = np.asarray(value)
    return np.asarray(value, dtype=float) if array.dtype == object else array


def trace_named(figure, name_start: str):
    """The first trace whose name starts with ``name_start`` (a figure's JSON or a go.Figure)."""
    traces = figure["data"] if isinstance(figure, dict) else figure.data
    names = [(trace.get("name") if isinstance(trace, dict) else trace.name) or ""
             for trace in traces]
    for trace, name in zip(traces, names):
        if name.startswith(name_start):
            return trace
    raise AssertionError(f"no trace named {name_start!r} in {names}")


def markdown_text(at: AppTest) -> str:
    """All markdown of the page, one element a line."""
    return "\n".join(m.value for m in at.markdown)


def warning_texts(at: AppTest) -> list[str]:
    return [w.value for w in at.warning]


# ---------------------------------------------------------------------------
# Widgets: every one has a key (the key is its name in a link)
# ---------------------------------------------------------------------------


def widgets(at: AppTest) -> list[Widget]:
    """Every widget the page drew, in any container, tab or column."""
    found, stack = [], [at._tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Widget):
            found.append(node)
        stack.extend(getattr(node, "children", {}).values())
    return found


def widget(at: AppTest, key: str) -> Widget:
    """The widget with key ``key``, whatever its kind."""
    for candidate in widgets(at):
        if candidate.key == key:
            return candidate
    raise AssertionError(f"no widget with key {key!r}")


def assert_every_widget_has_a_key(at: AppTest, at_least: int = 1) -> list[Widget]:
    """Every widget on the page has a key; returns them (there are ``at_least`` of them)."""
    drawn = widgets(at)
    assert len(drawn) >= at_least, f"{len(drawn)} widgets, expected at least {at_least}"
    unkeyed = [f"{type(w).__name__} {getattr(w, 'label', '')!r}" for w in drawn if not w.key]
    assert not unkeyed, f"widgets without a key: {unkeyed}"
    return drawn
