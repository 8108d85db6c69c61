"""End-to-end tests in real headless Chromium (Debian's /usr/bin/chromium).

Skipped with a reason when Chromium or Playwright is missing; they fail
instead when REQUIRE_BROWSER=1 (CI).
"""

from __future__ import annotations

import pytest
from browser_helpers import assert_no_exception, wait_for_app

PAGES = {
    "": "Perceptron Lab",
    "train": "Train, one mistake at a time",
    "bound": "Mistakes against the bound",
    "aggressive": "Aggressive updates never stop",
    "adversary": "adversarial lower bound",
}

# Read the drawn hyperplane of a chart straight from Plotly's graph div.
HYPERPLANE_JS = """(index) => {
  const plots = document.querySelectorAll('.js-plotly-plot');
  const trace = plots[index].data.find(t => t.name === 'hyperplane w·x + b = 0');
  return trace ? Array.from(trace.x || []).concat(Array.from(trace.y || [])) : null;
}"""
ANIMATION_STATE_JS = """() => {
  for (const gd of document.querySelectorAll('.js-plotly-plot')) {
    if (gd._transitionData && gd._transitionData._frames && gd._transitionData._frames.length) {
      return {active: gd._fullLayout.sliders[0].active,
              frames: gd._transitionData._frames.length,
              title: gd._fullLayout.title.text};
    }
  }
  return null;
}"""


def goto(page, base, path):
    page.goto(f"{base}/{path}")
    wait_for_app(page, timeout=60_000)


def status_text(page) -> str:
    return page.locator(".st-key-status").inner_text()


@pytest.mark.parametrize("path", list(PAGES))
def test_every_page_renders_without_exception(page, streamlit_server, path):
    goto(page, streamlit_server, path)
    assert_no_exception(page)
    heading = page.locator("h1").first
    assert PAGES[path].lower() in heading.inner_text().lower()
    if path:
        page.wait_for_selector(".js-plotly-plot", timeout=30_000)


def test_next_mistake_changes_the_chart(page, streamlit_server):
    goto(page, streamlit_server, "train")
    page.wait_for_selector(".js-plotly-plot")
    before = page.evaluate(HYPERPLANE_JS, 0)
    assert before == [], "w starts at 0: no hyperplane drawn yet"
    page.get_by_role("button", name="Next mistake").click()
    wait_for_app(page)
    page.wait_for_function("() => document.querySelector('.st-key-status') && "
                           "document.querySelector('.st-key-status').innerText.includes('mistake')")
    first = page.evaluate(HYPERPLANE_JS, 0)
    assert first and len(first) == 4
    page.get_by_role("button", name="Next mistake").click()
    wait_for_app(page)
    page.wait_for_function(f"(old) => JSON.stringify(({HYPERPLANE_JS})(0)) !== old",
                           arg=str(first).replace(" ", ""))
    second = page.evaluate(HYPERPLANE_JS, 0)
    assert second != first
    assert "updates" in status_text(page)
    assert_no_exception(page)


def test_play_advances_frames_in_the_browser(page, streamlit_server):
    goto(page, streamlit_server, "train")
    page.wait_for_function(f"() => ({ANIMATION_STATE_JS})() !== null", timeout=30_000)
    start = page.evaluate(ANIMATION_STATE_JS)
    assert start["active"] == 0 and start["frames"] > 3
    page.locator(".updatemenu-button", has_text="Play").first.click()
    page.wait_for_function(f"() => ({ANIMATION_STATE_JS})().active >= 2", timeout=20_000)
    later = page.evaluate(ANIMATION_STATE_JS)
    assert later["active"] >= 2
    assert later["title"] != start["title"]


def test_two_students_step_independently(browser, streamlit_server):
    first = browser.new_context(viewport={"width": 1280, "height": 900})
    second = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        alice, bob = first.new_page(), second.new_page()
        goto(alice, streamlit_server, "train")
        goto(bob, streamlit_server, "train")
        for _ in range(3):
            alice.get_by_role("button", name="Next mistake").click()
            wait_for_app(alice)
        alice.wait_for_function("() => document.querySelector('.st-key-status')"
                                ".innerText.includes('3 / ')")
        bob.reload()
        wait_for_app(bob)
        assert "Nothing examined yet" in status_text(bob)
        bob.get_by_role("button", name="Next mistake").click()
        wait_for_app(bob)
        bob.wait_for_function("() => document.querySelector('.st-key-status')"
                              ".innerText.includes('1 / ')")
        assert "3 / " in status_text(alice)
        assert "Step" in status_text(bob) and "1 / " in status_text(bob)
    finally:
        first.close()
        second.close()


def test_deep_link_on_a_fresh_server_uses_the_app_navigation(browser):
    """A shared /train link opened before anyone visited / must still get app.py's pages."""
    from browser_helpers import run_streamlit

    with run_streamlit("app.py") as fresh_base:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            goto(page, fresh_base, "train")
            navigation = page.locator('[data-testid="stSidebarNav"]').inner_text()
            assert "Train, one mistake at a time" in navigation
            assert "common" not in navigation
            assert "train" in page.locator("h1").first.inner_text().lower()
            assert_no_exception(page)
        finally:
            context.close()
