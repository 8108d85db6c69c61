"""The /kernels player in real Chromium: keys step the kernel run, f is computed in the browser.

Reads the player's root (data-testid="perceptron-player", data-step, data-updates) and the
decision function the scene evaluated (root.kernelField), and compares them with the core.
"""

from __future__ import annotations

import numpy as np
from browser_helpers import (
    assert_no_exception,
    new_page,
    open_link_with_step,
    open_player,
    wait_for_player,
)

from perceptron_core import kernel_perceptron, make_circles, make_xor
from perceptron_core.viz.kernels import GRID
from perceptron_core.viz.train import axis_limit


def core_run(data, **settings):
    return kernel_perceptron(data.X, data.y, **settings, max_updates=2_000, max_epochs=500)


def browser_field(player):
    field = player.evaluate(
        "el => ({k: el.kernelField.updates, b: el.kernelField.bias, "
        "grid: Array.from(el.kernelField.values), "
        "points: Array.from(el.kernelField.points)})"
    )
    bias = field["b"]
    return field["k"], np.asarray(field["grid"]) + bias, np.asarray(field["points"]) + bias


def grid_points(limit):
    axis = np.arange(GRID)
    cols, rows = np.meshgrid(axis, axis)  # row-major, top row first, as the scene lays them out
    return np.column_stack(
        [
            -limit + 2 * limit * cols.ravel() / (GRID - 1),
            limit - 2 * limit * rows.ravel() / (GRID - 1),
        ]
    )


def test_keys_step_the_kernel_run_and_f_matches_the_core(page, streamlit_server):
    data = make_circles(n=100, seed=0)
    trace = core_run(data, kernel="rbf", scale=2.0, bias=True, order="cyclic", seed=0)
    steps = trace.update_steps.tolist()
    player = open_player(page, f"{streamlit_server}/kernels")
    assert wait_for_player(player, 0, 0) == (0, 0)
    assert "Nothing examined yet" in player.get_by_test_id("step-text").inner_text()
    for k in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        assert wait_for_player(player, steps[k - 1], k) == (steps[k - 1], k)
    assert "a mistake" in player.get_by_test_id("step-text").inner_text()
    grid = grid_points(axis_limit(data.X, 1.0))
    k, f_grid, f_points = browser_field(player)
    assert k == 3
    np.testing.assert_allclose(f_grid, trace.decision_function(grid, upto=3), atol=1e-9)
    np.testing.assert_allclose(f_points, trace.decision_function(data.X, upto=3), atol=1e-9)
    page.keyboard.press("ArrowDown")  # one more example
    wait_for_player(player, steps[2] + 1, 3)
    page.keyboard.press("ArrowLeft")  # back undoes it
    wait_for_player(player, steps[2], 3)
    page.keyboard.press("End")
    wait_for_player(player, trace.n_examined, trace.n_updates)
    assert "Converged" in player.locator(".banner").inner_text()
    k, f_grid, _ = browser_field(player)
    np.testing.assert_allclose(f_grid, trace.decision_function(grid), atol=1e-9)
    page.keyboard.press("Home")
    wait_for_player(player, 0, 0)
    assert_no_exception(page)


def test_a_link_with_step_reopens_that_step(page, streamlit_server):
    data = make_xor(n=60, seed=2)
    trace = core_run(
        data, kernel="poly", degree=2, coef0=1.0, scale=2.0, bias=True, order="cyclic", seed=0
    )
    target = int(trace.update_steps[4])
    query = "?data=xor&n=60&data_seed=2&kernel=poly"
    player = open_player(page, f"{streamlit_server}/kernels{query}&step={target}")
    assert wait_for_player(player, target, 5) == (target, 5)
    # stepping writes the new step into the address bar; that link reopens it
    page.keyboard.press("ArrowRight")
    step = int(trace.update_steps[5])
    wait_for_player(player, step, 6)
    with new_page(page.context.browser, 1280, 900) as fresh:  # the link alone decides the step
        url, player = open_link_with_step(page, fresh, step)
        assert "kernel=poly" in url and "data=xor" in url
        assert wait_for_player(player, step, 6) == (step, 6)
        assert_no_exception(fresh)
