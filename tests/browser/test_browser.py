"""End-to-end tests in real headless Chromium (Debian's /usr/bin/chromium).

Skipped with a reason when Chromium or Playwright is missing; they fail
instead when REQUIRE_BROWSER=1 (CI).
"""

from __future__ import annotations

import pytest
from browser_helpers import assert_no_exception, new_page, open_url, run_streamlit

PAGES = {
    "": "Perceptron Lab",
    "train": "Train, one mistake at a time",
    "bound": "Mistakes against the bound",
    "aggressive": "Aggressive updates never stop",
    "adversary": "adversarial lower bound",
}


@pytest.mark.parametrize("path", list(PAGES))
def test_every_page_renders_without_exception(page, streamlit_server, path):
    open_url(page, f"{streamlit_server}/{path}")
    assert_no_exception(page)
    heading = page.locator("h1").first
    assert PAGES[path].lower() in heading.inner_text().lower()
    if path:
        # a chart (SVG, or Plotly where it must) or the player
        page.wait_for_selector(
            ".js-plotly-plot, svg.svg-chart, [data-testid=perceptron-player]", timeout=30_000
        )


def test_deep_link_on_a_fresh_server_uses_the_app_navigation(browser):
    """A shared /train link opened before anyone visited / must still get app.py's pages."""
    with run_streamlit("app.py") as fresh_base, new_page(browser, 1280, 900) as page:
        open_url(page, f"{fresh_base}/train")
        navigation = page.locator('[data-testid="stSidebarNav"]').inner_text()
        assert "Train, one mistake at a time" in navigation
        assert "common" not in navigation
        assert "train" in page.locator("h1").first.inner_text().lower()
        assert_no_exception(page)
