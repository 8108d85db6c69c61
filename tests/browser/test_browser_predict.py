"""Predict first in every player, in Chromium: a move waits for the prediction and draws
nothing until it is made; each answer gives the verdict and the reason; the score and the
longest streak over a run of right and wrong answers are what the core's trace says they
must be; /train's three candidate lines hold the run's new line exactly once; keys (never
Space or Enter on a focused control, never a letter typed in a field), taps at 390×844 and
the live region work; a link opens on the question it names; the offline export predicts."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest
from browser_helpers import (
    alert,
    assert_no_exception,
    kernels_page_run,
    new_page,
    offline_export,
    open_player,
    wait_for_player,
)
from browser_helpers import wait_for_app as wait_for_app_idle

from pages.train_parts.runs import run_from_link
from perceptron_core import (
    make_unit_margin,
    margin_perceptron,
    relaxation,
)
from perceptron_core.viz.relaxation import PRESETS, rows_to_system

pytestmark = pytest.mark.browser

TRAIN_VIEW = {"order": "random", "order_seed": "3"}


def _attr(player, name: str) -> str:
    return player.get_attribute(name) or ""


def _wait(condition, what: str, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, what
        time.sleep(0.03)
    return value


def _asked(page) -> int:
    """The step the player waits to draw: ask= in the address bar."""
    return int(parse_qs(urlsplit(page.url).query)["ask"][0])


def _candidates(player) -> list:
    return json.loads(player.locator(".predict-layer").get_attribute("data-candidates"))


def _update_letter(candidates, is_true) -> tuple[str, str]:
    """The one candidate ``is_true`` holds for (exactly one), and another one, as keys."""
    right = [c[0] for c in candidates if is_true(c)]
    assert len(right) == 1, candidates
    wrong = next(c[0] for c in candidates if c[0] != right[0])
    return right[0].lower(), wrong.lower()


#: a point of the screen where `node` (an SVG line or shape in the player's shadow root) is the
#: topmost thing a finger would touch, tried along it (a line) or over its box
TOUCH_POINT_JS = """(node) => {
  const root = node.getRootNode(), box = node.getBoundingClientRect();
  const points = [];
  if (node.tagName === 'line') {
    const m = node.getScreenCTM();
    const at = (x, y) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
    const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((n) => Number(node.getAttribute(n)));
    for (let f = 0.05; f < 1; f += 0.05) points.push(at(x1 + f * (x2 - x1), y1 + f * (y2 - y1)));
  } else {
    for (const fx of [0.5, 0.3, 0.7]) for (const fy of [0.5, 0.3, 0.7])
      points.push([box.left + fx * box.width, box.top + fy * box.height]);
  }
  return points.find(([x, y]) => { const hit = root.elementFromPoint(x, y);
                                   return hit === node || node.contains(hit); }) || null;
}"""


def tap(page, locator) -> None:
    """Tap ``locator`` with a finger where it is on top (not where another line crosses it)."""
    locator.evaluate("(node) => node.closest('svg').scrollIntoView({block: 'center'})")
    point = locator.evaluate(TOUCH_POINT_JS)
    assert point, "nowhere to tap it"
    page.touchscreen.tap(*point)


def predict_run(page, player, moves, truth, wrong_at=(1, 4, 5, 9)) -> dict:
    """Make the moves (keys), answering every question with the right key except the
    questions numbered in ``wrong_at`` (from 0); check that nothing is drawn while a question
    waits and that each answer's verdict is said with the score. ``truth(question, before,
    target)`` -> (right key, wrong key), from the core's trace. Returns the score expected."""
    score = {"right": 0, "total": 0, "streak": 0, "best": 0}
    for key in moves:
        before = int(_attr(player, "data-step"))
        page.keyboard.press(key)
        _wait(lambda: _attr(player, "data-predict-pending"), f"no question after {key}")
        target = _asked(page)
        while question := _attr(player, "data-predict-pending"):
            assert int(_attr(player, "data-step")) == before, "a step was drawn before the answer"
            right, wrong = truth(question, before, target, player)
            is_right = score["total"] not in wrong_at
            page.keyboard.press(right if is_right else wrong)
            score["total"] += 1
            score["right"] += is_right
            score["streak"] = score["streak"] + 1 if is_right else 0
            score["best"] = max(score["best"], score["streak"])
            _wait(lambda: _attr(player, "data-predict-total") == str(score["total"]), "not scored")
            verdict = player.locator(".predict-verdict:visible").first.inner_text()
            assert verdict.startswith("✓ Right" if is_right else "✗ Not quite"), verdict
        wait_for_player(player, target)
        said = f"{score['right']} of {score['total']} predicted right"
        live = _wait(lambda: player.locator(".live").inner_text(), "nothing said")
        _wait(lambda: said in player.locator(".live").inner_text(), f"live region: {live}")
        assert (
            player.get_by_test_id("predict-verdict")
            .inner_text()
            .startswith("✓ Right" if score["streak"] else "✗ Not quite")
        )
    for name, value in score.items():
        assert _attr(player, f"data-predict-{name}") == str(value), (name, score)
    shown = player.get_by_test_id("predict-score").inner_text()
    assert shown == (
        f"{score['right']} of {score['total']} predicted right · streak "
        f"{score['streak']} · longest streak {score['best']}"
    )
    return score


def train_truth(view):
    _, X, y, trace, _ = run_from_link(view)
    steps = [int(s) for s in trace.update_steps]

    def truth(question, before, target, player):
        if question == "update":
            return ("y", "n") if target in steps else ("n", "y")
        k = steps.index(target)
        new_w, new_b = trace.weights[k + 1], float(trace.biases[k + 1])
        return _update_letter(
            _candidates(player),
            lambda c: np.array_equal(c[1], new_w) and (not trace.bias or c[2] == new_b),
        )

    return trace, truth


def test_train_waits_for_each_prediction_and_scores_the_run(page, streamlit_server):
    trace, truth = train_truth(TRAIN_VIEW)
    frames: list = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: frames.append(payload)))
    player = open_player(page, f"{streamlit_server}/train?predict=1&order=random&order_seed=3")
    wait_for_player(player, 0, 0)
    page.wait_for_timeout(500)
    frames.clear()
    page.keyboard.press("ArrowDown")
    first = _wait(lambda: _attr(player, "data-predict-pending"), "no question")
    prompt = player.get_by_test_id("predict-prompt").inner_text()
    index = int(trace.indices_at_steps(np.array([1]))[0])
    assert first == "update" and re.match(
        rf"Step 1 examines example {index + 1}, x [=≈] \(", prompt
    )
    page.keyboard.press("ArrowDown")  # another move while it waits: still waiting, nothing drawn
    page.wait_for_timeout(300)
    assert wait_for_player(player)[0] == 0 and _attr(player, "data-predict-pending") == "update"
    page.keyboard.press("ArrowLeft")  # Back drops the question, scores nothing
    _wait(lambda: _attr(player, "data-predict-pending") == "", "the question stays")
    moves = [
        "ArrowDown",
        "ArrowDown",
        "ArrowRight",
        "ArrowDown",
        "ArrowRight",
        "ArrowRight",
        "ArrowDown",
        "ArrowDown",
    ]
    score = predict_run(page, player, moves, truth)
    assert 0 < score["right"] < score["total"]  # right and wrong answers both
    verdict = player.get_by_test_id("predict-verdict").inner_text()
    assert "y(w·x + b) = " in verdict and "δ = 0" in verdict  # the reason: the score against δ
    page.wait_for_timeout(800)
    assert frames == []  # every prediction in the browser: nothing sent to the server
    assert_no_exception(page)


def test_the_line_question_draws_three_lines_with_the_true_one_once(page, streamlit_server):
    """Several updates: the candidates drawn (and offered as buttons) hold the run's new
    (w, b) once; the reason writes the update's arithmetic; a wrong pick says why."""
    trace, truth = train_truth({"bias": "false", "n": "25"})
    player = open_player(page, f"{streamlit_server}/train?predict=1&bias=false&n=25")
    for k in range(4):
        page.keyboard.press("ArrowRight")
        _wait(lambda: _attr(player, "data-predict-pending") == "line", "no line question")
        candidates = _candidates(player)
        assert [c[0] for c in candidates] == ["A", "B", "C"]
        assert player.locator(".predict-options button").count() == 3
        assert player.locator(".predict-layer .predict-badge").count() == 3
        right, wrong = truth("line", 0, int(trace.update_steps[k]), player)
        page.keyboard.press(wrong if k % 2 else right)
        wait_for_player(player, int(trace.update_steps[k]), k + 1)
        verdict = player.get_by_test_id("predict-verdict").inner_text()
        assert re.search(r"w ← w \+ y·x = \(.+\) \+ \([+−]1\)·\(.+\) [=≈] \(.+\)", verdict), verdict
        assert ("✗ Not quite" in verdict) == bool(k % 2)


def kernels_truth():
    data, trace = kernels_page_run("random", 3)
    steps = [int(s) for s in trace.update_steps]

    def truth(question, before, target, player):
        if question == "update":
            return ("y", "n") if target in steps else ("n", "y")
        i = int(trace.update_indices[steps.index(target)])
        return _update_letter(_candidates(player), lambda c: c[1] == i)

    return truth


def generalisation_truth():
    data = make_unit_margin(n=40, margin=0.1, dim=2, seed=0)
    trace = margin_perceptron(data.X, data.y, order="random", seed=3, unit=True)
    steps = [int(s) for s in trace.update_steps]

    def truth(question, before, target, player):
        if target not in steps:
            return "3", "1"
        return ("1", "2") if trace.update_scores[steps.index(target)] <= 0 else ("2", "3")

    return truth


def relaxation_truth(rule):
    A, c = rows_to_system(PRESETS["narrow wedge"][0])
    trace = relaxation(A, c, eta=1.0, rule=rule, w0=np.zeros(2), seed=0, tol=0.001, max_iter=1000)

    def truth(question, before, target, player):
        i = int(trace.indices[target - 1])
        if question == "pick":
            return str(i + 1), str((i + 1) % A.shape[1] + 1)
        if question == "moves":
            return ("y", "n") if trace.moved[target - 1] else ("n", "y")
        return _update_letter(
            _candidates(player),
            lambda cand: np.allclose(cand[1], trace.iterates[target], rtol=0, atol=1e-12),
        )

    return truth


@pytest.mark.parametrize(
    "url, truth, moves",
    [
        (
            "/kernels?predict=1&order=random&order_seed=3",
            kernels_truth,
            ["ArrowDown", "ArrowRight", "ArrowDown", "ArrowDown", "ArrowRight", "ArrowDown"],
        ),
        (
            "/generalisation?predict=1&order_seed=3",
            generalisation_truth,
            [
                "ArrowDown",
                "ArrowRight",
                "ArrowDown",
                "ArrowDown",
                "ArrowRight",
                "ArrowDown",
                "ArrowRight",
            ],
        ),
        (
            "/relaxation?predict=1&system=narrow+wedge&rule=max_residual",
            lambda: relaxation_truth("max_residual"),
            ["ArrowDown", "ArrowRight", "ArrowDown", "ArrowRight"],
        ),
        (
            "/relaxation?predict=1&system=narrow+wedge&rule=randomized",
            lambda: relaxation_truth("randomized"),
            ["ArrowDown", "ArrowDown", "ArrowRight", "ArrowDown"],
        ),
    ],
    ids=["kernels", "generalisation", "relaxation-max-residual", "relaxation-randomized"],
)
def test_every_player_waits_and_scores_against_the_core(page, streamlit_server, url, truth, moves):
    player = open_player(page, streamlit_server + url)
    wait_for_player(player, 0, 0)
    page.get_by_role("heading").first.click()  # focus the page, off any control
    score = predict_run(page, player, moves, truth())
    assert 0 < score["right"] < score["total"]
    assert_no_exception(page)


def test_keys_never_take_space_enter_or_a_letter_from_another_control(page, streamlit_server):
    player = open_player(page, f"{streamlit_server}/train?predict=1")
    player.get_by_role("button", name="Next example").focus()
    page.keyboard.press("Enter")  # the focused button's own key: it asks
    _wait(lambda: _attr(player, "data-predict-pending") == "update", "no question")
    page.keyboard.press(" ")  # Space on the focused Next example: asks again, answers nothing
    player.locator('select[data-action="speed"]').focus()
    page.keyboard.press("n")  # a letter on a menu: the menu's (it searches its options)
    page.get_by_label("points n").focus()
    page.keyboard.type("y")  # typed in a field
    page.wait_for_timeout(300)
    assert _attr(player, "data-predict-total") == "0" and _attr(player, "data-step") == "0"
    no = player.locator('.predict-options button[data-option="none"]')
    no.focus()
    page.keyboard.press("Enter")  # Enter on an option presses that option
    _wait(lambda: _attr(player, "data-predict-total") == "1", "Enter did not answer")
    # step 1 from w = 0 updates: the verdict, then the line question; still nothing drawn
    assert _attr(player, "data-predict-pending") == "line" and _attr(player, "data-step") == "0"
    assert player.locator(".predict-before").inner_text().startswith("✗ Not quite: an update")


def test_touch_on_a_phone_answers_by_tapping(browser, streamlit_server):
    """390×844 by touch: the picture's tap asks, a tap on the inequality's line answers
    /relaxation's pick, a tap on a letter answers where w lands; nothing leaves the screen."""
    truth = relaxation_truth("cyclic")
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
    )
    context.set_default_timeout(120_000)
    try:
        page = context.new_page()
        player = open_player(page, f"{streamlit_server}/relaxation?predict=1&system=narrow+wedge")
        player.get_by_role("button", name="Next iteration").tap()
        _wait(lambda: _attr(player, "data-predict-pending") == "pick", "no question")
        assert player.locator(".predict-keys").inner_text() == "Tap an answer."
        width = page.evaluate("innerWidth")
        buttons = player.locator(".predict button:visible")
        assert buttons.count() == 4  # the switch and one option per inequality (3)
        for node in [player.locator(".predict"), *buttons.all()]:
            bound = node.bounding_box()
            assert bound["x"] >= 0 and bound["x"] + bound["width"] <= width + 0.5, bound
        for button in buttons.all():  # touch targets
            assert button.bounding_box()["height"] >= 44
        right, _ = truth("pick", 0, 1, player)
        tap(page, player.locator(f'.predict-hit[data-candidate="{int(right) - 1}"]'))
        _wait(lambda: _attr(player, "data-predict-total") == "1", "the tap did not answer")
        assert _attr(player, "data-predict-right") == "1"
        if _attr(player, "data-predict-pending") == "land":
            right, _ = truth("land", 0, 1, player)
            tap(page, player.locator(f'.predict-badge[data-candidate="{right.upper()}"] circle'))
        wait_for_player(player, 1)
    finally:
        context.close()


def test_a_link_opens_on_the_question_it_names(browser, streamlit_server):
    trace, truth = train_truth({})
    first = int(trace.update_steps[0])
    with new_page(browser) as page:
        player = open_player(page, f"{streamlit_server}/train?predict=1&ask=1&ask_part=line")
        _wait(lambda: _attr(player, "data-predict-pending") == "line", "not on the line question")
        assert first == 1 and wait_for_player(player)[0] == 0
    with new_page(browser) as page:
        player = open_player(page, f"{streamlit_server}/train?predict=1&step=2&ask=9")
        warned = alert(page, "ask=9").inner_text()
        assert "not the next step (3)" in warned and "waits on none" in warned
        assert _attr(player, "data-predict") == "on" and _attr(player, "data-predict-pending") == ""


def test_the_offline_export_predicts(page, streamlit_server, tmp_path: Path):
    trace, truth = train_truth({})
    with offline_export(page, streamlit_server, tmp_path) as (viewer, player):
        assert _attr(player, "data-predict") == "off"
        player.get_by_role("switch", name="Predict first").click()
        assert _attr(player, "data-predict") == "on"
        viewer.keyboard.press("ArrowDown")
        _wait(lambda: _attr(player, "data-predict-pending") == "update", "no question offline")
        assert wait_for_player(player)[0] == 0
        viewer.keyboard.press("y")  # the first example of a run from 0 always updates
        _wait(lambda: _attr(player, "data-predict-pending") == "line", "no line question offline")
        viewer.keyboard.press(truth("line", 0, 1, player)[0])
        wait_for_player(player, 1, 1)
        assert _attr(player, "data-predict-right") == "2"


def test_the_presenter_stage_keeps_the_question_on_screen(browser, streamlit_server):
    with new_page(browser, 1920, 1080) as page:
        player = open_player(page, f"{streamlit_server}/train?present=1&predict=1")
        page.wait_for_timeout(2_000)  # the stage scrolls to the top again at 50, 600, 1 500 ms
        page.keyboard.press("PageDown")  # a clicker: the next update's line
        _wait(lambda: _attr(player, "data-predict-pending") == "line", "no question")
        for part in (".predict-ask", ".predict-options", ".plane"):
            box = player.locator(part).first.bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= 1080 + 1, (part, box)


def test_a_live_class_polls_the_question_the_projector_waits_on(browser, streamlit_server):
    """The instructor's browser runs a class; its /train player on the presenter stage waits
    on the line of the first update; Predict the next step, with no link pasted, opens a poll
    of that question: the same three lines, lettered as on the projector."""
    from class_helpers import button, start_class, wait_text

    from perceptron_core.viz.predict import next_line_question

    _, X, y, trace, _ = run_from_link({})
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(60_000)
    try:
        lecture = context.new_page()
        start_class(lecture, streamlit_server)
        projector = context.new_page()
        posted: list[str] = []
        projector.on(
            "request",
            lambda r: (
                posted.append(r.post_data or "") if r.url.endswith("/class-api/view") else None
            ),
        )
        player = open_player(projector, f"{streamlit_server}/train?present=1&predict=1")
        projector.wait_for_timeout(2_000)  # the stage scrolls to the top again at 50, 600, 1 500 ms
        projector.keyboard.press("PageDown")
        _wait(lambda: _attr(player, "data-predict-pending") == "line", "no question")
        on_screen = [b.inner_text() for b in player.locator(".predict-options button").all()]
        _wait(lambda: any("ask=1" in body for body in posted), f"not published: {posted}", 15)
        lecture.bring_to_front()
        choice = lecture.locator(".st-key-class_choice input[role='combobox']")
        choice.click()
        choice.fill("Predict the next step on")  # the menu's search: one option left
        lecture.get_by_role("option", name="Predict the next step on /train").click()
        wait_for_app_idle(lecture)
        button(lecture, "Open the poll").click()
        wait_text(lecture, "The update at step 1 examines example", timeout=30_000)
        shown = lecture.locator("ul.lab-options li").all_inner_texts()
        options = next_line_question(trace, X, y, 0, 1)["options"]
        assert on_screen == list(options)  # the projector's A, B, C
        assert [text.split(". ", 1)[1] for text in shown] == list(options)
    finally:
        context.close()
