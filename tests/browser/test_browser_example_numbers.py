"""Examples are numbered from 1 on every stepping page (issue 22), as the notes write
x₁, …, xₙ: the players' step sentences, /kernels' αᵢ and K(xᵢ, x), /relaxation's
inequality numbers, and what the live region and the picture's aria-label say.

Each page is opened with a shuffled order (so the example examined at step t is not
simply t), stepped one example at a time, and every sentence is read back: its example
number must be the core's examined index + 1 for that step (the core runs the same
settings here, independently of the browser), and the x it shows must be that row of X.
"Step 0" stays: steps count examples examined, they are not example numbers.
"""

from __future__ import annotations

import re
import time

import numpy as np
from browser_helpers import assert_no_exception, kernels_page_run, open_player, wait_for_player

from pages.train_parts.runs import run_from_link
from perceptron_core import (
    make_unit_margin,
    margin_perceptron,
    relaxation,
)
from perceptron_core.viz.relaxation import PRESETS, rows_to_system

#: examples stepped through on each page
STEPS = 14
SENTENCE = re.compile(r"^Step ([\d,]+): example (\d+), x ([=≈]) \(([^,]+), ([^)]+)\)")
SUBSCRIPT = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


def number(text: str) -> float:
    return float(text.replace("−", "-"))


def said_after_move(player, sentence: str) -> tuple[str, str]:
    """The live region's text once it says ``sentence`` (it is written a moment after
    the move), and the picture's aria-label."""
    live = player.locator('[role="status"][aria-live="polite"]')
    deadline = time.monotonic() + 10
    picture = player.locator("svg.plane")
    while sentence not in live.inner_text() or sentence not in picture.get_attribute("aria-label"):
        assert time.monotonic() < deadline, (live.inner_text(), sentence)
        time.sleep(0.03)
    return live.inner_text(), picture.get_attribute("aria-label")


def step_through(page, player, X, indices, check_more=None):
    """Press ↓ STEPS times; at every step t the sentence names example indices[t-1] + 1
    with its x, and the live region and the picture's text say the same sentence."""
    text = player.get_by_test_id("step-text").inner_text()
    assert text.startswith("Nothing examined yet"), text
    for t in range(1, STEPS + 1):
        page.keyboard.press("ArrowDown")
        wait_for_player(player, t)
        text = player.get_by_test_id("step-text").inner_text()
        said = SENTENCE.match(text)
        assert said, text
        assert int(said[1].replace(",", "")) == t  # the step: a count, from 1 here
        assert int(said[2]) == int(indices[t - 1]) + 1, (t, text)
        shown = [number(said[4]), number(said[5])]
        if said[3] == "=":  # "=" only where the digits are the stored coordinates
            assert shown == X[int(said[2]) - 1].tolist(), (t, text)
        np.testing.assert_allclose(shown, X[int(said[2]) - 1], atol=0.006)
        live, picture = said_after_move(player, text)
        assert f"example {said[2]}," in live and f"example {said[2]}," in picture
        if check_more:
            check_more(t, text, int(said[2]))


def test_train_numbers_examples_from_one(page, streamlit_server):
    _, X, _, trace, _ = run_from_link({"order": "random", "order_seed": "3"})
    indices = trace.indices_at_steps(np.arange(1, STEPS + 1))
    assert np.any(indices != np.arange(STEPS) % len(X))  # a shuffled order, not step − 1
    player = open_player(page, f"{streamlit_server}/train?order=random&order_seed=3")
    wait_for_player(player, 0, 0)
    page.get_by_role("heading").first.click()  # focus the page, off any control
    step_through(page, player, X, indices)
    assert_no_exception(page)


def test_kernels_numbers_examples_and_alphas_from_one(page, streamlit_server):
    data, trace = kernels_page_run("random", 3)
    indices = trace.indices_at_steps(np.arange(1, STEPS + 1))
    updated_at = set(trace.update_steps.tolist())
    assert updated_at & set(range(1, STEPS + 1))  # some α is raised on the way

    def alpha_is_the_examples(t, text, shown):
        if t not in updated_at:
            assert "correct, no update" in text and "α" not in text
            return
        alpha = re.search(r"α([₀-₉]+) ← α([₀-₉]+) \+ 1 = (\d+)", text)
        kernel = re.search(r"y·K\(x([₀-₉]+), x\)", text)
        assert alpha and kernel, text
        assert {alpha[1], alpha[2], kernel[1]} == {
            str(shown).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))
        }
        assert int(alpha[1].translate(SUBSCRIPT)) == shown
        # α of example `shown` counts its updates up to and including this step
        k = int(np.searchsorted(trace.update_steps, t, side="right"))
        assert int(alpha[3]) == int(np.count_nonzero(trace.update_indices[:k] == shown - 1))

    player = open_player(page, f"{streamlit_server}/kernels?order=random&order_seed=3")
    wait_for_player(player, 0, 0)
    page.get_by_role("heading").first.click()
    step_through(page, player, data.X, indices, alpha_is_the_examples)
    assert_no_exception(page)


def test_generalisation_numbers_examples_from_one(page, streamlit_server):
    data = make_unit_margin(n=40, margin=0.1, dim=2, seed=0)
    trace = margin_perceptron(data.X, data.y, order="random", seed=3)
    indices = trace.indices_at_steps(np.arange(1, STEPS + 1))
    player = open_player(page, f"{streamlit_server}/generalisation?order_seed=3")
    wait_for_player(player, 0, 0)
    page.get_by_role("heading", name="1. The margin perceptron").click()
    step_through(page, player, data.X, indices)
    assert_no_exception(page)


def test_relaxation_numbers_inequalities_from_one(page, streamlit_server):
    A, c = rows_to_system(PRESETS["thin sliver"][0])
    trace = relaxation(
        A, c, eta=1.0, rule="randomized", w0=np.zeros(2), seed=0, tol=0.001, max_iter=1000, tau=10
    )
    player = open_player(page, f"{streamlit_server}/relaxation?system=thin+sliver&rule=randomized")
    wait_for_player(player, 0, 0)
    page.get_by_role("heading").first.click()
    steps = min(STEPS, trace.n_iter)
    assert len(set(trace.indices[:steps].tolist())) > 1  # the rule picks more than one row
    for t in range(1, steps + 1):
        page.keyboard.press("ArrowDown")
        wait_for_player(player, t)
        text = player.get_by_test_id("step-text").inner_text()
        said = re.match(r"^Iteration ([\d,]+): the rule picks inequality \((\d+)\), ", text)
        assert said and int(said[1]) == t, text
        assert int(said[2]) == int(trace.indices[t - 1]) + 1, (t, text)
        live, picture = said_after_move(player, text)
        assert f"inequality ({said[2]})" in live and f"inequality ({said[2]})" in picture
    assert_no_exception(page)
