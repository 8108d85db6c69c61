"""Links that reproduce a view, in real headless Chromium: /bound, /aggressive, /adversary.

For each page: change controls in the browser, take the address bar's URL, open it
in a fresh browser context (a new session, no shared state) and check that the
controls and the result are the same. A malformed link shows a warning naming the
ignored values and no exception.

Values are read with Playwright's retrying ``expect``: on a freshly opened page the
script run is over (``wait_for_app`` returns) a little before every element is drawn,
and a bound number input first shows its default, then the value from the URL.
"""

from __future__ import annotations

import re

from browser_helpers import (
    PAGE_TIMEOUT,
    alert,
    assert_no_exception,
    enter_value,
    input_box,
    link_warning,
    link_warning_text,
    new_page,
    open_url,
    wait_for_app,
)
from playwright.sync_api import expect


def press_slider(page, key: str, keypress: str, times: int) -> None:
    handle = page.locator(f".st-key-{key} input[type='range']")
    handle.focus()
    for _ in range(times):
        handle.press(keypress)
    wait_for_app(page, timeout=PAGE_TIMEOUT)


def slider(page, key: str):
    """The slider's handle: aria-valuetext is the value or the option's label."""
    return page.locator(f".st-key-{key} input[type='range']")


def selectbox(page, key: str):
    return page.locator(f".st-key-{key} input[role='combobox']")


def metrics(page):
    return page.locator('[data-testid="stMetricValue"]')


def wait_for_text(page, text: str) -> None:
    page.get_by_text(text, exact=False).first.wait_for(timeout=PAGE_TIMEOUT)


# ---------------------------------------------------------------------------
# /adversary
# ---------------------------------------------------------------------------


def test_adversary_link_reproduces_gamma_d_and_the_students_moves(page, browser, streamlit_server):
    open_url(page, f"{streamlit_server}/adversary")
    enter_value(page, "adv_gamma", "0.1")
    enter_value(page, "adv_dim", "200")
    for name in ("Predict +1", "Predict −1"):
        page.get_by_role("button", name=name).click()
        wait_for_app(page, timeout=PAGE_TIMEOUT)
    wait_for_text(page, "Round 3 of 100")
    expect(metrics(page)).to_have_text(["100", "2 of 2 rounds"])
    url = page.url  # the bound widgets and the page's own adv_moves are in the address bar
    assert "adv_gamma=0.1" in url and "adv_dim=200" in url and "adv_moves=%2B-" in url

    with new_page(browser, 1280, 900) as again:
        open_url(again, url)
        expect(input_box(again, "adv_gamma")).to_have_value("0.100", timeout=PAGE_TIMEOUT)
        expect(input_box(again, "adv_dim")).to_have_value("200")
        expect(selectbox(again, "adv_learner")).to_have_value("You: be the learner")
        wait_for_text(again, "Round 3 of 100")
        expect(metrics(again)).to_have_text(["100", "2 of 2 rounds"], timeout=PAGE_TIMEOUT)
        expect(link_warning(again)).to_have_count(0)
        assert_no_exception(again)


def test_adversary_malformed_link_warns_and_falls_back(page, streamlit_server):
    open_url(page, f"{streamlit_server}/adversary?adv_gamma=-3&adv_dim=abc&adv_moves=%2Bx")
    text = link_warning_text(page)
    assert "adv_gamma=-3" in text and "adv_dim=abc" in text
    expect(alert(page, "adv_moves=+x")).to_have_count(1)
    expect(input_box(page, "adv_gamma")).to_have_value("0.200")
    expect(input_box(page, "adv_dim")).to_have_value("50")
    expect(metrics(page).first).to_have_text("25")
    # Streamlit removes the refused values from the address bar, the page its moves
    expect(page).to_have_url(re.compile(r"/adversary$"))
    assert_no_exception(page)


# ---------------------------------------------------------------------------
# /aggressive
# ---------------------------------------------------------------------------


def test_aggressive_link_reproduces_both_lengths(page, browser, streamlit_server):
    open_url(page, f"{streamlit_server}/aggressive")
    press_slider(page, "aggressive_T", "ArrowLeft", 2)  # 10^6 -> 10^4
    press_slider(page, "always_wrong_T", "ArrowRight", 5)  # 20 -> 25
    wait_for_text(page, "25 mistakes in 25 examples")
    expect(metrics(page)).to_have_text(["2", "12"])  # mistake-driven vs aggressive, T = 10^4
    url = page.url
    assert "aggressive_T=10%5E4" in url and "always_wrong_T=25" in url

    with new_page(browser, 1280, 900) as again:
        open_url(again, url)
        expect(slider(again, "aggressive_T")).to_have_attribute(
            "aria-valuetext", "10^4 = 10,000", timeout=PAGE_TIMEOUT
        )
        expect(slider(again, "always_wrong_T")).to_have_attribute("aria-valuetext", "25")
        wait_for_text(again, "25 mistakes in 25 examples")
        expect(metrics(again)).to_have_text(["2", "12"], timeout=PAGE_TIMEOUT)
        assert_no_exception(again)


def test_aggressive_malformed_link_warns_and_falls_back(page, streamlit_server):
    open_url(page, f"{streamlit_server}/aggressive?aggressive_T=12&always_wrong_T=abc")
    text = link_warning_text(page)
    assert "aggressive_T=12" in text and "always_wrong_T=abc" in text
    expect(slider(page, "aggressive_T")).to_have_attribute("aria-valuetext", "10^6 = 1,000,000")
    expect(slider(page, "always_wrong_T")).to_have_attribute("aria-valuetext", "20")
    wait_for_text(page, "20 mistakes in 20 examples")
    expect(page).to_have_url(re.compile(r"/aggressive$"))
    assert_no_exception(page)


# ---------------------------------------------------------------------------
# /bound
# ---------------------------------------------------------------------------


def runs_text(page):
    return page.get_by_text(re.compile(r"\d+ runs \(")).first


def test_bound_link_reproduces_the_bias_and_the_sweep_size(page, browser, streamlit_server):
    open_url(page, f"{streamlit_server}/bound")
    page.locator(".st-key-bound_bias label").first.click()
    wait_for_app(page, timeout=PAGE_TIMEOUT)
    enter_value(page, "bound_margin_count", "3")
    expect(runs_text(page)).to_contain_text("15 runs (3 margins × 5 seeds", timeout=PAGE_TIMEOUT)
    before = runs_text(page).inner_text()
    assert "(R/γ)²" in before
    url = page.url
    assert "bound_bias=false" in url and "bound_margin_count=3" in url

    with new_page(browser, 1280, 900) as again:
        open_url(again, url)
        expect(input_box(again, "bound_margin_count")).to_have_value("3", timeout=PAGE_TIMEOUT)
        expect(again.locator(".st-key-bound_bias input")).not_to_be_checked()
        expect(runs_text(again)).to_have_text(before, timeout=PAGE_TIMEOUT)
        assert_no_exception(again)


def test_bound_link_reproduces_the_open_tab(page, browser, streamlit_server):
    open_url(page, f"{streamlit_server}/bound")
    page.get_by_role("tab", name="Threshold δ").click()
    wait_for_app(page, timeout=PAGE_TIMEOUT)
    enter_value(page, "bound_delta_seeds", "2")
    wait_for_text(page, "All 12 runs converged within bound (1.4)")
    url = page.url
    assert "bound_tab=" in url and "bound_delta_seeds=2" in url

    with new_page(browser, 1280, 900) as again:
        open_url(again, url)
        expect(again.get_by_role("tab", name="Threshold δ")).to_have_attribute(
            "aria-selected", "true", timeout=PAGE_TIMEOUT
        )
        expect(input_box(again, "bound_delta_seeds")).to_have_value("2", timeout=PAGE_TIMEOUT)
        wait_for_text(again, "All 12 runs converged within bound (1.4)")
        assert_no_exception(again)


def test_bound_malformed_link_warns_and_falls_back(page, streamlit_server):
    open_url(page, f"{streamlit_server}/bound?bound_n=abc&bound_dim=5000&bound_tab=nonsense")
    text = link_warning_text(page)
    for part in ("bound_n=abc", "bound_dim=5000", "bound_tab=nonsense"):
        assert part in text
    expect(input_box(page, "bound_n")).to_have_value("200")
    expect(input_box(page, "bound_dim")).to_have_value("2")
    expect(runs_text(page)).to_contain_text("40 runs", timeout=PAGE_TIMEOUT)
    expect(page).to_have_url(re.compile(r"/bound$"))
    assert_no_exception(page)


def test_bound_quiz_answer_shows_the_explanation(page, streamlit_server):
    open_url(page, f"{streamlit_server}/bound")
    page.locator(".st-key-bound_quiz_scale").get_by_text("It does not change", exact=True).click()
    page.locator(".st-key-bound_quiz_scale_check").get_by_role("button", name="Check").click()
    wait_for_app(page, timeout=PAGE_TIMEOUT)
    wait_for_text(page, "(R/γ)² is the same number")
    assert "bound_quiz" not in page.url  # quiz answers are not part of the view's link
    assert_no_exception(page)
