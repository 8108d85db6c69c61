"""The instructor's side of /class: Start a class, the join link and its QR code, joining, the
poll (projector.py), the view to follow (follow.py), and the key kept off the projector
(keeper.py).

The join link is on an address phones reach (classroom.join_link): an instructor who opened
this page on 127.0.0.1 or localhost gets this machine's network address in the link and the
QR code, and the page says so; ``PERCEPTRON_LAB_PUBLIC_URL`` sets the address outright.
"""

from __future__ import annotations

import html

import segno
import streamlit as st

from classroom import ClassError, class_store
from classroom.join_link import PUBLIC_URL_VARIABLE, JoinOrigin, join_origin
from pages.class_parts.follow import follow_controls, publishing_controls
from pages.class_parts.keeper import keeper, remember, session_client
from pages.class_parts.projector import joining_controls, poll_panel, question_picker

_QR_CSS = """<style>
.lab-qr img {width: min(46vh, 100%); max-width: 520px; height: auto; image-rendering: pixelated;
  background: #fff; display: block;}
.lab-code {font-size: 3.2rem; font-weight: 700; letter-spacing: 0.2em; margin: 0; padding: 0;
  line-height: 1.2;}
.lab-sr {position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap;}
</style>"""


def start_control() -> None:
    """The button that starts a class; the key stays in this session and this browser."""
    if st.button("Start a class", key="class_start", type="primary", icon=":material/co_present:"):
        try:
            new = class_store().create(client=session_client())
        except ClassError as error:
            st.error(error.message, icon=":material/error:")
            return
        remember(new.code, new.key)
        st.query_params["code"] = new.code
        st.query_params.pop("key", None)
        st.rerun()


def students_origin() -> JoinOrigin:
    """Where students reach this app (see classroom.join_link)."""
    return join_origin(st.context.url or "")


def _address_note(origin: JoinOrigin) -> None:
    if origin.problem:
        st.warning(origin.problem, icon=":material/warning:")
    if origin.how == "network":
        where = f" (interface {origin.interface})" if origin.interface else ""
        st.caption(
            f"You opened this page at {origin.seen_host}, which only this machine "
            f"reaches: the link and the QR code use this machine's network "
            f"address{where} instead. {PUBLIC_URL_VARIABLE} sets the address "
            "outright."
        )
    elif origin.how == "loopback":
        st.warning(
            f"This machine has no network address phones could reach: the link works "
            f"on this machine only. Set {PUBLIC_URL_VARIABLE} to the address students "
            "reach.",
            icon=":material/wifi_off:",
        )


def join_panel(code: str, origin: JoinOrigin) -> None:
    """The code, the join link and its QR code (segno, an inline SVG: no CDN)."""
    url = f"{origin.origin}/class?code={code}"
    qr = segno.make(url, error="m").svg_data_uri(scale=1, border=4)
    st.html(
        _QR_CSS + f'<h1 class="lab-code"><span class="lab-sr">Live class, code </span>'
        f'<span aria-hidden="true">{code}</span><span class="lab-sr">{" ".join(code)}'
        f'</span></h1><div class="lab-qr"><img src="{qr}" '
        f'alt="QR code of the join link {html.escape(url)}"></div>'
    )
    st.markdown(f"Join at **{url}**")


def instructor_view(code: str, key: str) -> None:
    """Everything the instructor's browser shows."""
    try:
        state = class_store().instructor_state(code, key)
    except ClassError as error:
        st.error(error.message, icon=":material/error:")
        return
    origin = students_origin()
    left, right = st.columns([2, 3], gap="large")
    with left:  # what the room needs to join, then the instructor's own controls
        join_panel(code, origin)
        question_picker()
        _address_note(origin)
        joining_controls(code, key, state)
        keeper(code, key, origin.origin)
    with right:  # the buttons above the results: both fit a 1280×720 projector
        poll_panel(code, key)
        with st.expander("Follow the lecturer", icon=":material/visibility:"):
            publishing_controls(code, key, state["publishing"])
            follow_controls(code, key, state["view"])
