"""Issue 8 in real headless Chromium for the newer pages (/kernels, /relaxation,
/multiclass, /generalisation): hostile links, opened one after the other in the same
browser, each show one message naming the ignored values (as text, never Markdown) and
a page that still works; no traceback, server path or fallback box reaches the browser."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from browser_helpers import PAGE_TIMEOUT, assert_nothing_leaks, link_warning, open_url, wait_for_app
from playwright.sync_api import expect


def assert_player_steps(page) -> None:
    """The page works: its player mounts and one step forward moves it."""
    player = page.get_by_test_id("perceptron-player")
    player.wait_for(timeout=PAGE_TIMEOUT)
    before = player.get_attribute("data-step")
    player.get_by_role("button", name=re.compile(r"^Next (example|iteration)")).click()
    expect(player).not_to_have_attribute("data-step", before, timeout=PAGE_TIMEOUT)


def test_hostile_links_of_the_newer_pages_show_a_message_and_a_working_page(page, streamlit_server):
    # /kernels: a 5 000-digit step (int() refuses it), n = 1e309, Markdown for γ
    query = urlencode({"step": "9" * 5000, "n": "1e309", "scale": "**bold**"})
    open_url(page, f"{streamlit_server}/kernels?{query}")
    warning = link_warning(page)
    expect(warning).to_contain_text("n=1e309", timeout=PAGE_TIMEOUT)
    expect(warning).to_contain_text("scale=**bold**")
    expect(warning.locator("strong")).to_have_count(0)
    assert "9" * 50 not in warning.inner_text()
    assert_player_steps(page)
    assert_nothing_leaks(page)

    # /relaxation: own rows with a₁ = a₂ = 0 and a superscript step
    query = urlencode({"system": "your own rows", "rows": "0,0,1;1,1,1", "step": "²"})
    open_url(page, f"{streamlit_server}/relaxation?{query}")
    warning = link_warning(page)
    expect(warning).to_contain_text("rows=0,0,1;1,1,1", timeout=PAGE_TIMEOUT)
    expect(warning).to_contain_text("step=²")
    assert_player_steps(page)
    assert_nothing_leaks(page)

    # /multiclass: non-ASCII digit and an overflowing epoch limit, with the largest n
    open_url(page, f"{streamlit_server}/multiclass?k=%C2%B2&max_epochs=1e309&n=600")
    warning = link_warning(page)
    expect(warning).to_contain_text("k=²", timeout=PAGE_TIMEOUT)
    expect(warning).to_contain_text("max_epochs=1e309")
    expect(page.locator(".st-key-ova_chart")).to_be_visible(timeout=PAGE_TIMEOUT)
    expect(page.get_by_text("Side by side")).to_be_visible()
    assert_nothing_leaks(page)

    # /generalisation: infinite dimension, and a curve over one request's share
    query = urlencode(
        {"curve_dim": "inf", "repeats": "1000", "curve_n": "2, 5, 10, 20, 50, 100, 200, 500"}
    )
    open_url(page, f"{streamlit_server}/generalisation?{query}")
    expect(link_warning(page)).to_contain_text("curve_dim=inf", timeout=PAGE_TIMEOUT)
    page.get_by_text("Show the curve").click()  # the curve is computed once opened (issue 21)
    expect(page.locator('[data-testid="stAlert"]', has_text="fewer runs per N")).to_have_count(
        1, timeout=PAGE_TIMEOUT
    )
    assert_player_steps(page)
    assert_nothing_leaks(page)


def test_a_bad_row_typed_into_the_relaxation_editor_keeps_the_previous_system(
    page, streamlit_server
):
    open_url(page, f"{streamlit_server}/relaxation?system=your+own+rows")
    player = page.get_by_test_id("perceptron-player")
    player.wait_for(timeout=PAGE_TIMEOUT)
    run_before = player.get_attribute("data-run")
    grid = page.locator(".st-key-rows_editor [data-testid='stDataFrameResizable']")
    box = grid.bounding_box()
    # select the first row's a1 cell (row markers about 34 px wide, header and rows about
    # 39 px high) and type over it
    page.mouse.dblclick(box["x"] + 34 + 60, box["y"] + 40 + 19)  # opens the cell editor
    page.wait_for_timeout(500)
    page.keyboard.press("Control+A")
    page.keyboard.type("9999999", delay=30)
    page.keyboard.press("Enter")
    wait_for_app(page, timeout=PAGE_TIMEOUT)
    refusal = page.locator('[data-testid="stAlert"]', has_text="previous system is kept")
    expect(refusal).to_contain_text("Row (1)", timeout=PAGE_TIMEOUT)
    expect(refusal).to_contain_text("above 1e+06")
    # the run is still the one of the previous rows, and it still steps
    assert player.get_attribute("data-run") == run_before
    assert_player_steps(page)
    assert_nothing_leaks(page)
