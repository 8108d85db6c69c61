"""Check your understanding: one quiz helper for every page. Answers are not controls
of the view: they stay out of the link."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st



@dataclass(frozen=True)
class QuizQuestion:
    """One multiple-choice question; ``why`` is shown as soon as any option is chosen."""

    key: str
    question: str
    options: tuple[str, ...]
    answer: str
    why: str


def quiz(questions, caption: str = "Pick an answer: the explanation appears right away. "
                                   "Answers are not part of the link to this view.") -> None:
    """A "Check your understanding" section: each question numbered in a bordered box;
    a right answer gets "Right." and the reasoning, a wrong one the right answer and
    the reasoning."""
    st.header("Check your understanding")
    st.caption(caption)
    for number, item in enumerate(questions, start=1):
        with st.container(border=True):
            chosen = st.radio(f"**{number}.** {item.question}", item.options, index=None,
                              key=item.key)
            if chosen == item.answer:
                st.success(f"**Right.** {item.why}", icon=":material/check_circle:")
            elif chosen is not None:
                st.info(f"**Not quite: {item.answer[:1].lower()}{item.answer[1:]}.** "
                        f"{item.why}", icon=":material/lightbulb:")
    from pages.common.study_path import checkpoint  # the study path's mark (in the browser)

    checkpoint(questions)
