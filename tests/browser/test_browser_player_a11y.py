"""The player on a phone, for a screen reader and from the keyboard (issue #20), in Chromium.

On a phone (390x844 touch, 360x740) the player stacks with nothing past the screen, 44 px
controls, a step text of at least 250 px and SVG text of at least 12 px; a tap and a swipe
on the picture step. Every move is said once in the player's live region and the picture's
text alternative follows the step. Space and Enter on a focused button press that button,
PageDown steps on the presenter stage right after its toggle, and a button that a move
disables passes focus on.
"""

from __future__ import annotations

import pytest
from browser_helpers import PLAYER_SELECTOR, open_player, wait_for_app, wait_for_player

pytestmark = pytest.mark.browser

PAGES = ("/train", "/kernels", "/generalisation", "/relaxation")
PHONES = ((390, 844), (360, 740))

#: the player's geometry: boxes past the screen, controls, the step text, SVG type in CSS px
GEOMETRY_JS = """(root) => {
  const width = innerWidth, out = {width, outside: [], controls: [], smallText: []};
  for (const node of root.querySelectorAll('*')) {
    const box = node.getBoundingClientRect();
    if (box.width && (box.left < -0.5 || box.right > width + 0.5)) out.outside.push(node.tagName + ' ' + box.left + '..' + box.right);
  }
  for (const node of root.querySelectorAll('button, select, input')) {
    const box = node.getBoundingClientRect();
    if (box.width) out.controls.push({name: (node.getAttribute('aria-label') || node.textContent).trim(),
                                      left: box.left, right: box.right, height: box.height});
  }
  out.stepText = root.querySelector('[data-testid="step-text"]').getBoundingClientRect().width;
  for (const picture of root.querySelectorAll('svg.plane')) {
    const scale = picture.getBoundingClientRect().width / picture.viewBox.baseVal.width;
    for (const text of picture.querySelectorAll('text')) {
      const px = parseFloat(getComputedStyle(text).fontSize) * scale;
      if (text.textContent && px < 12) out.smallText.push(text.textContent + ' ' + px.toFixed(1));
    }
  }
  return out;
}"""

#: count the changes of the live region from now on (it is in the player's shadow root)
COUNT_CHANGES_JS = """(live) => {
  window.__liveChanges = 0;
  if (window.__liveObserver) window.__liveObserver.disconnect();
  window.__liveObserver = new MutationObserver((records) => { window.__liveChanges += records.length; });
  window.__liveObserver.observe(live, {childList: true, characterData: true, subtree: true});
}"""

#: the focused element, through open shadow roots: its tag, text and whether it is disabled
FOCUSED_JS = """() => {
  let node = document.activeElement;
  while (node && node.shadowRoot && node.shadowRoot.activeElement) node = node.shadowRoot.activeElement;
  return node ? {tag: node.tagName, text: node.textContent.trim(), disabled: !!node.disabled} : null;
}"""


def phone_page(browser, size):
    """A fresh context of ``size``: a touch screen at 390 px, a small window at 360 px."""
    touch = size[0] == 390
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        has_touch=touch,
        is_mobile=touch,
        device_scale_factor=2 if touch else 1,
    )
    context.set_default_timeout(120_000)  # a loaded 2-core machine opens /kernels slowly
    return context, context.new_page()


@pytest.mark.parametrize("size", PHONES, ids=["390x844", "360x740"])
@pytest.mark.parametrize("url", PAGES)
def test_the_player_fits_a_phone(browser, streamlit_server, url, size):
    context, page = phone_page(browser, size)
    try:
        player = open_player(page, streamlit_server + url)
        page.wait_for_timeout(600)  # the size observer has fitted the picture and its type
        shown = player.evaluate(GEOMETRY_JS)
        assert not shown["outside"], shown["outside"][:5]
        assert len(shown["controls"]) >= 8
        for control in shown["controls"]:
            assert control["left"] >= 0 and control["right"] <= shown["width"], control
            assert control["height"] >= 44, control
        assert shown["stepText"] >= 250, shown["stepText"]
        assert not shown["smallText"], shown["smallText"][:5]
    finally:
        context.close()


def swipe(page, box, dx):
    """A finger on the middle of ``box`` moved ``dx`` px sideways (CDP touch events)."""
    cdp = page.context.new_cdp_session(page)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for k in range(1, 7):
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": "touchMove", "touchPoints": [{"x": x + dx * k / 6, "y": y + 3}]},
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_tap_and_a_swipe_on_the_picture_step(browser, streamlit_server):
    context, page = phone_page(browser, PHONES[0])
    try:
        player = open_player(page, streamlit_server + "/train")
        picture = player.locator("svg.plane")
        picture.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        box = picture.bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        wait_for_player(player, 1)
        swipe(page, box, -120)  # left: the next example
        wait_for_player(player, 2)
        swipe(page, box, 120)  # right: back
        wait_for_player(player, 1)
    finally:
        context.close()


def live_changes(page) -> int:
    page.wait_for_timeout(250)
    return page.evaluate("window.__liveChanges")


def test_every_move_is_said_once_and_the_picture_follows(page, streamlit_server):
    player = open_player(page, f"{streamlit_server}/train")
    live = player.locator('[role="status"][aria-live="polite"]')
    picture = player.locator("svg.plane")
    live.evaluate(COUNT_CHANGES_JS)
    said, described = [], [picture.get_attribute("aria-label")]

    def moved(do, *wanted):
        before = page.evaluate("window.__liveChanges")
        do()
        wait_for_player(player, *wanted)
        assert live_changes(page) == before + 1
        said.append(live.inner_text())
        described.append(picture.get_attribute("aria-label"))

    moved(lambda: player.get_by_role("button", name="Next mistake").click())
    step = int(player.get_attribute("data-step"))
    moved(lambda: page.keyboard.press("ArrowDown"), step + 1)
    moved(lambda: player.get_by_role("slider").press("ArrowRight"), None, 2)
    moved(lambda: player.get_by_role("button", name="Back").click(), step + 1)
    moved(lambda: player.get_by_role("button", name="Run to end").click())
    assert "Run finished: Converged after" in said[-1]
    moved(lambda: page.keyboard.press("Home"), 0)
    assert all(a != b for a, b in zip(said, said[1:])) and f"Step {step}:" in said[0]
    assert all(a != b for a, b in zip(described, described[1:]))
    assert f"Step {step}:" in described[1] and "training accuracy" in described[1]
    # Play is said once when it starts (not per frame) and once when it pauses
    moved(lambda: player.get_by_role("button", name="Play").click(), None, None)
    wait_for_player(player, min_updates=3, playing=True)
    assert live_changes(page) == len(said) and "Playing" in said[-1]
    moved(lambda: page.keyboard.press("Space"), None, None)
    wait_for_player(player, playing=False)
    assert "Step" in said[-1]


def test_space_on_a_focused_button_presses_that_button(page, streamlit_server):
    player = open_player(page, f"{streamlit_server}/train")
    player.get_by_role("button", name="Next example").focus()
    page.keyboard.press("Space")
    page.wait_for_timeout(700)  # Play would have gone on by now
    assert wait_for_player(player, playing=False)[0] == 1
    page.keyboard.press("Enter")
    wait_for_player(player, 2)
    # the page's Notation popover opens on Space and the player does not step
    page.get_by_role("button", name="Notation").focus()
    page.keyboard.press("Space")
    page.get_by_text("Numbering as in the lecture notes").wait_for(timeout=10_000)
    page.wait_for_timeout(500)
    assert wait_for_player(player, playing=False)[0] == 2


def test_pagedown_steps_right_after_the_presenter_toggle(page, streamlit_server):
    player = open_player(page, f"{streamlit_server}/train")
    page.get_by_text("Presenter mode", exact=True).click()  # the toggle's label, as a mouse does
    wait_for_app(page)
    page.locator(f"{PLAYER_SELECTOR}.present").wait_for()
    assert page.evaluate(FOCUSED_JS)["tag"] == "INPUT"  # the toggle keeps focus
    page.keyboard.press("ArrowDown")  # arrows on the toggle are the toggle's
    page.wait_for_timeout(300)
    assert wait_for_player(player) == (0, 0)
    page.keyboard.press("PageDown")  # a clicker
    step, updates = wait_for_player(player, updates=1)
    page.keyboard.press("PageUp")
    wait_for_player(player, 0, 0)
    assert step > 0


def test_focus_stays_on_a_control_when_a_move_disables_its_button(page, streamlit_server):
    player = open_player(page, f"{streamlit_server}/train")
    player.get_by_role("button", name="Run to end").click()
    wait_for_player(player, min_updates=1)
    focused = page.evaluate(FOCUSED_JS)
    assert focused["tag"] == "BUTTON" and not focused["disabled"] and "Back" in focused["text"], (
        focused
    )
    player.get_by_role("button", name="Reset").click()
    wait_for_player(player, 0, 0)
    player.get_by_role("button", name="Next example").click()
    player.get_by_role("button", name="Back").click()  # back at the start: Back is disabled
    wait_for_player(player, 0, 0)
    focused = page.evaluate(FOCUSED_JS)
    assert focused["tag"] == "BUTTON" and not focused["disabled"], focused
