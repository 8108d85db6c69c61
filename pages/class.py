"""/class: the live class. The instructor starts a class and runs polls of the notes'
questions; the browser that started it keeps its secret key (never in the address bar the
projector shows); the room joins by a code, a link or a QR code and answers on their phones;
the projector counts the answers as they arrive. The parts are in pages/class_parts/, the
classes in classroom/ (in memory, or Redis under `make serve`)."""

import streamlit as st

from classroom import ClassError, class_store, normalise_code
from pages.class_parts.instructor import instructor_view, start_control
from pages.class_parts.keeper import kept_key
from pages.class_parts.student import join_form, student_view
from pages.common.guard import page_guard
from pages.common.page_basics import page_header
from pages.common.presenter import prose

SUMMARY = (
    "Ask the room the notes' questions and see the answers arrive. Students answer on "
    "their phones (a tap, a click or the keyboard); nobody gives a name."
)
HOW = """
**Instructor:** press **Start a class**. The page shows a class code, a join link and its QR
code. This browser keeps the class's secret key (it is never shown): reload the page and it is
still yours; **Copy the instructor link** runs the class from your tablet too. Pick a question,
press **Open the poll**, watch the answers come in, **Close the poll**, and **Show the
answers**. For peer instruction, hide the result, let the room discuss, and press **Vote
again**: both votes are then shown side by side.

**Student:** scan the QR code, open the join link, or type the code below.
"""


def main() -> None:
    raw_code = st.query_params.get("code", "")
    if not raw_code:
        page_header("Live class", SUMMARY)
        prose(HOW)
        start_control()
        join_form()
        return
    try:
        code = normalise_code(raw_code)
        class_store().public_state(code)  # a class that exists (the message says if not)
        key = kept_key(code)
    except ClassError as error:
        page_header("Live class", SUMMARY)
        st.error(error.message, icon=":material/error:")
        join_form()
        return
    if key:
        instructor_view(code, key)
        return
    st.title("Live class")
    student_view(code)


with page_guard("class"):
    main()
