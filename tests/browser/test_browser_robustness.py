"""Issue 8 in real headless Chromium: the crash links of /bound and /adversary now show a
message and the page keeps working; no traceback, path or developer menu reaches the
browser (config: client.showErrorDetails = "none", client.toolbarMode = "viewer")."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from browser_helpers import (
    PAGE_TIMEOUT,
    alert,
    assert_nothing_leaks,
    enter_value,
    input_box,
    link_warning,
    open_url,
    wait_for_app,
)
from playwright.sync_api import expect

N_AND_D = ":material/straighten: n and d"


def test_bound_dim_inf_falls_back_and_the_page_works(page, streamlit_server):
    open_url(page, f"{streamlit_server}/bound?bound_dim=inf&bound_n=1e400")
    text = link_warning(page).inner_text(timeout=PAGE_TIMEOUT)
    assert "bound_dim=inf" in text and "used the default 2" in text
    assert "bound_n=1e400" in text
    expect(input_box(page, "bound_dim")).to_have_value("2")
    expect(page.get_by_text(re.compile(r"40 runs \(")).first).to_be_visible(timeout=PAGE_TIMEOUT)
    enter_value(page, "bound_margin_count", "3")  # the page still answers
    expect(page.get_by_text(re.compile(r"15 runs \(")).first).to_be_visible(timeout=PAGE_TIMEOUT)
    assert_nothing_leaks(page)


def test_adversary_dim_1e309_falls_back_and_the_page_works(page, streamlit_server):
    open_url(page, f"{streamlit_server}/adversary?adv_dim=1e309&adv_gamma=%C2%B2")
    text = link_warning(page).inner_text(timeout=PAGE_TIMEOUT)
    assert "adv_dim=1e309" in text and "adv_gamma=²" in text
    expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text("25")
    page.get_by_role("button", name="Predict +1").click()
    wait_for_app(page, timeout=PAGE_TIMEOUT)
    expect(page.get_by_text("Round 2 of 25").first).to_be_visible(timeout=PAGE_TIMEOUT)
    assert_nothing_leaks(page)


def test_bound_huge_n_and_d_values_show_messages_link_and_typed(page, streamlit_server):
    query = urlencode({"bound_tab": N_AND_D, "bound_n_values": "1e308", "bound_d_values": "1e20"})
    open_url(page, f"{streamlit_server}/bound?{query}")
    # (Markdown shows "<=" as "≤")
    expect(alert(page, re.compile(r"n must be (<=|≤) 5000"))).to_have_count(1, timeout=PAGE_TIMEOUT)
    expect(alert(page, re.compile(r"d must be (<=|≤) 1000"))).to_have_count(1)
    assert_nothing_leaks(page)
    # typed into the box: the same message, and a good value then runs the sweep
    enter_value(page, "bound_d_values", "1e400")
    expect(alert(page, "must be finite")).to_have_count(1, timeout=PAGE_TIMEOUT)
    enter_value(page, "bound_d_values", "1, 10")
    expect(alert(page, "converged within")).to_have_count(1, timeout=PAGE_TIMEOUT)
    assert_nothing_leaks(page)


def test_a_heavy_bound_link_is_refused_with_what_to_lower(page, streamlit_server):
    open_url(page, f"{streamlit_server}/bound?bound_n=5000&bound_dim=1000")
    expect(alert(page, "Lower n or d")).to_have_count(1, timeout=PAGE_TIMEOUT)
    enter_value(page, "bound_dim", "2")
    expect(page.get_by_text(re.compile(r"40 runs \(")).first).to_be_visible(timeout=PAGE_TIMEOUT)
    assert_nothing_leaks(page)


def test_markdown_in_a_link_is_shown_as_text(page, streamlit_server):
    open_url(page, f"{streamlit_server}/aggressive?always_wrong_T=%2A%2Abold%2A%2A")
    warning = link_warning(page)
    expect(warning).to_contain_text("always_wrong_T=**bold**", timeout=PAGE_TIMEOUT)
    expect(warning.locator("strong")).to_have_count(0)
    assert_nothing_leaks(page)
