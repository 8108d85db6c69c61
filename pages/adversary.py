"""/adversary: the perceptron is optimal (Theorem 1.34). A pipeline: the game (γ, d, the
learner: in the link), its rounds (the student's buttons, or a built-in learner: one cached
core call), the certificate, then the mistakes forced on the perceptron over a sweep of γ."""

from __future__ import annotations

import dataclasses

import numpy as np
import streamlit as st

from pages.adversary_parts.settings import SETTINGS, YOU
from pages.common.guard import page_guard
from pages.common.linked_controls import PageLink
from pages.common.notation import named_result, named_results
from pages.common.page_basics import core_call, page_header, show_chart
from pages.common.question_bank import QUESTIONS_BY_PAGE, quiz
from pages.common.shown_text import shown_value
from pages.common.static_table import static_table
from perceptron_core import constructions as cx
from perceptron_core.viz import adversary as viz

TABLE_TAIL = 10  # rows of the compact table in "You" mode
FIGURE_MAX_ROUNDS = 100
MOVES_PARAM = "adv_moves"  # the student's predictions in the link, e.g. ?adv_moves=+-++-


@st.cache_data(show_spinner=False, max_entries=128, ttl=3600)
def play(gamma: float, dim: int, learner: str | tuple[int, ...]) -> cx.AdversaryResult:
    """The adversary against a built-in learner (by name) or the student's predictions (one
    per round), without the n x d examples (never shown: kilobytes cached, not 8 MB)."""
    if isinstance(learner, tuple):
        learner = cx.ScriptedLearner(learner)
    return dataclasses.replace(
        cx.adversarial_lower_bound(gamma, dim, learner), X=np.zeros((0, dim))
    )


sweep = st.cache_data(show_spinner=False, max_entries=64, ttl=3600)(viz.forced_mistakes)


class StudentThenPerceptron:
    """The student's predictions first, then the perceptron (fed the same history)."""

    def __init__(self, predictions, dim: int):
        self.student = cx.ScriptedLearner(predictions)
        self.perceptron = cx.LEARNERS["perceptron"](dim)

    def predict(self, x):
        if self.student.round < len(self.student.predictions):
            return self.student.predict(x)
        return self.perceptron.predict(x)

    def update(self, x, y):
        self.student.update(x, y)
        self.perceptron.update(x, y)


# button callbacks: they run before the script, so the page shows the new state
def predict(value: int, n: int) -> None:
    if len(st.session_state.adv_predictions) < n:
        st.session_state.adv_predictions.append(value)


def finish_with_perceptron(gamma: float, dim: int) -> None:
    learner = StudentThenPerceptron(st.session_state.adv_predictions, dim)
    try:
        result = cx.adversarial_lower_bound(gamma, dim, learner)
    except ValueError as error:
        st.session_state.adv_error = str(error)
        return
    st.session_state.adv_predictions = [int(p) for p in result.predictions]


def reset() -> None:
    st.session_state.adv_predictions = []


def student_moves(link: PageLink, gamma: float, dim: int, n: int) -> list[int]:
    """The student's predictions: from the link the first time the page opens in this
    session (a link's moves that do not fit the game are named), none whenever γ or d
    changes."""
    if not st.session_state.get("adv_moves_read"):
        st.session_state.adv_moves_read = True
        raw = link.values.get(MOVES_PARAM)
        restored = None if raw is None else viz.parse_moves(raw, n)
        if restored is not None:
            st.session_state.adv_predictions, st.session_state.adv_config = restored, (gamma, dim)
        elif raw is not None:
            link.notice(
                f"{MOVES_PARAM}={shown_value(raw)} (not a string of + and − signs, "
                f"one per round, at most n = {n}; started with no moves)"
            )
    if "adv_predictions" not in st.session_state or st.session_state.get("adv_config") != (
        gamma,
        dim,
    ):
        st.session_state.adv_predictions, st.session_state.adv_config = [], (gamma, dim)
    return list(st.session_state.adv_predictions)


def show_rounds(result: cx.AdversaryResult, tail: int | None) -> None:
    """The rounds as a table (the last ``tail`` of them, if given), labels signed; an HTML
    table (no Arrow, no data grid), a long one scrolling inside its box."""
    table = viz.rounds_columns(result.predictions, result.y)
    rows = len(table["round i"])
    caption = (
        f"Rounds 1 to {rows}: in round i the adversary shows eᵢ; the learner's "
        "prediction, then the label yᵢ it reveals, and the mistakes so far"
    )
    if tail is not None and rows > tail:
        st.caption(f"The last {tail} of {rows} rounds.")
        table = {name: column[-tail:] for name, column in table.items()}
        caption = (
            f"Rounds {rows - tail + 1} to {rows} of {rows}: in round i the adversary "
            "shows eᵢ; prediction, label yᵢ, mistakes so far"
        )
    static_table(
        table,
        caption=caption,
        tall=len(table["round i"]) > 10,
        formats={"prediction": "{:+d}", "label yᵢ": "{:+d}"},
    )


def play_yourself(gamma: float, dim: int, n: int, predictions: list[int]):
    """The student's rounds: a prompt, four buttons, the table and (at the end) the
    certificate. Returns the result so far, or None before the first move."""
    played, result = len(predictions), None
    if "adv_error" in st.session_state:
        st.error(st.session_state.pop("adv_error"), icon=":material/error:")
    st.markdown(viz.round_prompt(played, n, dim))
    buttons, over = st.columns(4), played >= n
    buttons[0].button(
        "Predict +1",
        key="predict_plus",
        icon=":material/add_circle:",
        on_click=predict,
        args=(1, n),
        disabled=over,
        width="stretch",
    )
    buttons[1].button(
        "Predict −1",
        key="predict_minus",
        icon=":material/do_not_disturb_on:",
        on_click=predict,
        args=(-1, n),
        disabled=over,
        width="stretch",
    )
    buttons[2].button(
        "Let the perceptron finish",
        key="adv_finish",
        icon=":material/fast_forward:",
        on_click=finish_with_perceptron,
        args=(gamma, dim),
        disabled=over,
        width="stretch",
        help="The perceptron plays the remaining rounds, after learning from yours.",
    )
    buttons[3].button(
        "Start again",
        key="adv_reset",
        icon=":material/restart_alt:",
        on_click=reset,
        disabled=played == 0,
        width="stretch",
    )
    if played:  # rounds 1..played need only d = played; the full game uses the chosen d
        result = core_call(play, gamma, dim if over else played, tuple(predictions))
    if result is not None:
        st.metric("Your mistakes so far", f"{result.n_mistakes} of {played} rounds")
        show_rounds(result, tail=TABLE_TAIL)
    if result is not None and over:
        st.success(viz.certificate_text(result, gamma, n, dim), icon=":material/verified:")
    elif not over:
        st.caption("The certificate w* appears once all n rounds are played.")
    return result


def watch(learner: str, gamma: float, dim: int, n: int):
    """A built-in learner plays all n rounds (cached); the table and the certificate."""
    with st.spinner("The adversary is playing..."):
        result = core_call(play, gamma, dim, learner)
    if result is not None:
        st.metric(f"Mistakes of {viz.learner_label(learner)}", f"{result.n_mistakes} of {n} rounds")
        show_rounds(result, tail=None)
        st.success(viz.certificate_text(result, gamma, n, dim), icon=":material/verified:")
    return result


def main(link: PageLink) -> None:
    page_header(":material/swords: The adversarial lower bound", viz.SUMMARY)
    link_slot = st.container(key="adv_link_slot")  # filled once every control is known
    notice_slot = st.container()  # what the link carried that the page had to ignore
    named_results(
        "Theorem 1.34",
        "eq. 1.5",
        "Theorem 1.28",
        "Algorithm 1.16",
        label="The results this page uses, one line each",
    )
    st.markdown(viz.GAME_TEXT)

    left, right, third = st.columns(3)
    with left:
        gamma = SETTINGS.draw(link, "adv_gamma")
    with right:
        dim = SETTINGS.draw(link, "adv_dim")
    n = core_call(cx.adversary_size, gamma, dim)
    if n is None:
        link.stop(notice_slot)
    third.metric(
        "Forced mistakes n = min(⌊1/γ²⌋, d)",
        n,
        help=f"{viz.rounds_text(gamma)}; d = {dim}.  \n" + named_result("Theorem 1.34"),
    )
    learner = SETTINGS.draw(link, "adv_learner")
    predictions = student_moves(link, gamma, dim, n)
    link.report(notice_slot)
    moves = link.write(MOVES_PARAM, viz.moves_text(predictions if learner == YOU else []))
    with link_slot:
        link.copy_control("adv_copy_link", {MOVES_PARAM: moves} if moves else None)

    st.header("The rounds")
    result = (
        play_yourself(gamma, dim, n, predictions)
        if learner == YOU
        else watch(learner, gamma, dim, n)
    )
    if result is not None and 0 < result.predictions.size <= FIGURE_MAX_ROUNDS:
        show_chart(viz.rounds_figure(result.predictions, result.y), key="adv_rounds_chart")

    st.header("Forced mistakes against the perceptron's bound")
    st.markdown(viz.SWEEP_TEXT)
    swept = core_call(sweep, dim)
    if swept is not None:
        show_chart(
            viz.forced_mistakes_figure(*swept, dim, current=(gamma, n)), key="adv_forced_chart"
        )
        st.markdown(viz.forced_mistakes_text(dim))


page_link = PageLink()  # before any widget reads the URL
with page_guard("adversary"):
    main(page_link)
    quiz(QUESTIONS_BY_PAGE["adversary"])
