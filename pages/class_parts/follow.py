"""Follow the lecturer, the instructor's side (part of /class's instructor view): this
browser is handed the class (code and key, in its localStorage, by keeper.js), so every page
with a player opened in it publishes its address after each step
(pages/player/player_moves.js posts it to ``POST /class-api/view``) until **Stop publishing**;
a view pasted under "Follow the lecturer" is published as before."""

from __future__ import annotations

import streamlit as st

from classroom import ClassError, class_store
from classroom.routes import followable_pages
from pages.common.shown_text import as_code

#: how often the projector's count and bars, and the followed view, refresh (seconds; a tap
#: should show on the projector within 2)
REFRESH_SECONDS = 1.0
#: the localStorage entry the player reads (pages/player/player_moves.js, publishView), which
#: keeper.js writes and student.js reads to reopen the instructor's view
HELD_CLASS_STORAGE = "lab_class_instructor"


def publishing_controls(code: str, key: str, publishing: bool) -> None:
    """Stop publishing (the followed view clears) or publish again."""
    if publishing:
        st.markdown(
            "**Publishing:** a page with a player that you open in this browser, and "
            "each step you take there, is shown to students who follow within a second "
            "or two."
        )
    else:
        st.markdown(
            "**Not publishing:** your pages show students nothing until you publish "
            "again (a view pasted below is still published)."
        )
    label, icon = (
        ("Stop publishing", ":material/visibility_off:")
        if publishing
        else ("Publish my pages again", ":material/visibility:")
    )
    if st.button(label, key="class_publishing", icon=icon):
        try:
            class_store().set_publishing(code, key, not publishing)
        except ClassError as error:
            st.error(error.message, icon=":material/error:")
            return
        st.rerun()
    followed_view(code, key)


@st.fragment(run_every=REFRESH_SECONDS)
def followed_view(code: str, key: str) -> None:
    """The view students who follow see now (the instructor's pages change it meanwhile)."""
    try:
        view = class_store().instructor_state(code, key)["view"]
    except ClassError as error:
        st.error(error.message, icon=":material/error:")
        return
    st.caption(
        f"Students who follow see: {as_code(view)}"
        if view
        else "Students who follow see no view now."
    )


def follow_controls(code: str, key: str, view: str) -> None:
    """The view students who follow are shown (a link to a page of this app, with its step)."""
    pages = followable_pages()
    with st.form("class_follow_form", border=False):
        link = st.text_input(
            "The view you present, for students who follow (paste its link; empty to stop)",
            value=view,
            key="class_view",
        )
        if st.form_submit_button("Publish this view", key="class_publish"):
            try:
                class_store().publish_view(code, key, link, pages)
            except ClassError as error:
                st.error(error.message, icon=":material/error:")
