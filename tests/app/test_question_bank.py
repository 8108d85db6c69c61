"""Issue 24: every page's "Check your understanding" questions, one bank.

The bank's shape (2-4 questions a page, unique keys, the answer among short options); the
mathematical claims of right answers checked with the core over many seeds; "Predict the
next step" against an independent plain loop (tests/reference_perceptron.py) over many
/train views, the last step of a finished run included; and each page shows its own set.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from app_helpers import open_page
from reference_perceptron import reference_perceptron

from pages.common.question_bank import (
    PREDICT_PREFIX,
    QUESTIONS_BY_PAGE,
    predict_next_step_question,
    question_by_key,
)
from pages.train_parts.runs import run_from_link
from perceptron_core import constructions as cx
from perceptron_core import make_separable, run_perceptron
from perceptron_core.multiclass import one_vs_all, one_vs_one

#: the pages with a quiz (the live class page /class has none of its own)
PAGES = [
    "train",
    "bound",
    "aggressive",
    "adversary",
    "kernels",
    "multiclass",
    "relaxation",
    "generalisation",
]


# ---------------------------------------------------------------------------
# The bank
# ---------------------------------------------------------------------------


def test_every_page_has_two_to_four_questions_with_unique_keys():
    assert set(QUESTIONS_BY_PAGE) == set(PAGES)
    keys = [q.key for questions in QUESTIONS_BY_PAGE.values() for q in questions]
    assert len(keys) == len(set(keys))
    for page, questions in QUESTIONS_BY_PAGE.items():
        assert 2 <= len(questions) <= 4, page
        for q in questions:
            assert question_by_key(q.key) is q
            assert 2 <= len(q.options) <= 5 and len(set(q.options)) == len(q.options), q.key
            assert q.answer in q.options, q.key
            assert all(len(option) <= 60 for option in q.options), q.key  # a tap target
            assert len(q.why) > 150, q.key  # an explanation, not a verdict
    with pytest.raises(KeyError):
        question_by_key("no_such_question")


# ---------------------------------------------------------------------------
# Right answers that are mathematical claims, checked with the core
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_scaling_every_x_by_10_leaves_the_updates_unchanged_through_the_origin(seed):
    assert question_by_key("bound_quiz_scale").answer == "It does not change"
    rng = np.random.default_rng(seed)
    data = make_separable(
        n=int(rng.integers(5, 80)),
        margin=float(rng.uniform(0.02, 0.3)),
        dim=int(rng.integers(2, 6)),
        seed=seed,
        through_origin=True,
    )
    order = ["cyclic", "permuted", "random"][seed % 3]
    plain = run_perceptron(data.X, data.y, bias=False, order=order, seed=seed)
    scaled = run_perceptron(10 * np.asarray(data.X), data.y, bias=False, order=order, seed=seed)
    assert plain.converged and scaled.converged
    assert plain.n_updates == scaled.n_updates
    assert np.array_equal(plain.update_indices, scaled.update_indices)


@pytest.mark.parametrize("T", [1, 2, 7, 60, 500])
def test_exercise_1_20_sequence_is_a_mistake_every_time(T):
    sequence = cx.always_wrong_sequence(T)
    t = np.arange(1, T + 1)
    x = np.asarray(sequence.x)
    # the question's closed form: example t scores -2(t - 1)^2 under the running sums
    scores = x * np.concatenate([[0.0], np.cumsum(x)[:-1]]) + (t - 1)
    assert np.allclose(scores, -2.0 * (t - 1) ** 2)
    assert np.all(sequence.mistakes)


@pytest.mark.parametrize("gamma, dim, forced", [(0.25, 100, 16), (0.25, 5, 5), (0.3, 50, 11)])
def test_the_adversary_forces_min_of_floor_1_over_gamma_squared_and_d(gamma, dim, forced):
    assert cx.adversary_size(gamma, dim) == forced
    rng = np.random.default_rng(int(gamma * 100) + dim)
    for _ in range(20):  # any labels: w* = γ·y scores each e_i exactly γ, with ‖w*‖ ≤ 1
        y = rng.choice([-1.0, 1.0], size=forced)
        w_star = gamma * y
        assert np.linalg.norm(w_star) <= 1 + 1e-12
        assert np.allclose(y * (np.eye(forced) @ w_star), gamma)
    assert question_by_key("adversary_quiz_count").answer == "16"


XOR = (np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]), np.array([1, 1, -1, -1]))


@pytest.mark.parametrize("seed", range(10))
def test_xor_needs_more_than_a_line_and_degree_two_separates_it(seed):
    from perceptron_core import kernel_perceptron

    X, y = XOR
    order = ["cyclic", "permuted", "random"][seed % 3]
    linear = run_perceptron(X, y, bias=True, order=order, seed=seed, max_epochs=300)
    assert not linear.converged
    scale, coef0 = 0.5 + seed / 4, seed % 3
    poly = kernel_perceptron(
        X,
        y,
        kernel="poly",
        degree=2,
        coef0=float(coef0),
        scale=scale,
        bias=True,
        order=order,
        seed=seed,
    )
    assert poly.converged


@pytest.mark.parametrize("k", range(3, 7))
def test_one_vs_all_trains_k_and_one_vs_one_k_choose_2(k):
    X, labels = np.random.default_rng(k).normal(size=(12 * k, 2)), np.repeat(np.arange(k), 12)
    assert one_vs_all(X, labels, max_epochs=3).n_perceptrons == k
    assert one_vs_one(X, labels, max_epochs=3).n_perceptrons == k * (k - 1) // 2


def test_the_middle_class_alone_has_no_separating_line():
    X = np.array([[-2.0, 0.0], [0.0, 0.0], [2.0, 0.0]])
    for middle, converges in ((0, True), (1, False), (2, True)):  # A, B, C vs rest
        y = np.where(np.arange(3) == middle, 1, -1)
        assert run_perceptron(X, y, bias=True, max_epochs=200).converged == converges


@pytest.mark.parametrize("seed", range(30))
def test_relaxation_moves_land_on_the_line_or_its_mirror_and_never_move_away(seed):
    rng = np.random.default_rng(seed)
    a, w, z = rng.normal(size=2), rng.normal(size=2) * 3, rng.normal(size=2)
    c = float(a @ z) + abs(rng.normal())  # z is a solution of a·w ≤ c
    if a @ w <= c:
        w = w + a * ((c - a @ w) / (a @ a) + 1.0)  # make w violate it
    projection = w - (a @ w - c) / (a @ a) * a
    for eta in (0.5, 1.0, 1.5, 2.0):
        moved = (1 - eta) * w + eta * projection
        assert np.linalg.norm(moved - z) <= np.linalg.norm(w - z) + 1e-9
        if eta == 1.0:
            assert np.isclose(a @ moved, c)
        if eta == 2.0:
            assert np.isclose(a @ moved - c, -(a @ w - c))
    on_line = projection  # a solution on the line: η > 2 moves away from it
    beyond = (1 - 2.5) * w + 2.5 * projection
    assert np.linalg.norm(beyond - on_line) > np.linalg.norm(w - on_line)


def test_the_perceptrons_system_is_minus_y_x_and_minus_delta():
    from perceptron_core.relaxation import perceptron_system

    X, y = np.random.default_rng(3).normal(size=(9, 2)), np.array([1, -1] * 4 + [1])
    A, c = perceptron_system(X, y, bias=False, delta=0.3)
    assert np.allclose(A, (-y[:, None] * X).T) and np.allclose(c, -0.3)
    assert question_by_key("relaxation_quiz_perceptron").answer == "aᵢ = −yᵢxᵢ and cᵢ = −δ"


# ---------------------------------------------------------------------------
# Predict the next step
# ---------------------------------------------------------------------------


def _views(count: int):
    rng = np.random.default_rng(2024)
    for _ in range(count):
        view = {
            "n": str(int(rng.integers(2, 40))),
            "margin": f"{rng.uniform(0.02, 0.4):.2f}",
            "data_seed": str(int(rng.integers(0, 500))),
            "bias": str(bool(rng.random() < 0.7)).lower(),
            "delta": ["0", "0", "0.5"][int(rng.integers(3))],
            "order": ["cyclic", "permuted", "random"][int(rng.integers(3))],
            "order_seed": str(int(rng.integers(0, 50))),
            "noise": ["0", "0", "0.2"][int(rng.integers(3))],
        }
        yield view


@pytest.mark.slow
@pytest.mark.parametrize("view", list(_views(25)), ids=lambda v: "-".join(v.values()))
def test_predict_next_step_agrees_with_a_plain_loop_at_every_step(view):
    settings, X, y, trace, _ = run_from_link(view)
    ref = reference_perceptron(
        X,
        y,
        bias=settings["bias"],
        delta=settings["delta"],
        order=settings["order"],
        seed=settings["order_seed"],
        max_updates=5_000,
        max_epochs=500,
    )
    assert ref.n_examined == trace.n_examined
    updated_at = set(int(s) for s in ref.update_steps)
    steps = sorted({0, trace.n_examined - 1, *range(0, trace.n_examined, 7)})
    for shown in steps:
        q = predict_next_step_question(dict(view, step=str(shown)))
        nxt = shown + 1
        assert q.answer == (q.options[0] if nxt in updated_at else q.options[1])
        # examples are numbered from 1 (x_1 .. x_n): the number is the row index + 1, and
        # the x the question shows is that row of X
        said = re.search(r"examines example (\d+): x = \(([^,]+), ([^)]+)\),", q.question)
        assert said and int(said[1]) == int(ref.examined[nxt - 1]) + 1, q.question
        shown_x = [float(v.replace("−", "-")) for v in said.group(2, 3)]
        np.testing.assert_allclose(shown_x, X[int(said[1]) - 1], atol=0.006)
        assert ("the update test fires" in q.why) == (nxt in updated_at)
        assert q.key.startswith(PREDICT_PREFIX)
        assert predict_next_step_question(dict(view, step=str(shown))).key == q.key
    with pytest.raises(ValueError, match="has ended"):  # the last step: nothing comes next
        predict_next_step_question(dict(view, step=str(trace.n_examined)))


def test_the_key_names_the_view():
    base = {"n": "20", "margin": "0.2", "step": "3"}
    same = {"step": "3", "margin": "0.20", "n": "20", "speed": "fast"}  # same view
    keys = {predict_next_step_question(v).key for v in (base, same)}
    assert len(keys) == 1
    others = [dict(base, step="4"), dict(base, order_seed="1"), dict(base, bias="false")]
    assert len({predict_next_step_question(v).key for v in others} | keys) == 4


def test_an_uploaded_view_cannot_be_rebuilt():
    with pytest.raises(ValueError, match="uploaded"):
        predict_next_step_question({"source": "upload", "step": "1"})


def test_a_drawn_view_is_rebuilt_from_its_points():
    q = predict_next_step_question({"source": "draw", "points": "0.5,0.5,1", "step": "0"})
    assert q.answer == "Yes, an update"  # from w = 0 the first look is a mistake (score 0)
    with pytest.raises(ValueError, match="ended"):  # one point: one update, then done
        predict_next_step_question({"source": "draw", "points": "0.5,0.5,1", "step": "2"})


def test_link_rules_match_what_train_widgets_take():
    """The link parsing of pages/train_parts/runs.py against /train's own widgets."""
    link = {
        "n": "17",
        "margin": "0.23",
        "data_seed": "11",
        "bias": "false",
        "delta": "0.4",
        "order": "permuted",
        "init": "random",
        "order_seed": "5",
        "balance": "0.7",
        "noise": "9",
        "through_origin": "true",
    }  # noise=9 is out of range: the default
    at = open_page("pages/train.py", link)
    settings = run_from_link(link)[0]
    for key in (
        "n",
        "margin",
        "data_seed",
        "bias",
        "delta",
        "order",
        "init",
        "order_seed",
        "balance",
        "noise",
        "through_origin",
    ):
        assert at.session_state[key] == settings[key], key


# ---------------------------------------------------------------------------
# Each page shows its own questions
# ---------------------------------------------------------------------------


#: pages whose script is at the 200-line limit of tests/app/test_code_size.py, with other edits
#: under way: the quiz call waits for a line to be freed there (remove from here then)
NOT_YET_WIRED: set[str] = set()


@pytest.mark.parametrize(
    "page",
    [
        pytest.param(
            p,
            marks=pytest.mark.xfail(
                strict=True, reason="page at the 200-line limit: quiz call not added yet"
            ),
        )
        if p in NOT_YET_WIRED
        else p
        for p in PAGES
    ],
)
def test_each_page_shows_its_own_questions_and_explains_an_answer(page):
    at = open_page(f"pages/{page}.py")
    questions = QUESTIONS_BY_PAGE[page]
    for q in questions:
        assert tuple(at.radio(key=q.key).options) == q.options
    others = [q.key for name, qs in QUESTIONS_BY_PAGE.items() if name != page for q in qs]
    shown = {radio.key for radio in at.radio}
    assert not shown & set(others)
    first, last = questions[0], questions[-1]
    at.radio(key=first.key).set_value(first.answer).run()
    feedback = [e.value for e in (*at.success, *at.info) if first.why in e.value]
    assert not feedback  # choosing an option is not answering
    at.radio(key=first.key).set_value(first.answer)
    at.button(key=f"{first.key}_check").click().run()  # Check answers
    wrong = next(o for o in last.options if o != last.answer)
    at.radio(key=last.key).set_value(wrong)
    at.button(key=f"{last.key}_check").click().run()
    texts = [s.value for s in at.success] + [i.value for i in at.info]
    assert any(t.startswith("**Right: ") and first.why in t for t in texts)
    assert any(
        t.startswith(f"**Not quite: you chose {wrong[:1].lower()}") and last.why in t for t in texts
    )


def _checkpoint_right(at, page: str) -> int:
    """How many right answers the page sends its study-path checkpoint (the element's data)."""
    element = next(
        e for e in at.get("bidi_component") if e.proto.component_name == "lab_study_path"
    )
    data = json.loads(element.proto.json)
    assert data["page"] == page
    return data["right"]


def test_the_checkpoint_counts_the_answers_checked_not_what_a_radio_holds():
    """The checkpoint counts each question's checked answer, the one its feedback shows: a
    right answer checked counts; after a visit to another page (Streamlit forgets a radio
    it did not draw: it comes back empty) it still counts, beside its "Right" feedback;
    checking a wrong one takes it back."""
    at = open_page("pages/aggressive.py")
    questions = QUESTIONS_BY_PAGE["aggressive"]
    assert _checkpoint_right(at, "aggressive") == 0
    first = questions[0]
    at.radio(key=first.key).set_value(first.answer)
    at.button(key=f"{first.key}_check").click().run()
    assert _checkpoint_right(at, "aggressive") == 1
    at.switch_page("pages/adversary.py").run()
    at.switch_page("pages/aggressive.py").run()
    assert at.radio(key=first.key).value is None  # the radio forgot it...
    assert any(s.value.startswith("**Right: ") for s in at.success)  # ...its feedback did not
    assert _checkpoint_right(at, "aggressive") == 1
    wrong = next(o for o in first.options if o != first.answer)
    at.radio(key=first.key).set_value(wrong)
    at.button(key=f"{first.key}_check").click().run()
    assert _checkpoint_right(at, "aggressive") == 0
