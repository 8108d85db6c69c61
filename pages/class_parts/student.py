"""The student's side of /class: the code is checked once, then a small browser element
(student.js, student.css) does the rest: it polls the class's JSON route, draws the question
and its options as large buttons, and posts a tap (classroom/routes.py)."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

HERE = Path(__file__).resolve().parent
_ELEMENT = None


def student_view(code: str) -> None:
    """The poll of class ``code`` (a code the store knows) as a phone shows it."""
    global _ELEMENT
    if _ELEMENT is None:
        _ELEMENT = st.components.v2.component(
            "lab_class_student", js=(HERE / "student.js").read_text(encoding="utf-8"),
            css=(HERE / "student.css").read_text(encoding="utf-8"))
    _ELEMENT(data={"code": code}, key="lab_class_student")


def join_form() -> None:
    """A code typed by hand (the QR code and the link carry it otherwise)."""
    with st.form("class_join_form", border=True):
        typed = st.text_input("Class code (6 letters and digits, on the projector)",
                              key="class_code_typed", max_chars=12)
        if st.form_submit_button("Join the class", key="class_join", type="primary"):
            st.query_params["code"] = typed.strip()
            st.query_params.pop("key", None)
            st.rerun()
