"""Presenter mode (``?present=1`` or the toggle app.py draws): no sidebar, larger type;
the prose the lecturer says is left out, in places kept on the page (``off_stage``)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import streamlit as st

PRESENTER_CSS = """
<style>
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"] {display: none;}
header[data-testid="stHeader"] {display: none;}
html, body, [data-testid="stAppViewContainer"] {font-size: 22px;}
[data-testid="stMainBlockContainer"] {max-width: 100%; padding: 0.4rem 2rem 2rem 2rem;}
h1 {font-size: 2.4rem !important;}
</style>
"""


def presenter_mode() -> bool:
    """Whether presenter mode is on (``?present=1`` or the toggle); applies its styles."""
    present = bool(st.session_state.get("present", False))
    if present:
        st.html(PRESENTER_CSS)
    return present


def presenting() -> bool:
    """Whether the page is on the presenter stage (the toggle or ``?present=1``)."""
    return bool(st.session_state.get("present"))


@contextlib.contextmanager
def off_stage() -> Iterator[bool]:
    """A place on the page for what the presenter stage leaves out; yields whether to draw
    it (not on the stage)::

        with off_stage() as shown:
            if shown:
                page_header(title, summary)

    The place stays, empty, on the stage, so every element after it keeps its place when
    the stage is turned on or off. A widget bound to the link that moves up the page loses
    its binding in Streamlit 1.67 (the copy left at its old place is removed after the
    moved one has been bound, and takes the binding with it): its next change would then
    never reach the address bar, and the link would open another view.
    """
    with st.container():
        yield not presenting()


def prose(text: str) -> None:
    """Explanatory Markdown, left out on the presenter stage (the lecturer says it)."""
    with off_stage() as shown:
        if shown:
            st.markdown(text)


def about_this_page(summary: str) -> None:
    """On the presenter stage, the summary the header left out, in a closed expander (in
    a place kept off the stage too: see ``off_stage``)."""
    with st.container():
        if presenting():
            with st.expander("About this page"):
                st.markdown(summary)
