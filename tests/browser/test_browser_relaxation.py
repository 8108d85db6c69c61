"""/relaxation's player in real Chromium: keys step the relaxation run, the words and
numbers are the core's, and a link with step= reopens that iteration."""

from __future__ import annotations

import numpy as np
from browser_helpers import (
    assert_no_exception,
    new_page,
    open_link_with_step,
    open_player,
    wait_for_player,
)

from perceptron_core import relaxation
from perceptron_core.viz.relaxation import PRESETS, rows_to_system


def core_run(name="thin sliver", eta=1.0, rule="cyclic"):
    A, c = rows_to_system(PRESETS[name][0])
    return (
        A,
        c,
        relaxation(
            A, c, eta=eta, rule=rule, w0=np.zeros(2), seed=0, tol=0.001, max_iter=1000, tau=10
        ),
    )


def shown(w):
    return f"({w[0]:.3f}, {w[1]:.3f})".replace("-", "−")


def test_keys_step_the_run_and_the_words_are_the_cores(page, streamlit_server):
    A, c, trace = core_run("thin sliver", eta=2.0)
    player = open_player(page, f"{streamlit_server}/relaxation?system=thin+sliver&eta=2.0")
    moves = (np.flatnonzero(trace.moved) + 1).tolist()
    assert wait_for_player(player, 0, 0) == (0, 0)
    assert player.get_by_role("button", name="Next move").is_visible()
    for k in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        assert wait_for_player(player, moves[k - 1], k) == (moves[k - 1], k)
    text = player.get_by_test_id("step-text").inner_text()
    t = moves[2]
    i = int(trace.indices[t - 1])
    assert f"Iteration {t}: the rule picks inequality ({i + 1})," in text
    assert "reflection, η = 2" in text
    assert shown(trace.iterates[t]) in text and shown(trace.iterates[t - 1]) in text
    page.keyboard.press("ArrowLeft")
    wait_for_player(player, moves[1], 2)
    page.keyboard.press("ArrowDown")
    wait_for_player(player, moves[1] + 1)
    page.keyboard.press("End")
    wait_for_player(player, trace.n_iter, trace.n_moves)
    assert "Feasible after" in player.locator(".banner").inner_text()
    assert player.locator('[data-counter="violated"]').inner_text() == f"0 of {A.shape[1]}"
    page.keyboard.press("Home")
    wait_for_player(player, 0, 0)
    assert_no_exception(page)


def test_infeasible_system_ends_with_no_solution(page, streamlit_server):
    player = open_player(page, f"{streamlit_server}/relaxation?system=infeasible")
    page.keyboard.press("End")
    wait_for_player(player, 1000)
    assert "this system has no solution" in player.locator(".banner").inner_text()
    assert "Stopped after 1,000 iterations" in player.locator(".banner").inner_text()
    assert player.locator('[data-counter="iteration"]').inner_text() == "1,000"
    assert player.locator('[data-total="iteration"]').inner_text() == "run total: 1,000"


def test_a_link_with_a_step_reopens_that_iteration(browser, streamlit_server):
    A, c, trace = core_run("wide polygon", eta=0.5, rule="max_distance")
    with new_page(browser) as page, new_page(browser) as fresh:
        player = open_player(
            page, f"{streamlit_server}/relaxation?system=wide+polygon&eta=0.5&rule=max_distance"
        )
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        step, updates = wait_for_player(player, updates=3)
        link, other = open_link_with_step(page, fresh, step)
        assert "rule=max_distance" in link  # the plain name: the menu's words are not in it
        assert wait_for_player(other, step, updates) == (step, updates)
        assert shown(trace.iterates[step]) in other.locator(".now").inner_text()
        assert (
            other.get_by_test_id("step-text").inner_text()
            == player.get_by_test_id("step-text").inner_text()
        )


def test_a_tiny_residual_is_never_shown_rounded_to_zero(page, streamlit_server):
    """Issue 22, kind 4: "a_i·w − c_i = 0.000 > 0: violated" rounded the residual inside the
    sentence. w₁ ≤ 0, w₁ ≥ 0 from w₁ = 3 with η = 0.5 halves w₁ at every move: the first
    move on a residual below 5e-4 (3·0.5¹³ ≈ 3.7e-4) is shown with its digits."""
    rows = "1,0,0;-1,0,0"
    A, c = rows_to_system([[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]])
    trace = relaxation(
        A, c, eta=0.5, rule="cyclic", w0=[3.0, 0.0], seed=0, tol=0.0, max_iter=1000, tau=10
    )
    t = int(np.flatnonzero(trace.moved & (trace.residuals < 5e-4))[0]) + 1
    residual = float(trace.residuals[t - 1])
    assert 0 < residual < 5e-4
    player = open_player(
        page,
        f"{streamlit_server}/relaxation?system=your+own+rows&rows={rows}"
        f"&eta=0.5&w0_1=3.0&tol=0.0&step={t}",
    )
    wait_for_player(player, t)
    text = player.get_by_test_id("step-text").inner_text()
    mantissa, exponent = f"{residual:.2e}".split("e")
    assert f"= {mantissa}e−{int(exponent[1:])} > 0" in text, text
    assert "= 0.000 >" not in text
