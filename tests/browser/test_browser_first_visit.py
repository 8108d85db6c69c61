"""A first visit, in headless Chromium on a phone (390×844): what it downloads (issue 21).

Streamlit loads a chunk of its frontend when an element first needs it. These pages no
longer show what pulled the heavy ones into their first view, and this checks it by the
chunks' names in the requests of a fresh visit:

- KaTeX (``rehype-katex``, ``katex``, KaTeX's fonts; 0.3 MB): Markdown with ``$...$``;
  /train, /kernels, /adversary, /multiclass, /relaxation, /generalisation, /bound and Home
  write their first view's text in Unicode instead (their closed parts may still load it when opened);
- Arrow's formatting and Glide's data grid (``arrowFormatUtils``, ``DataFrame``; 1.2 MB):
  an ``st.dataframe``; the small fixed tables are HTML (pages/common/static_table.py);
- Source Sans italic (``SourceSansVF-Italic``, 138 kB): Markdown ``*emphasis*``.

And the page does not scroll sideways at 390 px: a wide table scrolls inside its own box.
"""

from __future__ import annotations

import pytest
from browser_helpers import PAGE_TIMEOUT, assert_no_exception, open_url

PHONE_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)
KATEX = ("rehype-katex", "katex.", "KaTeX_")
GRID = ("arrowFormatUtils", "DataFrame.")
ITALIC = ("SourceSansVF-Italic",)
#: page -> the chunk names its first visit must not request
NOT_REQUESTED = {
    "train": KATEX + GRID + ITALIC,
    "aggressive": GRID + ITALIC,  # its sequence needs displayed formulas: KaTeX stays
    "kernels": KATEX + GRID + ITALIC,
    "adversary": KATEX + GRID + ITALIC,
    "multiclass": KATEX + GRID + ITALIC,
    "relaxation": KATEX + GRID + ITALIC,
    "generalisation": KATEX + GRID + ITALIC,
    "bound": KATEX + GRID + ITALIC,
    "": KATEX + GRID + ITALIC,  # Home
}


def first_visit(browser, url: str):
    """Open ``url`` in a new phone context; the page and every URL it requested."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        user_agent=PHONE_AGENT,
    )
    context.set_default_timeout(PAGE_TIMEOUT)
    page = context.new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    open_url(page, url)
    page.wait_for_timeout(1_500)  # chunks an element loads once drawn
    return context, page, requested


def sideways_overflow(page) -> int:
    """How far the page itself scrolls sideways, in CSS pixels (0: not at all)."""
    return page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


@pytest.mark.parametrize("name", list(NOT_REQUESTED))
def test_a_first_visit_requests_no_chunk_it_does_not_need(browser, streamlit_server, name):
    context, page, requested = first_visit(browser, f"{streamlit_server}/{name}")
    try:
        assert_no_exception(page)
        assert any("/static/js/" in url for url in requested)  # the log did record the chunks
        unwanted = [
            url
            for url in requested
            if any(part in url.rsplit("/", 1)[-1] for part in NOT_REQUESTED[name])
        ]
        assert unwanted == [], f"/{name} requested {unwanted}"
        assert sideways_overflow(page) <= 0
    finally:
        context.close()


def test_aggressive_table_is_html_and_fits_a_phone(browser, streamlit_server):
    context, page, _ = first_visit(browser, f"{streamlit_server}/aggressive")
    try:
        table = page.locator("table.lab-table").first
        table.scroll_into_view_if_needed()
        assert page.locator('[data-testid="stDataFrame"]').count() == 0
        headers = table.locator('thead th[scope="col"]').all_inner_texts()
        assert headers == ["example k", "xₖ", "aggressive rule: score", "mistake-driven rule"]
        assert table.locator('tbody th[scope="row"]').count() == 40
        box = page.locator(".lab-table-box").first
        widths = box.evaluate("(el) => [el.scrollWidth, el.clientWidth]")
        assert widths[0] <= widths[1]  # four narrow columns: nothing to scroll on a phone
        assert sideways_overflow(page) <= 0
        assert box.get_attribute("tabindex") == "0" and box.get_attribute("role") == "region"
    finally:
        context.close()
