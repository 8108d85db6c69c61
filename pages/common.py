"""Streamlit helpers shared by the pages (not a page itself).

Pages stay thin: widgets, one cached call into the core, figures, layout.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def _use_app_navigation() -> None:
    """Make a deep link work on a fresh server.

    If the very first request of a server process is a link such as /train,
    Streamlit has not yet run app.py and treats this ``pages/`` folder as an
    old-style multipage folder (file names in the sidebar, no wide layout). Turn
    that mode off and rerun: the rerun goes through app.py's ``st.navigation``,
    which serves the same URL.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


_use_app_navigation()

#: Plotly config for every chart: no logo, a PNG download button at 2x for slides
PLOTLY_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}}


def show_chart(fig, key: str) -> None:
    """Render a Plotly figure full width with the shared config."""
    st.plotly_chart(fig, key=key, config=PLOTLY_CONFIG, width="stretch", theme=None)


def page_header(title: str, summary: str) -> None:
    """Title plus a one-paragraph summary of what the page shows."""
    st.title(title)
    st.markdown(summary)


def core_call(function, *args, **kwargs):
    """Call the core; on ValueError show the message and return None (page keeps going)."""
    try:
        return function(*args, **kwargs)
    except ValueError as error:
        st.error(f"{error}", icon=":material/error:")
        return None
