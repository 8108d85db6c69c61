"""The /generalisation player in real Chromium: keys step the margin perceptron in the
browser, the words name the kind of margin mistake, and a link with step= reopens it."""

from __future__ import annotations

from browser_helpers import assert_no_exception, open_player, wait_for_player

from perceptron_core import make_unit_margin, margin_perceptron


def shown_score(text: str) -> float:
    """The margin a step sentence writes after "y x·w = " (0.000 or 2.00e−4 style)."""
    number = text.split("y x·w = ", 1)[1].split(" ", 1)[0]
    return float(number.replace("−", "-"))


def default_run(n=40, margin=0.1, order_seed=0):
    data = make_unit_margin(n=n, margin=margin, dim=2, seed=0)
    return data, margin_perceptron(data.X, data.y, order="random", seed=order_seed, unit=True)


def test_keys_step_the_margin_perceptron_and_say_which_kind(page, streamlit_server):
    data, trace = default_run()
    player = open_player(page, f"{streamlit_server}/generalisation")
    steps = trace.update_steps.tolist()
    assert wait_for_player(player, 0, 0) == (0, 0)
    page.get_by_role("heading", name="1. The margin perceptron").click()  # focus the page
    for k in range(1, len(steps) + 1):
        page.keyboard.press("ArrowRight")
        wait_for_player(player, steps[k - 1], k)
        text = player.get_by_test_id("step-text").inner_text()
        index = int(trace.update_indices[k - 1]) + 1  # examples numbered from 1: x₁ … xₙ
        assert f"example {index}," in text
        score = float(trace.update_scores[k - 1])
        kind = "on the wrong side" if score <= 0 else "right side, yet inside the band"
        assert kind in text, (k, score, text)
        shown = shown_score(text)  # the number written, true beside the signs around it
        assert abs(shown - score) <= 5e-4 and (shown <= 0) == (score <= 0) and shown < 1
        if k == 6:
            break
    wrong = int((trace.update_scores[:6] <= 0).sum())
    assert player.locator('[data-counter="wrong"]').inner_text() == str(wrong)
    assert player.locator('[data-counter="close"]').inner_text() == str(6 - wrong)
    page.keyboard.press("ArrowDown")  # one more example
    wait_for_player(player, steps[5] + 1)
    page.keyboard.press("ArrowLeft")
    wait_for_player(player, steps[5], 6)
    page.keyboard.press("End")
    wait_for_player(player, trace.n_examined, trace.n_updates)
    assert "Converged after" in player.locator(".banner").inner_text()
    assert "of at most 3/γ² = 300" in player.inner_text()
    page.keyboard.press("Home")
    wait_for_player(player, 0, 0)
    assert_no_exception(page)


def test_a_link_with_step_reopens_that_step(page, streamlit_server):
    data, trace = default_run(n=60, margin=0.2, order_seed=3)
    step = int(trace.update_steps[4])
    player = open_player(
        page, f"{streamlit_server}/generalisation?n=60&margin=0.2&order_seed=3&step={step}"
    )
    assert wait_for_player(player, step, 5) == (step, 5)
    # stepping writes the new step to the address bar after a pause
    page.get_by_role("heading", name="1. The margin perceptron").click()
    page.keyboard.press("ArrowRight")
    wait_for_player(player, int(trace.update_steps[5]), 6)
    page.wait_for_function(f"() => location.search.includes('step={int(trace.update_steps[5])}')")
    assert "n=60" in page.url and "margin=0.2" in page.url
    assert_no_exception(page)
