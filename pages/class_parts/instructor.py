"""The instructor's side of /class: Start a class, the join link and its QR code, the poll's
buttons, the view to follow, and the projector's live count.

Following: the instructor's view hands this browser the class (code and key, in its
localStorage, by a small element with no picture); from then on every page with a player opened
in this browser publishes its address after each step (pages/player/player_moves.js posts it to
``POST /class-api/view``), until **Stop publishing**. A view pasted under "Follow the lecturer"
is published as before.

The instructor's link is ``/class?code=CODE&key=KEY``: the key is in the address only (never
drawn on the page), so the projector shows the join link and the code, and the same link
runs the class from a second device. The count refreshes in a fragment every second: one
small rerun for the projector's session, none for the students'.
"""

from __future__ import annotations

import html
from urllib.parse import urlsplit

import segno
import streamlit as st

from classroom import ClassError, class_store
from pages.class_parts import questions
from pages.class_parts.follow import (REFRESH_SECONDS, follow_controls, hold_class,
                                      publishing_controls)

_QR_CSS = """<style>
.lab-qr img {width: min(62vh, 100%); max-width: 520px; height: auto; image-rendering: pixelated;
  background: #fff; display: block;}
.lab-code {font-size: 3.2rem; font-weight: 700; letter-spacing: 0.2em; margin: 0;}
</style>"""


def start_control() -> None:
    """The button that starts a class and opens its instructor link (code and key)."""
    if st.button("Start a class", key="class_start", type="primary",
                 icon=":material/co_present:"):
        try:
            new = class_store().create()
        except ClassError as error:
            st.error(error.message, icon=":material/error:")
            return
        st.query_params.update(code=new.code, key=new.key)
        st.rerun()


def join_url(code: str) -> str:
    """The students' link, on the address the instructor's browser reached the app by."""
    parts = urlsplit(st.context.url or "")
    origin = f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""
    return f"{origin}/class?code={code}"


def join_panel(code: str) -> None:
    """The code, the join link and its QR code (segno, an inline SVG: no CDN)."""
    url = join_url(code)
    qr = segno.make(url, error="m").svg_data_uri(scale=1, border=4)
    st.html(_QR_CSS + f'<p class="lab-code" aria-label="Class code {" ".join(code)}">{code}</p>'
            f'<div class="lab-qr"><img src="{qr}" alt="QR code of the join link {html.escape(url)}">'
            "</div>")
    st.markdown(f"Join at **{url}**")


def poll_controls(code: str, key: str, poll: dict | None) -> None:
    """Pick a question; Open the poll, Show the answers, Close the poll."""
    labels = questions.choices()
    choice = st.selectbox("Question", list(labels), format_func=labels.get, key="class_choice")
    link = ""
    if choice == questions.PREDICT:
        link = st.text_input("Link of the /train view you have open", key="class_train_link",
                             placeholder="/train?data=…&step=4")
    live = poll is not None and poll["status"] == "open"
    with st.container(horizontal=True, key="class_buttons"):
        opened = st.button("Open the poll", key="class_open", type="primary")
        shown = st.button("Show the answers", key="class_reveal",
                          disabled=poll is None or poll["revealed"])
        closed = st.button("Close the poll", key="class_close", disabled=not live)
    store = class_store()
    try:
        if opened:
            store.open_poll(code, key, questions.poll_for(choice, link))
        elif shown:
            store.reveal(code, key)
        elif closed:
            store.close(code, key)
    except ClassError as error:
        st.error(error.message, icon=":material/error:")
        return
    if opened or shown or closed:
        st.rerun()


@st.fragment(run_every=REFRESH_SECONDS)
def projector(code: str, key: str) -> None:
    """The poll as the hall sees it: "N answers", a bar that fills, the answers once shown."""
    try:
        state = class_store().instructor_state(code, key)
    except ClassError as error:
        st.error(error.message, icon=":material/error:")
        return
    poll = state["poll"]
    if poll is None:
        st.info("No poll yet: pick a question and press **Open the poll**.",
                icon=":material/how_to_vote:")
        return
    total = poll["total"]
    status = {"open": "Poll open", "closed": "Poll closed"}[poll["status"]]
    st.header(f"{total} answer{'' if total == 1 else 's'} · {status}", anchor=False)
    st.subheader(poll["question"], anchor=False)
    if not poll["revealed"]:
        for letter, option in zip("ABCDEFGH", poll["options"]):
            st.markdown(f"**{letter}.** {option}")
        joined = max(state["joined"], total)
        st.progress(total / joined if joined else 0.0,
                    text=f"{total} of {joined} joined have answered; who chose what stays "
                         "hidden until you press Show the answers")
        return
    for index, (letter, option) in enumerate(zip("ABCDEFGH", poll["options"])):
        count = poll["counts"][index]
        right = " ✓ right answer" if index == poll["answer"] else ""
        share = count / total if total else 0.0
        st.progress(share, text=f"**{letter}.** {option}: {count} ({share:.0%}){right}")
    st.success(f"**Right answer: {poll['options'][poll['answer']]}.** {poll['why']}",
               icon=":material/check_circle:")


def instructor_view(code: str, key: str) -> None:
    """Everything the instructor's link shows."""
    state = class_store().instructor_state(code, key)
    hold_class(code, key)
    left, right = st.columns([2, 3], gap="large")
    with left:
        join_panel(code)
    with right:
        projector(code, key)
        poll_controls(code, key, state["poll"])
        with st.expander("Follow the lecturer", icon=":material/visibility:"):
            publishing_controls(code, key, state["publishing"])
            follow_controls(code, key, state["view"])
    st.caption("Keep this page's address to yourself: its key runs the class (it also works "
               "on your tablet). Students join with the code or the QR code.")
