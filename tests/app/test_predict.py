"""Predict first, without the page: /train's three candidate lines (the true update exactly
once, over many runs, in Python and in the player's JavaScript alike), which steps a link may
name as the question a player waits on, and the live class polling that very question (from
the view the projector publishes, with no link pasted)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from app_helpers import open_page

import classroom
from classroom.memory import MemoryStore
from classroom.routes import followable_pages
from pages.class_parts.questions import PREDICT, poll_for
from pages.common.question_bank import predict_next_step_question
from pages.player.predict_link import waiting_step
from pages.train_parts.runs import run_from_link
from perceptron_core import make_separable, run_perceptron
from perceptron_core.viz.predict import (
    candidate_slot,
    line_candidates,
    next_line_question,
    same_line,
)

ROOT = Path(__file__).resolve().parents[2]


def _runs():
    """Runs on which a wrong update is easy to confuse with the true one: from w = 0 (the
    first update's candidates are multiples of one another), without a bias, a random start,
    δ > 0, labels flipped, two points."""
    rng = np.random.default_rng(38)
    for seed in range(14):
        n = int(rng.integers(2, 60))
        data = make_separable(n=n, margin=float(rng.uniform(0.02, 0.3)), dim=2, seed=seed)
        y = data.y.copy()
        if seed % 4 == 3:
            y[rng.random(n) < 0.15] *= -1
        yield (
            run_perceptron(
                data.X,
                y,
                bias=seed % 3 != 0,
                delta=[0.0, 0.0, 0.5][seed % 3],
                order=["cyclic", "random"][seed % 2],
                seed=seed,
                w0=rng.normal(size=2) if seed % 5 == 4 else None,
                b0=float(rng.normal()) if seed % 5 == 4 and seed % 3 else 0.0,
                max_updates=300,
                max_epochs=50,
            ),
            data.X,
            y,
        )


def _all_candidates():
    for trace, X, y in _runs():
        for k, step in enumerate(trace.update_steps[:120]):
            nxt = trace.example_at(int(step), X, y)
            yield (
                trace,
                X,
                y,
                k,
                nxt,
                line_candidates(
                    nxt.w,
                    nxt.b,
                    X[nxt.index],
                    y[nxt.index],
                    trace.weights[k + 1],
                    trace.biases[k + 1],
                    trace.bias,
                    k,
                ),
            )


def test_the_true_update_is_among_the_candidates_exactly_once_and_no_two_are_one_line():
    slots, count = [], 0
    for trace, _, _, k, _nxt, candidates in _all_candidates():
        if candidates is None:  # w + y·x = 0: no line to offer
            assert not np.any(trace.weights[k + 1])
            continue
        count += 1
        true = {
            "w": list(trace.weights[k + 1]),
            "b": float(trace.biases[k + 1]) if trace.bias else 0.0,
        }
        assert [c["letter"] for c in candidates] == list("ABC"[: len(candidates)])
        assert len(candidates) == 3, (k, candidates)
        equal = [c for c in candidates if np.array_equal(c["w"], true["w"]) and c["b"] == true["b"]]
        assert len(equal) == 1 and equal[0]["kind"] == "true"
        # no wrong candidate draws the true line (nor one another's): each is a different line
        for i, a in enumerate(candidates):
            for c in candidates[i + 1 :]:
                assert not same_line(a, c, trace.bias), (a, c)
        if trace.bias:  # the true one carries its bias: b + y, once
            assert (
                sum(
                    c["b"] == float(trace.biases[k + 1]) and np.array_equal(c["w"], true["w"])
                    for c in candidates
                )
                == 1
            )
        slots.append([c["kind"] for c in candidates].index("true"))
    assert count > 300 and set(slots) == {0, 1, 2}  # the right letter is not always the same
    assert {candidate_slot(k) for k in range(30)} == {0, 1, 2}


def test_the_player_offers_the_same_candidates_as_python(browser):
    """predict_train.js (with the helpers it uses) gives the same three lines, in the same
    order, as perceptron_core/viz/predict.py, on every update of the runs above."""
    cases, expected = [], []
    for trace, X, y, k, nxt, candidates in _all_candidates():
        x = [float(v) for v in X[nxt.index]]
        cases.append(
            [
                list(map(float, nxt.w)),
                float(nxt.b),
                x,
                int(y[nxt.index]),
                {"w": list(map(float, trace.weights[k + 1])), "b": float(trace.biases[k + 1])},
                bool(trace.bias),
                k,
            ]
        )
        expected.append(
            None
            if candidates is None
            else [[c["letter"], c["kind"], c["w"], c["b"]] for c in candidates]
        )
    script = "\n".join(
        (ROOT / "pages/player" / name).read_text()
        for name in ("player.js", "player_predict.js", "scene_common.js", "predict_train.js")
    )
    context = browser.new_context(bypass_csp=True)
    try:
        page = context.new_page()
        page.set_content("<html><body></body></html>")
        page.add_script_tag(content=script + "\nwindow.candidates = trainCandidates;")
        shown = page.evaluate(
            """(cases) => cases.map(([w, b, x, y, next, bias, k]) => {
            const found = window.candidates(w, b, x, y, next, bias, k);
            return found && found.map((c) => [c.letter, c.kind, c.w, c.b]); })""",
            cases,
        )
    finally:
        context.close()
    assert shown == expected


def test_a_link_may_wait_on_the_next_step_or_the_next_update_only():
    steps = [3, 7, 8]
    assert waiting_step(0, steps, 10, 1) is None and waiting_step(0, steps, 10, 3) is None
    assert waiting_step(3, steps, 10, 4) is None and waiting_step(3, steps, 10, 7) is None
    assert waiting_step(7, steps, 10, 8) is None  # the next step is the next update
    assert "not the next step (2) or the next update (3)" in waiting_step(1, steps, 10, 5)
    assert "not the next step (10)" in waiting_step(9, steps, 10, 4)
    assert "ended" in waiting_step(10, steps, 10, 11)


@pytest.mark.parametrize(
    "view",
    [
        {"order": "random", "order_seed": "3"},
        {"bias": "false", "n": "25"},
        {"delta": "0.5", "data_seed": "11"},
    ],
    ids=["random", "no-bias", "delta"],
)
def test_the_poll_asks_the_question_the_player_waits_on(view):
    """ask=<the next step> asks whether it updates (the bank's question of that view);
    ask_part=line on an update, or ask=<the next update further on>, asks for the line: the
    options are the three candidates, the right one the run's new (w, b)."""
    _, X, y, trace, _ = run_from_link(view)
    steps = [int(s) for s in trace.update_steps]
    shown = max(steps[1], steps[2] - 1)  # a step between two updates, or just before one
    plain = predict_next_step_question(dict(view, step=str(shown)))
    asked = predict_next_step_question(dict(view, step=str(shown), ask=str(shown + 1)))
    assert (asked.question, asked.answer) == (plain.question, plain.answer)
    assert asked.key != plain.key  # another question of the same view
    target = next(s for s in steps if s > shown)
    line = predict_next_step_question(dict(view, step=str(shown), ask=str(target), ask_part="line"))
    texts = next_line_question(trace, X, y, shown, target)
    assert (line.options, line.answer) == (texts["options"], texts["answer"])
    right = next(c for c in texts["candidates"] if line.answer.startswith(c["letter"] + ":"))
    k = steps.index(target)
    assert np.array_equal(right["w"], trace.weights[k + 1])
    if trace.bias:
        assert right["b"] == trace.biases[k + 1]
    assert f"the update at step {target:,}" in line.question.lower()
    with pytest.raises(ValueError, match="not the next step"):
        predict_next_step_question(dict(view, step=str(shown), ask=str(target + 5)))
    passing = next(s for s in range(trace.n_examined) if s + 1 not in steps)
    with pytest.raises(ValueError, match="makes no update"):  # no line to ask about there
        predict_next_step_question(
            dict(view, step=str(passing), ask=str(passing + 1), ask_part="line")
        )


@pytest.fixture
def store(monkeypatch):
    chosen = MemoryStore()
    monkeypatch.setattr(classroom, "_STORE", chosen)
    return chosen


def test_open_the_poll_asks_what_the_projector_waits_on_with_no_link_pasted(store):
    """The instructor's browser published the projector's /train view (its player waits on
    the line of step 1): Predict the next step with an empty link polls that question."""
    new = store.create()
    view = "/train?predict=1&ask=1&ask_part=line"
    store.publish_view(new.code, new.key, view, followable_pages())
    at = open_page("pages/class.py", {"code": new.code, "key": new.key})
    at.selectbox(key="class_choice").set_value(PREDICT).run()
    at.button(key="class_open").click().run()
    assert not at.exception and not at.error
    poll = store.instructor_state(new.code, new.key)["poll"]
    expected = poll_for(PREDICT, view)
    assert poll["question"] == expected["question"] and poll["options"] == expected["options"]
    assert poll["question"].startswith("Step 0 is on screen. The update at step 1")
    assert [o[:2] for o in poll["options"]] == ["A:", "B:", "C:"]


def test_open_the_poll_with_nothing_published_says_what_to_do(store):
    new = store.create()
    store.set_publishing(new.code, new.key, False)
    at = open_page("pages/class.py", {"code": new.code, "key": new.key})
    at.selectbox(key="class_choice").set_value(PREDICT).run()
    at.button(key="class_open").click().run()
    assert any("No view to predict" in e.value for e in at.error)
    assert store.instructor_state(new.code, new.key)["poll"] is None
