"""The student's side of /class: the code is checked once, then a small browser element
(student_follow.js and student.js, student.css) does the rest: it polls the class's JSON route,
draws the question and its options as large buttons, and posts a tap (classroom/routes.py).

The same element recognises the instructor's own browser (it holds this class's key): it
hands the key back instead of joining, and the page becomes the instructor's view."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from pages.class_parts.follow import HELD_CLASS_STORAGE
from pages.class_parts.keeper import refused, take_offered_key

HERE = Path(__file__).resolve().parent
_ELEMENT = None


def student_view(code: str) -> None:
    """The poll of class ``code`` (a code the store knows) as a phone shows it."""
    global _ELEMENT
    if _ELEMENT is None:
        js = "\n".join(
            (HERE / name).read_text(encoding="utf-8")
            for name in ("student_follow.js", "student.js")
        )
        _ELEMENT = st.components.v2.component(
            "lab_class_student", js=js, css=(HERE / "student.css").read_text(encoding="utf-8")
        )
    if refused(code):
        st.warning(
            "The instructor's key this browser kept does not run this class: you see it "
            "as a student.",
            icon=":material/key_off:",
        )
    result = _ELEMENT(
        data={"code": code, "held": HELD_CLASS_STORAGE, "refused": refused(code)},
        key="lab_class_student",
        on_instructor_change=lambda: None,
    )
    take_offered_key(code, result.instructor)


def join_form() -> None:
    """A code typed by hand (the QR code and the link carry it otherwise)."""
    with st.form("class_join_form", border=True):
        typed = st.text_input(
            "Class code (6 letters and digits, on the projector)",
            key="class_code_typed",
            max_chars=12,
        )
        if st.form_submit_button("Join the class", key="class_join", type="primary"):
            st.query_params["code"] = typed.strip()
            st.query_params.pop("key", None)
            st.rerun()
