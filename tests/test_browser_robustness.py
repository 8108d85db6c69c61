"""Issue 8 in real headless Chromium: the crash links of /bound and /adversary now show a
message and the page keeps working; no traceback, path or developer menu reaches the
browser (config: client.showErrorDetails = "none", client.toolbarMode = "viewer")."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from browser_helpers import assert_no_exception, wait_for_app
from playwright.sync_api import expect

TIMEOUT = 60_000
N_AND_D = ":material/straighten: n and d"


def goto(page, url: str) -> None:
    page.goto(url)
    wait_for_app(page, timeout=TIMEOUT)


def alert(page, text: str):
    return page.locator('[data-testid="stAlert"]', has_text=text)


def number(page, key: str):
    return page.locator(f".st-key-{key} input")


def set_number(page, key: str, value: str) -> None:
    box = number(page, key)
    box.fill(value)
    box.press("Enter")
    wait_for_app(page, timeout=TIMEOUT)


def assert_nothing_leaks(page) -> None:
    """No exception box, no traceback, no server path, no Deploy button."""
    assert_no_exception(page)
    body = page.locator("body").inner_text()
    assert "Traceback" not in body and "/work/" not in body and ".py\"" not in body
    assert "could not be drawn" not in body
    expect(page.locator('[data-testid="stAppDeployButton"]')).to_have_count(0)


def test_bound_dim_inf_falls_back_and_the_page_works(page, streamlit_server):
    goto(page, f"{streamlit_server}/bound?bound_dim=inf&bound_n=1e400")
    text = alert(page, "out of range or malformed").inner_text(timeout=TIMEOUT)
    assert "bound_dim=inf" in text and "used the default 2" in text
    assert "bound_n=1e400" in text
    expect(number(page, "bound_dim")).to_have_value("2")
    expect(page.get_by_text(re.compile(r"40 runs \(")).first).to_be_visible(timeout=TIMEOUT)
    set_number(page, "bound_margin_count", "3")  # the page still answers
    expect(page.get_by_text(re.compile(r"15 runs \(")).first).to_be_visible(timeout=TIMEOUT)
    assert_nothing_leaks(page)


def test_adversary_dim_1e309_falls_back_and_the_page_works(page, streamlit_server):
    goto(page, f"{streamlit_server}/adversary?adv_dim=1e309&adv_gamma=%C2%B2")
    text = alert(page, "out of range or malformed").inner_text(timeout=TIMEOUT)
    assert "adv_dim=1e309" in text and "adv_gamma=²" in text
    expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text("25")
    page.get_by_role("button", name="Predict +1").click()
    wait_for_app(page, timeout=TIMEOUT)
    expect(page.get_by_text("Round 2 of 25").first).to_be_visible(timeout=TIMEOUT)
    assert_nothing_leaks(page)


def test_bound_huge_n_and_d_values_show_messages_link_and_typed(page, streamlit_server):
    query = urlencode({"bound_tab": N_AND_D, "bound_n_values": "1e308",
                       "bound_d_values": "1e20"})
    goto(page, f"{streamlit_server}/bound?{query}")
    # (Markdown shows "<=" as "≤")
    expect(alert(page, re.compile(r"n must be (<=|≤) 5000"))).to_have_count(1, timeout=TIMEOUT)
    expect(alert(page, re.compile(r"d must be (<=|≤) 1000"))).to_have_count(1)
    assert_nothing_leaks(page)
    # typed into the box: the same message, and a good value then runs the sweep
    box = page.locator(".st-key-bound_d_values input")
    box.fill("1e400")
    box.press("Enter")
    wait_for_app(page, timeout=TIMEOUT)
    expect(alert(page, "must be finite")).to_have_count(1, timeout=TIMEOUT)
    box.fill("1, 10")
    box.press("Enter")
    wait_for_app(page, timeout=TIMEOUT)
    expect(alert(page, "converged within")).to_have_count(1, timeout=TIMEOUT)
    assert_nothing_leaks(page)


def test_a_heavy_bound_link_is_refused_with_what_to_lower(page, streamlit_server):
    goto(page, f"{streamlit_server}/bound?bound_n=5000&bound_dim=1000")
    expect(alert(page, "Lower n or d")).to_have_count(1, timeout=TIMEOUT)
    set_number(page, "bound_dim", "2")
    expect(page.get_by_text(re.compile(r"40 runs \(")).first).to_be_visible(timeout=TIMEOUT)
    assert_nothing_leaks(page)


def test_markdown_in_a_link_is_shown_as_text(page, streamlit_server):
    goto(page, f"{streamlit_server}/aggressive?always_wrong_T=%2A%2Abold%2A%2A")
    warning = alert(page, "out of range or malformed")
    expect(warning).to_contain_text("always_wrong_T=**bold**", timeout=TIMEOUT)
    expect(warning.locator("strong")).to_have_count(0)
    assert_nothing_leaks(page)
