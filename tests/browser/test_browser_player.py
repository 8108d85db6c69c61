"""The /train player in real Chromium: every move happens in the browser.

Reads the player's root (data-testid="perceptron-player", data-step, data-updates)
and compares what it shows with the core's run for the same settings.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_helpers import (
    assert_no_exception,
    new_page,
    offline_export,
    open_link_with_step,
    open_player,
    train_page_run,
    wait_for_player,
)


def test_keys_work_straight_after_opening_and_not_while_typing(page, streamlit_server):
    data, trace = train_page_run()
    player = open_player(page, f"{streamlit_server}/train")
    steps = trace.update_steps.tolist()
    assert wait_for_player(player, 0, 0) == (0, 0)
    for k in (1, 2, 3):  # no click first: the keys reach the player at once
        page.keyboard.press("ArrowRight")
        assert wait_for_player(player, steps[k - 1], k) == (steps[k - 1], k)
    page.keyboard.press("PageDown")  # a presentation clicker
    wait_for_player(player, steps[3], 4)
    page.keyboard.press("PageUp")  # back undoes the last move
    wait_for_player(player, steps[2], 3)
    page.keyboard.press("ArrowDown")  # one more example
    wait_for_player(player, steps[2] + 1)
    page.keyboard.press("End")
    wait_for_player(player, trace.n_examined, trace.n_updates)
    assert "Converged after" in player.locator(".banner").inner_text()
    page.keyboard.press("Home")
    wait_for_player(player, 0, 0)
    # typing in a settings field is not stepping
    field = page.get_by_label("points n")
    field.click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("End")
    page.wait_for_timeout(300)
    assert wait_for_player(player) == (0, 0)
    assert_no_exception(page)


def test_buttons_and_the_words_of_each_step_match_the_core(page, streamlit_server):
    data, trace = train_page_run()
    player = open_player(page, f"{streamlit_server}/train")
    assert "Nothing examined yet" in player.get_by_test_id("step-text").inner_text()
    player.get_by_role("button", name="Next mistake").click()
    first = int(trace.update_steps[0])
    wait_for_player(player, first, 1)
    step = trace.example_at(first, data.X, data.y)
    text = player.get_by_test_id("step-text").inner_text()
    assert f"example {step.index + 1}," in text and "a mistake" in text  # x₁ … xₙ
    w = trace.weights[1]
    # "=" only when the three decimals are w itself, "≈" when they are rounded
    exact = all(float(f"{v:.3f}") == v for v in w)
    shown = f"w {'=' if exact else '≈'} ({w[0]:.3f}, {w[1]:.3f})".replace("-", "−")
    assert shown in player.inner_text()
    # walk example by example to the first correct one: it says so
    updated = set(trace.update_steps.tolist())
    correct = next(t for t in range(first + 1, trace.n_examined + 1) if t not in updated)
    for _ in range(correct - first):
        player.get_by_role("button", name="Next example").click()
    wait_for_player(player, correct)
    step = trace.example_at(correct, data.X, data.y)
    text = player.get_by_test_id("step-text").inner_text()
    assert f"example {step.index + 1}," in text and "correct, no update" in text
    assert f"{step.score:+.3f}".replace("+", "").replace("-", "−") in text
    player.get_by_role("button", name="Back").click()
    wait_for_player(player, correct - 1)
    player.get_by_role("button", name="Run to end").click()
    wait_for_player(player, trace.n_examined, trace.n_updates)
    player.get_by_role("button", name="Reset").click()
    wait_for_player(player, 0, 0)


def test_scrubbing_jumps_to_an_update_and_back_undoes_the_drag(page, streamlit_server):
    data, trace = train_page_run()
    player = open_player(page, f"{streamlit_server}/train")
    slider = player.get_by_role("slider", name="jump to update")
    slider.evaluate(
        "(el) => { for (const v of [2, 4, 5]) { el.value = v; "
        "el.dispatchEvent(new Event('input', {bubbles: true})); } "
        "el.dispatchEvent(new Event('change', {bubbles: true})); }"
    )
    wait_for_player(player, int(trace.update_steps[4]), 5)
    assert "update 5 of" in player.inner_text()
    player.get_by_role("button", name="Back").click()
    wait_for_player(player, 0, 0)


def test_play_advances_pause_stops_and_space_toggles(page, streamlit_server):
    player = open_player(page, f"{streamlit_server}/train")
    player.get_by_role("combobox", name="speed").select_option("fast")
    player.get_by_role("button", name="Play").click()
    wait_for_player(player, min_updates=3)
    player.get_by_role("button", name="Pause").click()
    paused = wait_for_player(player)
    page.wait_for_timeout(600)
    assert wait_for_player(player) == paused and player.get_attribute("data-playing") == "false"
    page.keyboard.press(" ")
    wait_for_player(player, playing=True)
    page.keyboard.press(" ")
    wait_for_player(player, playing=False)
    # the title, slider and counters agree at every frame
    k = wait_for_player(player)[1]
    assert f"update {k} of" in player.inner_text()
    assert player.locator('[data-counter="updates"]').inner_text() == f"{k:,}"


def test_stepping_sends_nothing_to_the_server(page, streamlit_server):
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: frames.append(payload)))
    player = open_player(page, f"{streamlit_server}/train")
    page.wait_for_timeout(500)
    frames.clear()
    for key in ["ArrowRight"] * 6 + ["ArrowDown"] * 4 + ["ArrowLeft"] * 3 + ["End", "Home"]:
        page.keyboard.press(key)
    player.get_by_role("button", name="Next mistake").click()
    player.get_by_role("button", name="Play").click()
    page.wait_for_timeout(1_500)
    player.get_by_role("button", name="Pause").click()
    page.wait_for_url(re.compile(r"[?&]step=\d"), timeout=10_000)  # written after a pause
    assert frames == []


def test_a_link_with_a_step_opens_that_step_in_a_fresh_browser(browser, streamlit_server):
    with new_page(browser) as page, new_page(browser) as fresh:
        player = open_player(page, f"{streamlit_server}/train?order=permuted&order_seed=2")
        for _ in range(4):
            page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowDown")
        step, updates = wait_for_player(player, updates=4)
        link, other = open_link_with_step(page, fresh, step)
        assert "order=permuted" in link
        assert wait_for_player(other, step, updates) == (step, updates)
        assert (
            other.get_by_test_id("step-text").inner_text()
            == player.get_by_test_id("step-text").inner_text()
        )


def test_two_students_step_independently(browser, streamlit_server):
    with new_page(browser, 1280, 900) as alice, new_page(browser, 1280, 900) as bob:
        alice_player = open_player(alice, f"{streamlit_server}/train")
        bob_player = open_player(bob, f"{streamlit_server}/train")
        for _ in range(3):
            alice.keyboard.press("ArrowRight")
        wait_for_player(alice_player, updates=3)
        bob.keyboard.press("ArrowRight")
        wait_for_player(bob_player, updates=1)
        assert wait_for_player(alice_player)[1] == 3


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_presenter_stage_fits_the_screen(browser, streamlit_server, size):
    with new_page(browser, *size) as page:
        player = open_player(page, f"{streamlit_server}/train?present=1")
        page.wait_for_timeout(2_000)  # the stage scrolls to the top again at 50, 600, 1 500 ms
        box = player.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= size[1] + 1, box
        for part in (".plane", ".controls", ".info", ".chart .panels", ".legend"):
            inner = player.locator(part).first.bounding_box()
            assert inner["y"] + inner["height"] <= size[1] + 1, (part, inner)
        assert page.locator('section[data-testid="stSidebar"]').is_hidden()
        page.keyboard.press("ArrowRight")
        wait_for_player(player, updates=1)


def test_exported_player_steps_from_a_file_with_no_server(page, streamlit_server, tmp_path: Path):
    data, trace = train_page_run()
    with offline_export(page, streamlit_server, tmp_path) as (viewer, player):
        viewer.wait_for_timeout(1_000)
        assert wait_for_player(player) == (0, 0) and player.get_attribute("data-playing") == "false"
        viewer.keyboard.press("ArrowRight")
        viewer.keyboard.press("ArrowRight")
        assert wait_for_player(player, int(trace.update_steps[1]), 2)[1] == 2
        player.get_by_role("button", name="Play").click()
        wait_for_player(player, min_updates=4)


def test_the_page_asks_nothing_of_the_internet(page, streamlit_server):
    """No CDN: every request of opening /train and stepping stays on the app's server."""
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    player = open_player(page, f"{streamlit_server}/train")
    page.keyboard.press("ArrowRight")
    wait_for_player(player, updates=1)
    page.wait_for_timeout(500)
    outside = [url for url in requests if not url.startswith((streamlit_server, "data:", "blob:"))]
    assert outside == []


def test_a_proof_chart_of_a_tiny_range_draws_a_few_ticks(page, streamlit_server):
    """No bias, two nearly parallel points: ⟨w_t, w*⟩ stays below 10⁻¹⁴. Ticks stepped with
    an absolute tolerance of 10⁻⁹ made 200 000 of them and the player died ("Maximum call
    stack size exceeded"); the chart now has a handful."""
    player = open_player(
        page, f"{streamlit_server}/train?balance=0.1&data_seed=0&margin=0.01&n=2&bias=false"
    )
    assert_no_exception(page)
    charts = player.locator("svg.mini")
    assert charts.count() >= 2
    for index in range(charts.count()):
        ticks = charts.nth(index).locator("g.axes text").count()
        assert 3 <= ticks <= 14, ticks
