"""Every student, every device (issue #20), in Chromium: axe-core on the nine pages at a
desktop and a phone size, nothing panning sideways on a phone, the sidebar closed at load
on a phone, focus always visible, and a keyboard-only walk through /train.

axe-core comes from the PyPI package axe-playwright-python (requirements-dev.txt), which
ships ``axe.min.js``; the script is injected into the page and run with the WCAG 2.1 A/AA,
WCAG 2.2 AA and best-practice rules. The player's own behaviour (live region, swipe, keys
on focused buttons) is in tests/browser/test_browser_player_a11y.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from app_helpers import page_files
from browser_helpers import PLAYER_SELECTOR, open_url, wait_for_app

pytestmark = pytest.mark.browser

#: every page's address: Home is "/", the others /<name>
PAGE_URLS = ["/" if path.endswith("home.py") else "/" + Path(path).stem for path in page_files()]
#: the sizes every page is checked at: a desktop, a phone held upright, a small phone
DESKTOP, PHONE, SMALL_PHONE = (1440, 900), (390, 844), (360, 740)
#: a phone browser's user agent (the page lays its charts out for a phone when it says "Mobi")
PHONE_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
SERIOUS = ("serious", "critical")


def axe_script() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


@pytest.fixture(scope="module")
def axe_source() -> str:
    return axe_script()


def open_sized(browser, base: str, url: str, size: tuple[int, int]):
    """A fresh context of ``size`` (a phone size is a touch screen) at ``url``."""
    phone = min(size) < 500  # upright or on its side
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        has_touch=phone,
        is_mobile=phone,
        **({"user_agent": PHONE_AGENT} if phone else {}),
    )
    page = context.new_page()
    open_url(page, base + url)
    if url not in ("/", "/class"):  # the pages with a chart or a player: wait until drawn
        page.wait_for_selector(f".js-plotly-plot, svg.svg-chart, {PLAYER_SELECTOR}", timeout=60_000)
    page.wait_for_timeout(800)
    return context, page


def serious_violations(page, source: str) -> list[str]:
    page.evaluate(source)
    found = page.evaluate(
        """async (tags) => {
             const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
             return result.violations.map(v => ({id: v.id, impact: v.impact,
                 where: v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}));
           }""",
        AXE_TAGS,
    )
    return [f"{v['id']} ({v['impact']}): {v['where']}" for v in found if v["impact"] in SERIOUS]


def sideways_overflow(page) -> list:
    """How far the page, or its main column, is wider than the screen (empty if not)."""
    return page.evaluate(
        """() => {
             const out = [];
             const root = document.scrollingElement;
             if (root.scrollWidth > innerWidth + 1) out.push(['page', root.scrollWidth]);
             const main = document.querySelector('[data-testid="stMain"]');
             if (main && main.scrollWidth > main.clientWidth + 1)
               out.push(['main column', main.scrollWidth, main.clientWidth]);
             return out;
           }"""
    )


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1440x900", "390x844"])
@pytest.mark.parametrize("url", PAGE_URLS)
def test_axe_finds_no_serious_violation(browser, streamlit_server, axe_source, url, size):
    context, page = open_sized(browser, streamlit_server, url, size)
    try:
        assert serious_violations(page, axe_source) == []
    finally:
        context.close()


@pytest.mark.parametrize("size", [PHONE, SMALL_PHONE], ids=["390x844", "360x740"])
@pytest.mark.parametrize("url", PAGE_URLS)
def test_on_a_phone_nothing_pans_sideways_and_the_sidebar_is_closed(
    browser, streamlit_server, url, size
):
    context, page = open_sized(browser, streamlit_server, url, size)
    try:
        assert sideways_overflow(page) == []
        sidebar = page.locator('[data-testid="stSidebar"]')
        # closed at load: the sidebar is out of view (the student opens it from the header)
        box = sidebar.bounding_box() if sidebar.count() else None
        assert box is None or box["x"] + box["width"] <= 1, box
        assert (
            page.locator(
                '[data-testid="stExpandSidebarButton"], [data-testid="stSidebarCollapsedControl"]'
            ).count()
            >= 1
        )
    finally:
        context.close()


#: every word of a chart (title, axis titles, legend, notes) outside its chart's box: Plotly's,
#: and the SVG charts of pages/chart/ (in their components' shadow roots)
CLIPPED_CHART_WORDS_JS = """() => {
  const out = [];
  const walk = (root) => {
    for (const chart of root.querySelectorAll('svg.svg-chart')) {
      const box = chart.getBoundingClientRect();
      for (const text of chart.querySelectorAll('text')) {
        const b = text.getBoundingClientRect();
        if (b.width && (b.right > box.right + 1 || b.left < box.left - 1))
          out.push(text.textContent.slice(0, 60));
      }
    }
    for (const item of root.querySelectorAll('*')) if (item.shadowRoot) walk(item.shadowRoot);
  };
  walk(document);
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    const box = plot.getBoundingClientRect();
    for (const text of plot.querySelectorAll('.gtitle, .legendtext, .xtitle, .ytitle, .annotation-text')) {
      const b = text.getBoundingClientRect();
      if (b.width && (b.right > box.right + 1 || b.left < box.left - 1))
        out.push(text.textContent.slice(0, 60));
    }
  }
  return out;
}"""


@pytest.mark.parametrize("url", [url for url in PAGE_URLS if url != "/"])
def test_on_a_phone_no_word_of_a_chart_is_cut_off(browser, streamlit_server, url):
    context, page = open_sized(browser, streamlit_server, url, SMALL_PHONE)
    try:
        assert page.evaluate(CLIPPED_CHART_WORDS_JS) == []
    finally:
        context.close()


def test_on_a_phone_on_its_side_the_sidebar_is_closed_too(browser, streamlit_server):
    """844×390 is wider than Streamlit's own phone width (768 px): the phone's user agent
    closes the sidebar, which would otherwise take 40 % of the screen."""
    context, page = open_sized(browser, streamlit_server, "/train", (844, 390))
    try:
        box = page.locator('[data-testid="stSidebar"]').bounding_box()
        assert box is None or box["x"] + box["width"] <= 1, box
        assert sideways_overflow(page) == []
    finally:
        context.close()


def test_on_a_desktop_the_sidebar_is_open_at_load(browser, streamlit_server):
    context, page = open_sized(browser, streamlit_server, "/train", DESKTOP)
    try:
        box = page.locator('[data-testid="stSidebar"]').bounding_box()
        assert box is not None and box["x"] >= 0 and box["width"] > 200
    finally:
        context.close()


# ---------------------------------------------------------------------------
# Keyboard: focus visible, and a walk through /train with Tab alone
# ---------------------------------------------------------------------------

#: the focused element, through open shadow roots: its name, role and focus ring
FOCUSED_JS = """() => {
  let node = document.activeElement;
  while (node && node.shadowRoot && node.shadowRoot.activeElement) node = node.shadowRoot.activeElement;
  if (!node || node === document.body) return null;
  const style = getComputedStyle(node);
  const name = (node.getAttribute('aria-label') || node.textContent || node.value || '').trim();
  return {tag: node.tagName, role: node.getAttribute('role'), type: node.getAttribute('type'),
          name: name.slice(0, 80), value: node.value,
          disabled: !!node.disabled, outline: parseFloat(style.outlineWidth) || 0,
          outlineStyle: style.outlineStyle, outlineColor: style.outlineColor,
          boxShadow: style.boxShadow};
}"""


def tab_until(page, wanted, most: int = 120) -> dict:
    """Press Tab until the focused element satisfies ``wanted``; return what it is."""
    for _ in range(most):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED_JS)
        if focused and wanted(focused):
            return focused
    raise AssertionError("Tab never reached the control")


def player_state(page) -> dict:
    player = page.locator(PLAYER_SELECTOR)
    return {
        "step": int(player.get_attribute("data-step")),
        "updates": int(player.get_attribute("data-updates")),
    }


def test_focus_is_always_visible(browser, streamlit_server):
    """A 3 px ring in near-black (#111 against white or light grey: over 15:1)."""
    context, page = open_sized(browser, streamlit_server, "/train", DESKTOP)
    try:
        seen = [
            tab_until(page, lambda f: f["tag"] in ("BUTTON", "INPUT", "SUMMARY", "A"))
            for _ in range(6)
        ]
        for focused in seen:
            assert focused["outline"] >= 3 and focused["outlineStyle"] != "none", focused
            assert focused["outlineColor"] in ("rgb(17, 17, 17)",), focused
    finally:
        context.close()


def test_a_keyboard_only_walk_through_train(browser, streamlit_server):
    """Tab from the top: step the player, change a setting, open Export, with no mouse."""
    context, page = open_sized(browser, streamlit_server, "/train", DESKTOP)
    try:
        page.locator(PLAYER_SELECTOR).wait_for()
        # 1. a setting: the margin slider in the sidebar, moved with the arrow keys
        before = tab_until(page, lambda f: f["name"] == "margin γ")["value"]
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(500)
        wait_for_app(page)
        after = page.evaluate(FOCUSED_JS)
        assert after and after["name"] == "margin γ" and after["value"] != before, after
        page.locator(PLAYER_SELECTOR).wait_for()
        start = player_state(page)
        # 2. the player: Tab on to "Next example" and press it with Enter, then with Space
        tab_until(page, lambda f: f["name"].startswith("Next example"))
        page.keyboard.press("Enter")
        page.wait_for_timeout(200)
        assert player_state(page)["step"] == start["step"] + 1
        page.keyboard.press("Space")
        page.wait_for_timeout(200)
        assert player_state(page)["step"] == start["step"] + 2
        # 3. Export: Tab on to its header and open it with Enter
        tab_until(page, lambda f: f["tag"] == "SUMMARY" and "Export" in f["name"])
        page.keyboard.press("Enter")
        page.get_by_text("Player (HTML, works offline)").first.wait_for(timeout=10_000)
        assert player_state(page)["step"] == start["step"] + 2  # Enter opened, did not step
    finally:
        context.close()


# ---------------------------------------------------------------------------
# Nothing told by colour alone: /kernels' two predicted regions in greyscale
# ---------------------------------------------------------------------------


def test_kernels_two_predicted_regions_differ_in_greyscale(browser, streamlit_server):
    """The picture of f: f > 0 is plain blue, f <= 0 striped orange. Taken to greyscale,
    the striped side still shows its stripes (neighbouring cells differ) and the plain
    side does not, so the regions are told apart without colour."""
    import base64
    import io

    import numpy as np
    from PIL import Image

    context, page = open_sized(browser, streamlit_server, "/kernels", DESKTOP)
    try:
        player = page.locator(PLAYER_SELECTOR)
        player.wait_for()
        page.keyboard.press("End")  # the finished run: both regions are large
        page.wait_for_timeout(500)
        href = page.locator(f"{PLAYER_SELECTOR} svg foreignObject.field canvas").first.evaluate(
            "canvas => canvas.toDataURL()"
        )
        picture = Image.open(io.BytesIO(base64.b64decode(href.split(",", 1)[1])))
        rgb = np.asarray(picture.convert("RGB"), dtype=float)
        grey = np.asarray(picture.convert("L"), dtype=float)
        negative = rgb[..., 0] > rgb[..., 2]  # orange: f <= 0; blue: f > 0
        # a cell and its right-hand neighbour on the same side
        same_side = negative[:, :-1] == negative[:, 1:]
        jump = np.abs(grey[:, :-1] - grey[:, 1:]) > 12
        on_negative = same_side & negative[:, :-1]
        on_positive = same_side & ~negative[:, :-1]
        assert on_negative.sum() > 200 and on_positive.sum() > 200
        assert jump[on_negative].mean() > 0.4  # stripes
        assert jump[on_positive].mean() < 0.1  # plain
    finally:
        context.close()
