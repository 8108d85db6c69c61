"""Helpers for the AppTest tests (streamlit.testing, no browser): open a page, read what it sent.

    from app_helpers import open_page, player_payload, plotly_array, assert_every_widget_has_a_key

Links: ``link_warning`` (the page's one warning about values of its link it ignored),
``assert_link_warning_names``, ``copied_link`` (the parameters of "Copy link to this view").

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
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import numpy as np
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Widget

from pages.common.deferred import DEFERRED_PARTS, deferred_key

REPO_ROOT = Path(__file__).resolve().parent.parent
APP = str(REPO_ROOT / "app.py")
HOME = "pages/home.py"
#: in the one warning a page shows about the values of its link that it ignored
IGNORED = "out of range or malformed"
#: in the message that replaces a view whose drawing failed (pages/common/guard.py)
GUARD = "could not be drawn"


def page_files() -> list[str]:
    """Every page app.py registers, in menu order: Home, then pages/common's page table."""
    from pages.common.page_table import PAGE_TABLE, page_path

    return [HOME] + [page_path(entry) for entry in PAGE_TABLE]


def open_page(
    page: str = HOME,
    query: dict[str, str] | None = None,
    *,
    state: dict | None = None,
    timeout: float = 180,
    parts_open: bool = True,
) -> AppTest:
    """Run ``page`` (e.g. "pages/train.py") as a link with ``query`` would open it.

    ``state`` holds session-state values set before the page runs (as app.py sets
    ``present`` from ``?present=1`` before it runs a page). With ``parts_open``, the parts
    a page draws only when opened (pages/common/deferred.py) are open, as for a student who
    opened them. The page must run without an exception.
    """
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.query_params.update(query or {})
    opened = {deferred_key(name): True for name in DEFERRED_PARTS} if parts_open else {}
    for key, value in (opened | (state or {})).items():
        at.session_state[key] = value
    if page != HOME:  # the home page is app.py's default: it runs app.py itself
        at.switch_page(page)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


# ---------------------------------------------------------------------------
# What the page sent: the player's JSON, Plotly figures and their arrays, text
# ---------------------------------------------------------------------------


def player_payload(at: AppTest, page: str, *, required: bool = True) -> dict | None:
    """The JSON the page's player component received (component "perceptron_player_<page>").

    A page sends one player; with ``required=False`` it may send none (None is returned:
    no data to run on yet).
    """
    players = [
        element
        for element in at.get("bidi_component")
        if element.proto.component_name == f"perceptron_player_{page}"
    ]
    if not players and not required:
        return None
    assert len(players) == 1, f"{len(players)} players named perceptron_player_{page}"
    return json.loads(json.loads(players[0].proto.json))  # the payload is sent as a JSON string


def figure_sent(fig) -> dict:
    """A figure's JSON as the page sends it (pages/chart.figure_data and st.plotly_chart
    both serialise with pio.to_json)."""
    import plotly.io as pio

    return json.loads(pio.to_json(fig, validate=False))


#: the component that draws a static 2-D figure in SVG (pages/chart/chart_component.py)
SVG_CHART = "perceptron_svg_chart"


def chart_elements(at: AppTest) -> list:
    """Every chart element on the page, in page order: ``st.plotly_chart`` elements and the
    SVG chart components (pages/chart/) that draw the figures Plotly is not needed for."""
    return [
        element
        for element in at._tree
        if element.type == "plotly_chart"
        or (element.type == "bidi_component" and element.proto.component_name == SVG_CHART)
    ]


def chart_figure(element) -> dict:
    """The figure a chart element draws, as the JSON sent to the browser (either kind)."""
    if element.type == "plotly_chart":
        return json.loads(element.proto.spec)
    return json.loads(element.proto.json)["figure"]


def plotly_specs(at: AppTest) -> list[dict]:
    """Every figure on the page (Plotly or SVG chart), as the JSON sent to the browser, in
    page order."""
    return [chart_figure(chart) for chart in chart_elements(at)]


def plotly_chart(at: AppTest, key: str):
    """The chart element (Plotly or SVG) drawn with widget key ``key`` (its element id ends
    in the key)."""
    for chart in chart_elements(at):
        if chart.proto.id.endswith(f"-{key}"):
            return chart
    raise AssertionError(f"no chart with key {key!r}")


def plotly_spec(at: AppTest, key: str) -> dict:
    """The figure drawn with widget key ``key`` (Plotly or SVG chart), as the JSON sent to
    the browser."""
    return chart_figure(plotly_chart(at, key))


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
    names = [
        (trace.get("name") if isinstance(trace, dict) else trace.name) or "" for trace in traces
    ]
    for trace, name in zip(traces, names):
        if name.startswith(name_start):
            return trace
    raise AssertionError(f"no trace named {name_start!r} in {names}")


def table_with_column(at: AppTest, column: str):
    """The first table (a pandas DataFrame) the page shows that has ``column``, an
    st.dataframe or a static HTML table (:func:`static_tables`); AppTest does not expose the
    keys of display tables."""
    tables = [d.value for d in at.dataframe] + static_tables(at)
    return next(table for table in tables if column in table.columns)


class _TableReader(HTMLParser):
    """Reads the HTML tables of pages/common/static_table.py back: caption, headers, cells
    (text as a browser shows it, entities decoded), whatever tags hold them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables: list[dict] = []
        self._cell: list[str] | None = None
        self._in_caption = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append({"caption": "", "rows": [], "header_scopes": []})
        elif tag == "tr" and self.tables:
            self.tables[-1]["rows"].append([])
        elif tag in ("th", "td") and self.tables:
            self._cell = []
            self.tables[-1]["header_scopes"].append(
                dict(attrs).get("scope") if tag == "th" else None
            )
        elif tag == "caption":
            self._in_caption = True

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self._cell is not None:
            self.tables[-1]["rows"][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "caption":
            self._in_caption = False

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        elif self._in_caption:
            self.tables[-1]["caption"] += data


def read_html_tables(body: str) -> list[dict]:
    """Every table of an HTML text: {"caption", "rows" (header row first, lists of text),
    "header_scopes" (per cell: "col", "row" or None for a td)}."""
    reader = _TableReader()
    reader.feed(body)
    return reader.tables


def static_tables(at: AppTest, *, numbers: bool = True) -> list:
    """The static HTML tables the page shows (pages/common/static_table.py), each a pandas
    DataFrame of the cells' text under the header row; with ``numbers``, a column whose
    every cell is an integer as text ("3", "+1", "−2" is not one) holds ints, as a
    dataframe's column of ints did. ``DataFrame.attrs["caption"]`` is the caption."""
    import pandas as pd

    found = []
    for element in at.get("html"):
        for table in read_html_tables(element.proto.body):
            header, *rows = table["rows"]
            frame = pd.DataFrame(rows, columns=header)
            if numbers:
                for name in frame.columns:
                    if len(frame) and frame[name].str.fullmatch(r"[+-]?\d+").all():
                        frame[name] = frame[name].astype(int)
            frame.attrs["caption"] = table["caption"]
            found.append(frame)
    return found


def markdown_text(at: AppTest) -> str:
    """All markdown of the page, one element a line."""
    return "\n".join(m.value for m in at.markdown)


def proto_strings(message, out: list, skip: frozenset | set = frozenset(), json_fields=None):
    """Append every string field of a protobuf ``message`` (and of the messages inside it)
    to ``out``, leaving out the fields named in ``skip``. ``json_fields(name, value, out)``,
    when given, is asked first about each string field and returns True when it has taken
    the value itself (a field holding JSON, say)."""
    from google.protobuf.message import Message

    for field, value in message.ListFields():
        if field.name in skip:
            continue
        if json_fields and isinstance(value, str) and json_fields(field.name, value, out):
            continue
        items = value if getattr(field, "is_repeated", False) else [value]
        for item in items:
            if isinstance(item, Message):
                proto_strings(item, out, skip, json_fields)
            elif isinstance(item, str):
                out.append(item)


def warning_texts(at: AppTest) -> list[str]:
    return [w.value for w in at.warning]


def fallback_messages(at: AppTest) -> list[str]:
    """The "could not be drawn" messages of views that failed (none on a working page)."""
    return [e.value for e in at.error if GUARD in e.value]


# ---------------------------------------------------------------------------
# Links: the warning about ignored values, the copied link
# ---------------------------------------------------------------------------


def link_warnings(at: AppTest) -> list[str]:
    """The page's warnings about link values it ignored (at most one on a working page)."""
    return [w.value for w in at.warning if IGNORED in w.value]


def link_warning(at: AppTest) -> str:
    """The page's one warning about ignored link values (there must be exactly one)."""
    warnings = link_warnings(at)
    assert len(warnings) == 1, warning_texts(at)
    return warnings[0]


def assert_link_warning_names(
    at: AppTest, params: dict[str, str], ignored: set[str], longest: int
) -> None:
    """The page opened with link ``params`` names exactly the keys in ``ignored``.

    No ignored key: no link warning. Otherwise one warning, shorter than ``longest``
    characters (long values are cut), that shows ``key=value`` (the value's first 20
    characters) for every ignored key and for no accepted one.
    """
    warnings = link_warnings(at)
    if not ignored:
        assert not warnings, (params, warnings)
        return
    assert len(warnings) == 1, (params, warning_texts(at))
    text = warnings[0]
    assert len(text) < longest, "long values must be cut"
    for key, value in params.items():
        named = f"{key}={value[:20]}" in text
        assert named == (key in ignored), (key, value, text)


def copied_link(at: AppTest) -> dict[str, str]:
    """The parameters of the page's one "Copy link to this view" link."""
    links = [c.value for c in at.code if "?" in c.value]
    assert len(links) == 1, [c.value for c in at.code]
    return dict(parse_qsl(urlsplit(links[0]).query))


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
