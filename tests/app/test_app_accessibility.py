"""Every chart is told in words, and the shared styles reach every page (issue #20).

AppTest runs no JavaScript: what is checked here is what the server sends. How the page
behaves in a browser (focus, phones, axe-core) is in tests/browser/test_browser_accessibility.py.
"""

from __future__ import annotations

import html
import re

import pytest
from app_helpers import open_page, page_files, plotly_specs

from perceptron_core.viz.describe import figure_summary

PAGES = page_files()
SUMMARY = re.compile(r'<p class="sr-only">(Chart[^<]*)</p>')


def chart_summaries(at) -> list[str]:
    """The charts' summaries in words, in page order, as the browser shows them (html.escape
    undone: & < > and quotes)."""
    bodies = [element.proto.body for element in at.get("html")]
    found = [match for body in bodies for match in SUMMARY.findall(body)]
    return [html.unescape(text) for text in found]


@pytest.mark.parametrize("page", PAGES)
def test_every_chart_on_a_page_has_its_summary_in_words(page):
    at = open_page(page)
    specs = plotly_specs(at)  # Plotly and SVG charts alike
    summaries = chart_summaries(at)
    assert len(summaries) == len(specs), page
    for spec, summary in zip(specs, summaries):
        # the summary is the one of the chart it stands beside (same title, axes, traces)
        assert summary == figure_summary(spec), page


def test_drawn_data_chart_is_told_in_words_too():
    at = open_page("pages/train.py", {"source": "draw", "points": "0.5,0.3,1;-0.5,-0.2,-1"})
    summaries = chart_summaries(at)
    assert any("class" in summary.lower() for summary in summaries), summaries


def test_app_py_sends_the_shared_styles_before_any_page():
    """app.py runs before every page in the app (each page in the browser tests); here
    app.py's own run, which ends in Home."""
    at = open_page()
    styles = " ".join(element.proto.body for element in at.get("html"))
    assert ":focus-visible" in styles and ".sr-only" in styles
