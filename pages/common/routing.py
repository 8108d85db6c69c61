"""Routing: every page is served through app.py's ``st.navigation``, even on a first deep link.

:func:`configure_server` (app.py's start-up hook, before the server takes a request) calls
:func:`use_app_navigation` once: a page opened by Streamlit's older multipage mode never
reaches app.py, so the switch has to be made before any session starts.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def use_app_navigation() -> None:
    """Serve this app through app.py's ``st.navigation``, even on a first deep link.

    Streamlit has two ways to make a multipage app: ``st.navigation`` (app.py) and
    an older one for a folder named ``pages/`` beside the main script, which lists
    the folder's files in the sidebar. A server chooses the old way when its first
    session opens (``PagesManager.uses_pages_directory``, set because ``pages/``
    exists) and drops it as soon as app.py calls ``st.navigation``. But if the very first request of a
    fresh server is a link such as /train, the old way runs pages/train.py without
    ever running app.py. So: switch the old way off and rerun; the rerun goes
    through app.py, whose ``st.navigation`` serves the same URL. Once off, it stays
    off for every session of the process, and this does nothing. Called before any
    session has started (from :func:`configure_server`), it switches the old way off at
    once, with no run to repeat. Needed only because the folder is named ``pages/``.
    """
    if PagesManager.uses_pages_directory is None:  # no session yet
        PagesManager.uses_pages_directory = False
    elif PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
