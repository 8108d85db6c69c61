"""/class: the live class (issue 24). The instructor starts a class and runs polls of the
notes' questions from a link that carries a secret key; the room joins by a code, a link or a
QR code and answers on their phones; the projector counts the answers as they arrive. The
parts are in pages/class_parts/, the classes in classroom/ (in memory, or Redis under
`make serve`)."""

import streamlit as st

from classroom import ClassError, class_store, normalise_code
from pages.class_parts.instructor import instructor_view, start_control
from pages.class_parts.student import join_form, student_view
from pages.common import page_guard, page_header, prose

SUMMARY = ("Ask the room the notes' questions and see the answers arrive. Students answer on "
           "their phones with one tap; nobody gives a name.")
HOW = """
**Instructor:** press **Start a class**. The page shows a class code, a join link and its QR
code; the address of this page then holds the class's secret key, so keep it to yourself (it
runs the class from your tablet too). Pick a question, press **Open the poll**, watch the
answers come in, **Show the answers**, then **Close the poll**.

**Student:** scan the QR code, open the join link, or type the code below.
"""


def main() -> None:
    raw_code, key = st.query_params.get("code", ""), st.query_params.get("key", "")
    if not raw_code:
        page_header("Live class", SUMMARY)
        prose(HOW)
        start_control()
        join_form()
        return
    try:
        code = normalise_code(raw_code)
        class_store().public_state(code)  # a class that exists (the message says if not)
        instructor = bool(key) and class_store().is_instructor(code, key)
    except ClassError as error:
        page_header("Live class", SUMMARY)
        st.error(error.message, icon=":material/error:")
        join_form()
        return
    if instructor:
        st.title("Live class")
        instructor_view(code, key)
        return
    if key:
        st.warning("This link's key does not run this class: you see it as a student.",
                   icon=":material/key_off:")
    st.title("Live class")
    student_view(code)


with page_guard("class"):
    main()
