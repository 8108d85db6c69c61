"""What every page needs for every student: styles for focus, phones and
screen-reader-only text, a chart's summary in words beside it, the document's title, what
Streamlit's widgets tell a screen reader put right (page_access.js), and feedback regions
that are read out when they change."""

from __future__ import annotations

import html
from contextlib import contextmanager
from pathlib import Path

import streamlit as st

from perceptron_core.viz.describe import figure_summary

#: one style sheet for every page, sent on every run (app.py)
ACCESSIBILITY_CSS = """
<style>
/* Focus is always visible: a dark ring, at least 3:1 against the white or grey behind it */
:focus-visible {outline: 3px solid #111111 !important; outline-offset: 2px;}
/* Text only a screen reader reads (a chart in words): no room taken on the page */
.sr-only {position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
          overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0;}
[data-testid="stElementContainer"]:has(> div > .sr-only),
[data-testid="stElementContainer"]:has(.sr-only:only-child) {
    position: absolute !important; width: 1px; height: 1px; overflow: hidden;}
/* A displayed formula gets 2 px either side: KaTeX draws a pixel or two past its box,
   which made the box a scrollable region that a keyboard cannot reach */
.katex-display > .katex {padding: 0 2px;}
/* Small tables as HTML (static_table.py), in rem so that presenter mode enlarges them */
.lab-table-box {overflow-x: auto; max-width: 100%; margin: 0 0 1rem 0;}
.lab-table-box.lab-table-tall {max-height: 26rem; overflow-y: auto;}
.lab-table {border-collapse: collapse; font-size: 0.9rem; line-height: 1.35;
            font-variant-numeric: tabular-nums;}
.lab-table-caption {margin: 0 0 0.3rem 0; color: rgba(49, 51, 63, 0.8); font-size: 0.85rem;}
.lab-table th, .lab-table td {border: 1px solid rgba(49, 51, 63, 0.2);
                              padding: 0.25rem 0.6rem; text-align: left; vertical-align: top;}
.lab-table thead th {background: #f0f2f6; font-weight: 600; position: sticky; top: 0;}
.lab-table tbody th {font-weight: 600;}
.lab-table td.lab-num {text-align: right;}
/* Phones: the main column uses the whole width */
@media (max-width: 640px) {
  [data-testid="stMainBlockContainer"] {padding-left: 0.75rem; padding-right: 0.75rem;}
}
</style>
"""


#: the prefix of a container key that page_access.js makes a polite live region
LIVE_KEY_PREFIX = "lab_live_"
_PAGE_ACCESS: dict[str, object] = {}


def page_title(title: str | None) -> None:
    """Each page its own document title, "<page> · Perceptron Lab" (Home: the app's name),
    so that a screen reader, a tab and the history say which page is open."""
    st.set_page_config(
        page_title=f"{title} · Perceptron Lab" if title and title != "Home" else "Perceptron Lab"
    )


def page_access() -> None:
    """Mount pages/common/page_access.js (it draws nothing): slider names said once, number
    fields valid at every value the widget takes, icons beside words left out of names,
    feedback regions live from the start, focus into a popover as it opens."""
    if "js" not in _PAGE_ACCESS:
        script = (Path(__file__).resolve().parent / "page_access.js").read_text()
        _PAGE_ACCESS["js"] = st.components.v2.component("lab_page_access", js=script)
    _PAGE_ACCESS["js"](key="lab_page_access")


@contextmanager
def live_region(key: str):
    """A container that a screen reader reads out whenever what is written in it changes
    (a polite live region, there and empty before anything is written: page_access.js).
    Streamlit draws no empty container: an empty mark, taking no room, keeps it drawn."""
    with st.container(key=LIVE_KEY_PREFIX + key):
        st.html('<span class="sr-only"></span>')
        yield


def accessibility_styles() -> None:
    """Send the shared style sheet (it takes no room on the page)."""
    st.html(ACCESSIBILITY_CSS)


def screen_reader_text(text: str) -> None:
    """A sentence read by a screen reader and not shown (escaped: never HTML)."""
    st.html(f'<p class="sr-only">{html.escape(text)}</p>')


def chart_summary(figure) -> str:
    """The summary in words a chart carries; also sent beside it for a screen reader."""
    summary = figure_summary(figure)
    screen_reader_text(summary)
    return summary


def on_a_phone() -> bool:
    """Whether the page is open in a phone's browser (its user agent says "Mobi", as
    every phone browser's does; a tablet's and a desktop's do not)."""
    try:
        agent = st.context.headers.get("User-Agent") or ""
    except Exception:  # noqa: BLE001 - no request behind this run (a test's bare script)
        return False
    return "Mobi" in agent
