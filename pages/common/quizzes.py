"""Check your understanding: one quiz helper for every page. Answers are not controls
of the view: they stay out of the link.

A question answers only when the student asks it to: the options sit in a form with a
**Check** button (Enter on an option presses it too: page_access.js), so a keyboard user
can walk the options with the arrow keys and read them all first. The feedback region under
each question is there, empty, from the start, and is read out when the answer appears."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from pages.common.accessibility import live_region

#: what the section says above the questions: how to answer, by keyboard or by touch
QUIZ_CAPTION = (
    "Pick an answer, then press Check (or Enter on the answer): the explanation "
    "appears under the question. Answers are not part of the link to this view."
)


@dataclass(frozen=True)
class QuizQuestion:
    """One multiple-choice question; ``why`` is shown once an option is checked."""

    key: str
    question: str
    options: tuple[str, ...]
    answer: str
    why: str


def _checked_key(item: QuizQuestion) -> str:
    return f"{item.key}_checked"


def checked_answer(item: QuizQuestion) -> str | None:
    """The answer this session last checked for ``item`` (its Check button), "" when Check was
    pressed with no option chosen, None before the first check. An option picked and not
    checked does not count: it has had no feedback."""
    return st.session_state.get(_checked_key(item))


def _lower_first(text: str) -> str:
    return f"{text[:1].lower()}{text[1:]}"


def _feedback(item: QuizQuestion, checked: str | None) -> None:
    """What a checked answer gets: "Right." and the reasoning, or the answer chosen, the right
    one and the reasoning; nothing before the first check ("" : checked with none chosen)."""
    if checked is None:
        return
    if checked == "":
        st.caption("Pick one of the answers first, then press Check.")
    elif checked == item.answer:
        st.success(
            f"**Right: {_lower_first(item.answer)}.** {item.why}", icon=":material/check_circle:"
        )
    else:
        st.info(
            f"**Not quite: you chose {_lower_first(checked)}; the answer is "
            f"{_lower_first(item.answer)}.** {item.why}",
            icon=":material/lightbulb:",
        )


def quiz(questions, caption: str = QUIZ_CAPTION) -> None:
    """A "Check your understanding" section: each question numbered in a bordered box, its
    options in a form with a Check button, and a feedback region under it; then the page's
    checkpoint of the study path (its checked answers counted)."""
    st.header("Check your understanding")
    st.caption(caption)
    for number, item in enumerate(questions, start=1):
        checked_key = _checked_key(item)
        with st.container(border=True):
            with st.form(f"{item.key}_form", border=False, enter_to_submit=False):
                # the label is plain text: it is the options' group name a screen reader says
                chosen = st.radio(
                    f"{number}. {item.question}", item.options, index=None, key=item.key
                )
                if st.form_submit_button("Check", key=f"{item.key}_check"):
                    st.session_state[checked_key] = chosen or ""
            with live_region(f"quiz_{item.key}"):
                _feedback(item, checked_answer(item))
    from pages.common.study_path import checkpoint  # the study path's mark (in the browser)

    checkpoint(questions)
