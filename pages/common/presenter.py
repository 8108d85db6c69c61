"""Presenter mode (``?present=1`` or the toggle app.py draws): no sidebar, larger type;
the prose the lecturer says is left out."""

from __future__ import annotations

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


def prose(text: str) -> None:
    """Explanatory Markdown, left out on the presenter stage (the lecturer says it)."""
    if not presenting():
        st.markdown(text)


def about_this_page(summary: str) -> None:
    """On the presenter stage, the summary the header left out, in a closed expander."""
    if presenting():
        with st.expander("About this page"):
            st.markdown(summary)
