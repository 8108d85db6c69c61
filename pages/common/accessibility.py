"""What every page needs for every student (issue #20): styles for focus, phones and
screen-reader-only text, and a chart's summary in words beside it."""

from __future__ import annotations

import html

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
