"""/relaxation's player in real Chromium: keys step the relaxation run, the words and
numbers are the core's, and a link with step= reopens that iteration."""

from __future__ import annotations

import numpy as np
from browser_helpers import wait_for_player, assert_no_exception, wait_for_app

from perceptron_core import relaxation
from perceptron_core.viz.relaxation import PRESETS, rows_to_system


def core_run(name="thin sliver", eta=1.0, rule="cyclic"):
    A, c = rows_to_system(PRESETS[name][0])
    return A, c, relaxation(A, c, eta=eta, rule=rule, w0=np.zeros(2), seed=0, tol=0.001,
                            max_iter=1000, tau=10)


def open_player(page, base, query=""):
    page.goto(f"{base}/relaxation{query}")
    wait_for_app(page, timeout=60_000)
    player = page.get_by_test_id("perceptron-player")
    player.wait_for()
    return player


def at(player, step=None, updates=None, timeout=10_000):
    return wait_for_player(player, step=step, updates=updates, timeout=timeout)


def shown(w):
    return f"({w[0]:.3f}, {w[1]:.3f})".replace("-", "−")


def test_keys_step_the_run_and_the_words_are_the_cores(page, streamlit_server):
    A, c, trace = core_run("thin sliver", eta=2.0)
    player = open_player(page, streamlit_server, "?system=thin+sliver&eta=2.0")
    moves = (np.flatnonzero(trace.moved) + 1).tolist()
    assert at(player, 0, 0) == (0, 0)
    assert player.get_by_role("button", name="Next move").is_visible()
    for k in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        assert at(player, moves[k - 1], k) == (moves[k - 1], k)
    text = player.get_by_test_id("step-text").inner_text()
    t = moves[2]
    i = int(trace.indices[t - 1])
    assert f"Iteration {t}: the rule picks inequality {i + 1}," in text
    assert "reflection, η = 2" in text
    assert shown(trace.iterates[t]) in text and shown(trace.iterates[t - 1]) in text
    page.keyboard.press("ArrowLeft")
    at(player, moves[1], 2)
    page.keyboard.press("ArrowDown")
    at(player, moves[1] + 1)
    page.keyboard.press("End")
    at(player, trace.n_iter, trace.n_moves)
    assert "Feasible after" in player.locator(".banner").inner_text()
    assert player.locator('[data-counter="violated"]').inner_text() == f"0 of {A.shape[1]}"
    page.keyboard.press("Home")
    at(player, 0, 0)
    assert_no_exception(page)


def test_infeasible_system_ends_with_no_solution(page, streamlit_server):
    player = open_player(page, streamlit_server, "?system=infeasible")
    page.keyboard.press("End")
    at(player, 1000)
    assert "this system has no solution" in player.locator(".banner").inner_text()


def test_a_link_with_a_step_reopens_that_iteration(browser, streamlit_server):
    A, c, trace = core_run("wide polygon", eta=0.5, rule="max_distance")
    first = browser.new_context(viewport={"width": 1400, "height": 1000})
    second = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = first.new_page()
        player = open_player(page, streamlit_server, "?eta=0.5&rule=max_distance")
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        step, updates = at(player, updates=3)
        page.wait_for_function("() => location.search.includes('step=')")
        link = page.url
        assert f"step={step}" in link and "rule=max_distance" in link
        fresh = second.new_page()
        fresh.goto(link)
        wait_for_app(fresh, timeout=60_000)
        other = fresh.get_by_test_id("perceptron-player")
        other.wait_for()
        assert at(other, step, updates) == (step, updates)
        assert shown(trace.iterates[step]) in other.locator(".now").inner_text()
        assert other.get_by_test_id("step-text").inner_text() == \
            player.get_by_test_id("step-text").inner_text()
    finally:
        first.close()
        second.close()
